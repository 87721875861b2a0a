package check_test

import (
	"errors"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/check"
	"github.com/rolloutmath/rolloutmath/rollout/manifest"
	"github.com/rolloutmath/rolloutmath/rollout/sim"
	"github.com/rolloutmath/rolloutmath/surge"
)

const simulateWeb = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 4
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: app
        image: web:1.0
`

const simulateHPA = `---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: web
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  minReplicas: 6
  maxReplicas: 9
  metrics:
  - type: Resource
    resource: {name: cpu, target: {type: Utilization, averageUtilization: 80}}
`

const simulateQuota = `---
apiVersion: v1
kind: ResourceQuota
metadata:
  name: pods
spec:
  hard: {pods: "5"}
`

func loadSimulate(t *testing.T, text string) (*check.Input, rollout.Deployment) {
	t.Helper()
	docs, err := manifest.Parse("web.yaml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	in := check.Load("web.yaml", docs, check.LoadOptions{})
	if p := in.Problems(); len(p) > 0 {
		t.Fatalf("problems: %v", p)
	}
	d, err := in.Pick("")
	if err != nil {
		t.Fatal(err)
	}
	return in, d
}

// Simulate applies a Change as rolloutctl simulate applies its flags: the
// spec's changes first (an HPA's range unless the replicas are set), the
// pod times from the template unless fixed, a namespace quota unless
// QuotaPods, then the run.
func TestSimulate(t *testing.T) {
	image := []check.Image{{Image: "web:2.0"}}
	fixed := sim.Config{Model: sim.ModelSimple, Interval: 30 * time.Second, Pods: sim.PodModel{ReadyAfter: 5 * time.Second}}
	for _, tt := range []struct {
		name         string
		manifest     string
		change       check.Change
		wantReplicas int32
		wantPeak     int64
		wantNote     string
		wantTimes    int
	}{
		{"image change at the template's times", simulateWeb,
			check.Change{Images: image, Config: sim.Config{Model: sim.ModelSimple, Interval: 30 * time.Second}}, 4, 5, "", 2},
		{"replicas, maxSurge and maxUnavailable set", simulateWeb,
			check.Change{Images: image, Replicas: 10, SetReplicas: true, MaxSurge: surge.Count(3), SetMaxSurge: true,
				MaxUnavailable: surge.Count(0), SetMaxUnavailable: true, Config: fixed, FixedReady: true}, 10, 13, "", 1},
		{"an HPA bounds the replicas", simulateWeb + simulateHPA,
			check.Change{Images: image, Config: fixed, FixedReady: true, FixedTerminating: true}, 6, 8, "HorizontalPodAutoscaler web scales it between 6 and 9 replicas (checked at 6)", 0},
		{"set replicas win over the HPA", simulateWeb + simulateHPA,
			check.Change{Images: image, Replicas: 2, SetReplicas: true, Config: fixed, FixedReady: true, FixedTerminating: true}, 2, 3, "", 0},
		{"a quota caps the pods", simulateWeb + simulateQuota,
			check.Change{Images: image, Config: fixed, FixedReady: true, FixedTerminating: true}, 4, 5, "ResourceQuota", 0},
		{"QuotaPods replaces the namespace's quota", simulateWeb + simulateQuota,
			check.Change{Images: image, QuotaPods: 4, Config: fixed, FixedReady: true, FixedTerminating: true}, 4, 4, "", 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			in, d := loadSimulate(t, tt.manifest)
			before := slices.Clone(tt.change.Images)
			run, err := check.Simulate(in, d, tt.change)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(before, tt.change.Images); diff != "" {
				t.Errorf("Simulate changed the Change's images (-want +got):\n%s", diff)
			}
			if got := run.State.Deployment.Spec.Replicas; got != tt.wantReplicas {
				t.Errorf("replicas %d, want %d", got, tt.wantReplicas)
			}
			if got := run.Result.Summary.PeakPods; got != tt.wantPeak {
				t.Errorf("peak pods %d, want %d", got, tt.wantPeak)
			}
			if run.Result.Summary.Outcome != sim.OutcomeComplete {
				t.Errorf("outcome %s: %s", run.Result.Summary.Outcome, run.Result.Summary.Detail)
			}
			notes := strings.Join(run.Notes, "\n")
			if (tt.wantNote == "") != (notes == "") || !strings.Contains(notes, tt.wantNote) {
				t.Errorf("notes %q, want one with %q", notes, tt.wantNote)
			}
			if len(run.Times) != tt.wantTimes {
				t.Errorf("pod times %q, want %d", run.Times, tt.wantTimes)
			}
			if !strings.HasPrefix(run.Title, "web: fully rolled out on its template, then image app=web:2.0") || run.Model == "" {
				t.Errorf("title %q, model %q", run.Title, run.Model)
			}
			again, err := check.Simulate(in, d, tt.change)
			if err != nil || again.Title != run.Title || !cmp.Equal(again.Result.Summary, run.Result.Summary) {
				t.Errorf("a second run differs: %v %q %+v", err, again.Title, again.Result.Summary)
			}
			// Prepare is the same Simulation without the run, which
			// sim.Run of its start and Config makes.
			prep, err := check.Prepare(in, d, tt.change)
			if err != nil {
				t.Fatal(err)
			}
			res, err := sim.Run(prep.State, prep.Config)
			if err != nil {
				t.Fatal(err)
			}
			want := run
			want.Result = sim.Result{}
			if !reflect.DeepEqual(want, prep) || !cmp.Equal(res.Summary, run.Result.Summary) {
				t.Errorf("Prepare is not Simulate without its Result:\n%+v\nwant %+v\nsummary %+v, want %+v", prep, want, res.Summary, run.Result.Summary)
			}
		})
	}
}

// The Changes that make the Deployment invalid are refused as the API
// server would refuse them.
func TestSimulateInvalidChange(t *testing.T) {
	in, d := loadSimulate(t, strings.Replace(simulateWeb, "  replicas: 4\n", "  replicas: 4\n  strategy: {type: Recreate}\n", 1))
	_, err := check.Simulate(in, d, check.Change{MaxSurge: surge.Count(1), SetMaxSurge: true})
	if !errors.Is(err, check.ErrStrategyChange) {
		t.Errorf("maxSurge on Recreate: %v, want ErrStrategyChange", err)
	}
	in, d = loadSimulate(t, simulateWeb)
	_, err = check.Simulate(in, d, check.Change{MaxSurge: surge.Count(0), SetMaxSurge: true, MaxUnavailable: surge.Count(0), SetMaxUnavailable: true})
	var ce *check.ChangeError
	if !errors.As(err, &ce) || ce.Deployment != "web" || !strings.Contains(err.Error(), "maxUnavailable") {
		t.Errorf("maxSurge 0 and maxUnavailable 0: %v, want a *ChangeError", err)
	}
	_, err = check.Simulate(in, d, check.Change{Images: []check.Image{{Container: "nope", Image: "x"}}})
	if err == nil {
		t.Errorf("an image for a container that does not exist: no error")
	}
}

// TestCheckImagesNameTheEditsReplicaSet: with Config.Images the rollout
// checked is that edit, as Simulate makes it, so the findings name the
// ReplicaSet Simulate creates for it, not a restart's; two Deployments of
// one shape each name their own (no run is shared between them); a
// Deployment without the container named is a finding of RuleInput.
func TestCheckImagesNameTheEditsReplicaSet(t *testing.T) {
	deployment := func(name string) string {
		return strings.NewReplacer("NAME", name).Replace(`apiVersion: apps/v1
kind: Deployment
metadata: {name: NAME}
spec:
  replicas: 3
  progressDeadlineSeconds: 60
  strategy:
    rollingUpdate: {maxSurge: 1, maxUnavailable: 0}
  selector: {matchLabels: {app: NAME}}
  template:
    metadata: {labels: {app: NAME}}
    spec:
      containers:
      - name: app
        image: app:1
`)
	}
	docs, err := manifest.Parse("deploy.yaml", []byte(deployment("one")+"---\n"+deployment("two")))
	if err != nil {
		t.Fatal(err)
	}
	in := check.Load("deploy.yaml", docs, check.LoadOptions{})
	pods := sim.Config{Pods: sim.PodModel{ReadyAfter: 5 * time.Minute}}
	images := []check.Image{{Container: "app", Image: "app:2"}}
	want := map[string]string{} // the new ReplicaSet of each Deployment's edit
	for _, d := range in.Objects().Deployments {
		run, err := check.Simulate(in, d, check.Change{Images: images, Config: pods, FixedReady: true, FixedTerminating: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range run.Result.Final.ReplicaSets {
			if slices.ContainsFunc(s.Spec.Template.Spec.Images(), func(c rollout.ContainerImage) bool { return c.Image == "app:2" }) {
				want[d.Name] = s.Name
			}
		}
	}
	if len(want) != 2 || want["one"] == "" || want["two"] == "" {
		t.Fatalf("new ReplicaSets %v, want one per Deployment", want)
	}
	names := regexp.MustCompile(`\b(one|two)-[0-9a-z]{8,10}\b`)
	for _, tc := range []struct {
		name   string
		images []check.Image
		same   bool // the findings name want's ReplicaSets
	}{{"the edit", images, true}, {"a restart", nil, false}} {
		t.Run(tc.name, func(t *testing.T) {
			r := check.Run(in, check.Config{Images: tc.images, Sim: pods, ReadyAfterFixed: true, TerminatingFixed: true, Workers: 1})
			named := map[string]bool{}
			for _, f := range r.Findings {
				for _, m := range names.FindAllString(f.Message, -1) {
					named[m] = true
					if dep, _, _ := strings.Cut(m, "-"); (m == want[dep]) != tc.same {
						t.Errorf("%s: finding names %s, the edit's new ReplicaSet is %s: %s", f.Deployment, m, want[dep], f.Message)
					}
				}
			}
			if len(named) != 2 {
				t.Errorf("findings name ReplicaSets %v, want one for each Deployment: %+v", named, r.Findings)
			}
		})
	}
	r := check.Run(in, check.Config{Images: []check.Image{{Container: "web", Image: "web:2"}}, Sim: pods, ReadyAfterFixed: true, TerminatingFixed: true, Workers: 1})
	if len(r.Findings) != 2 || r.Findings[0].Rule != check.RuleInput || !strings.Contains(r.Findings[0].Message, `has no container "web"`) {
		t.Errorf("an image for a container that does not exist: %+v", r.Findings)
	}
}
