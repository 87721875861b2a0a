package rollout_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/rolloutmath/rolloutmath/rollout"
)

// TestSame: copies of a spec or template metadata are the same; a spec
// parsed again is equal but not the same; the zero values are the same
// as themselves only.
func TestSame(t *testing.T) {
	a := rollout.MustParsePodSpec(`{"containers": [{"name": "app", "image": "app:1", "resources": {"requests": {"cpu": "1"}}}]}`)
	b := rollout.MustParsePodSpec(`{"containers": [{"name": "app", "image": "app:1", "resources": {"requests": {"cpu": "1000m"}}}]}`)
	c := a
	if !a.Same(c) || !c.Same(a) {
		t.Error("a copy of a spec is not the same")
	}
	if a.Same(b) || !a.Equal(b) {
		t.Errorf("specs parsed apart: Same %t, Equal %t; want false, true", a.Same(b), a.Equal(b))
	}
	if (rollout.PodSpec{}).Same(a) || !(rollout.PodSpec{}).Same(rollout.PodSpec{}) {
		t.Error("the zero spec is the same as a parsed one, or not as itself")
	}
	var t1, t2 rollout.PodTemplate
	for _, p := range []*rollout.PodTemplate{&t1, &t2} {
		if err := json.Unmarshal([]byte(`{"metadata": {"name": "n"}, "spec": {"containers": [{"name": "app", "image": "app:1"}]}}`), p); err != nil {
			t.Fatal(err)
		}
	}
	if t3 := t1; !t1.Meta.Same(t3.Meta) || t1.Meta.Same(t2.Meta) || !t1.Meta.Equal(t2.Meta) {
		t.Errorf("template metadata: copy same %t, decoded apart same %t, equal %t; want true, false, true", t1.Meta.Same(t3.Meta), t1.Meta.Same(t2.Meta), t1.Meta.Equal(t2.Meta))
	}
	if (rollout.TemplateMeta{}).Same(t1.Meta) || !(rollout.TemplateMeta{}).Same(rollout.TemplateMeta{}) {
		t.Error("the zero metadata is the same as a decoded one, or not as itself")
	}
}

// Same tells copies of one spec from specs that are merely equal, such
// as the same spec parsed twice.
func ExamplePodSpec_Same() {
	a := rollout.MustParsePodSpec(`{"containers": [{"name": "app", "image": "app:1"}]}`)
	b := rollout.MustParsePodSpec(`{"containers": [{"name": "app", "image": "app:1"}]}`)
	c := a
	fmt.Println(a.Same(c), a.Same(b), a.Equal(b))
	// Output: true false true
}
