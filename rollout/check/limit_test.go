package check_test

import (
	"strings"
	"testing"
	"time"

	"github.com/rolloutmath/rolloutmath/rollout/check"
	"github.com/rolloutmath/rolloutmath/rollout/manifest"
	"github.com/rolloutmath/rolloutmath/rollout/sim"
)

// TestLimitWithProjection checks a rollout whose simulation stops at the
// work limit: the limit finding stays, with the projection's lower bound,
// and the max-duration rule is decided only when that bound already
// passes it.
func TestLimitWithProjection(t *testing.T) {
	docs, err := manifest.Parse("deploy.yaml", []byte(`apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 20000
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
	for _, tt := range []struct {
		name        string
		maxDuration time.Duration
		decided     bool
	}{
		// 20,000 pods to create and 20,000 to delete at 20 requests a
		// second take more than 33 minutes.
		{"bound past the limit", 30 * time.Minute, true},
		{"bound within the limit", 24 * time.Hour, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			report := check.Run(in, check.Config{
				MaxDuration: tt.maxDuration,
				Sim:         sim.Config{Model: sim.ModelControllers, MaxWork: 2000},
			})
			var limit, duration bool
			for _, f := range report.Findings {
				switch f.Rule {
				case check.RuleLimit:
					limit = strings.Contains(f.Message, "it would take at least")
				case check.RuleMaxDuration:
					duration = f.Severity == check.SeverityError && strings.Contains(f.Message, "at least")
				}
			}
			if !limit || duration != tt.decided || report.OK == tt.decided {
				t.Fatalf("limit finding %v, max-duration decided %v, OK %v; want true, %v, %v:\n%+v", limit, duration, report.OK, tt.decided, !tt.decided, report.Findings)
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
	docs, err := manifest.Parse("deploy.yaml", []byte(`apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 20000
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
	docs, err := manifest.Parse("deploy.yaml", []byte(`apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 2000
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
	cfg := sim.Config{Model: sim.ModelControllers, MaxWork: 5}
	report := check.Run(check.Load("deploy.yaml", docs, check.LoadOptions{}), check.Config{Sim: cfg})
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
