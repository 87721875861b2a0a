package main

import (
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutmath/rolloutmath/rollout/check"
	"github.com/rolloutmath/rolloutmath/rollout/manifest"
	"github.com/rolloutmath/rolloutmath/rollout/sim"
)

// boundsOut is one Deployment of bounds -o json.
type boundsOut struct {
	boundsHead
	Rows []boundsRow `json:"rows"`
}

func boundsJSONOf(t *testing.T, args ...string) []boundsOut {
	t.Helper()
	args = append([]string{"bounds", "-o", "json"}, args...)
	r := runCLI(t, "", args...)
	r.wantCode(t, args, exitOK)
	var out []boundsOut
	dec := json.NewDecoder(strings.NewReader(r.stdout))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&out); err != nil {
		t.Fatalf("run(%q): %v\n%s", args, err, r.stdout)
	}
	return out
}

// For 25%/25% the surge rounds up and the unavailable pods round down: the
// surge flips after each multiple of 4, the unavailable pods at each.
func TestBoundsRounding(t *testing.T) {
	out := boundsJSONOf(t, "-f", manifestPath("three-deployments.yaml"), "--replicas", "1..12")
	if len(out) != 3 {
		t.Fatalf("bounds gave %d Deployments, want 3", len(out))
	}
	type row struct {
		Replicas, Surge, Unavailable, MinAvailable int32
		PeakPods                                   int64
		Changed                                    bool
	}
	var want, got []row
	for r := int32(1); r <= 12; r++ {
		s, u := (r+3)/4, r/4 // ceil(25%), floor(25%)
		if s == 0 && u == 0 {
			u = 1
		}
		changed := r == 4 || r == 5 || r == 8 || r == 9 || r == 12
		want = append(want, row{r, s, u, r - u, int64(r + min(s, r)), changed})
	}
	fe := out[0]
	if fe.Deployment != "shop/frontend" || fe.MaxSurge != "25%" || fe.MaxUnavailable != "25%" || fe.SpecReplicas != 6 || fe.Step != 1 {
		t.Errorf("first Deployment = %+v", fe.boundsHead)
	}
	for _, x := range fe.Rows {
		got = append(got, row{x.Replicas, x.Surge, x.Unavailable, x.MinAvailable, x.PeakPods, x.Changed})
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("bounds rows mismatch (-want +got):\n%s", diff)
	}
	// maxSurge 1, maxUnavailable 0: one pod at a time, 2 syncs per pod.
	for _, x := range out[1].Rows {
		if x.Surge != 1 || x.Unavailable != 0 || x.MinSteps != 2*int(x.Replicas) || x.Changed {
			t.Errorf("api row %+v, want surge 1, unavailable 0, %d steps, no change", x, 2*x.Replicas)
		}
	}
}

func TestBoundsTable(t *testing.T) {
	args := []string{"bounds", "-f", manifestPath("one-replica-surge-zero.yaml"), "--replicas", "0..5"}
	r := runCLI(t, "", args...)
	r.wantCode(t, args, exitOK)
	want := `singleton: RollingUpdate, maxSurge 0, maxUnavailable 25%, spec.replicas 1
REPLICAS  SURGE  UNAVAILABLE  PEAK PODS  MIN AVAILABLE  MIN STEPS  CHANGE
0         0      0            0          0              0
1         0      1            1          0              2          * unavailable 0->1; <- spec.replicas
2         0      1            2          1              4
3         0      1            3          2              6
4         0      1            4          3              8
5         0      1            5          4              10
`
	if diff := cmp.Diff(want, r.stdout); diff != "" {
		t.Errorf("bounds table mismatch (-want +got):\n%s", diff)
	}
	if r.stderr != "" {
		t.Errorf("stderr %q, want none for a narrow range", r.stderr)
	}
}

func TestBoundsDefaultRangeAndRecreate(t *testing.T) {
	out := boundsJSONOf(t, "-f", manifestPath("recreate.yaml"))
	rows := out[0].Rows
	if len(rows) != 10 || rows[0].Replicas != 1 || rows[9].Replicas != 10 {
		t.Fatalf("default range of a 3-replica Deployment: %d rows from %d, want 1..10", len(rows), rows[0].Replicas)
	}
	for _, x := range rows {
		if x.Surge != 0 || x.Unavailable != x.Replicas || x.MinAvailable != 0 || x.Changed {
			t.Errorf("Recreate row %+v, want no surge, every pod unavailable, no rounding flip", x)
		}
	}
	out = boundsJSONOf(t, "-f", manifestPath("three-deployments.yaml"))
	if n := len(out[2].Rows); n != 40 { // worker: 20 replicas, so 1..40
		t.Errorf("worker: %d rows, want 40", n)
	}
}

func TestBoundsProgress(t *testing.T) {
	args := []string{"bounds", "-f", manifestPath("recreate.yaml"), "--replicas", "1..2000", "--step", "1"}
	r := runCLI(t, "", args...)
	r.wantCode(t, args, exitOK)
	lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
	if len(lines) != 10 || lines[0] != "bounds: reports: 10% (200 of 2000 rows)" || lines[9] != "bounds: reports: 100% (2000 of 2000 rows)" {
		t.Errorf("progress lines:\n%s", r.stderr)
	}
	if n := strings.Count(r.stdout, "\n"); n != 2002 {
		t.Errorf("%d lines of output, want a title, a header and 2000 rows", n)
	}
}

// TestBoundsPeakWhenMaxSurgeExceedsReplicas is issue 11's defect 9:
// maxSurge 50 on 5 replicas gave PEAK 55, where a rollout reaches 10; and
// 0 replicas gave 1.
func TestBoundsPeakWhenMaxSurgeExceedsReplicas(t *testing.T) {
	manifest := `{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "wide"}, "spec": {"replicas": 5,
		"strategy": {"rollingUpdate": {"maxSurge": 50, "maxUnavailable": 0}},
		"selector": {"matchLabels": {"app": "w"}}, "template": {"metadata": {"labels": {"app": "w"}},
		"spec": {"containers": [{"name": "w", "image": "w:1"}]}}}}`
	args := []string{"bounds", "-o", "json", "--replicas", "0..5"}
	r := runCLI(t, manifest, args...)
	r.wantCode(t, args, exitOK)
	var out []boundsOut
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatal(err)
	}
	for _, row := range out[0].Rows {
		if want := 2 * int64(row.Replicas); row.PeakPods != want {
			t.Errorf("%d replicas: peak %d, want %d", row.Replicas, row.PeakPods, want)
		}
	}
	sim := simulateJSON(t, manifest, "--image", "w:2")
	if sim.Summary.PeakPods != 10 {
		t.Errorf("simulate peaks at %d pods, want 10 as bounds says", sim.Summary.PeakPods)
	}
}

// TestBoundsConstantMemoryOverMaxInt32Range is issue 11's defect 1: the
// default range of 2,000,000,000 replicas, or --replicas
// 0..2147483647, was built in memory (10M rows took 6.7 GB). Wide ranges
// are sampled, and every row is written as it is computed, so memory does
// not grow with the rows.
func TestBoundsConstantMemoryOverMaxInt32Range(t *testing.T) {
	huge := `{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "huge"}, "spec": {"replicas": 2000000000,
		"selector": {"matchLabels": {"app": "h"}}, "template": {"metadata": {"labels": {"app": "h"}},
		"spec": {"containers": [{"name": "h", "image": "h:1"}]}}}}`
	for _, args := range [][]string{{"bounds"}, {"bounds", "--replicas", "0..2147483647"}} {
		r := runCLI(t, huge, args...)
		r.wantCode(t, args, exitOK)
		lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
		last := lines[len(lines)-1]
		if n := len(lines) - 2; n > 1002 || !strings.HasPrefix(last, "2147483647 ") || !strings.Contains(r.stdout, "<- spec.replicas") {
			t.Errorf("run(%q): %d rows ending %q, want at most 1002 sampled, the last count, spec.replicas", args, n, last)
		}
		if !strings.Contains(r.stderr, "showing every 5000000th and the last (--step 1 shows all)") {
			t.Errorf("run(%q) stderr %q, want a note on the sampling", args, r.stderr)
		}
	}
	// Every row of a wide range: the heap stays small while 300,000 rows
	// (about 36 MB of JSON) go by.
	var peak uint64
	w := &heapWatcher{peak: &peak}
	args := []string{"bounds", "-o", "json", "--replicas", "1..300000", "--step", "1"}
	code := run(args, strings.NewReader(huge), w, &strings.Builder{})
	if code != exitOK || w.rows < 300000 {
		t.Fatalf("run(%q) = %d with %d rows", args, code, w.rows)
	}
	if peak > 16<<20 {
		t.Errorf("heap reached %d MB while writing %d rows, want it constant (under 16 MB)", peak>>20, w.rows)
	}
}

// heapWatcher counts the JSON rows written to it and samples the heap now
// and then.
type heapWatcher struct {
	rows, writes int
	peak         *uint64
}

func (h *heapWatcher) Write(p []byte) (int, error) {
	h.rows += strings.Count(string(p), "\n") // a row a line
	if h.writes++; h.writes%50 == 1 {
		var m runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&m)
		*h.peak = max(*h.peak, m.HeapAlloc)
	}
	return len(p), nil
}

// TestBoundsPlacement shows the places of the placement example (one pod
// per node on its 3 Nodes) at each count, and what they mean.
func TestBoundsPlacement(t *testing.T) {
	out := boundsJSONOf(t, "-f", "testdata/placement/web.yaml", "-f", "testdata/placement/nodes.yaml", "--replicas", "1..5")
	if len(out) != 1 || !strings.Contains(out[0].Nodes, "one pod per node: 3 nodes with room") {
		t.Fatalf("bounds = %+v, want shop/web placed one pod per node on 3 nodes", out)
	}
	want := []string{"fits", "fits", "never-finishes", "never-finishes", "never-finishes"}
	for i, r := range out[0].Rows {
		if r.Places == nil || *r.Places != 3 || r.Placement != want[i] {
			t.Errorf("replicas %d: places %v, placement %q; want 3 and %q", r.Replicas, r.Places, r.Placement, want[i])
		}
	}
	// Without nodes, neither is there.
	for _, r := range boundsJSONOf(t, "-f", "testdata/placement/web.yaml", "--replicas", "3")[0].Rows {
		if r.Places != nil || r.Placement != "" {
			t.Errorf("without nodes: %+v", r)
		}
	}
}

// TestBoundsPlacementAgreesWithCheck holds bounds' verdict from the
// arithmetic to what check finds by simulating the rollout on the nodes:
// never-finishes, placement-waits, or neither, for one pod per node on
// --nodes 3 at every small strategy.
func TestBoundsPlacementAgreesWithCheck(t *testing.T) {
	seen := map[string]int{}
	for replicas := 1; replicas <= 5; replicas++ {
		for _, st := range [][2]string{{"0", "1"}, {"1", "0"}, {"1", "1"}, {"2", "0"}, {"2", "1"}, {"0", "2"}, {"25%", "25%"}} {
			src := fmt.Sprintf(`apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  replicas: %d
  strategy: {rollingUpdate: {maxSurge: %s, maxUnavailable: %s}}
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      affinity:
        podAntiAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
          - {labelSelector: {matchLabels: {app: web}}, topologyKey: kubernetes.io/hostname}
      containers:
      - {name: app, image: web:1.0}
`, replicas, st[0], st[1])
			docs, err := manifest.Parse("in.yaml", []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			in := check.Load("in.yaml", docs, check.LoadOptions{})
			d := in.Objects().Deployments[0]
			pl, err := in.Placement(d, 3, check.Allocatable{})
			if err != nil {
				t.Fatal(err)
			}
			verdict := placementVerdict(sim.ComputeBounds(d.Spec.Strategy, d.Spec.Replicas), pl.PlacesAt(d.Spec.Replicas))
			found := "fits"
			for _, f := range check.Run(in, check.Config{Nodes: 3}).Findings {
				switch f.Rule {
				case check.RuleNeverFinish:
					found = "never-finishes"
				case check.RulePlacementWaits:
					if found == "fits" {
						found = "waits"
					}
				}
			}
			if verdict != found {
				t.Errorf("replicas %d, maxSurge %s, maxUnavailable %s: bounds says %q, check %q", replicas, st[0], st[1], verdict, found)
			}
			seen[verdict]++
		}
	}
	if len(seen) != 3 {
		t.Errorf("verdicts seen: %v, want each of fits, waits and never-finishes", seen)
	}
}

// TestBoundsPeakIsTheSizesCeiling: bounds' PEAK PODS is the ceiling of the
// ReplicaSets' sizes (replicas + surge), which the pods that exist pass
// under the controllers model while old pods await deletion (simulate's
// peakPodsHigh: 15 for the seed's 10 replicas at 25%/25%); its help says
// so, where it said a rollout "may reach" it.
func TestBoundsPeakIsTheSizesCeiling(t *testing.T) {
	var rows []struct {
		Rows []struct {
			Replicas int32 `json:"replicas"`
			PeakPods int64 `json:"peakPods"`
		} `json:"rows"`
	}
	args := []string{"bounds", "-f", "testdata/nginx-deployment.yaml", "--replicas", "10..10", "-o", "json"}
	r := runDefault(t, nil, args...)
	r.wantCode(t, args, exitOK)
	if err := json.Unmarshal([]byte(r.stdout), &rows); err != nil || len(rows) != 1 || len(rows[0].Rows) != 1 {
		t.Fatalf("bounds -o json: %v\n%s", err, r.stdout)
	}
	var simulated struct {
		Summary struct {
			Ceiling      int64 `json:"ceiling"`
			PeakPodsHigh int64 `json:"peakPodsHigh"`
		} `json:"summary"`
	}
	args = []string{"simulate", "-f", "testdata/nginx-deployment.yaml", "--image", "nginx=nginx:2", "-o", "json"}
	r = runDefault(t, nil, args...)
	r.wantCode(t, args, exitOK)
	if err := json.Unmarshal([]byte(r.stdout), &simulated); err != nil {
		t.Fatal(err)
	}
	peak := rows[0].Rows[0].PeakPods
	if peak != simulated.Summary.Ceiling || simulated.Summary.PeakPodsHigh <= peak {
		t.Errorf("bounds' peak %d, simulate's ceiling %d and racing peak %d: want the peak the ceiling, passed by the pods", peak, simulated.Summary.Ceiling, simulated.Summary.PeakPodsHigh)
	}
	if !strings.Contains(strings.Join(strings.Fields(boundsHelp), " "), "the pods that exist pass it while old pods await deletion") {
		t.Errorf("bounds' help does not say that the pods pass its PEAK PODS")
	}
}
