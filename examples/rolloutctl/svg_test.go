package main

import (
	"encoding/xml"
	"errors"
	"io"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutmath/rolloutmath/internal/words"
	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/check"
	"github.com/rolloutmath/rolloutmath/rollout/sim"
)

// svgOf runs simulate -o svg and returns its elements: the start element
// of each, in order.
func svgOf(t *testing.T, args ...string) []xml.StartElement {
	t.Helper()
	args = append([]string{"simulate", "-o", "svg"}, args...)
	r := runCLI(t, "", args...)
	r.wantCode(t, args, exitOK)
	var out []xml.StartElement
	dec := xml.NewDecoder(strings.NewReader(r.stdout))
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatalf("run(%q): not well-formed XML: %v", args, err)
		}
		if se, ok := tok.(xml.StartElement); ok {
			out = append(out, se.Copy())
		}
	}
}

func attr(se xml.StartElement, name string) string {
	for _, a := range se.Attr {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

// The SVG must be well-formed XML with the chart's parts.
func TestSimulateSVG(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"--ready-after", "45s", "--terminating", "20s", "--interval", "0"},
		{"-f", manifestPath("web-mid-rollout.yaml")},
	} {
		els := svgOf(t, args...)
		count := map[string]int{}
		for _, se := range els {
			count[se.Name.Local]++
			if c := attr(se, "class"); c != "" {
				count[se.Name.Local+"."+c]++
			}
		}
		if els[0].Name.Local != "svg" || els[0].Name.Space != "http://www.w3.org/2000/svg" {
			t.Errorf("run(%q): root %v", args, els[0].Name)
		}
		for _, el := range []string{"title", "polygon.ready", "polyline.available", "polyline.floor", "polyline.ceiling",
			"text.x-label", "text.y-label", "g.legend", "g.axes", "g.events"} {
			if count[el] == 0 {
				t.Errorf("run(%q): no %s element", args, el)
			}
		}
		if count["polygon.ready"] != 2 {
			t.Errorf("run(%q): %d ReplicaSet areas, want 2", args, count["polygon.ready"])
		}
	}
}

// TestSVGDrawsPodsThatExist is issue 11's defect 6: the chart drew the
// desired replicas (13 pods under a quota of 11), never the terminating
// pods (which stretched the y axis to 50 for 13 pods), labels that crowd
// ("1m1m10s") or clip ("0000000" for 2e9), and an empty right third.
func TestSVGDrawsPodsThatExist(t *testing.T) {
	// The pods that exist, step by step: 11 at most under the quota.
	run := func(args ...string) sim.Result {
		t.Helper()
		in, err := parseExample(defaultManifestName, defaultManifest, rollout.Latest)
		if err != nil {
			t.Fatal(err)
		}
		var f simFlags
		fs := newFlagSet("simulate")
		f.addSpec(fs)
		f.addModel(fs)
		if err := fs.Parse(args); err != nil {
			t.Fatal(err)
		}
		s, _, err := in.StartState(in.Objects().Deployments[0], []check.Image{{Image: defaultImage}}, rollout.Options{})
		if err != nil {
			t.Fatal(err)
		}
		res, err := sim.Run(s, f.config())
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	most := func(res sim.Result) (pods, terminating int64) {
		for _, st := range chartSteps(res.Start.At, res, -1) {
			var p, term int64
			for _, c := range st.sets {
				p += int64(c.Current + c.Terminating)
				term += int64(c.Terminating)
			}
			pods, terminating = max(pods, p), max(terminating, term)
		}
		return pods, terminating
	}
	if pods, _ := most(run("--quota-pods", "11")); pods != 11 {
		t.Errorf("under a quota of 11, the chart stacks up to %d pods", pods)
	}
	pods, term := most(run("--ready-after", "45s", "--terminating", "20s", "--interval", "0"))
	if term == 0 || pods != 18 {
		t.Errorf("with lingering pods the chart stacks up to %d pods, %d terminating; want 18 and some", pods, term)
	}
	els := svgOf(t, "--ready-after", "45s", "--terminating", "20s", "--interval", "0")
	var classes []string
	for _, se := range els {
		if c := attr(se, "class"); c != "" {
			classes = append(classes, c)
		}
	}
	for _, want := range []string{"ready", "not-ready", "terminating", "available", "floor", "ceiling", "event"} {
		if !slices.Contains(classes, want) {
			t.Errorf("no %q in the chart: %v", want, classes)
		}
	}

	// A y axis that fits: 13 pods on 0..15, 22 on 0..25, 2e9 in G.
	for _, tt := range []struct {
		top  float64
		want []string
	}{
		{13, []string{"0", "5", "10", "15"}},
		{18, []string{"0", "5", "10", "15", "20"}},
		{22, []string{"0", "5", "10", "15", "20", "25"}},
		{3, []string{"0", "1", "2", "3", "4"}},
		{2147483647, []string{"0", "500M", "1G", "1.5G", "2G", "2.5G"}},
		{100001, []string{"0", "25k", "50k", "75k", "100k", "125k"}},
	} {
		var got []string
		for _, tk := range ticks(yScale(tt.top)) {
			got = append(got, tk.text)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("y axis for %v pods (-want +got):\n%s", tt.top, diff)
		}
	}
	// Time labels that do not crowd: each fits in its share of the width.
	for _, end := range []float64{1, 70, 190, 3600, 6e6} {
		step := timeStep(end, 880)
		n := math.Floor(end/step) + 1
		label := len(words.Duration(time.Duration(end * float64(time.Second))))
		if n*float64(charWidth*label) > 880 || n > 11 {
			t.Errorf("end %vs: %v labels of a step of %vs crowd 880 pixels", end, n, step)
		}
	}
	// The floor and the ceiling move with the replicas.
	els = svgOf(t, "--hpa", "40s=20")
	for _, se := range els {
		if c := attr(se, "class"); c == "floor" || c == "ceiling" {
			ys := map[string]bool{}
			for _, p := range strings.Fields(attr(se, "points")) {
				_, y, _ := strings.Cut(p, ",")
				ys[y] = true
			}
			if len(ys) != 2 {
				t.Errorf("%s line at %d heights, want 2 (before and after the change)", c, len(ys))
			}
		}
	}
}
