package check_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/rollout/check"
	"github.com/rolloutmath/rolloutmath/rollout/manifest"
	"github.com/rolloutmath/rolloutmath/rollout/sim"
)

// TestRunProperties: whatever documents the input holds, good or bad,
// Run reports one Result per Deployment that loads, in input order, one
// finding of rule input per bad document (before the others), OK only
// without an error finding, and the same report on one worker as on
// three.
func TestRunProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 6).Draw(t, "documents")
		var docs []string
		var want []string
		bad := 0
		for i := range n {
			ns := rapid.SampledFrom([]string{"", "shop"}).Draw(t, "namespace")
			replicas := rapid.IntRange(0, 12).Draw(t, "replicas")
			surge := rapid.SampledFrom([]string{"0", "1", "25%", "100%"}).Draw(t, "maxSurge")
			unavailable := rapid.SampledFrom([]string{"0", "1", "25%", "100%"}).Draw(t, "maxUnavailable")
			kind := rapid.SampledFrom([]string{"good", "good", "no apiVersion", "negative replicas"}).Draw(t, "kind")
			meta := fmt.Sprintf("name: d%d", i)
			if ns != "" {
				meta += "\n  namespace: " + ns
			}
			doc := fmt.Sprintf(`apiVersion: apps/v1
kind: Deployment
metadata:
  %s
spec:
  replicas: %d
  strategy:
    rollingUpdate: {maxSurge: %s, maxUnavailable: %s}
  selector:
    matchLabels: {app: d%d}
  template:
    metadata:
      labels: {app: d%d}
    spec:
      containers:
      - name: app
        image: app:1
`, meta, replicas, surge, unavailable, i, i)
			valid := !(surge == "0" && unavailable == "0")
			switch kind {
			case "no apiVersion":
				doc = strings.Replace(doc, "apiVersion: apps/v1\n", "", 1)
				valid = false
			case "negative replicas":
				doc = strings.Replace(doc, fmt.Sprintf("replicas: %d", replicas), "replicas: -1", 1)
				valid = false
			}
			if valid {
				name := fmt.Sprintf("d%d", i)
				if ns != "" {
					name = ns + "/" + name
				}
				want = append(want, name)
			} else {
				bad++
			}
			docs = append(docs, doc)
		}
		parsed, err := manifest.Parse("in.yaml", []byte(strings.Join(docs, "---\n")))
		if err != nil {
			t.Fatalf("Parse() = %v", err)
		}
		in := check.Load("in.yaml", parsed, check.LoadOptions{})
		cfg := check.Config{MaxPods: 14, Sim: sim.Config{Model: sim.ModelSimple, Interval: 30 * time.Second}}
		one, three := cfg, cfg
		one.Workers, three.Workers = 1, 3
		r1, r3 := check.Run(in, one), check.Run(in, three)
		if diff := cmp.Diff(r1, r3); diff != "" {
			t.Fatalf("Run() on one worker and on three differ (-one +three):\n%s", diff)
		}
		var got []string
		for _, d := range r1.Deployments {
			got = append(got, d.Deployment)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("Deployments checked (-want +got):\n%s", diff)
		}
		problems := in.Problems()
		if len(problems) < bad || (len(problems) > 0) != r1.BadInput() {
			t.Fatalf("%d bad documents, %d problems, BadInput() = %v", bad, len(problems), r1.BadInput())
		}
		if diff := cmp.Diff(problems, r1.Findings[:len(problems)]); len(problems) > 0 && diff != "" {
			t.Fatalf("the report does not start with the input's problems (-want +got):\n%s", diff)
		}
		for _, f := range problems {
			if f.Rule != check.RuleInput || f.Severity != check.SeverityError || f.Location.Line == 0 {
				t.Fatalf("a problem %+v: want rule input, severity error, and a line", f)
			}
		}
		errs := 0
		for _, f := range r1.Findings {
			if f.Severity == check.SeverityError {
				errs++
			}
		}
		if r1.OK != (errs == 0) {
			t.Fatalf("OK = %v with %d findings of severity error", r1.OK, errs)
		}
	})
}
