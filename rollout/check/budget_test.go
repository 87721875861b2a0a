package check_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/rollout/check"
	"github.com/rolloutmath/rolloutmath/rollout/manifest"
	"github.com/rolloutmath/rolloutmath/rollout/sim"
)

// budgetManifest is a Deployment of replicas whose pods become ready
// readyAfter seconds after they start (a readinessProbe's
// initialDelaySeconds, probed every second), with deadline as its
// progressDeadlineSeconds line (empty: left out).
func budgetManifest(replicas int, maxSurge, maxUnavailable string, readyAfter int, deadline string) string {
	line := ""
	if deadline != "" {
		line = "\n  progressDeadlineSeconds: " + deadline
	}
	return fmt.Sprintf(`apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: %d%s
  strategy:
    rollingUpdate:
      maxSurge: %s
      maxUnavailable: %s
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: app
        image: web:1.0
        readinessProbe:
          httpGet: {path: /ready, port: 8080}
          initialDelaySeconds: %d
          periodSeconds: 1
`, replicas, line, maxSurge, maxUnavailable, readyAfter)
}

func runBudget(t interface{ Fatal(...any) }, src string, c check.Config) check.Report {
	docs, err := manifest.Parse("deploy.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return check.Run(check.Load("deploy.yaml", docs, check.LoadOptions{}), c)
}

// ruleFindings returns the findings of the rules named, in report order.
func ruleFindings(r check.Report, rules ...string) []check.Finding {
	var out []check.Finding
	for _, f := range r.Findings {
		if slices.Contains(rules, f.Rule) {
			out = append(out, f)
		}
	}
	return out
}

// TestTimeBudget carries the rule of upstream's syncRolloutStatus and
// DeploymentProgressing: the progress deadline times each wave (from one
// sync that sees progress to the next), not the whole rollout, while a
// CI timeout times the whole rollout.
func TestTimeBudget(t *testing.T) {
	type want struct {
		rule, severity string
		at             float64
		line           int    // of the finding's location
		message        string // a part of the message
	}
	for _, tc := range []struct {
		name     string
		src      string
		timeout  time.Duration
		want     []want
		related  string // a related field every finding names
		unneeded string // a rule that must not be found
	}{{
		// Upstream: DeploymentProgressing resets lastUpdateTime at each
		// wave, so a rollout of 4 waves of 2m outlasts the default 600s
		// deadline as a whole but never exceeds it.
		name:    "default 600s deadline: a 10m rollout of 2m waves never exceeds it, a 300s CI timeout does",
		src:     budgetManifest(5, "1", "0", 120, ""),
		timeout: 300 * time.Second,
		want: []want{{check.RuleTimeout, check.SeverityError, 300, 5,
			"the rollout is expected to take 10m0.002s, longer than the timeout 5m"}},
		related:  "spec.template.spec.containers[0].readinessProbe",
		unneeded: check.RuleDeadline,
	}, {
		name:    "the timeout names the slowest wave",
		src:     budgetManifest(2, "1", "0", 90, "600"),
		timeout: time.Minute,
		want: []want{{check.RuleTimeout, check.SeverityError, 60, 7,
			"its slowest wave, 1, waits 1m30s for progress from +0s"}},
		related: "spec.strategy.rollingUpdate.maxSurge",
	}, {
		// Helm 3's ReadyChecker.deploymentReady: the new ReplicaSet's
		// ready pods >= spec.replicas - MaxUnavailable.
		name:    "helm upgrade --wait is satisfied before the rollout is complete",
		src:     budgetManifest(3, "1", "1", 60, ""),
		timeout: 90 * time.Second,
		want: []want{{check.RuleTimeout, check.SeverityError, 90, 5,
			"helm upgrade --wait (Helm 3) waits only for 2 ready pods of the new ReplicaSet (spec.replicas - maxUnavailable): at +1m0.002s, within the timeout"}},
	}, {
		// rolloutctl check --timeout 20s on a 1-replica manifest said
		// "waits only for 1 ready pods".
		name:    "helm upgrade --wait of one pod",
		src:     budgetManifest(1, "1", "0", 60, ""),
		timeout: 30 * time.Second,
		want: []want{{check.RuleTimeout, check.SeverityError, 30, 5,
			"helm upgrade --wait (Helm 3) waits only for 1 ready pod of the new ReplicaSet (spec.replicas - maxUnavailable): at +1m0.001s, after the timeout too"}},
	}, {
		// kubectl's DeploymentStatusViewer fails on the Progressing
		// condition's reason ProgressDeadlineExceeded; the controller
		// goes on.
		name:    "kubectl rollout status fails at the progress deadline, before the timeout",
		src:     budgetManifest(3, "1", "0", 120, "100"),
		timeout: 300 * time.Second,
		want: []want{{check.RuleDeadline, check.SeverityError, 101, 7,
			"kubectl rollout status fails here, but the controllers go on (wave 1 lasts 2m, to +2m), and the rollout completes at +6m0.002s"},
			{check.RuleTimeout, check.SeverityError, 300, 7,
				"the rollout is expected to take 6m0.002s, longer than the timeout 5m: kubectl rollout status fails before, at +1m41s, when wave 1 (from +0s) exceeds the progress deadline; helm upgrade --wait (Helm 3) waits only for 3 ready pods of the new ReplicaSet (spec.replicas - maxUnavailable): at +6m0.001s, after the timeout too; its slowest wave, 1, waits 2m for progress from +0s"}},
	}, {
		name:    "a rollout within the timeout is not a finding",
		src:     budgetManifest(2, "1", "0", 90, "600"),
		timeout: 4 * time.Minute,
	}, {
		// Upstream: DeploymentTimedOut once lastUpdateTime is more than
		// progressDeadlineSeconds ago at a sync.
		name: "a wave beyond progressDeadlineSeconds is ProgressDeadlineExceeded, and says which",
		src:  budgetManifest(3, "1", "0", 120, "100"),
		want: []want{{check.RuleDeadline, check.SeverityError, 101, 7,
			"wave 1 made no progress from +0s for more than progressDeadlineSeconds 100 (1m40s); kubectl rollout status fails here, but the controllers go on (wave 1 lasts 2m, to +2m)"}},
		related: "spec.template.spec.containers[0].readinessProbe",
	}, {
		name: "a wave above 80% of progressDeadlineSeconds is a margin warning",
		src:  budgetManifest(3, "1", "0", 90, "100"),
		want: []want{{check.RuleDeadlineMargin, check.SeverityWarning, 0, 7,
			"wave 1 waits 1m30s for progress, from +0s to +1m30s: 90% of progressDeadlineSeconds 100 (1m40s)"}},
		related: "spec.template.spec.containers[0].readinessProbe",
	}, {
		name: "the margin warning names the default deadline",
		src:  budgetManifest(2, "1", "0", 500, ""),
		want: []want{{check.RuleDeadlineMargin, check.SeverityWarning, 0, 5,
			"of the default progressDeadlineSeconds 600 (10m)"}},
	}, {
		name: "a wave at 80% of progressDeadlineSeconds is within the margin",
		src:  budgetManifest(2, "1", "0", 80, "100"),
	}} {
		t.Run(tc.name, func(t *testing.T) {
			// The controllers model, as rolloutctl check runs: the other
			// models' syncs pace the waves (a sync every Interval).
			for _, model := range []sim.Model{sim.ModelControllers} {
				r := runBudget(t, tc.src, check.Config{Timeout: tc.timeout, Sim: sim.Config{Model: model}})
				got := ruleFindings(r, check.RuleTimeout, check.RuleDeadline, check.RuleDeadlineMargin)
				if len(got) != len(tc.want) {
					t.Fatalf("model %v: findings %+v, want %d", model, got, len(tc.want))
				}
				for i, w := range tc.want {
					g := got[i]
					if g.Rule != w.rule || g.Severity != w.severity || g.Location.Line != w.line || g.Location.Field != "spec.progressDeadlineSeconds" ||
						!strings.Contains(g.Message, w.message) {
						t.Errorf("model %v: finding %d = %+v, want %+v", model, i, g, w)
					}
					if w.rule != check.RuleDeadline && g.At != w.at {
						t.Errorf("model %v: finding %d at +%gs, want +%gs", model, i, g.At, w.at)
					}
					if tc.related != "" && !slices.ContainsFunc(g.Related, func(l check.Location) bool { return l.Field == tc.related && l.Written }) {
						t.Errorf("model %v: finding %d related %+v, want %s", model, i, g.Related, tc.related)
					}
				}
				if tc.unneeded != "" && len(ruleFindings(r, tc.unneeded)) > 0 {
					t.Errorf("model %v: %s found: %+v", model, tc.unneeded, r.Findings)
				}
			}
		})
	}
}

// TestTimeoutProperties: a longer timeout never adds a finding, and the
// other rules' findings do not depend on it; the timeout rule breaks
// exactly when the longest rollout completed takes longer than it.
func TestTimeoutProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		replicas := rapid.IntRange(1, 6).Draw(t, "replicas")
		maxSurge := rapid.SampledFrom([]string{"0", "1", "25%"}).Draw(t, "maxSurge")
		maxUnavailable := rapid.SampledFrom([]string{"1", "25%", "0"}).Draw(t, "maxUnavailable")
		if maxSurge == "0" && maxUnavailable == "0" {
			maxUnavailable = "1"
		}
		ready := rapid.IntRange(0, 200).Draw(t, "readyAfter")
		deadline := rapid.SampledFrom([]string{"", "60", "150"}).Draw(t, "deadline")
		short := time.Duration(rapid.IntRange(1, 900).Draw(t, "timeout")) * time.Second
		long := short + time.Duration(rapid.IntRange(0, 900).Draw(t, "more"))*time.Second
		model := rapid.SampledFrom([]sim.Model{sim.ModelSimple, sim.ModelControllers}).Draw(t, "model")
		src := budgetManifest(replicas, maxSurge, maxUnavailable, ready, deadline)
		cfg := check.Config{Sim: sim.Config{Model: model}}
		cfg.Timeout = short
		a := runBudget(t, src, cfg)
		cfg.Timeout = long
		b := runBudget(t, src, cfg)
		if len(b.Findings) > len(a.Findings) {
			t.Fatalf("timeout %s: %d findings, timeout %s: %d", short, len(a.Findings), long, len(b.Findings))
		}
		others := func(r check.Report) []check.Finding {
			return slices.DeleteFunc(slices.Clone(r.Findings), func(f check.Finding) bool { return f.Rule == check.RuleTimeout })
		}
		if diff := cmp.Diff(others(a), others(b)); diff != "" {
			t.Fatalf("findings of other rules mismatch (-%s +%s):\n%s", short, long, diff)
		}
		for _, c := range []struct {
			timeout time.Duration
			r       check.Report
		}{{short, a}, {long, b}} {
			longest := time.Duration(c.r.Deployments[0].Longest * float64(time.Second))
			if got, want := len(ruleFindings(c.r, check.RuleTimeout)) > 0, longest > c.timeout; got != want {
				t.Fatalf("timeout %s, longest rollout %s: timeout finding %v, want %v", c.timeout, longest, got, want)
			}
		}
	})
}

// TestDrainPodsProperties: a drain of a node holding more of the
// Deployment's pods never clears a pdb-drain-blocked finding that a drain
// of fewer gives, never leaves more pods ready at the worst moment (the
// report's note), nor more through eviction than by deleting pods, and
// the other rules' findings do not depend on it.
func TestDrainPodsProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		replicas := rapid.IntRange(1, 8).Draw(t, "replicas")
		maxSurge := rapid.SampledFrom([]string{"0", "1", "25%"}).Draw(t, "maxSurge")
		maxUnavailable := rapid.SampledFrom([]string{"1", "25%", "50%"}).Draw(t, "maxUnavailable")
		keep := rapid.IntRange(0, replicas).Draw(t, "minAvailable")
		policy := rapid.SampledFrom([]string{"IfHealthyBudget", "AlwaysAllow"}).Draw(t, "unhealthyPodEvictionPolicy")
		few := rapid.Int32Range(1, 8).Draw(t, "drainPods")
		more := few + rapid.Int32Range(0, 8).Draw(t, "more")
		model := rapid.SampledFrom([]sim.Model{sim.ModelSimple, sim.ModelControllers}).Draw(t, "model")
		src := budgetManifest(replicas, maxSurge, maxUnavailable, rapid.IntRange(0, 30).Draw(t, "readyAfter"), "") + fmt.Sprintf(`---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: web}
spec:
  minAvailable: %d
  unhealthyPodEvictionPolicy: %s
  selector: {matchLabels: {app: web}}
`, keep, policy)
		a := runBudget(t, src, check.Config{DrainPods: few, Sim: sim.Config{Model: model}})
		b := runBudget(t, src, check.Config{DrainPods: more, Sim: sim.Config{Model: model}})
		if len(ruleFindings(a, check.RulePDBDrain)) > len(ruleFindings(b, check.RulePDBDrain)) {
			t.Fatalf("a drain of %d pods is blocked, of %d not: %+v", few, more, a.Findings)
		}
		others := func(r check.Report) []check.Finding {
			return slices.DeleteFunc(slices.Clone(r.Findings), func(f check.Finding) bool { return f.Rule == check.RulePDBDrain })
		}
		if diff := cmp.Diff(others(a), others(b)); diff != "" {
			t.Fatalf("findings of other rules mismatch (-%d +%d):\n%s", few, more, diff)
		}
		if len(a.Notes) != 1 || !strings.Contains(a.Notes[0], "the rollout is not gated by PodDisruptionBudget web") {
			t.Fatalf("notes %q, want the one that the budget does not gate the rollout", a.Notes)
		}
		// The fewest ready pods a drain leaves at the worst moment.
		left := func(r check.Report) int {
			var n int
			_, after, ok := strings.Cut(r.Notes[0], ") leaves ")
			if _, err := fmt.Sscanf(after, "%d", &n); !ok || err != nil {
				t.Fatalf("note %q: no fewest ready pods", r.Notes[0])
			}
			return n
		}
		if la, lb := left(a), left(b); lb > la {
			t.Fatalf("a drain of %d pods leaves %d ready, of %d pods %d", few, la, more, lb)
		}
		// A drain without eviction leaves no more than one through it.
		var evicted, deleted int
		if _, err := fmt.Sscanf(a.Notes[0][strings.LastIndex(a.Notes[0], ") leaves ")+2:], "leaves %d of the pods web selects ready (%d if", &evicted, &deleted); err != nil || deleted > evicted {
			t.Fatalf("note %q: %d left by eviction, %d by deletion (%v)", a.Notes[0], evicted, deleted, err)
		}
	})
}

// TestDeadlineProperties: a longer progressDeadlineSeconds never adds a
// progress-deadline or progress-deadline-margin finding, a rollout has at
// most one of the two, and the wave that exceeds the deadline lasts
// longer than it when the rollout is run past it.
func TestDeadlineProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		replicas := rapid.IntRange(1, 6).Draw(t, "replicas")
		maxSurge := rapid.SampledFrom([]string{"0", "1", "25%"}).Draw(t, "maxSurge")
		maxUnavailable := rapid.SampledFrom([]string{"1", "25%", "0"}).Draw(t, "maxUnavailable")
		if maxSurge == "0" && maxUnavailable == "0" {
			maxUnavailable = "1"
		}
		ready := rapid.IntRange(0, 300).Draw(t, "readyAfter")
		short := rapid.IntRange(10, 400).Draw(t, "progressDeadlineSeconds")
		long := short + rapid.IntRange(0, 400).Draw(t, "more")
		model := rapid.SampledFrom([]sim.Model{sim.ModelSimple, sim.ModelControllers}).Draw(t, "model")
		count := func(deadline int) int {
			r := runBudget(t, budgetManifest(replicas, maxSurge, maxUnavailable, ready, fmt.Sprint(deadline)), check.Config{Sim: sim.Config{Model: model}})
			n := len(ruleFindings(r, check.RuleDeadline, check.RuleDeadlineMargin))
			if n > 1 {
				t.Fatalf("deadline %ds: %d deadline findings: %+v", deadline, n, r.Findings)
			}
			// The wave that exceeded the deadline, run past it, is longer.
			for _, f := range ruleFindings(r, check.RuleDeadline) {
				_, after, ok := strings.Cut(f.Message, " lasts ")
				if !ok {
					continue
				}
				lasts, err := time.ParseDuration(strings.Fields(after)[0][:len(strings.Fields(after)[0])-1])
				if err != nil || lasts <= time.Duration(deadline)*time.Second {
					t.Fatalf("deadline %ds: %q (%v)", deadline, f.Message, err)
				}
			}
			return n
		}
		if a, b := count(short), count(long); b > a {
			t.Fatalf("deadline %ds: %d findings, %ds: %d", short, a, long, b)
		}
	})
}

// TestTwoBudgetsRefuseEviction carries eviction.go's refusal (500, "This
// pod has more than one PodDisruptionBudget, which the eviction
// subresource does not support"): two budgets over a Deployment's pods
// are pdb-no-disruption at the second one's selector, with the first as
// related, no drain is judged, and the note says no pod can be evicted.
func TestTwoBudgetsRefuseEviction(t *testing.T) {
	src := budgetManifest(4, "1", "0", 0, "") + `---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: web-min}
spec:
  minAvailable: 3
  selector: {matchLabels: {app: web}}
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: web-max}
spec:
  maxUnavailable: 1
  selector: {matchLabels: {app: web}}
`
	r := runBudget(t, src, check.Config{DrainPods: 2, Sim: sim.Config{Model: sim.ModelControllers}})
	never := ruleFindings(r, check.RulePDBNever)
	if len(never) != 1 || !strings.Contains(never[0].Message, "2 PodDisruptionBudgets select the pods of Deployment web") ||
		never[0].Location.Object != "PodDisruptionBudget web-max" || never[0].Location.Field != "spec.selector" ||
		len(never[0].Related) != 1 || never[0].Related[0].Object != "PodDisruptionBudget web-min" {
		t.Errorf("pdb-no-disruption findings %+v, want one at web-max's selector", never)
	}
	if drains := ruleFindings(r, check.RulePDBDrain); len(drains) > 0 {
		t.Errorf("pdb-drain-blocked %+v, want none: no pod can be evicted", drains)
	}
	want := "web: the rollout is not gated by PodDisruptionBudgets web-min, web-max (the Deployment controller scales ReplicaSets and deletes pods without the eviction API); only evictions are, such as those of a node drain, and none of its pods can be evicted, as more than one budget selects them"
	if diff := cmp.Diff([]string{want}, r.Notes); diff != "" {
		t.Errorf("notes mismatch (-want +got):\n%s", diff)
	}
}
