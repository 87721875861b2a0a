package strategicpatch

import (
	"errors"
	"strings"
	"testing"
)

// containers wraps a containers list in a Deployment.
func containers(list string) string {
	return `{"spec":{"template":{"spec":{"containers":` + list + `}}}}`
}

// threeWayCases are kubectl apply's patches, named after the behaviour
// they carry; each want is upstream's patch (checked against upstream's
// code by internal/upstream/difftest).
var threeWayCases = []struct {
	name                        string
	original, modified, current string
	overwrite                   bool
	want                        string
	wantErr                     string
}{{
	name:      "image bump: the changed member, with the order of the merged list",
	original:  containers(`[{"name":"app","image":"a:1"}]`),
	modified:  containers(`[{"name":"app","image":"a:2"}]`),
	current:   containers(`[{"name":"app","image":"a:1","imagePullPolicy":"IfNotPresent"}]`),
	overwrite: true,
	want:      `{"spec":{"template":{"spec":{"$setElementOrder/containers":[{"name":"app"}],"containers":[{"image":"a:2","name":"app"}]}}}}`,
}, {
	name:      "env var the last apply set, removed: $patch delete",
	original:  containers(`[{"name":"app","env":[{"name":"A","value":"1"},{"name":"B","value":"2"}]}]`),
	modified:  containers(`[{"name":"app","env":[{"name":"B","value":"2"}]}]`),
	current:   containers(`[{"name":"app","env":[{"name":"A","value":"1"},{"name":"B","value":"2"}]}]`),
	overwrite: true,
	want:      `{"spec":{"template":{"spec":{"$setElementOrder/containers":[{"name":"app"}],"containers":[{"$setElementOrder/env":[{"name":"B"}],"env":[{"$patch":"delete","name":"A"}],"name":"app"}]}}}}`,
}, {
	name:      "env reordered: only the order list",
	original:  containers(`[{"name":"app","env":[{"name":"A"},{"name":"B"}]}]`),
	modified:  containers(`[{"name":"app","env":[{"name":"B"},{"name":"A"}]}]`),
	current:   containers(`[{"name":"app","env":[{"name":"A"},{"name":"B"}]}]`),
	overwrite: true,
	want:      `{"spec":{"template":{"spec":{"$setElementOrder/containers":[{"name":"app"}],"containers":[{"$setElementOrder/env":[{"name":"B"},{"name":"A"}],"name":"app"}]}}}}`,
}, {
	name:      "HPA: replicas dropped from a manifest whose last apply set them: deleted",
	original:  `{"spec":{"replicas":3}}`,
	modified:  `{"spec":{}}`,
	current:   `{"spec":{"replicas":7}}`,
	overwrite: true,
	want:      `{"spec":{"replicas":null}}`,
}, {
	name:      "HPA: replicas in neither the last apply nor the manifest: kept",
	original:  `{"spec":{}}`,
	modified:  `{"spec":{}}`,
	current:   `{"spec":{"replicas":7}}`,
	overwrite: true,
	want:      `{}`,
}, {
	name:      "no last-applied configuration (kubectl create): nothing is deleted",
	modified:  `{"spec":{"replicas":3}}`,
	current:   `{"spec":{"replicas":3,"minReadySeconds":5}}`,
	overwrite: true,
	want:      `{}`,
}, {
	name:      "strategy switched to Recreate: $retainKeys (kubernetes#24198)",
	original:  `{"spec":{}}`,
	modified:  `{"spec":{"strategy":{"type":"Recreate"}}}`,
	current:   `{"spec":{"strategy":{"type":"RollingUpdate","rollingUpdate":{"maxSurge":"25%","maxUnavailable":"25%"}}}}`,
	overwrite: true,
	want:      `{"spec":{"strategy":{"$retainKeys":["type"],"type":"Recreate"}}}`,
}, {
	name:      "unsorted finalizers, unchanged: an order list all the same",
	original:  `{"metadata":{"finalizers":["b","a"]}}`,
	modified:  `{"metadata":{"finalizers":["b","a"]}}`,
	current:   `{"metadata":{"finalizers":["b","a"]}}`,
	overwrite: true,
	want:      `{"metadata":{"$setElementOrder/finalizers":["b","a"]}}`,
}, {
	name:      "finalizers reordered into sorted order: the reorder is lost",
	original:  `{"metadata":{"finalizers":["b","a"]}}`,
	modified:  `{"metadata":{"finalizers":["a","b"]}}`,
	current:   `{"metadata":{"finalizers":["b","a"]}}`,
	overwrite: true,
	want:      `{}`,
}, {
	name:      "finalizer removed and added: deletion list, additions, order",
	original:  `{"metadata":{"finalizers":["a","b"]}}`,
	modified:  `{"metadata":{"finalizers":["b","c"]}}`,
	current:   `{"metadata":{"finalizers":["a","b"]}}`,
	overwrite: true,
	want:      `{"metadata":{"$deleteFromPrimitiveList/finalizers":["a"],"$setElementOrder/finalizers":["b","c"],"finalizers":["c"]}}`,
}, {
	name:     "overwrite=false: an image another writer changed conflicts",
	original: containers(`[{"name":"app","image":"a:1"}]`),
	modified: containers(`[{"name":"app","image":"a:2"}]`),
	current:  containers(`[{"name":"app","image":"a:hotfix"}]`),
	wantErr:  "conflicts with changes made from original to current",
}, {
	name:      "overwrite=true: the manifest wins",
	original:  containers(`[{"name":"app","image":"a:1"}]`),
	modified:  containers(`[{"name":"app","image":"a:2"}]`),
	current:   containers(`[{"name":"app","image":"a:hotfix"}]`),
	overwrite: true,
	want:      `{"spec":{"template":{"spec":{"$setElementOrder/containers":[{"name":"app"}],"containers":[{"image":"a:2","name":"app"}]}}}}`,
}, {
	name:     "overwrite=false: the conflict check sorts a replaced list of scalars in the patch",
	original: `{"spec":{"template":{"spec":{"dnsConfig":{"nameservers":["c"]}}}}}`,
	modified: `{"spec":{"template":{"spec":{"dnsConfig":{"nameservers":["b","a"]}}}}}`,
	current:  `{"spec":{"template":{"spec":{"dnsConfig":{"nameservers":["a","b"]}}}}}`,
	want:     `{"spec":{"template":{"spec":{"dnsConfig":{"nameservers":["a","b"]}}}}}`,
}, {
	name:      "an unknown field, equal on both sides: no patch needed",
	original:  `{"extra":{"a":1}}`,
	modified:  `{"extra":{"a":1}}`,
	current:   `{"extra":{"a":1}}`,
	overwrite: true,
	want:      `{}`,
}, {
	name:      "an unknown field that changed",
	original:  `{"extra":{"a":1}}`,
	modified:  `{"extra":{"a":2}}`,
	current:   `{"extra":{"a":1}}`,
	overwrite: true,
	wantErr:   `unable to find api field in struct Deployment for the json field "extra"`,
}, {
	name:      "numbers keep upstream's types: 1 and 1.0 differ",
	original:  `{"spec":{"replicas":1}}`,
	modified:  `{"spec":{"replicas":1.0}}`,
	current:   `{"spec":{"replicas":1}}`,
	overwrite: true,
	want:      `{"spec":{"replicas":1}}`,
}, {
	name:      "malformed JSON",
	modified:  `{"spec":`,
	overwrite: true,
	wantErr:   ErrBadJSONDoc.Error(),
}, {
	name:      "a list of lists",
	original:  `{"metadata":{"finalizers":[["a"]]}}`,
	modified:  `{"metadata":{"finalizers":[["b"]]}}`,
	current:   `{"metadata":{"finalizers":[["a"]]}}`,
	overwrite: true,
	wantErr:   ErrNoListOfLists.Error(),
}, {
	name:      "an object as a merge key value: an error where upstream panics",
	modified:  containers(`[{"name":{"x":1}}]`),
	current:   containers(`[{"name":{"x":1}}]`),
	overwrite: true,
	wantErr:   "cannot compare map[string]interface {} values",
}, {
	name:      "a merge key missing",
	modified:  containers(`[{"image":"a"}]`),
	current:   containers(`[{"name":"app"}]`),
	overwrite: true,
	wantErr:   "does not contain declared merge key: name",
}}

// TestCreateThreeWayMergePatch checks kubectl apply's patch on the cases
// of threeWayCases.
func TestCreateThreeWayMergePatch(t *testing.T) {
	s := deploymentSchema(t)
	for _, c := range threeWayCases {
		t.Run(c.name, func(t *testing.T) {
			got, err := CreateThreeWayMergePatch([]byte(c.original), []byte(c.modified), []byte(c.current), s, c.overwrite)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("error %v, want %q (patch %s)", err, c.wantErr, got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != c.want {
				t.Errorf("patch\n%s\nwant\n%s", got, c.want)
			}
		})
	}
}

// TestConflictError checks that a conflict is reported with its type and
// both patches.
func TestConflictError(t *testing.T) {
	s := deploymentSchema(t)
	_, err := CreateThreeWayMergePatch([]byte(`{"spec":{"paused":false}}`), []byte(`{"spec":{"paused":true}}`), []byte(`{"spec":{"paused":null}}`), s, false)
	var conflict *ConflictError
	if !errors.As(err, &conflict) {
		t.Fatalf("error %v, want a *ConflictError", err)
	}
	if conflict.Patch != `{"spec":{"paused":true}}` || conflict.Changed != `{"spec":{"paused":null}}` {
		t.Errorf("conflict %+v", conflict)
	}
}

// TestPreconditions checks upstream's preconditions for JSON merge
// patches.
func TestPreconditions(t *testing.T) {
	s := deploymentSchema(t)
	cases := []struct {
		name             string
		modified         string
		preconditions    []Precondition
		wantPrecondition bool
	}{
		{"kind changed", `{"kind":"ReplicaSet","metadata":{"name":"web"}}`, []Precondition{RequireKeyUnchanged("kind")}, true},
		{"name changed", `{"kind":"Deployment","metadata":{"name":"api"}}`, []Precondition{RequireMetadataKeyUnchanged("name")}, true},
		{"only the image changed", `{"kind":"Deployment","metadata":{"name":"web"},"spec":{"paused":true}}`,
			[]Precondition{RequireKeyUnchanged("kind"), RequireMetadataKeyUnchanged("name")}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			doc := []byte(`{"kind":"Deployment","metadata":{"name":"web"}}`)
			_, err3 := CreateThreeWayMergePatch(doc, []byte(c.modified), doc, s, true, c.preconditions...)
			_, err2 := CreateTwoWayMergePatch(doc, []byte(c.modified), s, c.preconditions...)
			for _, err := range []error{err3, err2} {
				var failed *PreconditionFailedError
				if errors.As(err, &failed) != c.wantPrecondition {
					t.Errorf("error %v, want a precondition failure: %v", err, c.wantPrecondition)
				}
			}
		})
	}
}

// TestCreateTwoWayMergePatch checks the two-way patch kubectl edit and
// rollout restart send.
func TestCreateTwoWayMergePatch(t *testing.T) {
	s := deploymentSchema(t)
	got, err := CreateTwoWayMergePatch(
		[]byte(`{"spec":{"replicas":3,"template":{"metadata":{"annotations":{"a":"b"}}}}}`),
		[]byte(`{"spec":{"template":{"metadata":{"annotations":{"a":"b","kubectl.kubernetes.io/restartedAt":"2026-01-02T03:04:05Z"}}}}}`), s)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"spec":{"replicas":null,"template":{"metadata":{"annotations":{"kubectl.kubernetes.io/restartedAt":"2026-01-02T03:04:05Z"}}}}}`
	if string(got) != want {
		t.Errorf("patch\n%s\nwant\n%s", got, want)
	}
}
