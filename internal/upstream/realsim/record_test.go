package realsim_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rolloutmath/rolloutmath/internal/upstream/realsim"
)

// TestRecord checks that the main module's recorded file holds the full
// families, case for case. With -update it runs them (a few minutes) and
// writes the file.
func TestRecord(t *testing.T) {
	if *update {
		start := time.Now()
		f := realsim.File{Kubernetes: realsim.Version}
		for _, fam := range families(true) {
			for _, c := range fam.cases {
				ms := runCase(t, c, runs(c, true))
				f.Cases = append(f.Cases, realsim.Summarize(fam.name, c, ms))
			}
		}
		data, err := json.MarshalIndent(f, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(recordPath), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(recordPath, append(data, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s: %d cases in %v", recordPath, len(f.Cases), time.Since(start))
		return
	}
	f := readRecord(t)
	if f.Kubernetes != realsim.Version {
		t.Errorf("%s records Kubernetes %s, the harness runs %s", recordPath, f.Kubernetes, realsim.Version)
	}
	type entry struct {
		Family string
		Case   realsim.CaseJSON
		Runs   int
	}
	var want, got []entry
	for _, fam := range families(true) {
		for _, c := range fam.cases {
			want = append(want, entry{fam.name, c.JSON(), runs(c, true)})
		}
	}
	for _, r := range f.Cases {
		got = append(got, entry{r.Family, r.Case, r.Runs})
		if r.Case.Case().JSON() != r.Case {
			t.Errorf("%s: case %q does not read back as itself", recordPath, r.Case.Name)
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("%s does not hold the families (-want +got):\n%s\nrun: go test ./realsim -run TestRecord -update", recordPath, diff)
	}
}

func readRecord(t *testing.T) realsim.File {
	t.Helper()
	data, err := os.ReadFile(recordPath)
	if err != nil {
		t.Fatal(err)
	}
	var f realsim.File
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatalf("%s: %v", recordPath, err)
	}
	return f
}
