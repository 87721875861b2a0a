package strategicpatch

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"testing"

	"pgregory.net/rapid"
)

// subset draws distinct elements of pool, in a random order.
func subset(t *rapid.T, pool []string, label string) []string {
	return rapid.SliceOfNDistinct(rapid.SampledFrom(pool), 0, len(pool), rapid.ID[string]).Draw(t, label)
}

func strings2any(s []string) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}

// namedList builds a list of objects named from names, each filled by f.
func namedList(key string, names []string, f func(name string) map[string]any) []any {
	out := make([]any, len(names))
	for i, n := range names {
		o := f(n)
		o[key] = n
		out[i] = o
	}
	return out
}

// genDeployment draws a Deployment document of the shapes kubectl apply
// meets: merged lists with distinct merge keys (containers, env, ports,
// volumes, finalizers), atomic lists, maps, the retainKeys strategy, no
// nulls.
func genDeployment(t *rapid.T) map[string]any {
	spec := map[string]any{}
	if rapid.Bool().Draw(t, "replicas?") {
		spec["replicas"] = int64(rapid.IntRange(0, 5).Draw(t, "replicas"))
	}
	switch rapid.IntRange(0, 3).Draw(t, "strategy") {
	case 1:
		spec["strategy"] = map[string]any{"type": "Recreate"}
	case 2:
		spec["strategy"] = map[string]any{"type": "RollingUpdate", "rollingUpdate": map[string]any{"maxSurge": rapid.SampledFrom([]any{"25%", int64(1)}).Draw(t, "surge")}}
	}
	containers := namedList("name", subset(t, []string{"app", "sidecar", "proxy"}, "containers"), func(string) map[string]any {
		c := map[string]any{"image": rapid.SampledFrom([]string{"a:1", "a:2", "b:1"}).Draw(t, "image")}
		if env := subset(t, []string{"A", "B", "C"}, "env"); len(env) > 0 || rapid.Bool().Draw(t, "env?") {
			c["env"] = namedList("name", env, func(string) map[string]any {
				return map[string]any{"value": rapid.SampledFrom([]string{"1", "2"}).Draw(t, "value")}
			})
		}
		ports := []any{}
		for _, p := range subset(t, []string{"80", "443", "53"}, "ports") {
			n, _ := strconv.Atoi(p)
			port := map[string]any{"containerPort": int64(n)}
			if rapid.Bool().Draw(t, "protocol?") {
				port["protocol"] = "UDP"
			}
			ports = append(ports, port)
		}
		if len(ports) > 0 {
			c["ports"] = ports
		}
		if rapid.Bool().Draw(t, "resources?") {
			c["resources"] = map[string]any{"requests": map[string]any{"cpu": rapid.SampledFrom([]string{"1", "1000m", "500m"}).Draw(t, "cpu")}}
		}
		if rapid.Bool().Draw(t, "args?") {
			c["args"] = strings2any(subset(t, []string{"-a", "-b", "-c"}, "args"))
		}
		return c
	})
	podSpec := map[string]any{"containers": containers}
	if vols := subset(t, []string{"config", "data"}, "volumes"); len(vols) > 0 {
		podSpec["volumes"] = namedList("name", vols, func(n string) map[string]any {
			if rapid.Bool().Draw(t, "configMap?") {
				return map[string]any{"configMap": map[string]any{"name": n}}
			}
			return map[string]any{"emptyDir": map[string]any{}}
		})
	}
	if rapid.Bool().Draw(t, "tolerations?") {
		podSpec["tolerations"] = namedList("key", subset(t, []string{"x", "y"}, "tolerations"), func(string) map[string]any {
			return map[string]any{"operator": "Exists"}
		})
	}
	labels := map[string]any{"app": "web"}
	for _, k := range subset(t, []string{"tier", "team"}, "labels") {
		labels[k] = rapid.SampledFrom([]string{"x", "y"}).Draw(t, "label")
	}
	spec["template"] = map[string]any{"metadata": map[string]any{"labels": labels}, "spec": podSpec}
	metadata := map[string]any{"name": "web"}
	if f := subset(t, []string{"a/x", "b/y", "c/z"}, "finalizers"); len(f) > 0 {
		metadata["finalizers"] = strings2any(f)
	}
	return map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": metadata, "spec": spec}
}

func mustJSON(t *rapid.T, v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// sameDocument compares two Deployments as values, their finalizers as
// sets: upstream loses a reorder of a merged list of scalars into sorted
// order (see "finalizers reordered into sorted order" in patch_test.go).
func sameDocument(a, b []byte) bool {
	var x, y map[string]any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	for _, d := range []map[string]any{x, y} {
		if m, ok := d["metadata"].(map[string]any); ok {
			if f, ok := m["finalizers"].([]any); ok {
				sort.Slice(f, func(i, j int) bool { return f[i].(string) < f[j].(string) })
			}
		}
	}
	return reflect.DeepEqual(x, y)
}

// TestPropertyTwoWayRoundTrip checks strategic merge patch's contract:
// the two-way patch from a to b, applied to a, gives b (lists in b's
// order, finalizers as a set), for documents without nulls or repeated
// merge keys.
func TestPropertyTwoWayRoundTrip(t *testing.T) {
	s := deploymentSchema(t)
	rapid.Check(t, func(t *rapid.T) {
		a, b := mustJSON(t, genDeployment(t)), mustJSON(t, genDeployment(t))
		patch, err := CreateTwoWayMergePatch(a, b, s)
		if err != nil {
			t.Fatal(err)
		}
		got, err := StrategicMergePatch(a, patch, s)
		if err != nil {
			t.Fatal(err)
		}
		if !sameDocument(got, b) {
			t.Fatalf("a %s\nb %s\npatch %s\ngives %s", a, b, patch, got)
		}
	})
}

// TestPropertyThreeWayNoDrift checks kubectl apply's contract when nobody
// else wrote: with the live object equal to the last-applied
// configuration, applying the three-way patch gives the new manifest
// (finalizers as a set).
func TestPropertyThreeWayNoDrift(t *testing.T) {
	s := deploymentSchema(t)
	rapid.Check(t, func(t *rapid.T) {
		a, b := mustJSON(t, genDeployment(t)), mustJSON(t, genDeployment(t))
		patch, err := CreateThreeWayMergePatch(a, b, a, s, true)
		if err != nil {
			t.Fatal(err)
		}
		got, err := StrategicMergePatch(a, patch, s)
		if err != nil {
			t.Fatal(err)
		}
		if !sameDocument(got, b) {
			t.Fatalf("a %s\nb %s\npatch %s\ngives %s", a, b, patch, got)
		}
	})
}

// writeShuffled writes v as JSON with object members in a random order.
func writeShuffled(t *rapid.T, buf *bytes.Buffer, v any) {
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		keys = rapid.Permutation(keys).Draw(t, "keys")
		buf.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				buf.WriteByte(',')
			}
			buf.Write(mustJSON(t, k))
			buf.WriteByte(':')
			writeShuffled(t, buf, x[k])
		}
		buf.WriteByte('}')
	case []any:
		buf.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				buf.WriteByte(',')
			}
			writeShuffled(t, buf, e)
		}
		buf.WriteByte(']')
	default:
		buf.Write(mustJSON(t, x))
	}
}

// TestPropertyKeyOrder checks that the order of object members in the
// documents changes nothing in the patch or the patched object, and that
// the documents passed in are not modified.
func TestPropertyKeyOrder(t *testing.T) {
	s := deploymentSchema(t)
	rapid.Check(t, func(t *rapid.T) {
		docs := [3]map[string]any{genDeployment(t), genDeployment(t), genDeployment(t)}
		var sorted, shuffled [3][]byte
		for i, d := range docs {
			sorted[i] = mustJSON(t, d)
			var buf bytes.Buffer
			writeShuffled(t, &buf, d)
			shuffled[i] = buf.Bytes()
		}
		before := [3][]byte{slices.Clone(shuffled[0]), slices.Clone(shuffled[1]), slices.Clone(shuffled[2])}
		p1, err1 := CreateThreeWayMergePatch(sorted[0], sorted[1], sorted[2], s, true)
		p2, err2 := CreateThreeWayMergePatch(shuffled[0], shuffled[1], shuffled[2], s, true)
		if (err1 == nil) != (err2 == nil) || !bytes.Equal(p1, p2) {
			t.Fatalf("patches %s (%v) and %s (%v)", p1, err1, p2, err2)
		}
		r1, err1 := StrategicMergePatch(sorted[2], p1, s)
		r2, err2 := StrategicMergePatch(shuffled[2], p1, s)
		if (err1 == nil) != (err2 == nil) || !bytes.Equal(r1, r2) {
			t.Fatalf("results %s (%v) and %s (%v)", r1, err1, r2, err2)
		}
		for i := range before {
			if !bytes.Equal(before[i], shuffled[i]) {
				t.Fatalf("document %d was modified", i)
			}
		}
	})
}
