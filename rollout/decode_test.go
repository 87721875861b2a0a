package rollout_test

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/rolloutmath/rolloutmath/rollout"
)

// apiVector is one manifest of testdata/apiserver and what the real v1.36.3
// API server and controller do with it (internal/upstream/cmd/vectorgen).
type apiVector struct {
	Name     string
	Input    json.RawMessage
	Problems []struct{ Type, Field string }
	Decode   bool `json:"decodeError"`
	Hash     map[string]string
}

func apiVectors(t *testing.T) []apiVector {
	t.Helper()
	f, err := os.Open("../testdata/apiserver/vectors.json.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var vs []apiVector
	sc := bufio.NewScanner(zr)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var v apiVector
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatal(err)
		}
		vs = append(vs, v)
	}
	return vs
}

// TestDecodeValidatesAsTheAPIServer: DecodeOptions{Validate: true} refuses
// exactly the manifests the real API server refuses, with one *FieldError
// per problem it reports, each naming the field; what it accepts names its
// new ReplicaSet with the real controller's pod-template-hash.
func TestDecodeValidatesAsTheAPIServer(t *testing.T) {
	for _, v := range apiVectors(t) {
		objs, err := rollout.DecodeOptions{Validate: true}.Decode(v.Input)
		refused := v.Decode || len(v.Problems) > 0
		if (err != nil) != refused {
			t.Errorf("%s: Decode error %v, upstream refuses: %v %v", v.Name, err, v.Decode, v.Problems)
			continue
		}
		if err != nil {
			if v.Decode {
				continue
			}
			lines := strings.Split(err.Error(), "\n")
			if len(lines) != len(v.Problems) {
				t.Errorf("%s: %d lines, upstream reports %d problems:\n%v\n%v", v.Name, len(lines), len(v.Problems), err, v.Problems)
			}
			for _, p := range v.Problems {
				if !strings.Contains(err.Error(), p.Field+": "+p.Type) {
					t.Errorf("%s: no line names %s: %s in\n%v", v.Name, p.Field, p.Type, err)
				}
			}
			var fe *rollout.FieldError
			if !errors.As(err, &fe) {
				t.Errorf("%s: no *FieldError in %v", v.Name, err)
			}
			continue
		}
		d := objs.Deployments[0]
		if got, want := rollout.PodTemplateHash(d), v.Hash["nil"]; got != want {
			t.Errorf("%s: PodTemplateHash = %s, upstream %s", v.Name, got, want)
		}
	}
}

// TestDecodeIsStrict: a misspelled field, a field in another case, a
// duplicate field and a value of the wrong type are refused, naming the
// field; Lenient drops the unknown ones with a warning.
func TestDecodeIsStrict(t *testing.T) {
	const frame = `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{%s"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"app",%s"image":"nginx"}]}}}}`
	for _, tc := range []struct {
		name, spec, container, want string
	}{
		{"a misspelled field", `"strategy":{"rollingUpdate":{"maxSurg":0}},`, "", `Deployment "web": spec.strategy.rollingUpdate.maxSurg: unknown field`},
		{"a field in another case", `"Replicas":20,`, "", `spec.Replicas: unknown field: did you mean "replicas"?`},
		{"a duplicate field", `"replicas":2,"replicas":3,`, "", "spec.replicas: duplicate field"},
		{"a string for a number", "", `"ports":[{"containerPort":"8080"}],`, `spec.template.spec.containers[0].ports[0].containerPort: Invalid value: "8080": must be a number, not a string`},
		{"a boolean for a string", "", `"env":[{"name":"A","value":true}],`, "spec.template.spec.containers[0].env[0].value: Invalid value: true: must be a string, not a boolean"},
		{"a quantity that does not parse", "", `"resources":{"requests":{"cpu":"1 core"}},`, `spec.template.spec.containers[0].resources.requests.cpu: Invalid value: "1 core"`},
	} {
		data := []byte(strings.Replace(strings.Replace(frame, "%s", tc.spec, 1), "%s", tc.container, 1))
		_, err := rollout.Decode(data)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Decode error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
	data := []byte(strings.Replace(strings.Replace(frame, "%s", `"strategy":{"rollingUpdate":{"maxSurg":0}},`, 1), "%s", "", 1))
	objs, err := rollout.DecodeOptions{Lenient: true}.Decode(data)
	if err != nil || len(objs.Warnings) != 1 || !strings.Contains(objs.Warnings[0], "spec.strategy.rollingUpdate.maxSurg: unknown field") {
		t.Errorf("Lenient: %v, warnings %q", err, objs.Warnings)
	}
}

// TestDecodeValidateDropsDisabledFields: a template field whose feature
// gate is off in v1.36 (spec.schedulingGroup, GenericWorkload) is dropped
// as the API server drops it on create, with a warning naming the gate,
// and the template hashes as the one without it.
func TestDecodeValidateDropsDisabledFields(t *testing.T) {
	const frame = `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{%s"containers":[{"name":"app","image":"nginx"}]}}}}`
	with := []byte(strings.Replace(frame, "%s", `"schedulingGroup":{"podGroupName":"g"},`, 1))
	without := []byte(strings.Replace(frame, "%s", "", 1))
	got, err := rollout.DecodeOptions{Validate: true}.Decode(with)
	if err != nil {
		t.Fatal(err)
	}
	want, err := rollout.DecodeOptions{Validate: true}.Decode(without)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Warnings) != 1 || !strings.Contains(got.Warnings[0], "feature gate GenericWorkload") {
		t.Errorf("warnings %q, want one naming GenericWorkload", got.Warnings)
	}
	if g, w := rollout.PodTemplateHash(got.Deployments[0]), rollout.PodTemplateHash(want.Deployments[0]); g != w {
		t.Errorf("hash with the dropped field %s, without it %s", g, w)
	}
	on, err := rollout.DecodeOptions{Validate: true, FeatureGates: rollout.FeatureGates{EnableGenericWorkload: true}}.Decode(with)
	if err != nil || len(on.Warnings) > 0 {
		t.Fatalf("with the gate on: %v, warnings %q", err, on.Warnings)
	}
	if g, w := rollout.PodTemplateHash(on.Deployments[0]), rollout.PodTemplateHash(want.Deployments[0]); g == w {
		t.Errorf("with the gate on, the field is kept: hash %s, want one other than %s", g, w)
	}
}
