package rollout_test

import (
	"encoding/json"
	"errors"
	"sync"
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

// TestPodSpecImages: init containers first, then the others, each in spec
// order; none for the empty spec.
func TestPodSpecImages(t *testing.T) {
	s := rollout.MustParsePodSpec(`{"initContainers":[{"name":"i1","image":"init:1"},{"name":"i2","image":"init:2"}],"containers":[{"name":"a","image":"app:1"},{"name":"b","image":"side:1"}]}`)
	want := []rollout.ContainerImage{{Name: "i1", Image: "init:1", Init: true}, {Name: "i2", Image: "init:2", Init: true}, {Name: "a", Image: "app:1"}, {Name: "b", Image: "side:1"}}
	if diff := cmp.Diff(want, s.Images()); diff != "" {
		t.Errorf("Images() mismatch (-want +got):\n%s", diff)
	}
	if got := (rollout.PodSpec{}).Images(); len(got) != 0 {
		t.Errorf("Images() of the empty spec = %v, want none", got)
	}
}

// TestPodSpecWithImage: the named container or init container gets the
// image and nothing else changes; s itself is unchanged; an unknown name
// is an error wrapping ErrNoContainer that lists the names there are.
func TestPodSpecWithImage(t *testing.T) {
	s := rollout.MustParsePodSpec(`{"initContainers":[{"name":"i","image":"init:1"}],"containers":[{"name":"a","image":"app:1","imagePullPolicy":"Always"},{"name":"b","image":"side:1"}]}`)
	before := s.String()
	for _, tc := range []struct{ container, want string }{
		{"a", `{"containers":[{"image":"app:2","imagePullPolicy":"Always","name":"a","resources":{}},{"image":"side:1","name":"b","resources":{}}],"initContainers":[{"image":"init:1","name":"i","resources":{}}]}`},
		{"b", `{"containers":[{"image":"app:1","imagePullPolicy":"Always","name":"a","resources":{}},{"image":"app:2","name":"b","resources":{}}],"initContainers":[{"image":"init:1","name":"i","resources":{}}]}`},
		{"i", `{"containers":[{"image":"app:1","imagePullPolicy":"Always","name":"a","resources":{}},{"image":"side:1","name":"b","resources":{}}],"initContainers":[{"image":"app:2","name":"i","resources":{}}]}`},
	} {
		got, err := s.WithImage(tc.container, "app:2")
		if err != nil || got.String() != tc.want {
			t.Errorf("WithImage(%q) = %s, %v; want %s", tc.container, got, err, tc.want)
		}
	}
	if s.String() != before {
		t.Errorf("WithImage() changed s to %s", s)
	}
	_, err := s.WithImage("c", "x")
	if !errors.Is(err, rollout.ErrNoContainer) || err.Error() != `container "c": no such container (the pod spec has ["i" "a" "b"])` {
		t.Errorf("WithImage(unknown) error = %v", err)
	}
	_, err = rollout.PodSpec{}.WithImage("c", "x")
	if !errors.Is(err, rollout.ErrNoContainer) || err.Error() != `container "c": no such container (the pod spec has no containers)` {
		t.Errorf("WithImage(unknown) on the empty spec: error = %v", err)
	}
}

// TestPodSpecForms: the zero PodSpec is the empty spec {}; a spec that is
// not a JSON object is errNotObject's message; JSON decoding refuses what
// ParsePodSpec refuses, leaving the value as it was.
func TestPodSpecForms(t *testing.T) {
	var zero rollout.PodSpec
	if !zero.IsZero() || zero.String() != "{}" || rollout.MustParsePodSpec(`{"hostname":"h"}`).IsZero() {
		t.Errorf("IsZero: the zero spec %v, a spec with a field %v", zero.IsZero(), rollout.MustParsePodSpec(`{"hostname":"h"}`).IsZero())
	}
	if _, err := rollout.ParsePodSpec([]byte(`[1]`)); errString(err) != "a pod spec must be a JSON object" {
		t.Errorf("ParsePodSpec([1]) error = %v", err)
	}
	s := rollout.MustParsePodSpec(`{"hostname":"h"}`)
	if err := json.Unmarshal([]byte(`{"hostnme":"x"}`), &s); err == nil || s.String() != `{"hostname":"h"}` {
		t.Errorf("Unmarshal of an unknown field = %v, spec %s; want an error and the spec unchanged", err, s)
	}
}

// TestPodSpecComparedFromManyGoroutines: the comparison form of a spec is
// made when first asked for, once for all copies, whichever goroutines
// ask (run with -race); an empty spec decoded is the zero PodSpec.
func TestPodSpecComparedFromManyGoroutines(t *testing.T) {
	a := rollout.MustParsePodSpec(`{"containers":[{"name":"c","image":"i","resources":{"requests":{"cpu":"1"}}}]}`)
	b := rollout.MustParsePodSpec(`{"containers":[{"name":"c","image":"i","resources":{"requests":{"cpu":"1000m"}}}]}`)
	other := rollout.MustParsePodSpec(`{"containers":[{"name":"c","image":"j"}]}`)
	empty := rollout.MustParsePodSpec(`{"containers":[],"nodeSelector":{}}`)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			copyA := a
			if !copyA.Equal(b) || a.Equal(other) || a.IsZero() || !empty.IsZero() || !empty.Equal(rollout.PodSpec{}) || !(rollout.PodSpec{}).Equal(empty) {
				t.Errorf("Equal and IsZero: %v %v %v %v %v", copyA.Equal(b), a.Equal(other), a.IsZero(), empty.IsZero(), empty.Equal(rollout.PodSpec{}))
			}
		}()
	}
	wg.Wait()
}
