package apply_test

import (
	"strings"
	"testing"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/apply"
)

// FuzzApply: any live object and manifest give a Result or an error,
// never a panic, the same on every call; what Apply stores decodes
// strictly to its After.
func FuzzApply(f *testing.F) {
	created, err := apply.Create([]byte(base), apply.Options{})
	if err != nil {
		f.Fatal(err)
	}
	live := stamp(string(created.Stored))
	f.Add(live, base, false)
	f.Add(live, strings.Replace(base, `"replicas":3,`, "", 1), false)
	f.Add(live, strings.Replace(base, `"web:1"`, `"web:2"`, 1), true)
	f.Add(live, `{"kind":"Deployment","metadata":{"name":"web"},"spec":{"template":{"spec":{"containers":[{"name":"app","$patch":"delete"}]}}}}`, false)
	f.Add(`{}`, `[]`, true)
	f.Fuzz(func(t *testing.T, live, manifest string, lenient bool) {
		o := apply.Options{Lenient: lenient}
		r, err := apply.Apply([]byte(live), []byte(manifest), o)
		again, err2 := apply.Apply([]byte(live), []byte(manifest), o)
		if (err == nil) != (err2 == nil) || err != nil && err.Error() != err2.Error() || string(r.Stored) != string(again.Stored) || string(r.Patch) != string(again.Patch) {
			t.Fatalf("two calls differ: %v / %v\n%s\n%s", err, err2, r.Stored, again.Stored)
		}
		if err != nil {
			return
		}
		objs, err := rollout.Decode(r.Stored)
		if err != nil || len(objs.Deployments) != 1 {
			t.Fatalf("the stored object does not decode: %v\n%s", err, r.Stored)
		}
		if rollout.PodTemplateHash(objs.Deployments[0]) != rollout.PodTemplateHash(r.After) || objs.Deployments[0].Spec.Replicas != r.After.Spec.Replicas {
			t.Fatalf("After is not the stored object")
		}
	})
}

// stamp gives a stored object the resourceVersion the server assigns.
func stamp(stored string) string {
	return strings.Replace(stored, `"metadata":{`, `"metadata":{"resourceVersion":"1",`, 1)
}

func replace(s, old, new string) string { return strings.Replace(s, old, new, 1) }
