package manifest_test

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutmath/rolloutmath/rollout/manifest"
)

func TestReadFilesDirectoriesAndStdin(t *testing.T) {
	stdin := strings.NewReader("kind: Pod\n")
	docs, err := manifest.Read(manifest.Options{Stdin: stdin}, "testdata/ci/web.yaml", "-", "testdata/ci")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"testdata/ci/web.yaml:2 Deployment",
		"<stdin>:1 Pod",
		// The directory, recursively, in lexical order: apps/ before
		// web.yaml, which was named already and is read once; notes.txt
		// is not a manifest.
		"testdata/ci/apps/api.yaml:1: document 1 Service",
		"testdata/ci/apps/api.yaml:10: document 2 Deployment",
	}
	if diff := cmp.Diff(want, where(docs)); diff != "" {
		t.Errorf("Read() mismatch (-want +got):\n%s", diff)
	}
}

func TestReadProblems(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty")
	if err := os.Mkdir(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := manifest.Read(manifest.Options{}, "testdata/missing.yaml", empty, "-", "testdata/ci/web.yaml")
	want := []string{
		"testdata/missing.yaml: cannot read: no such file or directory",
		empty + ": directory without .json, .yaml, .yml files",
		"<stdin>: standard input is not available",
	}
	if err == nil {
		t.Fatal("Read() succeeded")
	}
	if diff := cmp.Diff(want, strings.Split(err.Error(), "\n")); diff != "" {
		t.Errorf("Read() error mismatch (-want +got):\n%s", diff)
	}
	_, err = manifest.Read(manifest.Options{Stdin: strings.NewReader("kind: Pod")}, "-", "-")
	if err == nil || err.Error() != "<stdin>: named twice: standard input can be read once" {
		t.Errorf("Read(-, -) error = %v", err)
	}
}

// endless is an input that never ends: n times b, then forever.
type endless struct{ b byte }

func (e endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = e.b
	}
	return len(p), nil
}

// TestInputSizeIsCapped is issue 11's defect 11: -f /dev/zero grew to 9
// GB, because the binary check ran after reading everything. Binary input
// is refused from its first bytes, and text beyond the cap as soon as it
// passes it.
func TestInputSizeIsCapped(t *testing.T) {
	_, err := manifest.Read(manifest.Options{Stdin: endless{0}}, "-")
	if !errors.Is(err, manifest.ErrBinary) || err.Error() != "<stdin>: binary data: not YAML or JSON (byte 0)" {
		t.Errorf("Read(zeros) error = %v", err)
	}
	_, err = manifest.Read(manifest.Options{Stdin: endless{'#'}, MaxBytes: 1 << 20}, "-")
	if !errors.Is(err, manifest.ErrTooLarge) || err.Error() != "<stdin>: input too large: more than 1048576 bytes" {
		t.Errorf("Read(endless text) error = %v", err)
	}
	small := "kind: Pod\n# " + strings.Repeat("x", 100) + "\n"
	if _, err := manifest.Read(manifest.Options{Stdin: strings.NewReader(small), MaxBytes: 50}, "-"); !errors.Is(err, manifest.ErrTooLarge) {
		t.Errorf("Read(%d bytes, cap 50) error = %v", len(small), err)
	}
	if docs, err := manifest.Read(manifest.Options{Stdin: strings.NewReader(small), MaxBytes: int64(len(small))}, "-"); err != nil || len(docs) != 1 {
		t.Errorf("Read(%d bytes, cap %d) = %v, %v", len(small), len(small), docs, err)
	}
	// A rune cut at the end of the first bytes read is not binary.
	text := "#" + strings.Repeat("a", 4094) + "é\nkind: Pod\n"
	if docs, err := manifest.Read(manifest.Options{Stdin: strings.NewReader(text)}, "-"); err != nil || len(docs) != 1 {
		t.Errorf("Read(é across the first read) = %v, %v", docs, err)
	}
	var _ io.Reader = endless{}
}

// TestSizeCountsWhatReadReads: Size adds up the bytes of the files Read
// takes (a file named again read once, notes.txt left out, an excluded
// file left out), and is unknown for standard input and a missing name.
func TestSizeCountsWhatReadReads(t *testing.T) {
	size := func(name string) int64 {
		info, err := os.Stat(name)
		if err != nil {
			t.Fatal(err)
		}
		return info.Size()
	}
	web, api := size("testdata/ci/web.yaml"), size("testdata/ci/apps/api.yaml")
	for _, tt := range []struct {
		exclude []string
		names   []string
		want    int64
		known   bool
	}{
		{nil, []string{"testdata/ci"}, web + api, true},
		{nil, []string{"testdata/ci/web.yaml", "testdata/ci"}, web + api, true},
		{[]string{"apps"}, []string{"testdata/ci"}, web, true},
		{nil, []string{"testdata/ci", "-"}, 0, false},
		{nil, []string{"testdata/ci/missing.yaml"}, 0, false},
	} {
		got, known := manifest.Size(manifest.Options{Exclude: tt.exclude}, tt.names...)
		if got != tt.want || known != tt.known {
			t.Errorf("Size(exclude %q, %q) = %d, %v; want %d, %v", tt.exclude, tt.names, got, known, tt.want, tt.known)
		}
	}
}
