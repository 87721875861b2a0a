package main

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/manifest"
)

// TestSharedRunsChangeNothing: check simulates each rollout shape once
// and shares the run among the Deployments of that shape; its report is
// the same as when it simulates every Deployment, whatever the flags and
// policy objects.
func TestSharedRunsChangeNothing(t *testing.T) {
	var b strings.Builder
	for i := range 40 {
		fmt.Fprintf(&b, `{"kind": "Deployment", "metadata": {"name": "d%02d", "namespace": "ns%d"}, "spec": {"replicas": %d,
			"strategy": {"rollingUpdate": {"maxSurge": %d, "maxUnavailable": %d}}, "progressDeadlineSeconds": %d,
			"selector": {"matchLabels": {"app": "a%d"}}, "template": {"metadata": {"labels": {"app": "a%d"}},
			"spec": {"containers": [{"name": "app", "image": "app:%d", "resources": {"requests": {"cpu": "100m"}}}]}}}}`+"\n",
			i, i%2, 2+i%5, 1+i%3, i%2, 120+600*(i%2), i, i, i)
	}
	b.WriteString(`{"kind": "ResourceQuota", "metadata": {"name": "q", "namespace": "ns1"}, "spec": {"hard": {"requests.cpu": "8.3"}}}` + "\n")
	b.WriteString(`{"apiVersion": "policy/v1", "kind": "PodDisruptionBudget", "metadata": {"name": "p", "namespace": "ns0"}, "spec": {"minAvailable": 2, "selector": {"matchLabels": {"app": "a4"}}}}`)
	for _, flags := range [][]string{
		{"--max-pods", "5", "--min-available", "60%"},
		{"--ready-after", "50s", "--max-duration", "4m", "--max-rollouts", "3"},
		{"--replicas", "1..6", "--terminating", "20s"},
		{"--quota-pods", "5", "--replicas", "3..5"},
	} {
		docs, err := manifest.Parse("in", []byte(b.String()))
		if err != nil {
			t.Fatal(err)
		}
		in := decode("in", docs, false, rollout.Latest)
		if len(in.problems) > 0 {
			t.Fatal(in.problems)
		}
		in.makeIndex()
		outs := map[bool]checkJSON{}
		for _, shared := range []bool{false, true} {
			var f checkFlags
			fs := newFlagSet("check")
			fs.IntVar(&f.maxPods, "max-pods", 0, "")
			fs.Var(&f.minAvailable, "min-available", "")
			fs.DurationVar(&f.maxDuration, "max-duration", 0, "")
			fs.Var(&f.replicas, "replicas", "")
			fs.IntVar(&f.maxRollouts, "max-rollouts", 1, "")
			f.addModel(fs) // and --quota-pods
			if err := fs.Parse(flags); err != nil {
				t.Fatal(err)
			}
			f.interval, f.workers = defaultInterval, 3
			if shared {
				f.memo = &simMemo{}
			}
			fresh := in.loaded // policy caches are made per run
			fresh.quotas = nil
			out, _, err := f.run(&env{stderr: io.Discard}, &fresh)
			if err != nil {
				t.Fatal(err)
			}
			outs[shared] = out
			if shared && len(f.memo.runs) == 0 {
				t.Errorf("%q: no run shared", flags)
			}
		}
		if diff := cmp.Diff(outs[false], outs[true]); diff != "" {
			t.Errorf("%q: sharing runs changes the report (-alone +shared):\n%s", flags, diff)
		}
		if len(outs[false].Violations) == 0 {
			t.Errorf("%q: no violations, a weak comparison", flags)
		}
	}
}
