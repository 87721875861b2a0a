package rollout_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutmath/rolloutmath/rollout"
)

func TestParsePodSpec(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
		wantErr        bool
	}{
		{name: "empty input is the empty spec", in: "", want: "{}"},
		{name: "null is the empty spec", in: " null ", want: "{}"},
		{name: "empty object", in: "{ }", want: "{}"},
		{name: "keys sorted, space dropped, the struct resources written", in: `{ "containers": [ { "name": "c", "image": "img:v1" } ] }`,
			want: `{"containers":[{"image":"img:v1","name":"c","resources":{}}]}`},
		{name: "null members and empty lists and maps dropped, empty objects kept", in: `{"nodeSelector":null,"volumes":[],"tolerations":[],"hostAliases":null,"securityContext":{}}`,
			want: `{"securityContext":{}}`},
		{name: "quantities in canonical form", in: `{"overhead":{"cpu":0.5,"memory":"1.5Gi"}}`, want: `{"overhead":{"cpu":"500m","memory":"1536Mi"}}`},
		{name: "an unknown field is an error", in: `{"containerz":[]}`, wantErr: true},
		{name: "a field in another case is an error", in: `{"Containers":[]}`, wantErr: true},
		{name: "a value of the wrong type is an error", in: `{"hostNetwork":"yes"}`, wantErr: true},
		{name: "a duplicate field is an error", in: `{"hostname":"a","hostname":"b"}`, wantErr: true},
		{name: "an array is not a pod spec", in: `[]`, wantErr: true},
		{name: "a string is not a pod spec", in: `"x"`, wantErr: true},
		{name: "invalid JSON", in: `{"a":`, wantErr: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := rollout.ParsePodSpec([]byte(tc.in))
			if tc.wantErr {
				if err == nil {
					t.Fatalf("ParsePodSpec(%q) = %s, want an error", tc.in, got)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParsePodSpec(%q): %v", tc.in, err)
			}
			if got.String() != tc.want {
				t.Errorf("ParsePodSpec(%q) = %s, want %s", tc.in, got, tc.want)
			}
			// The canonical form parses to itself and round-trips through JSON.
			var back rollout.PodSpec
			if err := json.Unmarshal(got.JSON(), &back); err != nil || !back.Equal(got) {
				t.Errorf("JSON round trip of %s = %s, %v", got, back, err)
			}
		})
	}
}

func TestPodSpecEqual(t *testing.T) {
	a := rollout.MustParsePodSpec(`{"containers":[{"name":"c","image":"img:v1"}]}`)
	b := rollout.MustParsePodSpec("{\n  \"containers\": [{\"image\": \"img:v1\", \"name\": \"c\"}]\n}")
	if !a.Equal(b) || cmp.Diff(a, b) != "" {
		t.Errorf("specs that differ only in key order and space are not equal: %s, %s", a, b)
	}
	if c := rollout.MustParsePodSpec(`{"containers":[{"name":"c","image":"img:v2"}]}`); a.Equal(c) {
		t.Errorf("%s equals %s", a, c)
	}
	if !(rollout.PodSpec{}).Equal(rollout.MustParsePodSpec("{}")) {
		t.Error("the zero PodSpec is not the empty spec")
	}
	j := a.JSON()
	j[0] = 'x' // the caller owns the result
	if a.String() != `{"containers":[{"image":"img:v1","name":"c","resources":{}}]}` {
		t.Errorf("modifying JSON() changed the spec to %s", a)
	}
}

func TestMustParsePodSpecPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("MustParsePodSpec(`[`) did not panic")
		}
	}()
	rollout.MustParsePodSpec("[")
}

// TestPlanComparesSpecsByContent: a spec written in another key order and
// spacing is the same template, so Plan creates no ReplicaSet for it.
func TestPlanComparesSpecsByContent(t *testing.T) {
	s := rollout.StaleState(t)
	s.Options.RefreshStaleAnnotations = true
	s.ReplicaSets[0].Annotations[rollout.DesiredReplicasAnnotation] = "3"
	s.Deployment.Spec.Template.Spec = rollout.MustParsePodSpec(`{ "containers": [ { "name": "c", "image": "img:v1" } ] }`)
	s.ReplicaSets[0].Spec.Template.Spec = rollout.MustParsePodSpec(`{"containers":[{"image":"img:v1","name":"c"}]}`)
	actions, err := rollout.Plan(s)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range actions {
		if a.Type == rollout.CreateReplicaSet {
			t.Fatalf("Plan() creates %s: the templates are equal", a.ReplicaSet)
		}
	}
}
