package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/check"
	"github.com/rolloutmath/rolloutmath/rollout/sim"
)

// streamCase is a document holding a run's steps, as the commands'
// reports hold them.
type streamCase struct {
	name  string
	steps []sim.Step
	title string
	wrap  func(j *simJSON) (any, *stepList)
}

// doc is the case's document, holding the run res from s with the
// case's steps, and the step list in it.
func (c streamCase) doc(s rollout.State, res sim.Result) (any, *stepList) {
	res.Steps = c.steps
	j := newSimJSON(c.title, s, res)
	return c.wrap(&j)
}

// streamCases gives the documents TestStreamedStepsAsMarshaled and
// TestStreamedStepsAsConverted write, with the run they hold.
func streamCases(t *testing.T) (rollout.State, sim.Result, []streamCase) {
	t.Helper()
	in, err := parseExample(defaultManifestName, defaultManifest, rollout.Latest)
	if err != nil {
		t.Fatal(err)
	}
	s, _, err := in.StartState(in.Objects().Deployments[0], []check.Image{{Image: defaultImage}}, rollout.Options{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := sim.Run(s, sim.Config{Model: sim.ModelControllers})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Steps) < 3 {
		t.Fatalf("the example's run has %d steps", len(res.Steps))
	}
	withErr := slices.Clone(res.Steps)
	withErr[1].Err = errors.New("a first line\n\n  a line after an empty one, indented\n")
	return s, res, []streamCase{
		{"many steps", res.Steps, "t", func(j *simJSON) (any, *stepList) { return j, &j.Steps }},
		{"one step", res.Steps[:1], "t", func(j *simJSON) (any, *stepList) { return j, &j.Steps }},
		{"no step", nil, "t", func(j *simJSON) (any, *stepList) { return j, &j.Steps }},
		{"with apply answers", res.Steps, "t", func(j *simJSON) (any, *stepList) {
			return withAnswers(j, []answer{{}}, false), &j.Steps
		}},
		{"undo's roll back", res.Steps, "t", func(j *simJSON) (any, *stepList) {
			u := &undoJSON{Rollback: j}
			return u, &u.Rollback.Steps
		}},
		{"the words of the hole in the data", res.Steps, stepsHole, func(j *simJSON) (any, *stepList) { return j, &j.Steps }},
		{"an error of many lines", withErr, "t", func(j *simJSON) (any, *stepList) { return j, &j.Steps }},
	}
}

// TestStreamedStepsAsMarshaled: encodeJSON, which writes a run's steps
// one at a time, writes the bytes json.MarshalIndent gives for the whole
// document: for runs of no step, one step and many, inside the apply
// answers' wrapper (simulate --live), for undo's roll back (a list one
// level deeper), and where the data holds the words that stand for the
// steps (then it writes the document whole), and an error of several lines.
func TestStreamedStepsAsMarshaled(t *testing.T) {
	s, res, cases := streamCases(t)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v, list := tc.doc(s, res)
			want, err := json.MarshalIndent(v, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			if err := encodeJSON(&got, v, list); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), append(want, '\n')) {
				t.Errorf("encodeJSON wrote %d bytes, json.MarshalIndent %d:\n%.2000s\nwant\n%.2000s", got.Len(), len(want)+1, got.String(), want)
			}
			if list.hole != "" {
				t.Errorf("the list keeps its hole %q after encodeJSON", list.hole)
			}
			// The steps were written one by one (the hole is in the
			// document once), but where the data holds its words.
			list.hole = stepsHole
			withHole, err := json.Marshal(v)
			list.hole = ""
			if err != nil {
				t.Fatal(err)
			}
			quoted, _ := json.Marshal(stepsHole)
			if streamed := bytes.Count(withHole, quoted) == 1; streamed != (tc.title == "t") {
				t.Errorf("steps written one by one: %v, want %v", streamed, tc.title == "t")
			}
		})
	}
}

// TestStreamedStepsAsConverted: encodeYAML, which converts and writes a
// run's steps one at a time, writes the bytes of the whole document
// converted at once (toYAML, as kubectl -o yaml converts it), on the
// documents of TestStreamedStepsAsMarshaled, among them an error of
// several lines (a block scalar, with an empty line).
func TestStreamedStepsAsConverted(t *testing.T) {
	s, res, cases := streamCases(t)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v, list := tc.doc(s, res)
			b, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			want, err := yaml.JSONToYAML(b)
			if err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			if err := encodeYAML(&got, v, list); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want) {
				t.Errorf("encodeYAML wrote %d bytes, the whole conversion %d:\n%.3000s\nwant\n%.3000s", got.Len(), len(want), got.String(), want)
			}
			if list.hole != "" {
				t.Errorf("the list keeps its hole %q after encodeYAML", list.hole)
			}
			// The steps were converted one by one (the hole is in the
			// document once), but where the data holds its words.
			list.hole = stepsHole
			withHole, err := toYAML(v)
			list.hole = ""
			if err != nil {
				t.Fatal(err)
			}
			if streamed := bytes.Count(withHole, []byte(" '"+stepsHole+"'\n")) == 1; streamed != (tc.title == "t") {
				t.Errorf("steps converted one by one: %v, want %v", streamed, tc.title == "t")
			}
			if tc.name == "an error of many lines" && !bytes.Contains(want, []byte("error: |")) {
				t.Errorf("the error of many lines is not a block scalar:\n%s", want)
			}
		})
	}
}
