package strategicpatch

import (
	"errors"
	"strings"
	"testing"
)

// mergeCases are patches the API server applies, named after the
// directive or behaviour they carry; each want is upstream's result.
var mergeCases = []struct {
	name, original, patch, want string
	wantErr                     error  // a sentinel error
	wantText                    string // or a part of the message
}{{
	name:     "null deletes a field",
	original: `{"spec":{"replicas":7,"paused":true}}`,
	patch:    `{"spec":{"replicas":null}}`,
	want:     `{"spec":{"paused":true}}`,
}, {
	name:     "a null that matches nothing is dropped",
	original: `{"spec":{}}`,
	patch:    `{"spec":{"replicas":null,"template":{"metadata":{"labels":{"a":null,"b":"c"}}}}}`,
	want:     `{"spec":{"template":{"metadata":{"labels":{"b":"c"}}}}}`,
}, {
	name:     "containers merge by name, in the order of $setElementOrder, live-only ones before their next live neighbour",
	original: containers(`[{"name":"a","image":"1"},{"name":"injected"},{"name":"b","image":"1"}]`),
	patch:    `{"spec":{"template":{"spec":{"$setElementOrder/containers":[{"name":"b"},{"name":"a"}],"containers":[{"name":"a","image":"2"}]}}}}`,
	want:     containers(`[{"name":"injected"},{"image":"1","name":"b"},{"image":"2","name":"a"}]`),
}, {
	name:     "$patch: delete removes a list element",
	original: containers(`[{"name":"a"},{"name":"b"}]`),
	patch:    `{"spec":{"template":{"spec":{"containers":[{"name":"a","$patch":"delete"}]}}}}`,
	want:     containers(`[{"name":"b"}]`),
}, {
	name:     "$patch: replace on a list keeps only the patch's elements",
	original: containers(`[{"name":"a"},{"name":"b"}]`),
	patch:    `{"spec":{"template":{"spec":{"containers":[{"name":"z"},{"$patch":"replace"}]}}}}`,
	want:     containers(`[{"name":"z"}]`),
}, {
	name:     "$patch: replace on an object",
	original: `{"spec":{"strategy":{"type":"RollingUpdate","rollingUpdate":{"maxSurge":1}}}}`,
	patch:    `{"spec":{"strategy":{"$patch":"replace","type":"Recreate"}}}`,
	want:     `{"spec":{"strategy":{"type":"Recreate"}}}`,
}, {
	name:     "$patch: delete on an object leaves it empty",
	original: `{"spec":{"strategy":{"type":"Recreate"}}}`,
	patch:    `{"spec":{"strategy":{"$patch":"delete"}}}`,
	want:     `{"spec":{"strategy":{}}}`,
}, {
	name:     "$retainKeys clears the members it does not list (kubernetes#24198)",
	original: `{"spec":{"strategy":{"type":"RollingUpdate","rollingUpdate":{"maxSurge":"25%"}}}}`,
	patch:    `{"spec":{"strategy":{"$retainKeys":["type"],"type":"Recreate"}}}`,
	want:     `{"spec":{"strategy":{"type":"Recreate"}}}`,
}, {
	name:     "$retainKeys on a volume switches its source",
	original: `{"spec":{"template":{"spec":{"volumes":[{"name":"v","configMap":{"name":"c"}}]}}}}`,
	patch:    `{"spec":{"template":{"spec":{"volumes":[{"$retainKeys":["name","secret"],"configMap":null,"name":"v","secret":{"secretName":"s"}}]}}}}`,
	want:     `{"spec":{"template":{"spec":{"volumes":[{"name":"v","secret":{"secretName":"s"}}]}}}}`,
}, {
	name:     "$retainKeys must list every member the patch sets",
	original: `{"spec":{"strategy":{"type":"RollingUpdate"}}}`,
	patch:    `{"spec":{"strategy":{"$retainKeys":["type"],"rollingUpdate":{}}}}`,
	wantErr:  ErrBadPatchFormatForRetainKeys,
}, {
	name:     "$deleteFromPrimitiveList and $setElementOrder on finalizers",
	original: `{"metadata":{"finalizers":["a","b","c"]}}`,
	patch:    `{"metadata":{"$deleteFromPrimitiveList/finalizers":["b"],"$setElementOrder/finalizers":["c","a","d"],"finalizers":["d"]}}`,
	want:     `{"metadata":{"finalizers":["c","a","d"]}}`,
}, {
	name:     "finalizers merge as a set",
	original: `{"metadata":{"finalizers":["a","b"]}}`,
	patch:    `{"metadata":{"finalizers":["b","c"]}}`,
	want:     `{"metadata":{"finalizers":["a","b","c"]}}`,
}, {
	name:     "finalizers with a repeat: the union follows the live list upstream rewrote in place",
	original: `{"metadata":{"finalizers":["a","a","b"]}}`,
	patch:    `{"metadata":{"finalizers":["c"]}}`,
	want:     `{"metadata":{"finalizers":["a","c","b"]}}`,
}, {
	name:     "ports merge by containerPort alone (kubernetes#39188)",
	original: containers(`[{"name":"a","ports":[{"containerPort":53,"protocol":"TCP"}]}]`),
	patch:    containers(`[{"name":"a","ports":[{"containerPort":53,"protocol":"UDP"}]}]`),
	want:     containers(`[{"name":"a","ports":[{"containerPort":53,"protocol":"UDP"}]}]`),
}, {
	name:     "an atomic list is replaced",
	original: `{"spec":{"template":{"spec":{"tolerations":[{"key":"a"},{"key":"b"}]}}}}`,
	patch:    `{"spec":{"template":{"spec":{"tolerations":[{"key":"c"}]}}}}`,
	want:     `{"spec":{"template":{"spec":{"tolerations":[{"key":"c"}]}}}}`,
}, {
	name:     "a value of another type replaces",
	original: containers(`[{"name":"a","resources":{"requests":{"cpu":"1"}}}]`),
	patch:    containers(`[{"name":"a","resources":{"requests":{"cpu":0.5}}}]`),
	want:     containers(`[{"name":"a","resources":{"requests":{"cpu":0.5}}}]`),
}, {
	name:     "a new element goes first without an order list, and keeps the directives inside it",
	original: containers(`[{"name":"a"}]`),
	patch:    containers(`[{"name":"b","$setElementOrder/env":[{"name":"X"}],"env":[{"name":"X"}]}]`),
	want:     containers(`[{"$setElementOrder/env":[{"name":"X"}],"env":[{"name":"X"}],"name":"b"},{"name":"a"}]`),
}, {
	name:     "a malformed deletion list",
	original: `{"metadata":{"finalizers":["a"]}}`,
	patch:    `{"metadata":{"$deleteFromPrimitiveList":["a"]}}`,
	wantErr:  ErrBadPatchFormatForPrimitiveList,
}, {
	name:     "an order list with a member the patch list lacks, out of order",
	original: containers(`[{"name":"a"},{"name":"b"}]`),
	patch:    `{"spec":{"template":{"spec":{"$setElementOrder/containers":[{"name":"a"}],"containers":[{"name":"b"},{"name":"a"}]}}}}`,
	wantText: "doesn't match $setElementOrder list",
}, {
	name:     "$patch: merge is not implemented for lists",
	original: containers(`[{"name":"a"}]`),
	patch:    containers(`[{"$patch":"merge"}]`),
	wantText: "merging lists cannot yet be specified in the patch",
}, {
	name:     "an unknown $patch value",
	original: `{"spec":{}}`,
	patch:    `{"spec":{"$patch":"bogus"}}`,
	wantText: "unknown patch type: bogus",
}, {
	name:     "a list whose first element is null: an error where upstream panics",
	original: `{"metadata":{"finalizers":[null,"a"]}}`,
	patch:    `{"metadata":{"finalizers":["b"]}}`,
	wantText: "first element is null",
}, {
	name:     "an object in a deletion list: an error where upstream panics",
	original: `{"metadata":{"finalizers":["a"]}}`,
	patch:    `{"metadata":{"$deleteFromPrimitiveList/finalizers":[{"a":1}]}}`,
	wantText: "list element types are not identical",
}, {
	name:     "a patch that is not an object",
	original: `{}`,
	patch:    `[]`,
	wantErr:  ErrBadJSONDoc,
}}

// TestStrategicMergePatch checks the API server's patch on the cases of
// mergeCases.
func TestStrategicMergePatch(t *testing.T) {
	s := deploymentSchema(t)
	for _, c := range mergeCases {
		t.Run(c.name, func(t *testing.T) {
			got, err := StrategicMergePatch([]byte(c.original), []byte(c.patch), s)
			switch {
			case c.wantErr != nil:
				if !errors.Is(err, c.wantErr) {
					t.Fatalf("error %v, want %v (result %s)", err, c.wantErr, got)
				}
			case c.wantText != "":
				if err == nil || !strings.Contains(err.Error(), c.wantText) {
					t.Fatalf("error %v, want %q (result %s)", err, c.wantText, got)
				}
			case err != nil:
				t.Fatal(err)
			case string(got) != c.want:
				t.Errorf("result\n%s\nwant\n%s", got, c.want)
			}
		})
	}
}

// TestStrategicMergePatchNil checks upstream's reading of absent
// documents: nil is an empty object, empty bytes are malformed.
func TestStrategicMergePatchNil(t *testing.T) {
	s := deploymentSchema(t)
	if got, err := StrategicMergePatch(nil, []byte(`{"a":1}`), s); err != nil || string(got) != `{"a":1}` {
		t.Errorf("nil original: %s, %v", got, err)
	}
	if got, err := StrategicMergePatch([]byte(`{"a":1}`), nil, s); err != nil || string(got) != `{"a":1}` {
		t.Errorf("nil patch: %s, %v", got, err)
	}
	if _, err := StrategicMergePatch([]byte{}, []byte(`{}`), s); !errors.Is(err, ErrBadJSONDoc) {
		t.Errorf("empty original: %v, want ErrBadJSONDoc", err)
	}
}
