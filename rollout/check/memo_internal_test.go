package check

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutmath/rolloutmath/rollout/manifest"
	"github.com/rolloutmath/rolloutmath/rollout/sim"
	"github.com/rolloutmath/rolloutmath/surge"
)

// indexed decodes text ("in": JSON or YAML documents) as Load does and
// indexes it, failing t on any problem: the input of the memo's tests,
// which run the checker on it directly.
func indexed(t testing.TB, text string) decoding {
	t.Helper()
	docs, err := manifest.Parse("in", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	d := decode("in", docs, LoadOptions{})
	if len(d.problems) > 0 {
		t.Fatal(d.problems[0].ProblemText())
	}
	d.makeIndex()
	return d
}

// TestSharedRunsChangeNothing: check simulates each rollout shape once
// and shares the run among the Deployments of that shape; its report is
// the same as when it simulates every Deployment, whatever the flags and
// policy objects.
func TestSharedRunsChangeNothing(t *testing.T) {
	var b strings.Builder
	for i := range 40 {
		fmt.Fprintf(&b, `{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "d%02d", "namespace": "ns%d"}, "spec": {"replicas": %d,
			"strategy": {"rollingUpdate": {"maxSurge": %d, "maxUnavailable": %d}}, "progressDeadlineSeconds": %d,
			"selector": {"matchLabels": {"app": "a%d"}}, "template": {"metadata": {"labels": {"app": "a%d"}},
			"spec": {"containers": [{"name": "app", "image": "app:%d", "resources": {"requests": {"cpu": "100m"}}}]}}}}`+"\n",
			i, i%2, 2+i%5, 1+i%3, i%2, 120+600*(i%2), i, i, i)
	}
	b.WriteString(`{"apiVersion": "v1", "kind": "ResourceQuota", "metadata": {"name": "q", "namespace": "ns1"}, "spec": {"hard": {"requests.cpu": "8.3"}}}` + "\n")
	b.WriteString(`{"apiVersion": "policy/v1", "kind": "PodDisruptionBudget", "metadata": {"name": "p", "namespace": "ns0"}, "spec": {"minAvailable": 2, "selector": {"matchLabels": {"app": "a4"}}}}`)
	for _, c := range []struct {
		name string
		cfg  Config
	}{
		{"max pods and min available", Config{MaxPods: 5, MinAvailable: surge.Percent(60), MinAvailableRule: true}},
		{"ready after, max duration, rollouts at once", Config{Sim: sim.Config{Model: sim.ModelSimple, Pods: sim.PodModel{ReadyAfter: 50 * time.Second}}, MaxDuration: 4 * time.Minute, MaxRollouts: 3}},
		{"replica range, terminating", Config{MinReplicas: 1, MaxReplicas: 6, ReplicasSet: true, Sim: sim.Config{Model: sim.ModelSimple, Pods: sim.PodModel{Terminating: 20 * time.Second}}}},
		{"pod quota", Config{QuotaPods: 5, MinReplicas: 3, MaxReplicas: 5, ReplicasSet: true}},
		{"timeout and drain pods", Config{Timeout: 2 * time.Minute, DrainPods: 2, Sim: sim.Config{Pods: sim.PodModel{ReadyAfter: 50 * time.Second}}, ReadyAfterFixed: true}},
	} {
		flags := c.name
		d := indexed(t, b.String())
		outs := map[bool]Report{}
		for _, shared := range []bool{false, true} {
			cfg := c.cfg
			cfg.Sim.Model, cfg.Sim.Interval, cfg.Workers = sim.ModelSimple, 30*time.Second, 3
			f := newChecker(cfg)
			kept := 0
			if shared {
				f.memo.kept = func(rolloutShape, bool) { kept++ }
			} else {
				f.memo = nil
			}
			fresh := d.Input // policy caches are made per run
			fresh.quotas = nil
			out, _ := f.run(&fresh)
			outs[shared] = out
			if shared && kept == 0 {
				t.Errorf("%q: no run shared", flags)
			}
		}
		if diff := cmp.Diff(outs[false], outs[true]); diff != "" {
			t.Errorf("%q: sharing runs changes the report (-alone +shared):\n%s", flags, diff)
		}
		if len(outs[false].Findings) == 0 {
			t.Errorf("%q: no violations, a weak comparison", flags)
		}
	}
}

// TestDeadlineFreeRunsChangeNothing: runs proved not to depend on the
// progress deadline (sim.Result.DeadlineFreeFrom) are shared between
// shapes that differ only in a deadline from there up. On input like
// BenchmarkCheck's distinct-shapes (examples/rolloutctl: a deadline of
// 600+i each, policy objects, an HPA for every fifth), with some short
// deadlines that a rollout passes, under the controllers model and five
// sets of flags (quotas, a replica range, fixed pod times, client limits,
// drains), the report is the same as when check simulates every
// Deployment, and most Deployments share a run.
func TestDeadlineFreeRunsChangeNothing(t *testing.T) {
	var b strings.Builder
	const n = 120
	for i := range n {
		deadline := 600 + i
		if i%7 == 3 {
			deadline = 20 + i%40 // shorter than some rollouts
		}
		fmt.Fprintf(&b, `{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "app-%[1]d", "namespace": "team-%[2]d"},
			"spec": {"replicas": %[3]d, "progressDeadlineSeconds": %[4]d, "minReadySeconds": %[5]d,
			"strategy": {"rollingUpdate": {"maxSurge": %[6]s, "maxUnavailable": %[7]d}},
			"selector": {"matchLabels": {"app": "app-%[1]d"}}, "template": {"metadata": {"labels": {"app": "app-%[1]d"}},
			"spec": {"containers": [{"name": "app", "image": "app:%[1]d", "resources": {"requests": {"cpu": "100m"}},
			"readinessProbe": {"httpGet": {"path": "/healthz", "port": 8080}, "periodSeconds": 10}}]}}}}`+"\n",
			i, i%4, 2+i%3*4, deadline, i%3*5, []string{`"25%"`, `1`, `"50%"`, `2`}[i%4], i/4%2)
		fmt.Fprintf(&b, `{"apiVersion": "policy/v1", "kind": "PodDisruptionBudget", "metadata": {"name": "app-%[1]d", "namespace": "team-%[2]d"},
			"spec": {"maxUnavailable": 1, "selector": {"matchLabels": {"app": "app-%[1]d"}}}}`+"\n", i, i%4)
		if i%5 == 0 {
			fmt.Fprintf(&b, `{"apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler", "metadata": {"name": "app-%[1]d", "namespace": "team-%[2]d"},
				"spec": {"scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "app-%[1]d"}, "minReplicas": %[3]d, "maxReplicas": %[4]d}}`+"\n",
				i, i%4, 2+i%3*4, 4+i%3*4)
		}
	}
	b.WriteString(`{"apiVersion": "v1", "kind": "ResourceQuota", "metadata": {"name": "q", "namespace": "team-1"}, "spec": {"hard": {"pods": "40"}}}` + "\n")
	d := indexed(t, b.String())
	for _, c := range []struct {
		name string
		cfg  Config
	}{
		{"max pods", Config{MaxPods: 100}},
		{"min available, max duration", Config{MinAvailable: surge.Percent(60), MinAvailableRule: true, MaxDuration: 90 * time.Second}},
		{"ready after and terminating fixed", Config{Sim: sim.Config{Pods: sim.PodModel{ReadyAfter: 25 * time.Second, Terminating: 20 * time.Second}}, ReadyAfterFixed: true, TerminatingFixed: true}},
		{"pod quota, replica range", Config{QuotaPods: 9, MinReplicas: 2, MaxReplicas: 7, ReplicasSet: true}},
		{"client limits, drain pods", Config{Sim: sim.Config{Controllers: sim.Controllers{QPS: 2, Burst: 3}}, DrainPods: 2}},
	} {
		outs := map[bool]Report{}
		var shared, alone, keys int
		for _, memo := range []bool{false, true} {
			cfg := c.cfg
			cfg.Workers = 2
			f := newChecker(cfg)
			free, runs := map[rolloutShape]int{}, map[rolloutShape]bool{}
			if memo {
				f.memo.kept = func(k rolloutShape, isFree bool) {
					if isFree {
						free[k]++
					} else {
						runs[k] = true
					}
				}
			} else {
				f.memo = nil
			}
			fresh := d.Input
			fresh.quotas = nil
			out, _ := f.run(&fresh)
			outs[memo] = out
			if memo {
				for _, n := range free {
					shared += n
				}
				keys, alone = len(free), len(runs)
				if len(f.memo.runs)+len(f.memo.free)+len(f.memo.left) > 0 {
					t.Errorf("%s: the memo holds %d runs, %d kept for deadlines from a bound up, and %d shapes still to check, after the check", c.name, len(f.memo.runs), len(f.memo.free), len(f.memo.left))
				}
			}
		}
		if diff := cmp.Diff(outs[false], outs[true]); diff != "" {
			t.Errorf("%s: sharing runs across deadlines changes the report (-alone +shared):\n%s", c.name, diff)
		}
		// 24 shapes besides the deadline (replicas, minReadySeconds and
		// strategy), and the HPAs' other counts: the 120 Deployments' 144
		// rollouts share a few dozen runs; with a replica range of 6
		// counts, the 720 rollouts share about 150.
		t.Logf("%s: %d runs kept for deadlines from a bound up (%d shapes), %d for one deadline", c.name, shared, keys, alone)
		if shared == 0 || shared != keys || shared+alone > 160 {
			t.Errorf("%s: %d runs kept for deadlines from a bound up, of %d shapes, and %d for their deadline alone: want one a shape, 160 in all at most", c.name, shared, keys, alone)
		}
		if len(outs[false].Findings) == 0 {
			t.Errorf("%s: no findings, a weak comparison", c.name)
		}
	}
}

// TestMemoKeepsOnlySharedShapes: the memo keeps the run of a shape only
// when the check has more than one rollout of it (their deadlines aside),
// so a check whose Deployments all differ holds none of its runs, and the
// report is the one made without the memo.
func TestMemoKeepsOnlySharedShapes(t *testing.T) {
	var b strings.Builder
	for i := range 12 {
		// d00..d07 in pairs of one shape with two deadlines; d08..d11
		// each a shape of its own.
		replicas, deadline := 2+i/2, 600+i
		if i >= 8 {
			replicas = 10 + i
		}
		fmt.Fprintf(&b, `{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "d%02d", "namespace": "ns"}, "spec": {"replicas": %d,
			"progressDeadlineSeconds": %d, "selector": {"matchLabels": {"app": "a%d"}}, "template": {"metadata": {"labels": {"app": "a%d"}},
			"spec": {"containers": [{"name": "app", "image": "app:%d"}]}}}}`+"\n", i, replicas, deadline, i, i, i)
	}
	d := indexed(t, b.String())
	outs := map[bool]Report{}
	for _, shared := range []bool{false, true} {
		f := newChecker(Config{MaxPods: 7, Workers: 2})
		kept := map[int32]int{}
		if shared {
			f.memo.kept = func(k rolloutShape, _ bool) { kept[k.replicas]++ }
		} else {
			f.memo = nil
		}
		fresh := d.Input
		fresh.quotas = nil
		out, _ := f.run(&fresh)
		outs[shared] = out
		if !shared {
			continue
		}
		for replicas := range kept {
			if replicas > 5 {
				t.Errorf("the memo kept a run of %d replicas, a shape of one rollout", replicas)
			}
		}
		if len(kept) == 0 {
			t.Error("the memo kept no run of the shapes two rollouts have")
		}
	}
	if diff := cmp.Diff(outs[false], outs[true]); diff != "" {
		t.Errorf("keeping only shared runs changes the report (-alone +shared):\n%s", diff)
	}
}

// TestResolvedStrategiesShareRuns: a rollout's shape holds maxSurge and
// maxUnavailable as the counts they resolve to at its replicas
// (strategyOf), so that Deployments of "25%" and of 1 at 4 replicas
// share a run. Here every Deployment's strategy as written is its own
// (each raw shape one rollout: without the resolution the memo keeps
// nothing), while many resolve alike; under the controllers model, with
// PodDisruptionBudgets (the deletes-first order's steps judged), HPAs and
// four sets of flags, the report is the one made without the memo, and
// the memo keeps runs of resolved shapes only. Each namespace has a pod
// quota that no rollout reaches, whose room differs from Deployment to
// Deployment: a shape holds it as one (unreachedQuota).
func TestResolvedStrategiesShareRuns(t *testing.T) {
	surges := []string{`"25%"`, `1`, `"50%"`, `2`, `"10%"`, `"100%"`}
	unavailables := []string{`0`, `"25%"`, `1`, `"10%"`}
	var b strings.Builder
	n := 0
	for replicas := 2; replicas <= 9; replicas++ {
		for s, sv := range surges {
			for u, uv := range unavailables {
				if (s+u+replicas)%3 != 0 {
					continue // a third of the combinations: a quicker test
				}
				fmt.Fprintf(&b, `{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "app-%[1]d", "namespace": "team-%[2]d"},
			"spec": {"replicas": %[3]d, "progressDeadlineSeconds": %[4]d, "minReadySeconds": %[5]d,
			"strategy": {"rollingUpdate": {"maxSurge": %[6]s, "maxUnavailable": %[7]s}},
			"selector": {"matchLabels": {"app": "app-%[1]d"}}, "template": {"metadata": {"labels": {"app": "app-%[1]d"}},
			"spec": {"containers": [{"name": "app", "image": "app:%[1]d", "resources": {"requests": {"cpu": "100m"}},
			"readinessProbe": {"httpGet": {"path": "/healthz", "port": 8080}, "initialDelaySeconds": %[8]d, "periodSeconds": 1}}]}}}}`+"\n",
					n, n%3, replicas, 600+n, replicas%2*5, sv, uv, 1+replicas%3)
				fmt.Fprintf(&b, `{"apiVersion": "policy/v1", "kind": "PodDisruptionBudget", "metadata": {"name": "app-%[1]d", "namespace": "team-%[2]d"},
			"spec": {"maxUnavailable": 1, "selector": {"matchLabels": {"app": "app-%[1]d"}}}}`+"\n", n, n%3)
				if n%7 == 0 {
					fmt.Fprintf(&b, `{"apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler", "metadata": {"name": "app-%[1]d", "namespace": "team-%[2]d"},
				"spec": {"scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "app-%[1]d"}, "minReplicas": %[3]d, "maxReplicas": %[4]d}}`+"\n",
						n, n%3, replicas, replicas+2)
				}
				n++
			}
		}
	}
	// Pod quotas far above every rollout's pods, whose room differs from
	// Deployment to Deployment (the pods of the others in the namespace):
	// a shape holds them as one (unreachedQuota).
	for ns := range 3 {
		fmt.Fprintf(&b, `{"apiVersion": "v1", "kind": "ResourceQuota", "metadata": {"name": "q", "namespace": "team-%d"}, "spec": {"hard": {"pods": "%d"}}}`+"\n", ns, 500+ns)
	}
	d := indexed(t, b.String())
	for _, c := range []struct {
		name string
		cfg  Config
	}{
		{"max pods", Config{MaxPods: 100}},
		{"max pods below the peaks, drain pods", Config{MaxPods: 9, DrainPods: 2}},
		{"min available, max duration", Config{MinAvailable: surge.Percent(60), MinAvailableRule: true, MaxDuration: 40 * time.Second}},
		{"pod quota, terminating fixed", Config{QuotaPods: 11, Sim: sim.Config{Pods: sim.PodModel{Terminating: 5 * time.Second}}, TerminatingFixed: true}},
	} {
		outs := map[bool]Report{}
		kept := 0
		for _, memo := range []bool{false, true} {
			cfg := c.cfg
			cfg.Workers = 2
			f := newChecker(cfg)
			var shapes []rolloutShape
			if memo {
				f.memo.kept = func(k rolloutShape, _ bool) { shapes = append(shapes, k) }
			} else {
				f.memo = nil
			}
			fresh := d.Input
			fresh.quotas = nil
			out, _ := f.run(&fresh)
			outs[memo] = out
			if !memo {
				continue
			}
			kept = len(shapes)
			for _, k := range shapes {
				if ru := k.strategy.RollingUpdate; ru.MaxSurge.IsPercent() || ru.MaxUnavailable.IsPercent() {
					t.Errorf("%s: a shape kept with a percentage: %+v", c.name, k.strategy)
				}
			}
		}
		if diff := cmp.Diff(outs[false], outs[true]); diff != "" {
			t.Errorf("%s: sharing runs between strategies that resolve alike changes the report (-alone +shared):\n%s", c.name, diff)
		}
		t.Logf("%s: %d Deployments, %d runs kept", c.name, n, kept)
		if kept < 10 {
			t.Errorf("%s: %d runs kept, want the runs of strategies that resolve alike shared", c.name, kept)
		}
		if len(outs[false].Findings) == 0 {
			t.Errorf("%s: no findings, a weak comparison", c.name)
		}
	}
}

// TestSharedRunsKeepTheDrainsOrder: a rollout whose drains are judged
// (a PodDisruptionBudget selects its pods) reads the deletes-first
// order's steps, which a run of a rollout without budgets does not keep:
// the two never share a run. Six Deployments of one shape, every other
// one with a budget, checked one at a time: the memo keeps a run for
// each kind, every run served to a rollout with budgets has those
// steps, and the report is the one made without the memo.
func TestSharedRunsKeepTheDrainsOrder(t *testing.T) {
	var b strings.Builder
	for i := range 6 {
		fmt.Fprintf(&b, `{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "d%02d", "namespace": "ns"}, "spec": {"replicas": 5,
			"strategy": {"rollingUpdate": {"maxSurge": 1, "maxUnavailable": 1}}, "progressDeadlineSeconds": %d,
			"selector": {"matchLabels": {"app": "a%d"}}, "template": {"metadata": {"labels": {"app": "a%d"}},
			"spec": {"containers": [{"name": "app", "image": "app:%d",
			"readinessProbe": {"httpGet": {"path": "/", "port": 80}, "initialDelaySeconds": 3, "periodSeconds": 1}}]}}}}`+"\n", i, 600+i, i, i, i)
		if i%2 == 1 {
			fmt.Fprintf(&b, `{"apiVersion": "policy/v1", "kind": "PodDisruptionBudget", "metadata": {"name": "p%02d", "namespace": "ns"}, "spec": {"minAvailable": 4, "selector": {"matchLabels": {"app": "a%d"}}}}`+"\n", i, i)
		}
	}
	d := indexed(t, b.String())
	outs := map[bool]Report{}
	for _, memo := range []bool{false, true} {
		f := newChecker(Config{Workers: 1, DrainPods: 2, MaxPods: 20})
		kinds := map[bool]int{}
		if memo {
			f.memo.kept = func(k rolloutShape, _ bool) { kinds[k.drains]++ }
		} else {
			f.memo = nil
		}
		fresh := d.Input
		fresh.quotas = nil
		outs[memo], _ = f.run(&fresh)
		if memo && (kinds[true] != 1 || kinds[false] != 1) {
			t.Errorf("the memo kept %d runs for rollouts with budgets and %d without: want one each", kinds[true], kinds[false])
		}
	}
	if diff := cmp.Diff(outs[false], outs[true]); diff != "" {
		t.Errorf("sharing runs changes the report (-alone +shared):\n%s", diff)
	}
	if len(outs[false].Findings) == 0 {
		t.Error("no findings, a weak comparison")
	}
}
