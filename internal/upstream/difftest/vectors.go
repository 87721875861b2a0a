package difftest

import (
	"bytes"
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

	"github.com/rolloutmath/rolloutmath/internal/vectors"
)

// Vector is the vectors' record (see package vectors).
type Vector = vectors.Vector

// VectorFile is where the vectors live, relative to internal/upstream.
const VectorFile = "../../" + vectors.File

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

// VersionDir holds the manifests of the rules that differ between minors,
// relative to internal/upstream.
const VersionDir = "../../" + vectors.VersionDir

// BuildVersionVectors runs the manifests of dirs (the project's and
// VersionDir) through the real code of the minor this package is built
// with, recording each refusal's message too. It adds no random
// Deployments: those of another minor than v1.36 hold fields that today's
// schema does not have.
func BuildVersionVectors(dirs ...string) ([]Vector, error) {
	var out []Vector
	for _, dir := range dirs {
		files, err := filepath.Glob(filepath.Join(dir, "*"))
		if err != nil {
			return nil, err
		}
		sort.Strings(files)
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
			v := vectorOf(filepath.Base(f), input)
			_, _, v.Messages = RealCreateDeploymentMessages(input)
			out = append(out, v)
		}
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

// EncodeVectors writes vectors as the checked-in file holds them.
func EncodeVectors(vs []Vector) ([]byte, error) { return vectors.Encode(vs) }

func ptr[T any](v T) *T { return &v }
