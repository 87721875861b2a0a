package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"sigs.k8s.io/yaml"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/check"
)

const historyHelp = `rolloutctl history [-f FILE]... [--deployment NAME] [--revision N | --diff A..B] [-o text|json|yaml]

The revisions of a Deployment, from the live objects ('kubectl get
deploy,rs -o yaml'), offline: for each ReplicaSet the Deployment controls,
its revision, name, creation time, images, replicas and change-cause (the
kubernetes.io/change-cause annotation, <none> without it), oldest first;
the ReplicaSet whose template is the Deployment's is marked (current).
Unlike 'kubectl rollout history' it shows times and images.

--revision N prints that revision's pod template; --diff A..B the
differences between the templates of revisions A and B, as a unified diff
of their YAML (the pod-template-hash label left out). A revision the input
does not hold is an error (exit 2).
`

// changeCauseAnnotation records why a revision was made, as kubectl
// rollout history shows it.
const changeCauseAnnotation = "kubernetes.io/change-cause"

// revisionJSON is one revision in history -o json.
type revisionJSON struct {
	Revision    int64     `json:"revision"`
	ReplicaSet  string    `json:"replicaSet"`
	Created     time.Time `json:"created"`
	Images      []string  `json:"images"`
	Replicas    int32     `json:"replicas"`
	ChangeCause string    `json:"changeCause"`
	Current     bool      `json:"current"`
}

// historyJSON is history -o json.
type historyJSON struct {
	Deployment string         `json:"deployment"`
	Revisions  []revisionJSON `json:"revisions"`
	// Template is --revision's pod template; Diff is --diff's.
	Template json.RawMessage `json:"template,omitempty"`
	Diff     string          `json:"diff,omitempty"`
}

func runHistory(e *env, args []string) int {
	var (
		input    inputFlags
		outputs  outputFlags
		revision int64
		diff     string
	)
	fs := newFlagSet("history")
	input.add(fs, "", true)
	fs.Int64Var(&revision, "revision", 0, "print the pod template of revision `N`")
	fs.StringVar(&diff, "diff", "", "print the template diff between revisions `A..B`")
	outputs.addOutputs(fs, "text", "json", "yaml")
	if code := parse(e, fs, historyHelp, args); code >= 0 {
		return code
	}
	outs, err := outputs.resolve(fs)
	if err != nil {
		return fail(e, "history", err)
	}
	var from, to int64
	if diff != "" {
		a, b, ok := strings.Cut(diff, "..")
		from, err = strconv.ParseInt(a, 10, 64)
		if err == nil {
			to, err = strconv.ParseInt(b, 10, 64)
		}
		if !ok || err != nil || from <= 0 || to <= 0 {
			return fail(e, "history", fmt.Errorf("--diff %q: want two revisions A..B, such as 2..3", diff))
		}
	}
	if revision < 0 || revision > 0 && diff != "" {
		return fail(e, "history", errors.New("--revision takes a positive revision, and not with --diff"))
	}
	in, err := input.load(e, "history")
	if err != nil {
		return fail(e, "history", err)
	}
	d, err := in.Pick(input.deployment)
	if err != nil {
		return fail(e, "history", err)
	}
	h, templates, err := history(in, d)
	if err != nil {
		return fail(e, "history", err)
	}
	template := func(rev int64) (rollout.PodTemplate, error) {
		t, ok := templates[rev]
		if !ok {
			var have []string
			for _, r := range h.Revisions {
				have = append(have, strconv.FormatInt(r.Revision, 10))
			}
			return t, fmt.Errorf("%s: Deployment %s has no revision %d (revisions: %s)", in.Source(d), check.Qualified(d), rev, strings.Join(have, ", "))
		}
		return t, nil
	}
	switch {
	case revision > 0:
		t, err := template(revision)
		if err != nil {
			return fail(e, "history", err)
		}
		h.Template, _ = json.Marshal(t)
	case diff != "":
		a, err := template(from)
		if err == nil {
			var b rollout.PodTemplate
			if b, err = template(to); err == nil {
				h.Diff = unifiedDiff(fmt.Sprintf("revision %d", from), fmt.Sprintf("revision %d", to), templateYAML(withoutHash(a)), templateYAML(withoutHash(b)))
			}
		}
		if err != nil {
			return fail(e, "history", err)
		}
	}
	return writeReports(e, "history", outs, func(format string, w io.Writer) error {
		switch {
		case format != "text":
			return encodeData(format, w, h, nil)
		case diff != "":
			_, err := io.WriteString(w, h.Diff) // nothing for equal templates, as diff(1) prints
			return err
		}
		return writeHistoryText(w, h)
	})
}

// history lists the revisions of d: the ReplicaSets it controls, by
// revision, and their templates.
func history(in *check.Input, d rollout.Deployment) (historyJSON, map[int64]rollout.PodTemplate, error) {
	h := historyJSON{Deployment: check.Qualified(d), Revisions: []revisionJSON{}}
	templates := map[int64]rollout.PodTemplate{}
	var sets []rollout.ReplicaSet
	for _, rs := range in.ReplicaSetsIn(d.Namespace) {
		if controls(d, rs) {
			sets = append(sets, rs)
		}
	}
	if len(sets) == 0 {
		return h, nil, fmt.Errorf("%s: the input holds no ReplicaSet of Deployment %s: history reads the live objects, as 'kubectl get deploy,rs -o yaml' prints them", in.Source(d), check.Qualified(d))
	}
	current, _ := rollout.FindNewReplicaSet(d, sets)
	for _, rs := range sets {
		rev, err := rollout.Revision(rs)
		if err != nil {
			return h, nil, fmt.Errorf("%s: ReplicaSet %s: %w", in.Source(d), rs.Name, err)
		}
		cause := rs.Annotations[changeCauseAnnotation]
		if cause == "" {
			cause = "<none>"
		}
		h.Revisions = append(h.Revisions, revisionJSON{Revision: rev, ReplicaSet: rs.Name, Created: rs.CreationTimestamp.UTC(),
			Images: templateImages(rs.Spec.Template), Replicas: rs.Spec.Replicas, ChangeCause: cause, Current: rs.Name == current.Name})
		templates[rev] = rs.Spec.Template
	}
	slices.SortStableFunc(h.Revisions, func(a, b revisionJSON) int { return int(min(max(a.Revision-b.Revision, -1), 1)) })
	return h, templates, nil
}

func writeHistoryText(w io.Writer, h historyJSON) error {
	switch {
	case h.Template != nil:
		y, err := yaml.JSONToYAML(h.Template)
		if err != nil {
			return err
		}
		_, err = w.Write(y)
		return err
	}
	fmt.Fprintf(w, "%s\n", h.Deployment)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "REVISION\tREPLICASET\tCREATED\tREPLICAS\tIMAGES\tCHANGE-CAUSE")
	for _, r := range h.Revisions {
		rev := strconv.FormatInt(r.Revision, 10)
		if r.Current {
			rev += " (current)"
		}
		created := "<unknown>"
		if !r.Created.IsZero() {
			created = r.Created.Format(time.RFC3339)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\t%s\n", rev, r.ReplicaSet, created, r.Replicas, strings.Join(r.Images, ","), r.ChangeCause)
	}
	return tw.Flush()
}

// withoutHash returns t without its pod-template-hash label, which differs
// between any two revisions and says nothing about what changed.
func withoutHash(t rollout.PodTemplate) rollout.PodTemplate {
	t = t.DeepCopy()
	delete(t.Labels, rollout.PodTemplateHashLabel)
	return t
}

// templateYAML renders a pod template as YAML, keys sorted, one field a
// line.
func templateYAML(t rollout.PodTemplate) []string {
	j, _ := json.Marshal(t) // a template always encodes
	y, _ := yaml.JSONToYAML(j)
	return strings.SplitAfter(strings.TrimSuffix(string(y), "\n"), "\n")
}

// controls reports whether d controls rs, as the controller decides: by
// the UID of rs's controller reference.
func controls(d rollout.Deployment, rs rollout.ReplicaSet) bool {
	return rs.Namespace == d.Namespace && rollout.IsControlledBy(&rs.ObjectMeta, &d.ObjectMeta)
}

// templateImages lists the images of a pod template's init containers,
// then its containers.
func templateImages(t rollout.PodTemplate) []string {
	var out []string
	for _, c := range t.Spec.Images() {
		out = append(out, c.Image)
	}
	return out
}
