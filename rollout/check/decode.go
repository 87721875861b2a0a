package check

import (
	"fmt"
	"maps"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/rolloutmath/rolloutmath/internal/schema"
	"github.com/rolloutmath/rolloutmath/internal/workers"
	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/manifest"
)

// decoding is a Input input on its way, with its problems and the kinds
// it skipped.
type decoding struct {
	Input
	problems []Finding
	skipped  map[string]int
	repeated []repeat
}

// A repeat is an object the documents give again, of a kind, namespace
// and name given before.
type repeat struct {
	key          string // "Kind namespace/name"
	first, again manifest.Document
}

// ownership says whether decode may change the documents it decodes.
type ownership bool

const (
	borrowed ownership = false // the caller's: decode leaves them as they are
	owned    ownership = true  // decode's: it packs each once decoded
)

// decode decodes docs, the caller's, as decodeDocs does.
func decode(names string, docs []manifest.Document, opts LoadOptions) decoding {
	return decodeDocs(names, docs, opts, borrowed)
}

// decodeDocs decodes docs several at once and gathers them in order, with
// every problem: documents rollout.Decode refuses, and objects the API
// server would refuse. An object of the kind, namespace and name of one
// before is left out, and listed in repeated. With owned docs, decode
// replaces each document with its lean form, packed (manifest.Packer), as
// soon as it is decoded, so that neither the JSON converted from YAML nor
// the input's text is all in memory beside the objects decoded from it.
func decodeDocs(names string, docs []manifest.Document, opts LoadOptions, own ownership) decoding {
	skipValidation := opts.SkipValidation
	type result struct {
		objs     rollout.Objects
		err      error
		policy   decodedPolicy
		problems []Finding // of a policy object
		placed   []placedPod
		kept     manifest.Document // the document packed, when owned
	}
	results := make([]result, 0, len(docs))
	// One table for the strings of every workload decoded, one for those
	// of the policy objects: the objects of an input repeat names, labels
	// and the values of defaults.
	strs, policyStrs := &rollout.StringTable{}, &schema.StringTable{}
	// Owned documents are packed once decoded (see manifest.Packer),
	// against the first: what the input keeps of each is its place, and
	// its text for the lines of findings, in a tenth of its size when the
	// documents are alike.
	var packer *manifest.Packer
	if own == owned && len(docs) > 0 {
		packer = manifest.NewPacker(docs[0])
	}
	decodeOne := func(i int64) result {
		doc, err := withJSON(docs[i]) // a lean document converts again
		if err != nil {
			return result{err: err}
		}
		if f, missing := missingAPIVersion(doc); missing {
			return result{problems: []Finding{f}}
		}
		ns, f, refused := namespaceOf(doc, opts.Namespace)
		if refused {
			return result{problems: []Finding{f}}
		}
		if slices.Contains(policyKinds, doc.Kind) {
			p, problems := decodePolicy(doc, ns, opts.Version, policyStrs, packer)
			return result{policy: p, problems: problems}
		}
		o, err := doc.DecodeWith(rollout.DecodeOptions{Validate: !skipValidation, Version: opts.Version, Strings: strs, Compact: true})
		if ns != "" {
			o = inNamespace(o, ns)
		}
		var placed []placedPod
		if err == nil && len(o.Pods) > 0 {
			placed = placedPods(doc, ns, opts.Version)
		}
		return result{objs: o, err: err, placed: placed}
	}
	workers.InOrder(int64(len(docs)), runtime.GOMAXPROCS(0), func(i int64) result {
		r := decodeOne(i)
		if packer != nil {
			r.kept = packer.Pack(docs[i]) // decoded: its JSON is no longer needed
		}
		return r
	}, func(i int64, r result) bool {
		if packer != nil {
			docs[i] = r.kept
		}
		results = append(results, r)
		return true
	})

	d := decoding{Input: Input{names: names, policy: map[string]*nsPolicy{}}, skipped: map[string]int{}}
	deployments := 0
	for _, r := range results {
		deployments += len(r.objs.Deployments)
	}
	if deployments > 0 { // made once: a Deployment is large
		d.objs.Deployments = make([]rollout.Deployment, 0, deployments)
		d.where = make([]manifest.Document, 0, deployments)
	}
	seen := map[string]manifest.Document{} // kind/namespace/name -> where first
	for i, doc := range docs {
		r := results[i]
		if r.err != nil {
			d.problems = append(d.problems, errorFindings(doc.Source, r.err)...)
			continue
		}
		unique := func(kind, ns, name string) bool {
			key := kind + "/" + ns + "/" + name
			if first, dup := seen[key]; dup {
				d.repeated = append(d.repeated, repeat{fmt.Sprintf("%s %s/%s", kind, ns, name), first, doc})
				return false
			}
			seen[key] = doc
			return true
		}
		if p := r.policy; p.add != nil || len(r.problems) > 0 {
			d.problems = append(d.problems, r.problems...)
			if p.add != nil && unique(p.kind, p.namespace, p.name) {
				d.skipped[p.kind]++ // not a workload, but found
				if d.policy[p.namespace] == nil {
					d.policy[p.namespace] = &nsPolicy{}
				}
				p.add(d.policy[p.namespace])
			}
			continue
		}
		switch doc.Kind {
		case "Deployment", "ReplicaSet", "Pod":
		default:
			d.skipped[doc.Kind]++
		}
		for _, dep := range r.objs.Deployments {
			if !unique("Deployment", dep.Namespace, dep.Name) {
				continue
			}
			d.objs.Deployments = append(d.objs.Deployments, dep)
			d.where = append(d.where, doc.Lean()) // its place, not its JSON
		}
		for _, rs := range r.objs.ReplicaSets {
			if !unique("ReplicaSet", rs.Namespace, rs.Name) {
				continue
			}
			d.objs.ReplicaSets = append(d.objs.ReplicaSets, rs)
		}
		for _, p := range r.objs.Pods {
			if unique("Pod", p.Namespace, p.Name) {
				d.objs.Pods = append(d.objs.Pods, p)
				for _, b := range r.placed {
					if b.namespace == p.Namespace && b.name == p.Name {
						if d.policy[b.namespace] == nil {
							d.policy[b.namespace] = &nsPolicy{}
						}
						d.policy[b.namespace].placed = append(d.policy[b.namespace].placed, b)
					}
				}
			}
		}
	}
	return d
}

// found says what an input without Deployments held.
func (d decoding) found() string {
	parts := []string{fmt.Sprintf("found %d ReplicaSets", len(d.objs.ReplicaSets)), fmt.Sprintf("%d Pods", len(d.objs.Pods))}
	for _, k := range slices.Sorted(maps.Keys(d.skipped)) {
		name := k
		if !kindName.MatchString(k) {
			name = strconv.Quote(k) // a kind no API has, perhaps with a line break
		}
		parts = append(parts, fmt.Sprintf("%d %s", d.skipped[k], name))
	}
	return strings.Join(parts, ", ")
}

// kindName is what the kinds of the Kubernetes API look like.
var kindName = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9]*$`)

// notes says what in holds that a check does not check: the kinds of
// object other than Deployments, ReplicaSets, Pods and the policy kinds,
// and no Deployment at all (when no document was refused).
func (in *Input) notes() []string {
	notes := slices.Clone(in.loadNotes)
	var kinds []string
	for _, k := range slices.Sorted(maps.Keys(in.skipped)) {
		if slices.Contains(policyKinds, k) {
			continue
		}
		name := k
		if !kindName.MatchString(k) {
			name = strconv.Quote(k)
		}
		kinds = append(kinds, fmt.Sprintf("%d %s", in.skipped[k], name))
	}
	if len(kinds) > 0 {
		notes = append(notes, "not checked (only Deployments roll out here): "+strings.Join(kinds, ", "))
	}
	if len(in.objs.Deployments) == 0 && len(in.problems) == 0 {
		notes = append(notes, fmt.Sprintf("%s: no Deployment to check (%s)", in.names, in.Found()))
	}
	return notes
}
