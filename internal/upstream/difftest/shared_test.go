package difftest

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// sharedManifests returns the real manifests of ../shared/manifests (read
// in place, never copied), by path, or skips when the folder is absent.
func sharedManifests(t *testing.T) map[string][]byte {
	t.Helper()
	root := filepath.Join("..", "..", "..", "..", "shared", "manifests")
	files, _ := filepath.Glob(filepath.Join(root, "*", "*.yaml"))
	if len(files) == 0 {
		t.Skip("../shared/manifests is absent")
	}
	out := map[string][]byte{}
	for _, f := range files {
		y, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		j, err := yaml.YAMLToJSON(y)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out[f] = j
	}
	return out
}

// TestSharedManifestsCreate compares the create path on every real
// manifest.
func TestSharedManifestsCreate(t *testing.T) {
	ms := sharedManifests(t)
	names := make([]string, 0, len(ms))
	for n := range ms {
		names = append(names, n)
	}
	sort.Strings(names)
	bad := 0
	for _, n := range names {
		if !strings.Contains(string(ms[n]), `"kind":"Deployment"`) {
			continue
		}
		if err := compareCreate(ms[n]); err != nil {
			bad++
			t.Errorf("%s: %v", filepath.Base(filepath.Dir(n))+"/"+filepath.Base(n), err)
		}
	}
	t.Logf("%d of %d differ", bad, len(names))
}
