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

	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/component-base/featuregate"
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
			switch filepath.Ext(f) {
			case ".json", ".yaml", ".yml":
			default:
				continue // a README, a list of sources
			}
			data, err := os.ReadFile(f)
			if err != nil {
				return nil, err
			}
			input := data
			if strings.HasSuffix(f, ".yaml") || strings.HasSuffix(f, ".yml") {
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

// RandomVersionVectors is how many random Deployments each minor's
// vectors include: seeds 0 to RandomVersionVectors-1 of
// randomVersionDeployment, the same seeds for every minor.
const RandomVersionVectors = 300

// BuildRandomVersionVectors runs RandomVersionVectors random Deployments
// through the real code of the minor this package is built with, naming
// each "random-SEED" and recording each refusal's message. The templates
// are filled from the minor's own types, so a seed gives each minor its
// own template (with the fields that minor has); most are refused, so the
// refusals and their messages are compared as well as the stored objects.
func BuildRandomVersionVectors() ([]Vector, error) {
	var out []Vector
	for seed := range RandomVersionVectors {
		input, err := json.Marshal(randomVersionDeployment(int64(seed)))
		if err != nil {
			return nil, err
		}
		v := vectorOf("random-"+strconv.Itoa(seed), input)
		_, _, v.Messages = RealCreateDeploymentMessages(input)
		out = append(out, v)
	}
	return out, nil
}

// VersionUpdateDir holds the updates of the rules that let a stored
// template keep a value, relative to internal/upstream.
const VersionUpdateDir = "../../" + vectors.VersionUpdateDir

// BuildUpdateVectors runs the updates of dir: each NAME.stored.json is
// created (its validation errors ignored, as if an older minor had stored
// it), given what the server assigns (Stamp), and updated with NAME.json.
// The vectors, named "update-NAME", hold the stored object as Old.
func BuildUpdateVectors(dir string) ([]Vector, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.stored.json"))
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	var out []Vector
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".stored.json")
		storedJSON, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		input, err := os.ReadFile(filepath.Join(dir, name+".json"))
		if err != nil {
			return nil, err
		}
		_, old := RealCreateDeployment(storedJSON)
		if old == nil {
			return nil, fmt.Errorf("%s does not decode", f)
		}
		Stamp(old)
		oldJSON, err := json.Marshal(old)
		if err != nil {
			return nil, err
		}
		v := Vector{Name: "update-" + name, Input: compact(input), Old: Canonical(oldJSON)}
		outcome, _, msgs := RealUpdateDeploymentMessages(old, input)
		v.Problems, v.Messages, v.Decode = outcome.Problems, msgs, outcome.Decode != ""
		v.Stored = outcome.Stored
		out = append(out, v)
	}
	return out, nil
}

// flippable are the gates that apiserver.FeatureGates has and whose
// default differs between the supported minors, or that guard a field
// only one minor has (GenericWorkload: 1.35's workloadRef; the alpha
// gates of 1.37's new fields), each with the gates it depends on
// (defaultKubernetesFeatureGateDependencies), which must be on for it to
// be turned on. Only those the minor built with registers are returned.
func flippable() map[string][]string {
	all := map[string][]string{
		"ClusterTrustBundleProjection":         {"ClusterTrustBundle"},
		"PodCertificateRequest":                nil, // AuthorizeNodeWithSelectors is locked on
		"SELinuxMount":                         nil,
		"RestartAllContainersOnContainerExits": {"ContainerRestartRules", "NodeDeclaredFeatures"},
		"StrictIPCIDRValidation":               nil,
		"GenericWorkload":                      nil,
		"EvictionRequestAPI":                   nil, // 1.37 on
		"VolumeBindMountOptions":               nil,
		"H2CContainerProbe":                    {"NodeDeclaredFeatures"},
		"GRPCContainerProbeTLS":                nil,
		"EmptyDirVolumeMode":                   nil,
		"AtomicWriteVolumeUserFields":          nil,
	}
	known := utilfeature.DefaultMutableFeatureGate.GetAll()
	for name := range all {
		if _, ok := known[featuregate.Feature(name)]; !ok {
			delete(all, name)
		}
	}
	return all
}

// BuildGateVectors runs the manifests of dir through the real code with
// every flippable gate set against its default (and the gates it needs
// turned on), naming each vector "gates-" and its file, and recording
// the gates flipped. It restores the gates before it returns.
func BuildGateVectors(dir string) ([]Vector, error) {
	fg := utilfeature.DefaultMutableFeatureGate
	flipped := map[string]bool{}
	set := map[string]bool{}
	restore := map[string]bool{}
	for name, deps := range flippable() {
		on := !fg.Enabled(featuregate.Feature(name))
		flipped[name], set[name], restore[name] = on, on, !on
		for _, d := range deps {
			if on {
				set[d] = true
				restore[d] = fg.Enabled(featuregate.Feature(d))
			}
		}
	}
	if err := fg.SetFromMap(set); err != nil {
		return nil, err
	}
	defer fg.SetFromMap(restore)
	files, err := filepath.Glob(filepath.Join(dir, "*"))
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	var out []Vector
	for _, f := range files {
		input, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		v := vectorOf("gates-"+filepath.Base(f), input)
		_, _, v.Messages = RealCreateDeploymentMessages(input)
		v.Gates = flipped
		out = append(out, v)
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
