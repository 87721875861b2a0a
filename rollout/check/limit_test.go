package check_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rolloutmath/rolloutmath/rollout/check"
	"github.com/rolloutmath/rolloutmath/rollout/manifest"
	"github.com/rolloutmath/rolloutmath/rollout/sim"
	"github.com/rolloutmath/rolloutmath/surge"
	"pgregory.net/rapid"
)

// TestLimitWithProjection checks a rollout whose simulation stops at the
// work limit: the limit finding stays, with the projection's lower bound,
// and the max-duration rule, as the timeout rule (the CI's kubectl rollout
// status --timeout), is decided only when that bound already passes it:
// 20,000 pods to create and 20,000 to delete at 20 requests a second take
// more than 33 minutes.
func TestLimitWithProjection(t *testing.T) {
	in := limitInput(t, 20000)
	for _, tt := range []struct {
		name    string
		rule    string
		limit   time.Duration
		decided bool
	}{
		{"max-duration bound past the limit", check.RuleMaxDuration, 30 * time.Minute, true},
		{"max-duration bound within the limit", check.RuleMaxDuration, 24 * time.Hour, false},
		{"timeout bound past the limit", check.RuleTimeout, 30 * time.Minute, true},
		{"timeout bound within the limit", check.RuleTimeout, 24 * time.Hour, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cfg := check.Config{Sim: sim.Config{Model: sim.ModelControllers, MaxWork: 2000}}
			if tt.rule == check.RuleTimeout {
				cfg.Timeout = tt.limit
			} else {
				cfg.MaxDuration = tt.limit
			}
			report := check.Run(in, cfg)
			var limit, decided bool
			for _, f := range report.Findings {
				switch f.Rule {
				case check.RuleLimit:
					limit = strings.Contains(f.Message, "it would take at least")
				case tt.rule:
					decided = f.Severity == check.SeverityError && strings.Contains(f.Message, "at least")
				}
			}
			if !limit || decided != tt.decided || report.OK == tt.decided {
				t.Fatalf("limit finding %v, %s decided %v, OK %v; want true, %v, %v:\n%+v", limit, tt.rule, decided, report.OK, tt.decided, !tt.decided, report.Findings)
			}
		})
	}
}

// TestLimitWithPodBounds checks the pod bounds of a projected rollout:
// 20,000 replicas at 25%/25% stopped at a work limit of 2,000 have at
// most 40,000 pods at once over the rest (the old ReplicaSet's 20,000
// until the last is deleted, and the new one's up to spec.replicas), so a
// max-pods limit of 25,000, which the computed part stays within, draws a
// warning past the work limit, and one of 50,000 none.
func TestLimitWithPodBounds(t *testing.T) {
	in := limitInput(t, 20000)
	for _, tt := range []struct {
		name    string
		maxPods int
		warned  bool
	}{
		{"bound past the limit", 25_000, true},
		{"bound within the limit", 50_000, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			report := check.Run(in, check.Config{
				MaxPods: tt.maxPods,
				Sim:     sim.Config{Model: sim.ModelControllers, MaxWork: 2000},
			})
			warned := false
			for _, f := range report.Findings {
				if f.Rule != check.RuleMaxPods {
					continue
				}
				if f.Severity != check.SeverityWarning || !strings.Contains(f.Message, "past the work limit") {
					t.Fatalf("max-pods finding %+v: want only the warning past the work limit", f)
				}
				warned = true
			}
			if warned != tt.warned {
				t.Fatalf("warned past the work limit %v, want %v:\n%+v", warned, tt.warned, report.Findings)
			}
		})
	}
}

// TestLimitSaysWhatIsDecided checks the words of the limit finding: the
// limits that the part computed and the projection's proved bounds
// decide (20,000 replicas at 25%/25%, stopped with 18,501 old pods
// running: at most 38,501 pods at once, the new ReplicaSet's 20,000 with
// them, and at least the floor of 15,000 available over the rest, at
// least 33 minutes)
// are named with their verdicts, the others and the completion as not
// checked; with nothing decided the rollout is not checked.
func TestLimitSaysWhatIsDecided(t *testing.T) {
	in := limitInput(t, 20000)
	for _, tt := range []struct {
		name string
		cfg  check.Config
		want string
	}{
		{"nothing decided", check.Config{MaxPods: 25_000, MaxDuration: 24 * time.Hour},
			": this rollout is not checked;"},
		{"held by the bounds", check.Config{MaxPods: 50_000, MinAvailable: surge.Count(15_000), MinAvailableRule: true},
			": only what the part computed and the projection's bounds decide is checked: max-pods holds (at most 38501 pods at once, a proved bound), min-available holds (at least 15000 available, a proved bound); not checked: whether and when the rollout completes (and so its progress deadline);"},
		{"broken, held and open", check.Config{MaxPods: 50_000, MaxDuration: 10 * time.Minute, Timeout: 24 * time.Hour, MinAvailable: surge.Count(16_000), MinAvailableRule: true},
			"is checked: max-pods holds (at most 38501 pods at once, a proved bound), max-duration is broken; not checked: whether and when the rollout completes (and so its progress deadline), min-available, timeout;"},
		{"broken by the input", check.Config{MaxPods: 10_000},
			"is checked: max-pods is broken; not checked:"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cfg := tt.cfg
			cfg.Sim = sim.Config{Model: sim.ModelControllers, MaxWork: 2000}
			report := check.Run(in, cfg)
			var said []string
			for _, f := range report.Findings {
				if f.Rule == check.RuleLimit {
					said = append(said, f.Message)
				}
			}
			if len(said) != 1 || !strings.Contains(said[0], tt.want) {
				t.Fatalf("limit findings %q: want one that says %q", said, tt.want)
			}
		})
	}
}

// TestLimitDecisionsAgreeWithFullRuns checks that what a check stopped
// at its work limit decides is what the same check computed to the end
// finds: a rule its limit finding says is broken has an error there too,
// and one it says holds has none (rollouts of 30 to 600 replicas,
// strategies from one pod at a time to 50%/50%, pods ready after 0 to
// 10s and terminating at once or for 5s, the four limits drawn around
// the figures, a work limit of 20 to 400 units).
func TestLimitDecisionsAgreeWithFullRuns(t *testing.T) {
	var held, broken, compared int
	rapid.Check(t, func(t *rapid.T) {
		replicas := rapid.IntRange(30, 600).Draw(t, "replicas")
		strategy := rapid.SampledFrom([][2]string{{"25%", "25%"}, {"1", "0"}, {"0", "1"}, {"50%", "50%"}, {"10%", "0"}}).Draw(t, "maxSurge/maxUnavailable")
		in := limitInput(t, replicas, strategy[0], strategy[1])
		cfg := check.Config{
			MaxPods:          rapid.IntRange(replicas, 2*replicas+1).Draw(t, "maxPods"),
			MinAvailable:     surge.Count(int32(rapid.IntRange(replicas/2, replicas).Draw(t, "minAvailable"))),
			MinAvailableRule: rapid.Bool().Draw(t, "min-available rule"),
			MaxDuration:      time.Duration(rapid.IntRange(1, 400).Draw(t, "maxDuration s")) * time.Second,
			Timeout:          time.Duration(rapid.IntRange(1, 400).Draw(t, "timeout s")) * time.Second,
			Sim: sim.Config{Model: sim.ModelControllers, MaxWork: rapid.IntRange(20, 400).Draw(t, "maxWork"),
				Pods: sim.PodModel{
					ReadyAfter:  time.Duration(rapid.IntRange(0, 10).Draw(t, "readyAfter s")) * time.Second,
					Terminating: time.Duration(rapid.IntRange(0, 1).Draw(t, "terminating 5s")) * 5 * time.Second,
				}},
			ReadyAfterFixed:  true,
			TerminatingFixed: true,
		}
		limited := check.Run(in, cfg)
		var said string
		for _, f := range limited.Findings {
			if f.Rule == check.RuleLimit {
				said = f.Message
			}
		}
		if said == "" {
			t.Skip("computed to the end within the limit")
		}
		cfg.Sim.MaxWork = 0
		full := check.Run(in, cfg)
		if full.Limited() {
			t.Skip("the full run stopped at the default limit too")
		}
		compared++
		for _, rule := range []string{check.RuleMaxPods, check.RuleMinAvailable, check.RuleMaxDuration, check.RuleTimeout} {
			fails := slices.ContainsFunc(full.Findings, func(f check.Finding) bool { return f.Rule == rule && f.Severity == check.SeverityError })
			switch {
			case strings.Contains(said, rule+" is broken") && !fails:
				t.Fatalf("the limited check says %s is broken, the full check finds no error:\n%s\n%+v", rule, said, full.Findings)
			case strings.Contains(said, rule+" holds") && fails:
				t.Fatalf("the limited check says %s holds, the full check breaks it:\n%s\n%+v", rule, said, full.Findings)
			case strings.Contains(said, rule+" is broken"):
				broken++
			case strings.Contains(said, rule+" holds"):
				held++
			}
		}
	})
	t.Logf("%d rules held and %d broken by the limited checks", held, broken)
	// A weak test decides nothing: of 100 checks compared, about 38 keep
	// a rule and 128 break one (1,000: 362 and 1,454; the race detector's
	// CI pass compares 20: 4 to 8 and 30 to 33). Each is asked of a tenth
	// of the checks compared.
	if held < compared/10 || broken < compared/10 {
		t.Fatalf("%d rules held and %d broken by the limited checks of %d compared, want a tenth of them each at least", held, broken, compared)
	}
}

// limitInput is a Deployment of replicas at maxSurge and maxUnavailable
// (25%/25% when not given), without ReplicaSets: fully rolled out on
// its template.
func limitInput(t interface {
	Helper()
	Fatal(...any)
}, replicas int, strategy ...string) *check.Input {
	t.Helper()
	maxSurge, maxUnavailable := "25%", "25%"
	if len(strategy) == 2 {
		maxSurge, maxUnavailable = strategy[0], strategy[1]
	}
	docs, err := manifest.Parse("deploy.yaml", []byte(fmt.Sprintf(`apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: %d
  strategy:
    rollingUpdate: {maxSurge: %q, maxUnavailable: %q}
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: app
        image: web:1.0
`, replicas, maxSurge, maxUnavailable)))
	if err != nil {
		t.Fatal(err)
	}
	return check.Load("deploy.yaml", docs, check.LoadOptions{})
}

// TestLimitWordsOneAsSingular checks a 1-replica rollout (maxSurge 1,
// maxUnavailable 0, minReadySeconds 30: at least 29s, its Ready time
// kept to the second) stopped at a work limit of 1,
// with one pod creation and one deletion left: the max-duration finding
// and the limit finding say "1 pod creation and 1 deletion", as the
// min-available texts say "1 pod", never "1 deletions".
func TestLimitWordsOneAsSingular(t *testing.T) {
	docs, err := manifest.Parse("deploy.yaml", []byte(`apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 1
  minReadySeconds: 30
  strategy: {rollingUpdate: {maxSurge: 1, maxUnavailable: 0}}
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: app
        image: web:1.0
`))
	if err != nil {
		t.Fatal(err)
	}
	in := check.Load("deploy.yaml", docs, check.LoadOptions{})
	report := check.Run(in, check.Config{
		MaxDuration: 10 * time.Second,
		Sim:         sim.Config{Model: sim.ModelControllers, MaxWork: 1},
	})
	want := map[string]string{
		check.RuleMaxDuration: "the rollout takes at least 29s (1 pod creation and 1 deletion left at the work limit,",
		check.RuleLimit:       "(it would take at least 29s: 1 pod creation and 1 deletion were left)",
	}
	for _, f := range report.Findings {
		if w, ok := want[f.Rule]; ok {
			if !strings.Contains(f.Message, w) {
				t.Errorf("%s finding %q: want it to say %q", f.Rule, f.Message, w)
			}
			delete(want, f.Rule)
		}
	}
	if len(want) > 0 {
		t.Errorf("no finding of %v:\n%+v", want, report.Findings)
	}
}

// TestLimitNamesWorkAsSimulate checks that a check stopped at its work
// limit names a unit of work as simulate's outcome does ("controller syncs
// and pod writes taken one by one, and the pods they walk"): under the
// controllers model a unit is a group of pod writes too, not only a sync.
func TestLimitNamesWorkAsSimulate(t *testing.T) {
	cfg := sim.Config{Model: sim.ModelControllers, MaxWork: 5}
	report := check.Run(limitInput(t, 2000), check.Config{Sim: cfg})
	const want = "5 units of work (controller syncs and pod writes taken one by one, and the pods they walk)"
	found := false
	for _, f := range report.Findings {
		if f.Rule == check.RuleLimit {
			found = true
			if !strings.Contains(f.Message, want) {
				t.Errorf("limit finding %q: want it to say %q", f.Message, want)
			}
		}
	}
	if !found {
		t.Fatalf("no limit finding at MaxWork 5:\n%+v", report.Findings)
	}
}

// TestLimitAtTheSyncs checks the bound on a check run's syncs: a rollout
// one pod at a time costs little work, its syncs fast-forwarded, but
// makes nine syncs a replica, each of which check records; a run stops
// after one more sync than its work budget has units, with a limit finding
// that says so, and the count is among those projected. Within the
// bound the rollout is checked to its end, and the caller's own
// Sim.MaxSyncs, if lower, stops it first.
func TestLimitAtTheSyncs(t *testing.T) {
	// 3,000 replicas at maxSurge 1: about 27,000 syncs for under 5,000
	// units of work.
	docs, err := manifest.Parse("deploy.json", []byte(`{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"}, "spec": {"replicas": 3000,
		"strategy": {"rollingUpdate": {"maxSurge": 1, "maxUnavailable": 0}},
		"selector": {"matchLabels": {"app": "web"}}, "template": {"metadata": {"labels": {"app": "web"}},
		"spec": {"containers": [{"name": "app", "image": "web:1.0"}]}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	in := check.Load("deploy.json", docs, check.LoadOptions{})
	run := func(maxWork, maxSyncs int) check.Report {
		t.Helper()
		report := check.Run(in, check.Config{Sim: sim.Config{Model: sim.ModelControllers, MaxWork: maxWork, MaxSyncs: maxSyncs}})
		if len(report.Deployments) != 1 {
			t.Fatalf("%d Deployments checked: %+v", len(report.Deployments), report.Findings)
		}
		return report
	}
	if whole := run(30_000, 0); whole.Deployments[0].Completed != 1 || len(whole.Findings) != 0 {
		t.Fatalf("MaxWork 30000: completed %d, findings %+v", whole.Deployments[0].Completed, whole.Findings)
	}
	for _, tt := range []struct {
		name              string
		maxWork, maxSyncs int
		want              string
	}{
		{"MaxWork 10000", 10_000, 0, "syncs (one more than its 10000 units of work: check keeps a record of each sync)"},
		{"MaxWork 100000, MaxSyncs 5000", 100_000, 5000, "5000 syncs (Config.Sim.MaxSyncs)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			report := run(tt.maxWork, tt.maxSyncs)
			var msgs []string
			for _, f := range report.Findings {
				if f.Rule == check.RuleLimit {
					msgs = append(msgs, f.Message)
				}
			}
			want := "the simulation stopped at its limit of " + tt.want + " before the rollout ended"
			if r := report.Deployments[0]; len(msgs) != 1 || !strings.HasPrefix(msgs[0], want) || r.Completed != 0 || !slices.Equal(r.Projected, []int32{3000}) {
				t.Fatalf("limit findings %q, completed %d, projected %v; want one starting %q", msgs, r.Completed, r.Projected, want)
			}
		})
	}
}
