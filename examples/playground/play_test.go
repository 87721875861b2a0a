package main

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// The page opened without a link shows what `rolloutctl simulate` prints
// without arguments: its pinned golden table, byte for byte.
func TestPlayDefaultIsRolloutctlSimulate(t *testing.T) {
	want, err := os.ReadFile("../rolloutctl/testdata/simulate-default.golden")
	if err != nil {
		t.Fatal(err)
	}
	res := Play(DefaultState())
	if !res.OK {
		t.Fatalf("errors: %+v", res.Errors)
	}
	if diff := cmp.Diff(string(want), res.Timeline); diff != "" {
		t.Errorf("timeline mismatch with rolloutctl simulate's golden (-want +got):\n%s", diff)
	}
	if !strings.HasSuffix(res.Timeline, res.Summary) || !strings.HasPrefix(res.Summary, "outcome:") {
		t.Errorf("summary %q is not the end of the timeline", res.Summary)
	}
	if !strings.Contains(res.Chart, "<svg") || !strings.Contains(res.Chart, "</svg>") {
		t.Errorf("no SVG chart")
	}
	if !strings.Contains(res.SummaryLine, "complete after") {
		t.Errorf("summary line %q", res.SummaryLine)
	}
}

// The default manifest is the one rolloutctl simulate embeds.
func TestDefaultManifestIsRolloutctls(t *testing.T) {
	want, err := os.ReadFile("../rolloutctl/testdata/nginx-deployment.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if got := DefaultState().Manifest; got != string(want) {
		t.Errorf("examples/nginx.yaml differs from rolloutctl's testdata/nginx-deployment.yaml")
	}
}

// Every example rolls out to completion, and says what it shows.
func TestPlayExamples(t *testing.T) {
	for _, tt := range []struct {
		name    string
		want    []string // in the timeline
		finding string   // a rule, at a line
	}{
		{"nginx", []string{"maxSurge 25% (3)"}, ""},
		{"surge1", []string{"maxSurge 1 (1), maxUnavailable 0 (0)", "pod times: ready 5s from readinessProbe initialDelaySeconds 5"}, ""},
		{"recreate", []string{"strategy Recreate", "Recreate waits for the"}, ""},
		{"hpa", []string{"policy: HorizontalPodAutoscaler gateway scales it between 3 and 12 replicas (checked at 3)"}, "hpa-replicas"},
		{"quota", []string{"a quota of 12 pods", "failed creates:"}, "quota-throttles"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var st State
			for _, e := range examples() {
				if e.Name == tt.name {
					st = e.State
				}
			}
			res := Play(st)
			if !res.OK {
				t.Fatalf("errors: %+v", res.Errors)
			}
			if !strings.HasPrefix(res.Summary, "outcome:       complete") && !strings.HasPrefix(res.Summary, "outcome:        complete") {
				t.Errorf("summary %q", res.Summary)
			}
			for _, w := range tt.want {
				if !strings.Contains(res.Timeline, w) {
					t.Errorf("no %q in the timeline:\n%s", w, res.Timeline)
				}
			}
			found := false
			for _, f := range Check(st) {
				found = found || (f.Rule == tt.finding && f.Line > 0 && strings.Contains(f.Message, "line "))
			}
			if (tt.finding != "") != found {
				t.Errorf("findings %+v, want one of rule %q at a line", Check(st), tt.finding)
			}
		})
	}
}

// What the API server refuses comes back at its line of the manifest,
// in the API server's words.
func TestPlayAPIServerErrorsAtTheirLine(t *testing.T) {
	nginx := DefaultState().Manifest
	for _, tt := range []struct {
		name, manifest string
		line           int
		want           string
	}{
		{"negative replicas", strings.Replace(nginx, "replicas: 10", "replicas: -1", 1), 13, "spec.replicas: Invalid value: -1: must be greater than or equal to 0"},
		{"unknown field", strings.Replace(nginx, "  replicas: 10\n", "  replicas: 10\n  replica: 3\n", 1), 14, `spec.replica: unknown field`},
		{"selector that does not match", strings.Replace(nginx, "      app: nginx\n  template", "      app: web\n  template", 1), 0, "`selector` does not match template `labels`"},
		{"not YAML", "kind: Deployment\n  bad: [\n", 0, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res := Play(State{Manifest: tt.manifest, Image: "nginx:2"})
			if res.OK || len(res.Errors) == 0 {
				t.Fatalf("no error: %+v", res)
			}
			e := res.Errors[0]
			if tt.line > 0 && e.Line != tt.line {
				t.Errorf("error at line %d, want %d: %s", e.Line, tt.line, e.Message)
			}
			if !strings.Contains(e.Message, tt.want) {
				t.Errorf("error %q, want %q", e.Message, tt.want)
			}
			if res.Timeline != "" || res.Chart != "" {
				t.Errorf("a timeline or chart for a refused manifest")
			}
		})
	}
}

// A control that does not parse is named, and nothing is simulated.
func TestPlayControlErrors(t *testing.T) {
	for _, tt := range []struct {
		control string
		st      State
	}{
		{"replicas", State{Replicas: "-3"}},
		{"replicas", State{Replicas: "2147483648"}},
		{"maxSurge", State{MaxSurge: "+5%"}},
		{"maxUnavailable", State{MaxUnavailable: "x"}},
		{"readyAfter", State{ReadyAfter: "5"}},
		{"terminating", State{Terminating: "-1s"}},
		{"qps", State{QPS: "0"}},
		{"model", State{Model: "fast"}},
		{"version", State{Version: "1.20"}},
		{"image", State{Image: "=nginx"}},
		{"image", State{Image: "a=x:1,a=y:2"}},
		{"maxSurge", State{MaxSurge: "1", Manifest: examples()[2].State.Manifest}}, // Recreate
		{"replicas", State{MaxSurge: "0", MaxUnavailable: "0"}},
		{"image", State{Image: "nope=x:1"}},
	} {
		t.Run(tt.control, func(t *testing.T) {
			st := tt.st
			if st.Manifest == "" {
				st.Manifest = DefaultState().Manifest
			}
			res := Play(st)
			if res.OK || len(res.Errors) == 0 || res.Errors[0].Control != tt.control {
				t.Errorf("Play(%+v): errors %+v, want one at control %s", tt.st, res.Errors, tt.control)
			}
		})
	}
}

// A manifest with two Deployments needs a choice, and lists them.
func TestPlayChoosesTheDeployment(t *testing.T) {
	two := DefaultState().Manifest + "---\n" + strings.ReplaceAll(DefaultState().Manifest, "name: nginx-deployment", "name: other")
	res := Play(State{Manifest: two, Image: "nginx:2"})
	if res.OK || len(res.Errors) != 1 || res.Errors[0].Control != "deployment" {
		t.Errorf("errors %+v, want one at control deployment", res.Errors)
	}
	if diff := cmp.Diff([]string{"nginx-deployment", "other"}, res.Deployments); diff != "" {
		t.Errorf("deployments (-want +got):\n%s", diff)
	}
	res = Play(State{Manifest: two, Image: "nginx:2", Deployment: "other"})
	if !res.OK || !strings.HasPrefix(res.Title, "other:") {
		t.Errorf("with the choice: %q %+v", res.Title, res.Errors)
	}
}

// The controls change the simulation as the flags of rolloutctl simulate
// do.
func TestPlayControls(t *testing.T) {
	st := DefaultState()
	st.Replicas, st.MaxSurge, st.MaxUnavailable, st.ReadyAfter, st.Terminating, st.QPS, st.Version = "100", "1", "0", "5s", "10s", "-1", "1.35"
	res := Play(st)
	if !res.OK {
		t.Fatalf("errors %+v", res.Errors)
	}
	for _, w := range []string{"Kubernetes 1.35", "replicas 100, maxSurge 1 (1), maxUnavailable 0 (0)", "pods ready 5s after they are created",
		"deleted pods terminate for 10s", "(no client rate limit)", "outcome:       complete: 100 of 100", "ceiling 101)"} {
		if !strings.Contains(res.Timeline, w) {
			t.Errorf("no %q in:\n%s", w, res.Timeline[:min(len(res.Timeline), 1200)])
		}
	}
	if len(res.Versions) < 2 || res.Versions[0] <= res.Versions[len(res.Versions)-1] {
		t.Errorf("versions %v, want the minors newest first", res.Versions)
	}
}

// Play takes any state without a panic, and either shows a result or
// says why not.
func TestPlayAnyState(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		st := DefaultState()
		lines := strings.Split(st.Manifest, "\n")
		if rapid.Bool().Draw(t, "edit the manifest") {
			i := rapid.IntRange(0, len(lines)-1).Draw(t, "line")
			lines[i] = rapid.StringMatching(`[ a-z:0-9%\-\[\]{}"']{0,20}`).Draw(t, "text")
		}
		st.Manifest = strings.Join(lines, "\n")
		st.Replicas = rapid.SampledFrom([]string{"", "0", "1", "7", "x"}).Draw(t, "replicas")
		st.MaxSurge = rapid.SampledFrom([]string{"", "0", "1", "100%", "-1"}).Draw(t, "maxSurge")
		st.MaxUnavailable = rapid.SampledFrom([]string{"", "0", "1", "100%", "101%"}).Draw(t, "maxUnavailable")
		st.ReadyAfter = rapid.SampledFrom([]string{"", "0s", "5s", "1000h"}).Draw(t, "readyAfter")
		res := Play(st)
		if res.OK == (len(res.Errors) > 0) {
			t.Fatalf("OK %v with errors %+v", res.OK, res.Errors)
		}
		if res.OK && !strings.HasPrefix(res.Summary, "outcome:") {
			t.Fatalf("summary %q", res.Summary)
		}
		for _, e := range res.Errors {
			if e.Line > len(lines)+1 {
				t.Fatalf("error at line %d of %d: %s", e.Line, len(lines), e.Message)
			}
		}
	})
}

// The largest Deployment answers in bounded time: the page stops at
// its work limit and says so, with the projection of the rest (its pod
// requests provably need more than the limit, so it stops after the
// first sync).
func TestPlayHugeReplicasIsBounded(t *testing.T) {
	st := DefaultState()
	st.Replicas, st.MaxSurge = "2147483647", "2147483647"
	res := Play(st)
	if !res.OK || !strings.HasPrefix(res.Summary, "outcome:       limit reached: ") || !strings.Contains(res.Summary, "past the 20000 allowed") ||
		!strings.Contains(res.Summary, "complete no sooner than") {
		t.Fatalf("summary %q, errors %+v", res.Summary, res.Errors)
	}
	if !strings.Contains(strings.Join(res.Notes, "\n"), "the playground stops after 20000 units of work (controller syncs and pod writes taken one by one, and the pods they walk)") {
		t.Errorf("notes %q", res.Notes)
	}
}

// A long rollout the fast-forward carries at little work (20,000
// replicas one pod at a time: 180,000 syncs) stops at the syncs a page
// holds, sim.DefaultMaxSteps, and says so and what the command does.
func TestPlayLongRolloutStopsAtItsSyncs(t *testing.T) {
	st := DefaultState()
	st.Replicas, st.MaxSurge, st.MaxUnavailable = "20000", "1", "0"
	res := Play(st)
	if !res.OK || !strings.HasPrefix(res.Summary, "outcome:       limit reached: 100000 syncs (the playground's limit)") {
		t.Fatalf("summary %q, errors %+v", res.Summary, res.Errors)
	}
	if n := strconv.Itoa(maxSyncs); !strings.Contains(strings.Join(res.Notes, "\n"), "the playground stops after "+n+" syncs, so that the page holds its steps: `rolloutctl simulate` shows the first "+n+" (--max-steps) and the whole run's summary") {
		t.Errorf("notes %q", res.Notes)
	}
	if !strings.Contains(res.Timeline, "100000 ") || strings.Contains(res.Timeline, "100001") {
		t.Errorf("the timeline does not end at sync 100000")
	}
}

// The check looks at the Deployment shown, at the replicas shown: one
// rollout, however wide an HPA's range. The hpa-replicas warning is about
// the manifest's spec.replicas (2, below the HPA's 3), and is given at it.
func TestCheckAtTheReplicasShown(t *testing.T) {
	st := examples()[3].State
	st.Manifest = strings.Replace(st.Manifest, "maxReplicas: 12", "maxReplicas: 5000", 1)
	f := Check(st)
	if len(f) != 1 || f[0].Rule != "hpa-replicas" || f[0].Line != 10 || !strings.Contains(f[0].Message, "api/gateway at 2 replicas, +0s: spec.replicas is 2 ") {
		t.Errorf("HPA 3..5000: %+v", f)
	}
	st.Replicas = "7"
	if f := Check(st); len(f) != 1 || f[0].Rule != "hpa-replicas" {
		t.Errorf("replicas 7: %+v", f)
	}
	quota := examples()[4].State
	two := quota.Manifest + "---\n" + examples()[3].State.Manifest
	if f := Check(State{Manifest: two, Image: "x:1", Deployment: "payments/checkout"}); len(f) != 1 || f[0].Rule != "quota-throttles" {
		t.Errorf("two Deployments, checkout shown: %+v", f)
	}
	if f := Check(State{Manifest: two, Image: "x:1", Deployment: "api/gateway"}); len(f) != 1 || f[0].Rule != "hpa-replicas" || f[0].Line != 45 {
		t.Errorf("two Deployments, gateway shown: %+v", f)
	}
}

// The model control gives the command's --model event and --model
// interval (a sync every 30s): the golden recordings' pace.
func TestPlayModels(t *testing.T) {
	for _, tt := range []struct{ model, want string }{
		{"", "the Deployment and ReplicaSet controllers as they run (kube-api-qps 20, kube-api-burst 30)"},
		{"event", "a sync at each change"},
		{"interval", "a sync every 30s"},
	} {
		st := DefaultState()
		st.Model = tt.model
		res := Play(st)
		if !res.OK || !strings.Contains(res.Timeline, tt.want) {
			t.Errorf("model %q: errors %+v, no %q in:\n%.600s", tt.model, res.Errors, tt.want, res.Timeline)
		}
	}
}

// A finding's time reads as the command prints it, to the millisecond:
// a deadline of 1s exceeded at +1.001s read "+1.000999999s" (the
// finding's seconds, a float, turned back into a Duration unrounded).
func TestCheckTimesReadAsTheCommands(t *testing.T) {
	st := State{Image: "app:2", Manifest: `apiVersion: apps/v1
kind: Deployment
metadata: {name: tiny, namespace: shop}
spec:
  replicas: 5
  progressDeadlineSeconds: 1
  strategy:
    rollingUpdate: {maxSurge: 1, maxUnavailable: 0}
  selector: {matchLabels: {app: tiny}}
  template:
    metadata: {labels: {app: tiny}}
    spec:
      containers:
      - name: app
        image: app:1
        readinessProbe:
          httpGet: {path: /ready, port: 8080}
          initialDelaySeconds: 5
          periodSeconds: 5
`}
	var got []string
	for _, p := range Check(st) {
		if p.Rule == "progress-deadline" {
			got = append(got, p.Message)
		}
	}
	if len(got) != 1 || !strings.Contains(got[0], "shop/tiny at 5 replicas, +1.001s: ") {
		t.Errorf("progress-deadline findings %q, want one at +1.001s", got)
	}
}

// The findings name the ReplicaSet the timeline shows for the same edit:
// the page's image change creates never-<hash of the new template>, where
// the check rolled out a `kubectl rollout restart` of the manifest
// instead and named that one's (never-6fd847bb69 beside the timeline's
// never-694d9f4b97).
func TestCheckNamesTheEditsReplicaSet(t *testing.T) {
	st := State{Image: "app:2", ReadyAfter: "5m", Manifest: `apiVersion: apps/v1
kind: Deployment
metadata: {name: never}
spec:
  replicas: 3
  progressDeadlineSeconds: 60
  strategy:
    rollingUpdate: {maxSurge: 1, maxUnavailable: 0}
  selector: {matchLabels: {app: never}}
  template:
    metadata: {labels: {app: never}}
    spec:
      containers:
      - name: app
        image: app:1
`}
	for _, model := range []string{"", "event", "interval"} {
		st.Model = model
		res := Play(st)
		if !res.OK {
			t.Fatalf("model %q: %+v", model, res.Errors)
		}
		created := regexp.MustCompile(`CreateReplicaSet (never-[0-9a-z]+) `).FindStringSubmatch(res.Timeline)
		if created == nil {
			t.Fatalf("model %q: the timeline creates no ReplicaSet:\n%s", model, res.Timeline)
		}
		named := 0
		for _, p := range Check(st) {
			for _, m := range regexp.MustCompile(`never-[0-9a-z]{8,10}\b`).FindAllString(p.Message, -1) {
				named++
				if m != created[1] {
					t.Errorf("model %q: a finding names ReplicaSet %s, the timeline's edit creates %s: %s", model, m, created[1], p.Message)
				}
			}
		}
		if named == 0 {
			t.Errorf("model %q: no finding names a ReplicaSet: %+v", model, Check(st))
		}
	}
}
