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
// all land in "default". Such an input is split by directory: each
// directory's objects are an input of their own (a part), checked with
// the policy objects of that directory only, and the same Deployment in
// two directories is checked in each. Within one directory, an object
// given again is left out, with a note: the first counts.

// split returns the input of docs split by directory, or nil when they
// are all in one directory. problems are those of reading the files.
func split(name string, docs []manifest.Document, opts LoadOptions, problems []Finding) *Input {
	var dirs []string
	byDir := map[string][]manifest.Document{}
	for _, d := range docs {
		dir := filepath.Dir(d.Source)
		if d.Source == manifest.Stdin {
			dir = manifest.Stdin
		}
		if _, ok := byDir[dir]; !ok {
			dirs = append(dirs, dir)
		}
		byDir[dir] = append(byDir[dir], d)
	}
	if len(dirs) < 2 {
		return nil
	}
	in := &Input{names: name, problems: problems, skipped: map[string]int{}}
	where := map[string][]string{} // "Kind namespace/name" -> the directories that hold it
	var keys []string
	for _, dir := range dirs {
		d := decode(dir, byDir[dir], opts)
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
	for _, key := range keys {
		if ds := where[key]; len(ds) > 1 {
			in.loadNotes = append(in.loadNotes, fmt.Sprintf("%s is in %d directories (%s): each is checked with the objects of its own directory",
				key, len(ds), strings.Join(ds, ", ")))
		}
	}
	return in
}

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
