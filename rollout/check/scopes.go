package check

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/manifest"
)

// Repositories name an object in several places: an overlay per
// environment, a base and its variant, manifests without a namespace that
// all land in "default", a directory of examples. Such an input is split
// by directory, and a directory that names an object twice by file: each
// part's objects are an input of their own, checked with the policy
// objects of that part only, and the same Deployment in two parts is
// checked in each. Within one file, an object given again is left out,
// with a note: the first counts.

// A group is the documents of a part of the input, and its name.
type group struct {
	name string
	docs []manifest.Document
}

// groupBy groups docs by key, in the order of each key's first document.
func groupBy(docs []manifest.Document, key func(manifest.Document) string) []group {
	var out []group
	at := map[string]int{}
	for _, d := range docs {
		k := key(d)
		i, ok := at[k]
		if !ok {
			i = len(out)
			at[k] = i
			out = append(out, group{name: k})
		}
		out[i].docs = append(out[i].docs, d)
	}
	return out
}

// split returns the input of docs split by directory, and by file in a
// directory that names an object twice, or nil when that makes one part.
// problems are those of reading the files.
func split(name string, docs []manifest.Document, opts LoadOptions, problems []Finding) *Input {
	dirs := groupBy(docs, func(d manifest.Document) string {
		if d.Source == manifest.Stdin {
			return manifest.Stdin
		}
		return filepath.Dir(d.Source)
	})
	var groups []group
	var decoded []decoding
	for _, g := range dirs {
		d := decode(g.name, g.docs, opts)
		if len(d.repeated) == 0 {
			groups, decoded = append(groups, g), append(decoded, d)
			continue
		}
		for _, f := range groupBy(g.docs, func(d manifest.Document) string { return d.Source }) {
			groups, decoded = append(groups, f), append(decoded, decode(f.name, f.docs, opts))
		}
	}
	if len(groups) < 2 {
		return nil
	}
	in := &Input{names: name, problems: problems, skipped: map[string]int{}}
	where := map[string][]string{} // "Kind namespace/name" -> the parts that hold it
	var keys []string
	for k, g := range groups {
		dir, d := g.name, decoded[k]
		part := d.Input
		part.skipped = d.skipped
		part.makeIndex()
		in.parts = append(in.parts, &part)
		in.objs.Deployments = append(in.objs.Deployments, part.objs.Deployments...)
		in.objs.ReplicaSets = append(in.objs.ReplicaSets, part.objs.ReplicaSets...)
		in.objs.Pods = append(in.objs.Pods, part.objs.Pods...)
		in.where = append(in.where, part.where...)
		in.problems = append(in.problems, d.problems...)
		in.loadNotes = append(in.loadNotes, repeatNotes(d.repeated)...)
		for k, n := range d.skipped {
			in.skipped[k] += n
		}
		if part.latest.After(in.latest) {
			in.latest = part.latest
		}
		for _, key := range objectKeys(part) {
			if _, ok := where[key]; !ok {
				keys = append(keys, key)
			}
			where[key] = append(where[key], dir)
		}
	}
	for _, p := range in.parts {
		p.latest = in.latest // one start for every simulation
	}
	var repeated []string
	for _, key := range keys {
		if ds := where[key]; len(ds) > 1 {
			repeated = append(repeated, fmt.Sprintf("%s is in %d places (%s)", key, len(ds), strings.Join(ds, ", ")))
		}
	}
	const each = "each is checked with the objects of its own directory (or file, where the directory names it twice)"
	switch {
	case len(repeated) > maxRepeatNotes:
		for _, r := range repeated[:maxRepeatNotes-1] {
			in.loadNotes = append(in.loadNotes, r+": "+each)
		}
		in.loadNotes = append(in.loadNotes, fmt.Sprintf("and %d more Deployments in several places: %s", len(repeated)-maxRepeatNotes+1, each))
	default:
		for _, r := range repeated {
			in.loadNotes = append(in.loadNotes, r+": "+each)
		}
	}
	return in
}

// maxRepeatNotes is the most notes a split input gives of the objects it
// holds in several places: the last one counts the rest.
const maxRepeatNotes = 10

// objectKeys lists the Deployments and policy objects of a part as
// "Kind namespace/name", in input order.
func objectKeys(in Input) []string {
	var out []string
	for _, d := range in.objs.Deployments {
		out = append(out, "Deployment "+d.Namespace+"/"+d.Name)
	}
	return out
}

// repeatNotes words the objects given again within one directory.
func repeatNotes(rs []repeat) []string {
	var out []string
	for _, r := range rs {
		out = append(out, fmt.Sprintf("%s: %s: given again (first at %s): the first counts", r.again, r.key, r.first))
	}
	return out
}

// leaf returns the part of in that holds d (the first, if several do),
// or in itself when it is not split.
func (in *Input) leaf(d rollout.Deployment) *Input {
	if len(in.parts) == 0 {
		return in
	}
	for _, p := range in.parts {
		if _, ok := p.index[d.Namespace+"/"+d.Name]; ok {
			return p
		}
	}
	return in.parts[0]
}

// leaves returns the parts of in, or in itself when it is not split.
func (in *Input) leaves() []*Input {
	if len(in.parts) == 0 {
		return []*Input{in}
	}
	return slices.Clone(in.parts)
}
