package hashdiff

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/rolloutmath/rolloutmath/internal/kubeversion"
	"github.com/rolloutmath/rolloutmath/internal/upstream/schemagen"
)

// root is the main module's directory.
const root = "../../.."

func minor(t *testing.T) kubeversion.Version {
	t.Helper()
	v, err := Minor(filepath.Join("..", schemagen.ModelsDir))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func compare(t *testing.T, v kubeversion.Version, vs []Vector) {
	t.Helper()
	for _, vec := range vs {
		got, err := Ours(v, vec)
		if err != nil {
			t.Error(err)
			continue
		}
		for cc, want := range vec.Hash {
			if got[cc] != want {
				t.Errorf("%s, collision count %s: ours %s, upstream's ComputeHash %s (Kubernetes %s)", vec.Name, cc, got[cc], want, v)
			}
		}
	}
}

// TestHashProjectManifests compares the hash of this build's minor on the
// project's manifests and on random templates.
func TestHashProjectManifests(t *testing.T) {
	v := minor(t)
	vs, err := Build(root)
	if err != nil {
		t.Fatal(err)
	}
	compare(t, v, vs)
	t.Logf("Kubernetes %s: %d templates", v, len(vs))
}

// TestHashSharedManifests compares the hash of this build's minor on the
// real manifests of ../shared/manifests, read in place (never copied); it
// skips when they are absent.
func TestHashSharedManifests(t *testing.T) {
	v := minor(t)
	dir := filepath.Join(root, "..", "shared", "manifests")
	var vs []Vector
	for _, sub := range []string{"accepted", "refused"} {
		got, err := Manifests(filepath.Join(dir, sub), sub+"/")
		if err != nil {
			t.Fatal(err)
		}
		vs = append(vs, got...)
	}
	if len(vs) == 0 {
		t.Skip("../shared/manifests is absent")
	}
	compare(t, v, vs)
	t.Logf("Kubernetes %s: %d templates", v, len(vs))
}

// TestHashMoreRandomTemplates compares the hash on random templates other
// than the vectors' (2,000, or 200 with -short).
func TestHashMoreRandomTemplates(t *testing.T) {
	v := minor(t)
	n := 2000
	if testing.Short() {
		n = 200
	}
	var vs []Vector
	for seed := range int64(n) {
		vec, err := Random(RandomVectors + seed)
		if err != nil {
			t.Fatal(err)
		}
		vs = append(vs, vec)
	}
	compare(t, v, vs)
}

// TestVectorsAreCurrent fails when the main module's vector file of this
// build's minor differs from what Build gives: run
// go run [-modfile=go.v13N.mod] ./cmd/hashvectors from internal/upstream.
func TestVectorsAreCurrent(t *testing.T) {
	v := minor(t)
	vs, err := Build(root)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(root, File(v)))
	if err != nil {
		t.Fatalf("%v (run go run ./cmd/hashvectors with the module file of %s)", err, v)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	enc := json.NewEncoder(&want)
	for _, vec := range vs {
		if err := enc.Encode(vec); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(got, want.Bytes()) {
		t.Errorf("%s is stale: run go run ./cmd/hashvectors with the module file of %s", File(v), v)
	}
}
