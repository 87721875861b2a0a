package strategicpatch

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rolloutmath/rolloutmath/internal/schema"
)

func deploymentSchema(t testing.TB) Schema {
	t.Helper()
	s, err := ForStruct(schema.StructIndex("Deployment"))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// lookup follows a path of members from s: "key" for a struct member,
// "key[]" for a list member's elements.
func lookup(s Schema, path string) (Schema, PatchMeta, error) {
	var meta PatchMeta
	var err error
	for _, p := range strings.Split(path, ".") {
		if name, ok := strings.CutSuffix(p, "[]"); ok {
			s, meta, err = s.LookupSlice(name)
		} else {
			s, meta, err = s.LookupStruct(p)
		}
		if err != nil {
			return Schema{}, PatchMeta{}, err
		}
	}
	return s, meta, nil
}

// TestLookup checks the patch metadata of the fields kubectl apply merges
// specially, as the struct tags of k8s.io/api v0.36.3 give them, and the
// errors of lookups upstream refuses.
func TestLookup(t *testing.T) {
	s := deploymentSchema(t)
	cases := []struct {
		path, strategies, mergeKey, err string
	}{
		{path: "spec.template.spec.containers", strategies: "merge", mergeKey: "name"},
		{path: "spec.template.spec.containers[].ports", strategies: "merge", mergeKey: "containerPort"},
		{path: "spec.template.spec.containers[].env", strategies: "merge", mergeKey: "name"},
		{path: "spec.template.spec.containers[].volumeMounts", strategies: "merge", mergeKey: "mountPath"},
		{path: "spec.template.spec.volumes", strategies: "merge,retainKeys", mergeKey: "name"},
		{path: "spec.template.spec.tolerations", strategies: ""},
		{path: "spec.template.spec.topologySpreadConstraints", strategies: "merge", mergeKey: "topologyKey"},
		{path: "spec.strategy", strategies: "retainKeys"},
		{path: "metadata.finalizers", strategies: "merge"},
		{path: "metadata.ownerReferences", strategies: "merge", mergeKey: "uid"},
		{path: "kind", strategies: ""},                                   // TypeMeta is inline
		{path: "spec.template.spec.volumes[].configMap", strategies: ""}, // VolumeSource is inline
		{path: "spec.selector.matchLabels", strategies: ""},              // through a pointer
		{path: "Spec.Template", strategies: ""},                          // case-insensitive, as encoding/json
		{path: "spec.bogus", err: `unable to find api field in struct DeploymentSpec for the json field "bogus"`},
		{path: "metadata.labels.app", err: "merging an object in json but data type is not struct, instead is: map"},
		{path: "spec.strategy.rollingUpdate.maxSurge.intVal", err: `unable to find api field in struct IntOrString for the json field "intVal"`},
		{path: "spec.template.spec.containers[].image.x", err: "instead is: string"},
		{path: "spec.template[]", err: "expected slice or array type, but got: struct"},
	}
	for _, c := range cases {
		t.Run(c.path, func(t *testing.T) {
			_, meta, err := lookup(s, c.path)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("error %v, want %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(meta.Strategies, ","); got != c.strategies || meta.MergeKey != c.mergeKey {
				t.Errorf("strategies %q merge key %q, want %q %q", got, meta.MergeKey, c.strategies, c.mergeKey)
			}
		})
	}
}

// TestLookupSliceOfPointer checks that a pointer member looked up as a
// list stands for its pointee, as upstream's LookupPatchMetadataForSlice
// does (spec.selector written as a list is compared, not refused).
func TestLookupSliceOfPointer(t *testing.T) {
	s := deploymentSchema(t)
	sub, _, err := lookup(s, "spec.selector[]")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := sub.LookupStruct("matchLabels"); err != nil {
		t.Errorf("the element schema of spec.selector is not LabelSelector: %v", err)
	}
}

// TestForStruct checks that every index of the schema gives a Schema and
// the others an error naming the index.
func TestForStruct(t *testing.T) {
	for i := range schema.Structs {
		if _, err := ForStruct(i); err != nil {
			t.Fatal(err)
		}
	}
	for _, i := range []int{-1, len(schema.Structs)} {
		_, err := ForStruct(i)
		if err == nil || !strings.Contains(err.Error(), fmt.Sprint(i)) {
			t.Errorf("ForStruct(%d) = %v, want an error naming the index", i, err)
		}
	}
}
