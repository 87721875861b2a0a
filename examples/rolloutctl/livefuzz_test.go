package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rolloutmath/rolloutmath/rollout/manifest"
)

// FuzzLiveDiff checks diff over any manifests and live objects: it never
// panics; it exits 2 with nothing on stdout and every problem on a line
// of its own, or it prints one answer per line, each "namespace/name: "
// and one of Result.Summary's forms, and exits 1 exactly when one of them
// is a rollout.
func FuzzLiveDiff(f *testing.F) {
	for _, pair := range [][2]string{
		{"next/web-image.yaml", "cluster/web.yaml"},
		{"next/web-no-replicas.yaml", "cluster/web-hpa-scaled.yaml"},
		{"applied/web.yaml", "cluster/web-restarted.yaml"},
		{"next/shop.yaml", "cluster/shop.yaml"},
		{"next/web-selector.yaml", "cluster/web.yaml"},
	} {
		m, err1 := os.ReadFile(livePath(pair[0]))
		docs, err2 := manifest.Read(manifest.Options{}, livePath(pair[1]))
		if err1 != nil || err2 != nil {
			f.Fatal(err1, err2)
		}
		// The live Deployments alone: small seeds keep the fuzzer's
		// minimizing quick; diff makes up their ReplicaSets.
		var l []byte
		for _, d := range docs {
			if d.Kind == "Deployment" {
				l = append(l, d.JSON...)
			}
		}
		f.Add(m, l)
	}
	f.Add([]byte("kind: Deployment"), []byte("kind: List\nitems: []"))
	f.Fuzz(func(t *testing.T, manifests, live []byte) {
		path := filepath.Join(t.TempDir(), "live.yaml")
		if err := os.WriteFile(path, live, 0o644); err != nil {
			t.Fatal(err)
		}
		code, out, errOut := runRaw(string(manifests), "diff", "--live", path)
		switch code {
		case exitBadInput:
			if out != "" {
				t.Fatalf("exit 2 with output %q", out)
			}
			for _, line := range strings.Split(strings.TrimSuffix(errOut, "\n"), "\n") {
				if !strings.HasPrefix(line, "rolloutctl diff: ") {
					t.Fatalf("stderr line %q is not the command's", line)
				}
			}
			return
		case exitOK, exitRollout:
		default:
			t.Fatalf("exit %d", code)
		}
		rolls := false
		for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
			_, answer, ok := strings.Cut(line, ": ")
			switch {
			case !ok:
				t.Fatalf("answer %q names no Deployment", line)
			case strings.HasPrefix(answer, "rollout: "):
				rolls = true
			case strings.HasPrefix(answer, "no rollout: "), answer == "no change: kubectl sends no patch":
			default:
				t.Fatalf("answer %q is not one of Summary's", line)
			}
		}
		if rolls != (code == exitRollout) {
			t.Fatalf("exit %d, answers:\n%s", code, out)
		}
	})
}
