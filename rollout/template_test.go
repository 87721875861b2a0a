package rollout_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/rolloutmath/rolloutmath/rollout"
)

// hashOf returns the pod-template-hash of a template, with a collision
// count when cc is not nil.
func hashOf(t rollout.PodTemplate, cc *int32) string {
	d := rollout.Deployment{Spec: rollout.DeploymentSpec{Template: t}}
	if cc != nil {
		d.Status.CollisionCount = rollout.Int32(*cc)
	}
	return rollout.PodTemplateHashFor(d, rollout.V1_36) // the vectors are v1.36.3's
}

func ptr32(v int32) *int32 { return &v }

// TestPodTemplateHashVectors pins upstream's ComputeHash on the templates
// of vectors D.5 (k8s.io/kubernetes v1.36.3).
func TestPodTemplateHashVectors(t *testing.T) {
	web := func(image string) rollout.PodTemplate {
		return rollout.PodTemplate{Labels: map[string]string{"app": "web"},
			Spec: rollout.MustParsePodSpec(fmt.Sprintf(`{"containers":[{"name":"c","image":%q}]}`, image))}
	}
	for _, tc := range []struct {
		name string
		t    rollout.PodTemplate
		cc   *int32
		want string
	}{
		{"empty template", rollout.PodTemplate{}, nil, "85748b7f68"},
		{"empty template, collision count 0", rollout.PodTemplate{}, ptr32(0), "777dfcd544"},
		{"empty template, collision count 1", rollout.PodTemplate{}, ptr32(1), "b54bc767c"},
		{"labels a, b, a grace period and a container", rollout.PodTemplate{Labels: map[string]string{"a": "1", "b": "2"},
			Spec: rollout.MustParsePodSpec(`{"terminationGracePeriodSeconds":30,"containers":[{"name":"c","image":"img:v1"}]}`)}, nil, "7b5956ffb4"},
		{"the E traces' template", web("img:v1"), nil, "6df65d4dc7"},
		{"the E traces' template, collision count 1", web("img:v1"), ptr32(1), "6f7f9c7dfb"},
		{"the E traces' template with img:v2", web("img:v2"), nil, "84d9d7c55d"},
		{"empty maps are absent, as read from the API server", rollout.PodTemplate{Labels: map[string]string{}, Annotations: map[string]string{}}, nil, "85748b7f68"},
	} {
		if got := hashOf(tc.t, tc.cc); got != tc.want {
			t.Errorf("%s: PodTemplateHash = %s, want upstream's %s", tc.name, got, tc.want)
		}
	}
}

// Upstream: TestPodTemplateSpecHash. Templates that differ only in the
// image hash apart.
func TestPodTemplateHashDistinctImages(t *testing.T) {
	seen := map[string]int{}
	for i := range 1000 {
		tpl := rollout.PodTemplate{Spec: rollout.MustParsePodSpec(fmt.Sprintf(`{"containers":[{"name":"cats","image":"registry/test/cats:v0.%d.0"}]}`, i))}
		h := hashOf(tpl, nil)
		if j, ok := seen[h]; ok {
			t.Fatalf("image v0.%d.0 and v0.%d.0 hash alike: %s", i, j, h)
		}
		seen[h] = i
	}
}

// Upstream: TestComputeHash. The collision count changes the hash, and a
// nil count differs from 0.
func TestPodTemplateHashCollisionCounts(t *testing.T) {
	empty := rollout.PodTemplate{}
	for _, p := range []struct {
		name string
		a, b string
	}{
		{"count 1 vs 2", hashOf(empty, ptr32(1)), hashOf(empty, ptr32(2))},
		{"no count vs 2147483647", hashOf(empty, nil), hashOf(empty, ptr32(2147483647))},
		{"no count vs 0", hashOf(empty, nil), hashOf(empty, ptr32(0))},
	} {
		if p.a == p.b {
			t.Errorf("%s: both hash to %q", p.name, p.a)
		}
	}
}

// TestPodTemplateHashSeesQuantityForm: the hash reads Go memory, not JSON,
// as upstream's does: a template as the API server stores it hashes as
// upstream hashes it, and 1Gi and 1073741824, though equal templates,
// hash apart (their Format fields differ).
func TestPodTemplateHashSeesQuantityForm(t *testing.T) {
	spec := func(mem string) rollout.PodTemplate {
		return rollout.PodTemplate{Spec: rollout.MustParsePodSpec(`{"containers":[{"name":"c","image":"i","resources":{"limits":{"memory":"` + mem + `"}}}]}`)}
	}
	a, b := spec("1Gi"), spec("1073741824")
	if !rollout.EqualIgnoreHash(a, b) {
		t.Error("1Gi and 1073741824 are not equal templates")
	}
	if hashOf(a, nil) == hashOf(b, nil) {
		t.Error("1Gi and 1073741824 hash alike; upstream's rendering tells their formats apart")
	}
	if c := spec("1024Mi"); hashOf(a, nil) != hashOf(c, nil) {
		t.Error("1024Mi, stored as 1Gi, hashes apart from 1Gi")
	}
}

// TestPodTemplateHashAllocs pins the allocations of the hash: only the
// returned string.
func TestPodTemplateHashAllocs(t *testing.T) {
	d := rollout.Deployment{Spec: rollout.DeploymentSpec{Template: rollout.PodTemplate{Labels: map[string]string{"app": "web"},
		Spec: rollout.MustParsePodSpec(`{"containers":[{"name":"c","image":"img:v1","resources":{"requests":{"cpu":"100m"}}}]}`)}}}
	if n := testing.AllocsPerRun(100, func() { rollout.PodTemplateHash(d) }); n > 1 {
		t.Errorf("PodTemplateHash allocates %v times, want at most 1 (the string)", n)
	}
}

// TestPodTemplateJSON: a template decodes strictly with the API server's
// pod defaults applied, refusing an unknown field and leaving the value as
// it was; metadata other than labels and annotations is kept apart, {}
// when there is none.
func TestPodTemplateJSON(t *testing.T) {
	var tmpl rollout.PodTemplate
	in := `{"metadata":{"name":"n","labels":{"app":"web"}},"spec":{"containers":[{"name":"c","image":"i"}]}}`
	if err := json.Unmarshal([]byte(in), &tmpl); err != nil {
		t.Fatal(err)
	}
	if got := tmpl.Meta.String(); got != `{"name":"n"}` || tmpl.Meta.IsZero() {
		t.Errorf("Meta = %s (IsZero %v), want {\"name\":\"n\"}", got, tmpl.Meta.IsZero())
	}
	if tmpl.Labels["app"] != "web" || !strings.Contains(tmpl.Spec.String(), `"restartPolicy":"Always"`) {
		t.Errorf("labels %v, spec %s; want app: web and the pod defaults", tmpl.Labels, tmpl.Spec)
	}
	if m := (rollout.TemplateMeta{}); m.String() != "{}" || !m.IsZero() {
		t.Errorf("the zero TemplateMeta: %s, IsZero %v", m.String(), m.IsZero())
	}
	var plain rollout.PodTemplate
	if err := json.Unmarshal([]byte(`{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"c","image":"i"}]}}`), &plain); err != nil {
		t.Fatal(err)
	}
	if !plain.Meta.IsZero() || !plain.Meta.Equal(rollout.TemplateMeta{}) {
		t.Errorf("a template with labels alone has metadata %s, want none (equal to the zero TemplateMeta)", plain.Meta)
	}
	before := tmpl.Spec.String()
	if err := json.Unmarshal([]byte(`{"metadata":{"nmae":"x"}}`), &tmpl); err == nil || tmpl.Spec.String() != before {
		t.Errorf("Unmarshal of an unknown field = %v; want an error and the template unchanged", err)
	}
}

// TestPodTemplateHashStoredForm: a spec parsed with empty lists and maps
// hashes as the API server stores it, without them, as upstream hashes
// what it reads back (the rendering tells nil from empty).
func TestPodTemplateHashStoredForm(t *testing.T) {
	tmpl := func(spec string) rollout.PodTemplate {
		return rollout.PodTemplate{Labels: map[string]string{"app": "web"}, Spec: rollout.MustParsePodSpec(spec)}
	}
	plain := hashOf(tmpl(`{"containers":[{"name":"c","image":"i"}]}`), nil)
	for _, spec := range []string{
		`{"containers":[{"name":"c","image":"i"}],"volumes":[],"initContainers":[],"nodeSelector":{}}`,
		`{"containers":[{"name":"c","image":"i","env":[],"ports":[]}],"tolerations":[]}`,
	} {
		if got := hashOf(tmpl(spec), nil); got != plain {
			t.Errorf("hash of %s = %s, want %s, the hash without the empty fields", spec, got, plain)
		}
	}
}
