package manifest_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutmath/rolloutmath/rollout/manifest"
)

// writeTree writes files (path -> content) under a new directory and
// returns it.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const webDeployment = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n"

// TestReadSameFileTwiceReadOnce: issue 27 point 1: -f deploy/ -f
// deploy/app.yaml named every object twice, and every object was an
// error. A file is read once, where first named, with a note.
func TestReadSameFileTwiceReadOnce(t *testing.T) {
	dir := writeTree(t, map[string]string{"deploy/app.yaml": webDeployment})
	deploy := filepath.Join(dir, "deploy")
	app := filepath.Join(deploy, "app.yaml")
	docs, notes, err := manifest.ReadNotes(manifest.Options{}, deploy, app, deploy+"/../deploy/app.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) != 1 {
		t.Errorf("ReadNotes() = %d documents, want 1", len(docs))
	}
	want := []string{
		app + ": read once: named again (as " + app + ")",
		app + ": read once: named again (as " + deploy + "/../deploy/app.yaml)",
	}
	if diff := cmp.Diff(want, notes); diff != "" {
		t.Errorf("notes mismatch (-want +got):\n%s", diff)
	}
}

// TestReadRepositoryRoot: issue 27 point 6: -f . at a repository root
// failed on .github/workflows/*.yml, values.yaml and package.json. Hidden
// directories, files without a Kubernetes object and excluded paths are
// left out with a note; a kustomize directory gets a note; a file named
// on its own is read whatever it holds.
func TestReadRepositoryRoot(t *testing.T) {
	dir := writeTree(t, map[string]string{
		".github/workflows/ci.yml":         "on: push\njobs: {}\n",
		"chart/values.yaml":                "replicaCount: 3\nimage: {tag: v1}\n",
		"package.json":                     `{"name": "site", "version": "1.0.0"}`,
		"deploy/web.yaml":                  webDeployment,
		"deploy/.draft.yaml":               "kind: [\n",
		"vendor/thing.yaml":                "kind: [\n",
		"overlays/prod/kustomization.yaml": "resources: [../../deploy]\n",
		"overlays/prod/patch.yaml":         webDeployment,
	})
	docs, notes, err := manifest.ReadNotes(manifest.Options{Exclude: []string{"vendor"}}, dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range docs {
		rel, _ := filepath.Rel(dir, d.Source)
		got = append(got, rel)
	}
	if diff := cmp.Diff([]string{"deploy/web.yaml", "overlays/prod/patch.yaml"}, got); diff != "" {
		t.Errorf("documents mismatch (-want +got):\n%s", diff)
	}
	for i, n := range notes {
		notes[i] = strings.ReplaceAll(n, dir, "DIR")
	}
	// What the walk leaves out, then the files without an object.
	want := []string{
		"DIR/.github: skipped: a hidden directory (name it with -f to read it)",
		"DIR/overlays/prod: a kustomize directory (kustomization.yaml): its files are kustomize's input, not manifests; pipe 'kustomize build DIR/overlays/prod' (or 'kubectl kustomize DIR/overlays/prod') in with -f - instead",
		"DIR/vendor: skipped: excluded",
		"DIR/chart/values.yaml: skipped: no Kubernetes object in it (not a Kubernetes object: no kind (keys: image, replicaCount))",
		"DIR/package.json: skipped: no Kubernetes object in it (not a Kubernetes object: no kind (keys: name, version))",
	}
	if diff := cmp.Diff(want, notes); diff != "" {
		t.Errorf("notes mismatch (-want +got):\n%s", diff)
	}
	// Named on its own, a file is read, and its problems are problems.
	_, _, err = manifest.ReadNotes(manifest.Options{}, filepath.Join(dir, "chart/values.yaml"))
	if !errors.Is(err, manifest.ErrNotObject) {
		t.Errorf("ReadNotes(values.yaml) = %v, want ErrNotObject", err)
	}
}
