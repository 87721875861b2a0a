package rollout_test

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rolloutmath/rolloutmath/internal/vectors"
	"github.com/rolloutmath/rolloutmath/rollout"
)

// v136 validates as a v1.36.3 API server, the one the repository's
// vectors were recorded against.
var v136 = rollout.DecodeOptions{Validate: true, Version: rollout.V1_36}

// TestDecodeValidatesAsTheAPIServer: DecodeOptions{Validate: true} refuses
// exactly the manifests the real API server refuses, with one *FieldError
// per problem it reports, each naming the field; what it accepts names its
// new ReplicaSet with the real controller's pod-template-hash.
func TestDecodeValidatesAsTheAPIServer(t *testing.T) {
	for _, v := range vectors.Load(t, "..") {
		objs, err := v136.Decode(v.Input)
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
		if got, want := rollout.PodTemplateHashFor(d, rollout.V1_36), v.Hash["nil"]; got != want {
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
	// Another version of the type: extensions/v1beta1 Deployments are long
	// gone, and the API server takes no other (found by
	// FuzzCreateAgainstUpstream with apiVersion "0").
	old := strings.Replace(strings.Replace(strings.Replace(frame, "%s", "", 2), `"apps/v1"`, `"extensions/v1beta1"`, 1), "%s", "", 1)
	if _, err := rollout.Decode([]byte(old)); err == nil || !strings.Contains(err.Error(), `apiVersion: Invalid value: "extensions/v1beta1": no kind "Deployment" in this version: want apps/v1`) {
		t.Errorf("extensions/v1beta1: Decode error %v", err)
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
	on, err := rollout.DecodeOptions{Validate: true, FeatureGates: rollout.FeatureGates{GenericWorkload: rollout.GateOn}}.Decode(with)
	if err != nil || len(on.Warnings) > 0 {
		t.Fatalf("with the gate on: %v, warnings %q", err, on.Warnings)
	}
	if g, w := rollout.PodTemplateHash(on.Deployments[0]), rollout.PodTemplateHash(want.Deployments[0]); g == w {
		t.Errorf("with the gate on, the field is kept: hash %s, want one other than %s", g, w)
	}
	// An object the server stores (it has a resourceVersion) keeps what it
	// holds (its gate was on when it was written), even with the gate off.
	stored := []byte(strings.Replace(string(with), `"name":"web"`, `"name":"web","resourceVersion":"7"`, 1))
	live, err := rollout.DecodeOptions{Validate: true}.Decode(stored)
	if err != nil || len(live.Warnings) > 0 || rollout.PodTemplateHash(live.Deployments[0]) != rollout.PodTemplateHash(on.Deployments[0]) {
		t.Errorf("a stored object: %v, warnings %q; want its field kept", err, live.Warnings)
	}
}

// TestManifestAsWrittenPlansNoRollout is issue 9's measure on the
// project's manifests: a manifest as written, next to the ReplicaSet the
// API server holds for it (built from the object the real server stored,
// named with the real controller's hash), finds that ReplicaSet new and
// plans no new one; the same manifest with a new image plans one.
func TestManifestAsWrittenPlansNoRollout(t *testing.T) {
	now := time.Date(2026, 11, 23, 6, 0, 0, 0, time.UTC)
	n := 0
	for _, v := range vectors.Load(t, "..") {
		if v.Stored == nil || !strings.HasPrefix(v.Name, "accepted-") {
			continue
		}
		n++
		written, err := v136.Decode(v.Input)
		if err != nil {
			t.Fatalf("%s: %v", v.Name, err)
		}
		stored, err := rollout.DecodeOptions{FeatureGates: v136.FeatureGates}.Decode(v.Stored)
		if err != nil {
			t.Fatalf("%s: the stored object: %v", v.Name, err)
		}
		sd := stored.Deployments[0]
		sd.UID = "uid-web"
		rs, err := rollout.NewReplicaSetFor(&sd, nil, rollout.V1_36)
		if err != nil {
			t.Fatalf("%s: %v", v.Name, err)
		}
		if want := sd.Name + "-" + v.Hash["nil"]; rs.Name != want {
			t.Fatalf("%s: ReplicaSet %s, the real controller names it %s", v.Name, rs.Name, want)
		}
		rs.UID = "uid-rs"
		d := written.Deployments[0]
		d.UID = sd.UID
		s := rollout.State{Deployment: d, ReplicaSets: []rollout.ReplicaSet{rs}, Now: now, Options: rollout.Options{Version: rollout.V1_36}}
		actions, err := rollout.Plan(s)
		if err != nil {
			t.Fatalf("%s: %v", v.Name, err)
		}
		for _, a := range actions {
			if a.Type == rollout.CreateReplicaSet {
				t.Errorf("%s: the manifest as written plans %v", v.Name, a)
			}
		}
		if _, ok := rollout.FindNewReplicaSet(d, []rollout.ReplicaSet{rs}); !ok {
			t.Errorf("%s: the manifest as written does not find its ReplicaSet", v.Name)
		}
		img := d.Spec.Template.Spec.Images()[0]
		if d.Spec.Template.Spec, err = d.Spec.Template.Spec.WithImage(img.Name, img.Image+"-next"); err != nil {
			t.Fatal(err)
		}
		if _, ok := rollout.FindNewReplicaSet(d, []rollout.ReplicaSet{rs}); ok {
			t.Errorf("%s: a new image finds the old ReplicaSet new", v.Name)
		}
		actions, err = rollout.Plan(rollout.State{Deployment: d, ReplicaSets: []rollout.ReplicaSet{rs}, Now: now})
		rolls := slices.ContainsFunc(actions, func(a rollout.Action) bool {
			return a.Type == rollout.CreateReplicaSet || // RollingUpdate
				a.Type == rollout.ScaleReplicaSet && a.ReplicaSet == rs.Name && a.To == 0 // Recreate: the old ones go first
		})
		if err != nil || !rolls {
			t.Errorf("%s: a new image plans %v, %v; want a rollout", v.Name, actions, err)
		}
	}
	if n < 10 {
		t.Fatalf("%d accepted manifests in the vectors", n)
	}
}

// TestDecodeFieldsOfTheMinor: a field that only 1.37 has is read by a 1.37
// API server and refused, by name, by a 1.36 one (issue 24), through the
// API server's whole sequence.
func TestDecodeFieldsOfTheMinor(t *testing.T) {
	manifest := []byte(`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},
	  "spec":{"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},
	  "spec":{"evictionResponders":[{"name":"drain"}],"containers":[{"name":"web","image":"nginx"}]}}}}`)
	for _, o := range []rollout.DecodeOptions{{Version: rollout.V1_37}, {Validate: true, Version: rollout.V1_37}, {}} {
		if _, err := o.Decode(manifest); err != nil {
			t.Errorf("%+v: %v", o, err)
		}
	}
	for _, o := range []rollout.DecodeOptions{{Version: rollout.V1_36}, {Validate: true, Version: rollout.V1_35}} {
		_, err := o.Decode(manifest)
		if err == nil || !strings.Contains(err.Error(), "spec.template.spec.evictionResponders: unknown field") {
			t.Errorf("%s: %v, want the field refused by name", o.Version, err)
		}
	}
}
