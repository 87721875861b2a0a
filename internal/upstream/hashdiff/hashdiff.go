// Package hashdiff compares rolloutmath's pod-template-hash with the real
// controller.ComputeHash of the Kubernetes minor it is built with: the
// module's go.mod gives 1.36, go.v135.mod 1.35 and go.v137.mod 1.37, so
//
//	go test ./hashdiff
//	go test -modfile=go.v135.mod ./hashdiff
//	go test -modfile=go.v137.mod ./hashdiff
//
// compare each minor; each also reads the other minors' templates with
// its real strict decoder and ours, which must find the same unknown
// fields. It imports only the API types, the controller's hash, the
// defaulting of apps/v1 and sigs.k8s.io/json, so that it builds with
// every minor.
// Command hashvectors writes the same comparisons, the real hashes, to
// the main module's testdata/hash, which package schema's tests replay
// without Kubernetes.
package hashdiff

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

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	_ "k8s.io/kubernetes/pkg/apis/apps/install" // apps/v1 defaults
	_ "k8s.io/kubernetes/pkg/apis/core/install" // core/v1 defaults
	"k8s.io/kubernetes/pkg/controller"
	"sigs.k8s.io/randfill"
	"sigs.k8s.io/yaml"

	"github.com/rolloutmath/rolloutmath/hash"
	"github.com/rolloutmath/rolloutmath/internal/kubeversion"
	"github.com/rolloutmath/rolloutmath/internal/schema"
	"github.com/rolloutmath/rolloutmath/internal/upstream/schemagen"
)

// A Vector is one template and its real hashes: Template is the JSON of a
// v1.PodTemplateSpec as the minor's types write it, Hash its
// controller.ComputeHash by collision count ("nil" for none).
type Vector struct {
	Name     string
	Template json.RawMessage
	Hash     map[string]string
}

// collisionCounts are the collision counts every hash is taken at.
var collisionCounts = []*int32{nil, ptr(0), ptr(1), ptr(math.MaxInt32)}

func ptr(v int32) *int32 { return &v }

func ccKey(cc *int32) string {
	if cc == nil {
		return "nil"
	}
	return strconv.Itoa(int(*cc))
}

// Of returns the vector of a template: its JSON, read back into a fresh
// value (as a controller reads what the API server stores), hashed.
func Of(name string, t *corev1.PodTemplateSpec) (Vector, error) {
	data, err := json.Marshal(t)
	if err != nil {
		return Vector{}, fmt.Errorf("%s: %w", name, err)
	}
	var back corev1.PodTemplateSpec
	if err := json.Unmarshal(data, &back); err != nil {
		return Vector{}, fmt.Errorf("%s: %w", name, err)
	}
	if data, err = json.Marshal(&back); err != nil {
		return Vector{}, fmt.Errorf("%s: %w", name, err)
	}
	v := Vector{Name: name, Template: data, Hash: map[string]string{}}
	for _, cc := range collisionCounts {
		v.Hash[ccKey(cc)] = controller.ComputeHash(&back, cc)
	}
	return v, nil
}

// Ours returns rolloutmath's hashes of a vector's template for Kubernetes
// v, decoding it strictly as v's API: a field v does not have is an
// error.
func Ours(v kubeversion.Version, vec Vector) (map[string]string, error) {
	t, res := schema.DecodePodTemplateSpec(vec.Template, schema.DecodeOptions{Version: v})
	if len(res.Errs) > 0 {
		return nil, fmt.Errorf("%s: decoding as %s: %v", vec.Name, v, res.Errs)
	}
	out := map[string]string{}
	for _, cc := range collisionCounts {
		h := schema.SpewPodTemplateSpec(hash.NewFNV32a(), t, v)
		if cc != nil {
			h = h.WriteCollisionCount(*cc)
		}
		out[ccKey(cc)] = hash.Encode(uint32(h))
	}
	return out, nil
}

// Minor returns the minor that this build's k8s.io/api belongs to; dir is
// the directory of the schema generator's models (see schemagen.ThisMinor).
func Minor(dir string) (kubeversion.Version, error) { return schemagen.ThisMinor(dir) }

// Manifests returns the vectors of every Deployment in the YAML or JSON
// files of dir (one object a file), as written and with the minor's
// apps/v1 defaults applied, sorted by name; prefix starts their names.
func Manifests(dir, prefix string) ([]Vector, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*"))
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	var out []Vector
	for _, f := range files {
		if ext := filepath.Ext(f); ext != ".yaml" && ext != ".json" {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		for i, doc := range bytes.Split(data, []byte("\n---")) {
			j, err := yaml.YAMLToJSON(doc)
			if err != nil || !bytes.Contains(j, []byte(`"kind":"Deployment"`)) {
				continue
			}
			var d appsv1.Deployment
			if err := json.Unmarshal(j, &d); err != nil {
				continue // not a Deployment that decodes: nothing to hash
			}
			name := prefix + filepath.Base(f)
			if i > 0 {
				name += "#" + strconv.Itoa(i)
			}
			raw, err := Of(name, &d.Spec.Template)
			if err != nil {
				return nil, err
			}
			legacyscheme.Scheme.Default(&d)
			defaulted, err := Of(name+" (defaulted)", &d.Spec.Template)
			if err != nil {
				return nil, err
			}
			out = append(out, raw, defaulted)
		}
	}
	return out, nil
}

// Random returns the vector of a random template: every field of the
// minor's types may be set (half of them are), with valid quantities and
// int-or-strings, no times, and no managed fields.
func Random(seed int64) (Vector, error) {
	amounts := []string{"0", "1", "100m", "0.5", "1.5Gi", "512Mi", "1e3", "1Ei", "1n", "123456789012345678901234567890", "7Ki", "-1"}
	f := randfill.NewWithSeed(seed).NilChance(0.5).NumElements(0, 2).MaxDepth(12).Funcs(
		func(q *resource.Quantity, c randfill.Continue) {
			*q = resource.MustParse(amounts[c.Intn(len(amounts))])
		},
		func(v *intstr.IntOrString, c randfill.Continue) {
			if c.Bool() {
				*v = intstr.FromInt32(c.Int31())
			} else {
				*v = intstr.FromString(c.String(8))
			}
		},
		func(t *metav1.Time, c randfill.Continue) { *t = metav1.Time{} },
		func(m *[]metav1.ManagedFieldsEntry, c randfill.Continue) { *m = nil },
		func(s *string, c randfill.Continue) { *s = words[c.Intn(len(words))] },
	)
	var t corev1.PodTemplateSpec
	f.Fill(&t)
	return Of("random-"+strconv.FormatInt(seed, 10), &t)
}

// words are the strings random templates hold: short, some of them the
// values that defaulting and the hash's shortcuts treat apart.
var words = []string{"", "a", "web", "TCP", "File", "IfNotPresent", "Always", "ClusterFirst", "default-scheduler", "HTTP", "/dev/termination-log", "v1", "x y", "é"}

// Encode writes vectors as gzipped JSON, one line per vector.
func Encode(vs []Vector) ([]byte, error) {
	var b bytes.Buffer
	zw, err := gzip.NewWriterLevel(&b, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	enc := json.NewEncoder(zw)
	for _, v := range vs {
		if err := enc.Encode(v); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// File is the vectors' file of Kubernetes v in the main module, relative
// to it, as testdata/hash/v1.36.jsonl.gz.
func File(v kubeversion.Version) string {
	return filepath.Join("testdata", "hash", "v"+v.String()+".jsonl.gz")
}

// RandomVectors is how many random templates the vector files hold.
const RandomVectors = 100

// Build returns the vectors of the project's manifests and of
// RandomVectors random templates. root is the main module's directory.
func Build(root string) ([]Vector, error) {
	var out []Vector
	for _, dir := range []string{
		"testdata/manifests", "testdata/manifests/bad", "testdata/apiserver/manifests",
		"examples/rolloutctl/testdata", "examples/rolloutctl/testdata/live/applied", "examples/rolloutctl/testdata/live/next",
		"internal/upstream/hashdiff/testdata",
	} {
		vs, err := Manifests(filepath.Join(root, dir), dir+"/")
		if err != nil {
			return nil, err
		}
		out = append(out, vs...)
	}
	for seed := range int64(RandomVectors) {
		v, err := Random(seed)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}
