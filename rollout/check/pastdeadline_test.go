package check_test

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/internal/words"
	"github.com/rolloutmath/rolloutmath/rollout/check"
	"github.com/rolloutmath/rolloutmath/rollout/manifest"
	"github.com/rolloutmath/rolloutmath/rollout/sim"
	"github.com/rolloutmath/rolloutmath/surge"
)

// pastManifest is a Deployment of replicas with a progress deadline of
// deadline seconds, whose pods' times the check's Config fixes.
func pastManifest(replicas int, maxSurge, maxUnavailable string, deadline int) string {
	return fmt.Sprintf(`apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: %d
  progressDeadlineSeconds: %d
  strategy:
    rollingUpdate: {maxSurge: %s, maxUnavailable: %s}
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: app
        image: web:1.0
`, replicas, deadline, maxSurge, maxUnavailable)
}

// pastCase is a check of pastManifest's rollout, and the simulator's run
// of the same rollout: Config.NeverReady names an image no pod has, so
// that the check rolls out to check.MarkerImage, which Simulate's Change
// rolls out to too, under the same pod model and quota.
type pastCase struct {
	src   string
	pods  sim.PodModel // ReadyAfter and Terminating, fixed
	quota int
	// changes are the replica changes of the run (an HPA's).
	changes []sim.ReplicaChange
	cfg     check.Config // the rules; its Sim, NeverReady and times are set by run
}

func (c pastCase) config(past time.Duration) check.Config {
	cfg := c.cfg
	cfg.QuotaPods = c.quota
	cfg.NeverReady = []string{"never-used:0"}
	cfg.Sim = sim.Config{Pods: c.pods, PastDeadline: past, Changes: c.changes}
	cfg.ReadyAfterFixed, cfg.TerminatingFixed = true, true
	cfg.Workers = 1
	return cfg
}

// run returns the check's report with Sim.PastDeadline past, and the
// simulator's summary of the same rollout.
func (c pastCase) run(t interface {
	Helper()
	Fatal(...any)
}, past time.Duration) (check.Report, sim.Summary) {
	t.Helper()
	docs, err := manifest.Parse("deploy.yaml", []byte(c.src))
	if err != nil {
		t.Fatal(err)
	}
	in := check.Load("deploy.yaml", docs, check.LoadOptions{})
	d, err := in.Pick("")
	if err != nil {
		t.Fatal(err)
	}
	cfg := c.config(past)
	pods := cfg.Sim
	pods.Pods.NeverReady = cfg.NeverReady
	simulation, err := check.Simulate(in, d, check.Change{Images: []check.Image{{Image: check.MarkerImage}}, QuotaPods: c.quota,
		Config: pods, FixedReady: true, FixedTerminating: true})
	if err != nil {
		t.Fatal(err)
	}
	return check.Run(in, cfg), simulation.Result.Summary
}

// completesAt returns the figure RuleDeadline's finding gives for when the
// rollout completes after the deadline, and false without one.
func completesAt(r check.Report) (string, bool) {
	for _, f := range ruleFindings(r, check.RuleDeadline) {
		if _, at, ok := strings.Cut(f.Message, "and the rollout completes at +"); ok {
			return at, true
		}
	}
	return "", false
}

// TestCompletesAfterDeadline: check runs a rollout once, going on past its
// progress deadline as the controllers do, and RuleDeadline's finding
// says when it completes with the simulator's own figure
// (sim.Summary.CompleteAfterDeadline) for the same rollout, at the sync
// where the deadline is exceeded (DeadlineExceededAt), the completion
// counting as the Deployment's longest rollout; or that it is not
// complete where the run stops.
func TestCompletesAfterDeadline(t *testing.T) {
	for _, tc := range []struct {
		name    string
		c       pastCase
		past    time.Duration
		timeout time.Duration
		want    string // a part of RuleDeadline's message
		timeMsg string // a part of RuleTimeout's, if one is wanted
	}{{
		// sim's TestPastDeadline: refused creations back off past the
		// deadline, and the rollout completes once they are retried.
		name: "quota refusals back off past the deadline",
		c: pastCase{src: pastManifest(56, "67%", "27", 600), quota: 93,
			pods: sim.PodModel{ReadyAfter: 6 * time.Second, Terminating: 30 * time.Second}},
		want: "kubectl rollout status fails here, but the controllers go on",
	}, {
		name: "pods slower than the deadline: each wave outlasts it",
		c:    pastCase{src: pastManifest(3, "1", "0", 100), pods: sim.PodModel{ReadyAfter: 120 * time.Second}},
		want: "kubectl rollout status fails here, but the controllers go on (wave 1 lasts 2m, to +2m), and the rollout completes at +6m0.002s",
	}, {
		name: "not complete a minute past the deadline",
		c: pastCase{src: pastManifest(56, "67%", "27", 600), quota: 93,
			pods: sim.PodModel{ReadyAfter: 6 * time.Second, Terminating: 30 * time.Second}},
		past: time.Minute, timeout: 10*time.Minute + 30*time.Second,
		want:    "but the rollout is not complete 1m after it (+11m",
		timeMsg: "the rollout is not complete at +11m",
	}, {
		// Pods ready 3h after they start complete 9h in: past the default
		// hour, within the largest PastDeadline.
		name: "the largest PastDeadline goes on until the rollout completes",
		c:    pastCase{src: pastManifest(3, "1", "0", 100), pods: sim.PodModel{ReadyAfter: 3 * time.Hour}},
		past: math.MaxInt64,
		want: "the rollout completes at +9h0m0.002s",
	}, {
		name: "stopped at the deadline",
		c:    pastCase{src: pastManifest(3, "1", "0", 100), pods: sim.PodModel{ReadyAfter: 120 * time.Second}},
		past: -1, timeout: 100 * time.Second,
		want: "the simulation stops here too (Config.Sim.PastDeadline is negative)",
		// The timeout comes before the deadline: the rollout is not
		// complete at either.
		timeMsg: "the rollout is not complete at +1m41s, where the simulation stops, longer than the timeout 1m40s",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			tc.c.cfg.Timeout = tc.timeout
			r, sm := tc.c.run(t, tc.past)
			if sm.Outcome != sim.OutcomeDeadlineExceeded {
				t.Fatalf("the simulator's outcome %q, want the deadline exceeded", sm.Outcome)
			}
			fs := ruleFindings(r, check.RuleDeadline)
			if len(fs) != 1 || fs[0].At != sm.DeadlineExceededAt.Seconds() || !strings.Contains(fs[0].Message, tc.want) {
				t.Fatalf("progress-deadline findings %+v, want one at +%v (the simulator's DeadlineExceededAt) saying %q", fs, sm.DeadlineExceededAt, tc.want)
			}
			at, ok := completesAt(r)
			if want := sm.CompleteAfterDeadline; ok != (want > 0) || ok && at != words.Duration(want) {
				t.Errorf("check says the rollout completes at +%s (%v), the simulator at +%s", at, ok, words.Duration(want))
			}
			if got, want := r.Deployments[0].Longest, sm.CompleteAfterDeadline.Seconds(); got != want {
				t.Errorf("longest rollout %gs, want the completion after the deadline, %gs", got, want)
			}
			timeouts := ruleFindings(r, check.RuleTimeout)
			if tc.timeMsg == "" && len(timeouts) > 0 || tc.timeMsg != "" && (len(timeouts) != 1 || !strings.Contains(timeouts[0].Message, tc.timeMsg)) {
				t.Errorf("timeout findings %+v, want %q", timeouts, tc.timeMsg)
			}
		})
	}
}

// TestCompletesAfterDeadlineOtherModels: the interval and event-driven
// models stop at the progress deadline, so check runs the rollout again
// without it to tell when it completes, and says so.
func TestCompletesAfterDeadlineOtherModels(t *testing.T) {
	for _, model := range []sim.Config{{Model: sim.ModelSimple, Interval: 30 * time.Second}, {Model: sim.ModelSimple}} {
		t.Run(model.ModelName(), func(t *testing.T) {
			model.Pods = sim.PodModel{ReadyAfter: 300 * time.Second}
			r := runBudget(t, pastManifest(3, "1", "0", 100), check.Config{Sim: model, ReadyAfterFixed: true, TerminatingFixed: true})
			fs := ruleFindings(r, check.RuleDeadline)
			if len(fs) != 1 || !strings.Contains(fs[0].Message, "kubectl rollout status fails here, but the controllers go on, and the rollout completes at +") ||
				!strings.HasSuffix(fs[0].Message, ", as a run without the deadline has it (this model stops at the deadline)") {
				t.Fatalf("progress-deadline findings %+v, want one with the completion of a run without the deadline", fs)
			}
			if r.Deployments[0].Longest < 3*300 {
				t.Errorf("longest rollout %gs, want the completion of the run without the deadline", r.Deployments[0].Longest)
			}
		})
	}
}

// TestJudgedPastDeadline: the pods that exist past the progress deadline
// are judged, as the controllers go on: a scale-up after the deadline (an
// HPA's) that breaks max-pods or min-available, or has a drain refused
// (pdb-drain-blocked), is a finding that says it comes after the
// deadline, where a check whose run stops at the deadline
// (Sim.PastDeadline -1) has none.
func TestJudgedPastDeadline(t *testing.T) {
	// Pods ready 2m after they start outlast the deadline of 100s, which
	// is exceeded at +1m41s; the HPA doubles the replicas at +4m.
	base := pastCase{src: pastManifest(3, "1", "0", 100), pods: sim.PodModel{ReadyAfter: 120 * time.Second},
		changes: []sim.ReplicaChange{{After: 4 * time.Minute, Replicas: 6}}}
	for _, tc := range []struct {
		name string
		rule string
		cfg  check.Config
		pdb  string // a PodDisruptionBudget's document
		want string
	}{{
		name: "max-pods after a scale-up past the deadline",
		rule: check.RuleMaxPods,
		cfg:  check.Config{MaxPods: 5},
		want: "above the max-pods limit 5 (peak 7, counting the time past the progress deadline), after the progress deadline was exceeded at +1m41s: the controllers go on",
	}, {
		name: "min-available after a scale-up past the deadline",
		rule: check.RuleMinAvailable,
		cfg:  check.Config{MinAvailable: surge.Percent(100), MinAvailableRule: true},
		// The lowest, 3, is that of the start too, before the deadline.
		want: "below the min-available limit 6 (lowest 3), after the progress deadline was exceeded at +1m41s: the controllers go on",
	}, {
		// Half of the 6 replicas kept: with 3 of them ready, no eviction
		// is allowed, where 3 are at rest.
		name: "a drain refused after a scale-up past the deadline",
		rule: check.RulePDBDrain,
		pdb:  "\n---\napiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: web\nspec:\n  minAvailable: 50%\n  selector:\n    matchLabels: {app: web}\n",
		// The message words the budget at the replicas of the moment,
		// 6 after the scale-up, not at the 3 checked.
		want: "during the rollout the ready pods drop to 3 while PodDisruptionBudget web (minAvailable 50%) keeps 3 of 6 pods ready: a node drain is refused from +4m to +4m0.001s (at replicas 3, scaled to 6 by then): the budget allows 0 evictions then, and the drain waits (after the progress deadline was exceeded at +1m41s: the controllers go on); a drain that deletes pods without eviction (kubectl drain --disable-eviction, a node lost) leaves 2 ready, below the 3 it keeps",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			c := base
			c.cfg = tc.cfg
			c.src += tc.pdb
			full, sm := c.run(t, 0)
			stopped, _ := c.run(t, -1)
			if len(ruleFindings(stopped, tc.rule)) > 0 {
				t.Fatalf("stopped at the deadline, %s findings %+v, want none", tc.rule, ruleFindings(stopped, tc.rule))
			}
			fs := ruleFindings(full, tc.rule)
			if len(fs) != 1 || fs[0].At <= sm.DeadlineExceededAt.Seconds() || !strings.Contains(fs[0].Message, tc.want) {
				t.Fatalf("%s findings %+v, want one after the deadline (+%v) saying %q", tc.rule, fs, sm.DeadlineExceededAt, tc.want)
			}
		})
	}
}

// judgedToDeadline are the rules judged from the run as it goes, as
// opposed to how it ends (never-finishes, timeout, max-duration and the
// warnings of a rollout that completes), which a run stopped at the
// deadline cannot know.
var judgedToDeadline = []string{check.RuleInput, check.RuleMaxPods, check.RuleMinAvailable, check.RuleOutage, check.RuleDeadline}

// TestPastDeadlineProperties: on drawn rollouts that exceed their
// progress deadline, check's "completes at" figure is the simulator's
// CompleteAfterDeadline for the same rollout (and the Deployment's
// longest rollout), and none is given when the simulator has none; the
// findings up to the deadline are those of a check whose run stops there
// (Sim.PastDeadline -1), message for message, RuleDeadline's going on
// where the stopped one says the run stops, and a finding going on with
// the worse figure reached past the deadline (pastLead): among them the limits broken
// only between syncs up to the deadline by less than a worse figure
// reached past it, which the figures up to the deadline
// (sim.Summary.UpToDeadline) place at the deadline's side. The draws
// include an HPA's change, which meets a fewest available past the
// deadline and a racing order's later deadline.
func TestPastDeadlineProperties(t *testing.T) {
	exceeded, completed, runs, worse := 0, 0, 0, 0
	rapid.Check(t, func(t *rapid.T) {
		replicas := rapid.IntRange(1, 8).Draw(t, "replicas")
		maxSurge := rapid.SampledFrom([]string{"0", "1", "25%", "50%"}).Draw(t, "maxSurge")
		maxUnavailable := rapid.SampledFrom([]string{"0", "1", "25%"}).Draw(t, "maxUnavailable")
		if maxSurge == "0" && maxUnavailable == "0" {
			maxUnavailable = "1"
		}
		deadline := rapid.IntRange(10, 120).Draw(t, "progressDeadlineSeconds")
		c := pastCase{src: pastManifest(replicas, maxSurge, maxUnavailable, deadline),
			pods: sim.PodModel{ReadyAfter: time.Duration(rapid.IntRange(0, 240).Draw(t, "readyAfter")) * time.Second,
				Terminating: time.Duration(rapid.IntRange(0, 60).Draw(t, "terminating")) * time.Second}}
		if rapid.Bool().Draw(t, "quota") {
			c.quota = replicas + rapid.IntRange(0, 3).Draw(t, "quota room")
		}
		if rapid.Bool().Draw(t, "max-pods") {
			c.cfg.MaxPods = replicas + rapid.IntRange(0, 2).Draw(t, "max-pods room")
		}
		if rapid.Bool().Draw(t, "min-available") {
			c.cfg.MinAvailable, c.cfg.MinAvailableRule = surge.Count(int32(rapid.IntRange(0, replicas).Draw(t, "min-available"))), true
		}
		if rapid.Bool().Draw(t, "hpa") {
			c.changes = []sim.ReplicaChange{{After: time.Duration(rapid.IntRange(0, 300).Draw(t, "hpa at")) * time.Second,
				Replicas: int32(rapid.IntRange(1, 12).Draw(t, "hpa replicas"))}}
		}
		full, sm := c.run(t, 0)
		runs++
		if sm.Outcome != sim.OutcomeDeadlineExceeded {
			return
		}
		exceeded++
		at, ok := completesAt(full)
		if want := sm.CompleteAfterDeadline; ok != (want > 0) || ok && at != words.Duration(want) {
			t.Fatalf("check says the rollout completes at +%s (%v), the simulator at +%s", at, ok, words.Duration(want))
		}
		if got, want := full.Deployments[0].Longest, sm.CompleteAfterDeadline.Seconds(); got != want {
			t.Fatalf("longest rollout %gs, want the completion after the deadline, %gs", got, want)
		}
		if ok {
			completed++
		}
		stopped, ssm := c.run(t, -1)
		if sm.UpToDeadline.PeakPods != ssm.PeakPods || sm.UpToDeadline.PeakPodsHigh != ssm.PeakPodsHigh || sm.UpToDeadline.MinAvailable != ssm.MinAvailable {
			t.Fatalf("figures up to the deadline %+v, the run stopped there %+v", sm.UpToDeadline, ssm)
		}
		if sm.PeakPods > ssm.PeakPods || sm.PeakPodsHigh > ssm.PeakPodsHigh || sm.MinAvailable < ssm.MinAvailable {
			worse++
		}
		for _, s := range stopped.Findings {
			if !slices.Contains(judgedToDeadline, s.Rule) || s.At > sm.DeadlineExceededAt.Seconds() {
				continue
			}
			want := s.Message
			if s.Rule == check.RuleDeadline {
				want, _, _ = strings.Cut(want, "; kubectl rollout status fails here, and the simulation stops here too")
			}
			if !slices.ContainsFunc(full.Findings, func(f check.Finding) bool {
				return f.Rule == s.Rule && f.Severity == s.Severity && f.At == s.At && f.Cause == s.Cause && f.Location == s.Location &&
					(f.Message == want || strings.HasPrefix(f.Message, want+pastLead) || s.Rule == check.RuleDeadline && strings.HasPrefix(f.Message, want+"; "))
			}) {
				t.Fatalf("the finding %+v of the run stopped at the deadline (+%v) is not in the check going on past it:\n%+v", s, sm.DeadlineExceededAt, full.Findings)
			}
		}
	})
	t.Logf("%d of %d rollouts exceeded the deadline, %d of them completed after it, %d with worse figures past it", exceeded, runs, completed, worse)
	if exceeded == 0 || completed == 0 {
		t.Errorf("%d of %d rollouts exceeded the deadline, %d completed after it: a weak test", exceeded, runs, completed)
	}
}

// TestPeakAtTheDeadlineInstant: a peak reached between syncs at the
// instant the progress deadline is exceeded (the new pod, created at
// +1ms after the first sync's refused status write, ready at +1m22s, the
// deadline's +1m21s past at the same sync) is reported then, by the
// run stopped at the deadline and by the one going on past it alike; the
// run going on had reported the same pods at its next sync, 1ms later,
// as past the deadline (rapid's draw in CI).
func TestPeakAtTheDeadlineInstant(t *testing.T) {
	c := pastCase{src: pastManifest(2, "1", "0", 81),
		pods: sim.PodModel{ReadyAfter: 82*time.Second - time.Millisecond, Terminating: time.Second},
		cfg:  check.Config{MaxPods: 3}}
	const want = "4 pods exist between syncs, above the max-pods limit 3"
	for _, past := range []time.Duration{-1, 0} {
		r, sm := c.run(t, past)
		if sm.DeadlineExceededAt != 82*time.Second || sm.PeakPodsAt != 82*time.Second {
			t.Fatalf("PastDeadline %v: deadline exceeded at +%v, peak at +%v; the case wants both at +1m22s", past, sm.DeadlineExceededAt, sm.PeakPodsAt)
		}
		if got := ruleFindings(r, check.RuleMaxPods); len(got) != 1 || got[0].At != 82 || got[0].Message != want || got[0].Location.Field != "spec.strategy.rollingUpdate.maxSurge" {
			t.Errorf("PastDeadline %v: max-pods findings %+v, want one at +1m22s on maxSurge saying %q", past, got, want)
		}
	}
}

// TestFiguresBeforeDeadlineSayNothingOfIt: a peak or a fewest available
// reached before the progress deadline is the whole run's as much as the
// run stopped at the deadline's, so its finding says nothing of the time
// past the deadline, where a user would read that the figure came after
// it ("(peak 4, counting the time past the progress deadline)" for a
// peak at +1ms of a deadline exceeded at +1m41s).
func TestFiguresBeforeDeadlineSayNothingOfIt(t *testing.T) {
	c := pastCase{src: pastManifest(3, "1", "0", 100), pods: sim.PodModel{ReadyAfter: 120 * time.Second},
		cfg: check.Config{MaxPods: 3, MinAvailable: surge.Count(4), MinAvailableRule: true}}
	full, sm := c.run(t, 0)
	if sm.Outcome != sim.OutcomeDeadlineExceeded || sm.PeakPodsAt > sm.DeadlineExceededAt || sm.MinAvailableAt > sm.DeadlineExceededAt {
		t.Fatalf("summary %+v: want the deadline exceeded after the peak and the fewest available", sm)
	}
	fs := ruleFindings(full, check.RuleMaxPods, check.RuleMinAvailable)
	if len(fs) != 2 {
		t.Fatalf("findings %+v, want one max-pods and one min-available", fs)
	}
	for _, f := range fs {
		if strings.Contains(f.Message, "past the progress deadline") || strings.Contains(f.Message, "after the progress deadline") {
			t.Errorf("%s at +%gs, before the deadline (+%v): %q", f.Rule, f.At, sm.DeadlineExceededAt, f.Message)
		}
	}
}

// pastLead starts the words a finding up to the progress deadline gains
// in a run going on past it, where the run reaches a worse figure past
// the deadline.
const pastLead = "; past the progress deadline, as the controllers go on, "

// TestFindingsUpToTheDeadlineAsStopped: a limit broken only between
// syncs up to the progress deadline, by less than a worse figure the
// run reaches past it, is reported where and as the run stopped at the
// deadline reports it, by the run going on past it too, which adds the
// worse figure past it (rapid's draws in TestPastDeadlineProperties,
// once the case its exemption left open). The first row, seed
// 1908254065906240057 (3 replicas at maxSurge 1, a deadline of 10s, pods
// ready after 11s: 5 pods between syncs at the deadline's +11s, 6 past
// it), is gone: since the first sync's second status write is refused
// (rollout/sim's secondStatusWrite) the first pod is created at +1ms,
// and no grid of its neighbours (replicas, deadlines, ready and
// terminating times around it) puts a peak between syncs at the
// deadline's instant any more; TestPeakAtTheDeadlineInstant keeps such
// a peak, and the property test the rule.
func TestFindingsUpToTheDeadlineAsStopped(t *testing.T) {
	for _, tc := range []struct {
		name     string
		c        pastCase
		rule     string
		severity string
		// past is what the run going on past the deadline adds, after
		// pastLead: the worse figure it reaches past the deadline.
		past string
		at   float64
		want string
	}{{
		// seed 8072769068551774128: the order that defers deletions
		// reaches 9 pods up to the deadline, 10 past it.
		name: "the deferred deletions' peak before a higher one past the deadline",
		c: pastCase{src: pastManifest(6, "25%", "1", 10),
			pods: sim.PodModel{ReadyAfter: 11 * time.Second},
			cfg:  check.Config{MaxPods: 8}},
		rule: check.RuleMaxPods, severity: check.SeverityWarning, at: 0.001,
		want: "up to 9 pods can exist if the ReplicaSet controller deletes old pods after creating new ones at each instant, above the max-pods limit 8 (the likelier orders peak at 8)",
		past: "up to 10 pods can exist",
	}, {
		// seed 2062993147021068771 of a wider draw (an HPA's change):
		// 3 replicas, maxUnavailable 1, the HPA scaling to 1 replica at
		// +1m5s, where 1 pod is available between syncs; the deadline of
		// 64s is exceeded at +1m5.001s, and the whole run's fewest, none
		// available, comes at that instant after the sync that found it
		// exceeded (the old judgement said "1 pod available ... (lowest
		// 0)" at +1m5.001s instead).
		name: "the fewest available between syncs before fewer past the deadline",
		c: pastCase{src: pastManifest(3, "0", "1", 64),
			pods:    sim.PodModel{ReadyAfter: 66 * time.Second},
			changes: []sim.ReplicaChange{{After: 65 * time.Second, Replicas: 1}},
			cfg:     check.Config{MinAvailable: surge.Count(2), MinAvailableRule: true}},
		rule: check.RuleMinAvailable, severity: check.SeverityError, at: 65,
		want: "1 pod available between syncs, below the min-available limit 2",
		past: "0 pods available at +1m5.001s",
	}, {
		// seed 4908888304640017757 (TestPastDeadlineProperties with an
		// HPA's change): 1 replica scaled to 3 at +1m41s, the deadline
		// exceeded at +1m41.001s in the order that takes work as it
		// comes; the order that takes deletions first finds no deadline
		// exceeded before it reaches 5 pods at +3m23s, so the run
		// stopped at the deadline quotes a peak of 5 and says nothing of
		// the time past the deadline, nor does the run going on past it
		// (it said "(peak 5, counting the time past the progress
		// deadline)").
		name: "a peak up to a racing order's later deadline",
		c: pastCase{src: pastManifest(1, "1", "0", 101),
			pods:    sim.PodModel{ReadyAfter: 102 * time.Second, Terminating: time.Second},
			changes: []sim.ReplicaChange{{After: 101 * time.Second, Replicas: 3}},
			cfg:     check.Config{MaxPods: 1}},
		rule: check.RuleMaxPods, severity: check.SeverityError, at: 0.002,
		want: "2 pods exist, above the max-pods limit 1 (peak 5)",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			for _, past := range []time.Duration{-1, 0} {
				r, sm := tc.c.run(t, past)
				if sm.Outcome != sim.OutcomeDeadlineExceeded || sm.DeadlineExceededAt.Seconds() < tc.at {
					t.Fatalf("PastDeadline %v: %+v, want the deadline exceeded at +%gs or later", past, sm, tc.at)
				}
				var got []check.Finding
				for _, f := range ruleFindings(r, tc.rule) {
					if f.Severity == tc.severity {
						got = append(got, f)
					}
				}
				want := tc.want
				if past == 0 && tc.past != "" {
					want += pastLead + tc.past
				}
				if len(got) != 1 || got[0].At != tc.at || got[0].Message != want {
					t.Errorf("PastDeadline %v (peak %d at +%v, highest %d; up to the deadline %d at +%v, highest %d): %s %s findings %+v, want one at +%gs saying %q",
						past, sm.PeakPods, sm.PeakPodsAt, sm.PeakPodsHigh, sm.UpToDeadline.PeakPods, sm.UpToDeadline.PeakPodsAt, sm.UpToDeadline.PeakPodsHigh,
						tc.rule, tc.severity, got, tc.at, want)
				}
			}
		})
	}
}
