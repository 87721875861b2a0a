package check_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/rollout/check"
	"github.com/rolloutmath/rolloutmath/rollout/manifest"
	"github.com/rolloutmath/rolloutmath/surge"
)

// figuresManifest is a Deployment of replicas whose pods become ready
// readyAfter seconds after they start (a readinessProbe's initial delay).
func figuresManifest(replicas int, maxSurge, maxUnavailable string, readyAfter int) string {
	probe := ""
	if readyAfter > 0 {
		probe = fmt.Sprintf(`
        readinessProbe:
          httpGet: {path: /ready, port: 8080}
          initialDelaySeconds: %d
          periodSeconds: 1`, readyAfter)
	}
	return fmt.Sprintf(`apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: %d
  strategy:
    rollingUpdate: {maxSurge: %s, maxUnavailable: %s}
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: app
        image: web:1.0%s
`, replicas, maxSurge, maxUnavailable, probe)
}

// quotedCount returns the pod count a max-pods or min-available finding
// of the rollout starts with ("75 pods available, ..."), and false for
// one that quotes none (the input's, the racing warning).
func quotedCount(f check.Finding) (int64, bool) {
	n, rest, ok := strings.Cut(f.Message, " pods ")
	if !ok || f.Cause != check.CauseRollout || f.Severity != check.SeverityError {
		return 0, false
	}
	if !strings.HasPrefix(rest, "available") && !strings.HasPrefix(rest, "exist") {
		return 0, false
	}
	v, err := strconv.ParseInt(n, 10, 64)
	return v, err == nil
}

// figuresAgree fails when a max-pods finding quotes more pods than the
// Deployment's peak, or a min-available finding fewer available pods than
// its fewest: under the controllers model a sync's ReplicaSet counts are
// the statuses the ReplicaSet controller last wrote, which lag the pods
// that exist, while the summary counts the pods.
func figuresAgree(t interface{ Errorf(string, ...any) }, r check.Report) {
	if len(r.Deployments) != 1 {
		t.Errorf("report: %d Deployments, want 1", len(r.Deployments))
		return
	}
	res := r.Deployments[0]
	for _, f := range r.Findings {
		n, ok := quotedCount(f)
		switch {
		case !ok:
		case f.Rule == check.RuleMaxPods && n > res.PeakPods:
			t.Errorf("max-pods finding %q quotes %d pods, above the peak %d", f.Message, n, res.PeakPods)
		case f.Rule == check.RuleMinAvailable && n < res.MinAvailable:
			t.Errorf("min-available finding %q quotes %d available, below the fewest %d", f.Message, n, res.MinAvailable)
		}
	}
}

func checkFigures(t interface {
	Helper()
	Fatal(...any)
}, src string, cfg check.Config) check.Report {
	t.Helper()
	docs, err := manifest.Parse("deploy.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	cfg.Workers = 1
	return check.Run(check.Load("deploy.yaml", docs, check.LoadOptions{}), cfg)
}

// TestFindingsQuoteTheRunsFigures: the count a max-pods or min-available
// finding quotes is one the pods reached, within the Deployment's peak
// and fewest available, also where the ReplicaSets' statuses lag the
// pods (the controllers model).
func TestFindingsQuoteTheRunsFigures(t *testing.T) {
	for _, tc := range []struct {
		name   string
		src    string
		cfg    check.Config
		reason string
	}{{
		// rolloutctl check on a kompose Deployment of 99 replicas
		// (25%/25%, pods ready at once) with --min-available 90% said
		// "75 pods available, below the min-available limit 90 (lowest
		// 76)": at +1.8s the old ReplicaSet's status showed its 75 pods
		// and the new one's still 0, while 25 new pods were ready.
		name:   "99 replicas 25%/25%, status lag at the first sync",
		src:    figuresManifest(99, "25%", "25%", 0),
		cfg:    check.Config{MinAvailable: surge.Percent(90), MinAvailableRule: true},
		reason: "a sync's ReplicaSet counts are statuses, which lag the pods",
	}, {
		name: "10 replicas 25%/25%, max-pods at the ceiling",
		src:  figuresManifest(10, "25%", "25%", 0),
		cfg:  check.Config{MaxPods: 12},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			r := checkFigures(t, tc.src, tc.cfg)
			figuresAgree(t, r)
		})
	}
}

// TestFindingsQuoteTheRunsFiguresProperties: on drawn rollouts under the
// controllers model, with limits drawn around their figures, no max-pods
// or min-available finding quotes a count beyond the Deployment's peak or
// fewest available.
func TestFindingsQuoteTheRunsFiguresProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		replicas := rapid.IntRange(1, 60).Draw(t, "replicas")
		maxSurge := rapid.SampledFrom([]string{"0", "1", "3", "25%", "50%"}).Draw(t, "maxSurge")
		maxUnavailable := rapid.SampledFrom([]string{"1", "2", "25%", "50%"}).Draw(t, "maxUnavailable")
		ready := rapid.SampledFrom([]int{0, 0, 1, 5}).Draw(t, "readyAfter")
		src := figuresManifest(replicas, maxSurge, maxUnavailable, ready)
		base := checkFigures(t, src, check.Config{})
		if len(base.Deployments) != 1 {
			t.Fatalf("report: %+v", base)
		}
		res := base.Deployments[0]
		cfg := check.Config{
			MaxPods:          int(max(1, res.PeakPods-int64(rapid.IntRange(0, 3).Draw(t, "below the peak")))),
			MinAvailable:     surge.Count(int32(res.MinAvailable) + int32(rapid.IntRange(0, 3).Draw(t, "above the fewest"))),
			MinAvailableRule: true,
		}
		figuresAgree(t, checkFigures(t, src, cfg))
	})
}

// TestDrainQuotesTheRunsFigures: pdb-drain-blocked's "the ready pods drop
// to N" is a count the pods reached: never below the Deployment's fewest
// available (a ready pod is one that may not yet be available), also
// where the ReplicaSets' statuses lag the pods.
func TestDrainQuotesTheRunsFigures(t *testing.T) {
	// rolloutctl check on the 99-replica kompose Deployment with a budget
	// of minAvailable 76 said "the ready pods drop to 75" and "min
	// available 76" for the same rollout.
	src := figuresManifest(99, "25%", "25%", 0) + `---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: web}
spec:
  minAvailable: 76
  selector: {matchLabels: {app: web}}
`
	r := checkFigures(t, src, check.Config{})
	if len(r.Deployments) != 1 {
		t.Fatalf("report: %+v", r)
	}
	fewest := r.Deployments[0].MinAvailable
	drains := 0
	for _, f := range r.Findings {
		_, rest, ok := strings.Cut(f.Message, "the ready pods drop to ")
		if f.Rule != check.RulePDBDrain || !ok {
			continue
		}
		drains++
		n, _, _ := strings.Cut(rest, " ")
		if v, err := strconv.ParseInt(n, 10, 64); err != nil || v < fewest {
			t.Errorf("pdb-drain-blocked %q: the ready pods drop to %s, below the fewest available %d", f.Message, n, fewest)
		}
	}
	if drains != 1 {
		t.Errorf("%d pdb-drain-blocked findings, want 1 (the budget keeps 76, the rollout's fewest): %+v", drains, r.Findings)
	}
	for _, n := range r.Notes {
		if _, rest, ok := strings.Cut(n, ") leaves "); ok {
			if v, err := strconv.ParseInt(strings.Fields(rest)[0], 10, 64); err == nil && v < fewest-1 {
				t.Errorf("note %q: a drain of 1 pod leaves %d ready, below the fewest available %d less 1", n, v, fewest)
			}
		}
	}
}
