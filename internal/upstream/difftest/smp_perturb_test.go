package difftest

import (
	"sort"
	"strings"
)

// A node is one value inside a document, with where it sits: a member
// of an object (key) or an element of a list (index).
type node struct {
	parent any // map[string]any or []any
	key    string
	index  int
	value  any
}

// nodes lists every value under v, depth first, objects' members in key
// order.
func nodes(v any) []node {
	var out []node
	var walk func(v any)
	walk = func(v any) {
		switch t := v.(type) {
		case map[string]any:
			keys := make([]string, 0, len(t))
			for k := range t {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				out = append(out, node{parent: t, key: k, value: t[k]})
				walk(t[k])
			}
		case []any:
			for i, x := range t {
				out = append(out, node{parent: t, index: i, value: x})
				walk(x)
			}
		}
	}
	walk(v)
	return out
}

func (n node) set(v any) {
	switch p := n.parent.(type) {
	case map[string]any:
		p[n.key] = v
	case []any:
		p[n.index] = v
	}
}

// randomObject is the document or one of the objects inside it.
func (g *mgen) randomObject(d doc) map[string]any {
	objs := []map[string]any{d}
	for _, n := range nodes(map[string]any(d)) {
		if m, ok := n.value.(map[string]any); ok {
			objs = append(objs, m)
		}
	}
	return objs[g.r.Intn(len(objs))]
}

// randomList is a list inside the document, as its parent object and key.
func (g *mgen) randomList(d doc) (map[string]any, string, bool) {
	var parents []map[string]any
	var keys []string
	for _, n := range nodes(map[string]any(d)) {
		if _, ok := n.value.([]any); ok {
			if m, ok := n.parent.(map[string]any); ok {
				parents, keys = append(parents, m), append(keys, n.key)
			}
		}
	}
	if len(parents) == 0 {
		return nil, "", false
	}
	i := g.r.Intn(len(parents))
	return parents[i], keys[i], true
}

// oddValue is a value of a random JSON type.
func (g *mgen) oddValue() any {
	switch g.r.Intn(8) {
	case 0:
		return nil
	case 1:
		return g.str("x", "", "delete", "replace")
	case 2:
		return int64(g.r.Intn(3))
	case 3:
		return 1.5
	case 4:
		return true
	case 5:
		return []any{}
	case 6:
		return []any{obj{"name": "app"}, "x"}
	}
	return obj{}
}

// mergeKeyGuess is a member that could be a list's merge key.
func (g *mgen) mergeKeyGuess() string {
	return g.str("name", "name", "containerPort", "mountPath", "ip", "topologyKey", "uid")
}

// perturbPatch makes one change a hand-written (or hostile) patch could
// have: directives in odd places, order lists that disagree with the
// patch, retainKeys lists that leave keys out, deletion lists, nulls,
// values of other types.
func (g *mgen) perturbPatch(d doc) {
	m := g.randomObject(d)
	switch g.r.Intn(12) {
	case 0:
		m["$patch"] = g.str("replace", "delete", "merge", "bogus")
	case 1:
		var keys []any
		for k := range m {
			if g.chance(0.7) {
				keys = append(keys, k)
			}
		}
		sort.Slice(keys, func(i, j int) bool { return keys[i].(string) < keys[j].(string) })
		if g.chance(0.2) {
			keys = append(keys, g.str("other", "name"))
		}
		if g.chance(0.1) {
			m["$retainKeys"] = g.oddValue()
		} else {
			m["$retainKeys"] = keys
		}
	case 2, 3:
		parent, key, ok := g.randomList(d)
		if !ok || strings.HasPrefix(key, "$") {
			return
		}
		list := parent[key].([]any)
		var order []any
		mk := g.mergeKeyGuess()
		for _, e := range list {
			if em, ok := e.(map[string]any); ok {
				if v, ok := em[mk]; ok {
					order = append(order, obj{mk: v})
				}
			} else if g.chance(0.9) {
				order = append(order, e)
			}
		}
		g.r.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		if g.chance(0.3) {
			order = append(order, obj{mk: g.str("extra", "app")})
		}
		parent["$setElementOrder/"+key] = order
	case 4:
		parent, key, ok := g.randomList(d)
		if !ok {
			return
		}
		list := parent[key].([]any)
		el := obj{g.mergeKeyGuess(): g.str("app", "sidecar", "A")}
		switch g.r.Intn(4) {
		case 0:
			el["$patch"] = "delete"
		case 1:
			el["$patch"] = "replace"
		case 2:
			el["$patch"] = g.str("merge", "bogus")
		}
		parent[key] = append([]any{el}, list...)
	case 5:
		target := g.str("finalizers", "containers", "args", "env", "tolerations")
		m["$deleteFromPrimitiveList/"+target] = []any{g.str(finalizerNames...), g.str("app", "x")}
		if g.chance(0.2) {
			m["$deleteFromPrimitiveList/"+target] = g.oddValue()
		}
	case 6:
		m[g.str("$deleteFromPrimitiveList", "$setElementOrder", "$setElementOrderX/env", "$deleteFromPrimitiveListX/finalizers")] = []any{"x"}
	case 7, 8:
		ns := nodes(m)
		if len(ns) > 0 {
			ns[g.r.Intn(len(ns))].set(g.oddValue())
		}
	case 9:
		parent, key, ok := g.randomList(d)
		if ok {
			l := parent[key].([]any)
			g.r.Shuffle(len(l), func(i, j int) { l[i], l[j] = l[j], l[i] })
		}
	case 10:
		parent, key, ok := g.randomList(d)
		if ok {
			parent[key] = append([]any{g.pick(nil, "x", obj{"name": obj{"a": "b"}}, []any{"nested"})}, parent[key].([]any)...)
		}
	default:
		m[g.str("spec", "metadata", "template", "containers", "env", "replicas", "unknownField")] = g.oddValue()
	}
}

// perturbDocument makes one odd change to a manifest or live object, for
// the error paths: a merge key missing or of another type, a list where
// an object goes, directives written by hand.
func (g *mgen) perturbDocument(d doc) {
	c := g.randomElem(d, containersPath)
	switch g.r.Intn(6) {
	case 0:
		if c != "" {
			d.del(c + ".name")
		}
	case 1:
		if c != "" {
			d.set(c+".name", g.pick(int64(7), obj{"a": "b"}, []any{"x"}, nil))
		}
	case 2:
		if c != "" {
			d.set(c+".$patch", g.str("delete", "replace"))
		}
	case 3:
		d.set(g.str("spec.template.spec", "spec.strategy", "metadata.labels", "spec.selector"), g.pick([]any{"x"}, "x", int64(1), obj{"unknown": []any{int64(1)}}))
	case 4:
		g.perturbPatch(d)
	default:
		if c != "" {
			d.set(c+".ports", []any{obj{"containerPort": g.pick(obj{"x": int64(1)}, []any{}, "80")}, obj{"containerPort": int64(80)}})
		}
	}
}
