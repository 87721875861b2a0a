package difftest

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"k8s.io/kubernetes/pkg/controller"
	"sigs.k8s.io/yaml"
)

// A Vector is what the real API server and controller (v1.36.3) do with
// one manifest: what a create stores (nil when the input does not
// decode), the problems that refuse it, and the pod-template-hash of the
// stored template at four collision counts. The main module replays the
// vectors without Kubernetes' code.
type Vector struct {
	Name     string            `json:"name"`
	Input    json.RawMessage   `json:"input"`
	Stored   json.RawMessage   `json:"stored,omitempty"`
	Problems []Problem         `json:"problems,omitempty"`
	Decode   bool              `json:"decodeError,omitempty"`
	Hash     map[string]string `json:"hash,omitempty"`
}

// VectorFile is where the vectors live, relative to internal/upstream.
const VectorFile = "../../testdata/apiserver/vectors.json.gz"

// ManifestDir holds the project's own manifests, relative to
// internal/upstream.
const ManifestDir = "../../testdata/apiserver/manifests"

// RandomVectors is how many random templates the vectors include.
const RandomVectors = 120

// BuildVectors runs the project's manifests and RandomVectors random
// Deployments through the real code. manifestDir holds the manifests.
func BuildVectors(manifestDir string) ([]Vector, error) {
	files, err := filepath.Glob(filepath.Join(manifestDir, "*"))
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	var out []Vector
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		input := data
		if strings.HasSuffix(f, ".yaml") {
			if input, err = yaml.YAMLToJSON(data); err != nil {
				return nil, fmt.Errorf("%s: %w", f, err)
			}
		}
		out = append(out, vectorOf(filepath.Base(f), input))
	}
	for seed := range RandomVectors {
		input, err := json.Marshal(randomDeployment(int64(seed)))
		if err != nil {
			return nil, err
		}
		out = append(out, vectorOf("random-"+strconv.Itoa(seed), input))
	}
	return out, nil
}

func vectorOf(name string, input []byte) Vector {
	v := Vector{Name: name, Input: compact(input)}
	outcome, stored := RealCreateDeployment(input)
	v.Problems = outcome.Problems
	v.Decode = outcome.Decode != ""
	if stored == nil {
		return v
	}
	v.Stored = outcome.Stored
	v.Hash = map[string]string{}
	for _, cc := range []*int32{nil, ptr(int32(0)), ptr(int32(1)), ptr(int32(math.MaxInt32))} {
		key := "nil"
		if cc != nil {
			key = strconv.Itoa(int(*cc))
		}
		v.Hash[key] = controller.ComputeHash(&stored.Spec.Template, cc)
	}
	return v
}

func compact(b []byte) []byte {
	var buf bytes.Buffer
	if err := json.Compact(&buf, b); err != nil {
		return b
	}
	return buf.Bytes()
}

// EncodeVectors writes vectors as gzipped JSON, one vector a line.
func EncodeVectors(vs []Vector) ([]byte, error) {
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

func ptr[T any](v T) *T { return &v }
