package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func boundsJSONOf(t *testing.T, args ...string) []boundsJSON {
	t.Helper()
	args = append([]string{"bounds", "-o", "json"}, args...)
	r := runCLI(t, "", args...)
	r.wantCode(t, args, exitOK)
	var out []boundsJSON
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatalf("run(%q): %v", args, err)
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
		want = append(want, row{r, s, u, r - u, int64(r + s), changed})
	}
	fe := out[0]
	if fe.Deployment != "shop/frontend" || fe.MaxSurge != "25%" || fe.MaxUnavailable != "25%" || fe.SpecReplicas != 6 {
		t.Errorf("first Deployment = %+v", fe)
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
		if x.Surge != 0 || x.Unavailable != x.Replicas || x.MinAvailable != 0 {
			t.Errorf("Recreate row %+v, want no surge and every pod unavailable", x)
		}
	}
	out = boundsJSONOf(t, "-f", manifestPath("three-deployments.yaml"))
	if n := len(out[2].Rows); n != 40 { // worker: 20 replicas, so 1..40
		t.Errorf("worker: %d rows, want 40", n)
	}
}

func TestBoundsProgress(t *testing.T) {
	args := []string{"bounds", "-f", manifestPath("recreate.yaml"), "--replicas", "1..2000"}
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

func TestBoundsRecreateHasNoFlips(t *testing.T) {
	for _, x := range boundsJSONOf(t, "-f", manifestPath("recreate.yaml"), "--replicas", "0..20")[0].Rows {
		if x.Changed {
			t.Errorf("Recreate row %+v marked as a rounding flip", x)
		}
	}
}
