// Package vectors reads and writes testdata/apiserver/vectors.json.gz: the
// project's manifests and random Deployments, each with what the real
// v1.36.3 API server and controller do with it. internal/upstream's
// vectorgen writes the file from Kubernetes' own code; the main module's
// tests replay it without that code.
package vectors

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path"
	"testing"

	"github.com/rolloutmath/rolloutmath/internal/kubeversion"
)

// File is where the repository keeps the vectors, relative to the main
// module's root.
const File = "testdata/apiserver/vectors.json.gz"

// A Vector is what the real API server and controller (v1.36.3) do with
// one manifest: what a create stores (nil when the input does not
// decode), the problems that refuse it, and the pod-template-hash of the
// stored template by collision count ("nil", "0", "1", "2147483647").
type Vector struct {
	Name     string            `json:"name"`
	Input    json.RawMessage   `json:"input"`
	Stored   json.RawMessage   `json:"stored,omitempty"`
	Problems []Problem         `json:"problems,omitempty"`
	Decode   bool              `json:"decodeError,omitempty"`
	Hash     map[string]string `json:"hash,omitempty"`
	// Messages are the refusals as upstream prints them ("field: Type:
	// value: detail"), sorted; only the per-minor files (VersionFile)
	// record them.
	Messages []string `json:"messages,omitempty"`
	// Gates are the feature gates set against their minor's default for
	// this vector (upstream's names); only the per-minor files record
	// vectors with gates.
	Gates map[string]bool `json:"gates,omitempty"`
	// Old is, for an update, the object the server stores before it
	// (Input is then the new object); only the per-minor files have
	// updates.
	Old json.RawMessage `json:"old,omitempty"`
}

// Problem is one refusal reason, reduced to what both sides must agree on:
// its type and its field path.
type Problem struct {
	Type  string
	Field string
}

func (p Problem) String() string { return p.Field + ": " + p.Type }

// Encode writes vectors as gzipped JSON, one vector a line, the same bytes
// for the same vectors.
func Encode(vs []Vector) ([]byte, error) {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	zw.ModTime = zw.ModTime.UTC() // the zero time: deterministic output
	for _, v := range vs {
		b, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		zw.Write(b)
		zw.Write([]byte("\n"))
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Decode reads what Encode writes.
func Decode(r io.Reader) ([]Vector, error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, err
	}
	sc := bufio.NewScanner(zr)
	sc.Buffer(nil, 16<<20)
	var vs []Vector
	for sc.Scan() {
		var v Vector
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			return nil, fmt.Errorf("vector %d: %w", len(vs)+1, err)
		}
		vs = append(vs, v)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return vs, nil
}

// ReadFile reads the vectors in the file at path.
func ReadFile(path string) ([]Vector, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Decode(f)
}

// VersionDir holds the manifests of the rules that differ between minors
// (internal/apiserver/VERSIONS.md), relative to the main module's root.
const VersionDir = "testdata/apiserver/versions"

// VersionUpdateDir holds updates for the rules that let a stored template
// keep what a new one may not have: NAME.stored.json, created first, and
// NAME.json, the update; relative to the main module's root.
const VersionUpdateDir = "testdata/apiserver/version-updates"

// VersionFile is where the repository keeps the vectors of one minor,
// relative to the main module's root: the project's manifests and those of
// VersionDir, run through that minor's create path, with their messages.
func VersionFile(v kubeversion.Version) string {
	return "testdata/apiserver/vectors-" + v.String() + ".json.gz"
}

// Load reads the repository's vectors for a test, whose package is at
// root's path below the module's root ("..", "../.."); a file that does
// not read ends the test.
func Load(tb testing.TB, root string) []Vector {
	tb.Helper()
	vs, err := ReadFile(path.Join(root, File))
	if err != nil {
		tb.Fatal(err)
	}
	return vs
}
