package main

import (
	"errors"
	"fmt"
	"maps"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/rolloutmath/rolloutmath/internal/workers"
	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/manifest"
)

// decoding is a loaded input on its way, with its problems and the kinds
// it skipped.
type decoding struct {
	loaded
	problems []string
	skipped  map[string]int
}

// decode decodes docs several at once and gathers them in order, with
// every problem: documents rollout.Decode refuses, two objects of the same
// kind, namespace and name, and objects the API server would refuse.
func decode(names string, docs []manifest.Document, skipValidation bool, v rollout.Version) decoding {
	type result struct {
		objs     rollout.Objects
		err      error
		policy   decodedPolicy
		problems []string // of a policy object
	}
	results := make([]result, 0, len(docs))
	workers.InOrder(int64(len(docs)), runtime.GOMAXPROCS(0), func(i int64) result {
		if slices.Contains(policyKinds, docs[i].Kind) {
			p, problems := decodePolicy(docs[i], v)
			return result{policy: p, problems: problems}
		}
		o, err := docs[i].DecodeWith(rollout.DecodeOptions{Validate: !skipValidation, Version: v})
		return result{objs: o, err: err}
	}, func(_ int64, r result) bool {
		results = append(results, r)
		return true
	})

	d := decoding{loaded: loaded{names: names, policy: map[string]*nsPolicy{}}, skipped: map[string]int{}}
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
			d.problems = append(d.problems, lines(r.err)...)
			continue
		}
		unique := func(kind, ns, name string) bool {
			key := kind + "/" + ns + "/" + name
			if first, dup := seen[key]; dup {
				d.problems = append(d.problems, fmt.Sprintf("%s: %s %s/%s: also at %s: an object is given once", doc, kind, ns, name, first))
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
			if !skipValidation {
				d.problems = append(d.problems, atFields(doc, fmt.Sprintf("Deployment %q: ", dep.Name), rollout.Validate(dep))...)
			}
			d.objs.Deployments = append(d.objs.Deployments, dep)
			d.where = append(d.where, doc)
		}
		for _, rs := range r.objs.ReplicaSets {
			if !unique("ReplicaSet", rs.Namespace, rs.Name) {
				continue
			}
			if !skipValidation {
				d.problems = append(d.problems, atFields(doc, "", rollout.ValidateReplicaSet(rs))...)
			}
			d.objs.ReplicaSets = append(d.objs.ReplicaSets, rs)
		}
		for _, p := range r.objs.Pods {
			if unique("Pod", p.Namespace, p.Name) {
				d.objs.Pods = append(d.objs.Pods, p)
			}
		}
	}
	return d
}

// atFields gives one line per problem of err, each at the line of the
// field it is about (a *rollout.FieldError), or else at doc.
func atFields(doc manifest.Document, prefix string, err error) []string {
	if err == nil {
		return nil
	}
	errs := []error{err}
	if joined, ok := err.(interface{ Unwrap() []error }); ok {
		errs = joined.Unwrap()
	}
	var out []string
	for _, e := range errs {
		at := doc
		var fe *rollout.FieldError
		if errors.As(e, &fe) {
			at.Line, _ = doc.FieldLine(fe.Field)
		}
		for _, l := range lines(e) {
			out = append(out, fmt.Sprintf("%s: %s%s", at, prefix, l))
		}
	}
	return out
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
