package rollout_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/manifest"
	"github.com/rolloutmath/rolloutmath/surge"
)

// TestStringTableDecodesAlike decodes every object of the command's test
// manifests with and without a StringTable (one for all, as a load shares
// it), twice: the objects, errors and warnings are the same.
func TestStringTableDecodesAlike(t *testing.T) {
	docs, _ := manifest.Read(manifest.Options{}, "../examples/rolloutctl/testdata", "../testdata/manifests")
	if len(docs) < 50 {
		t.Fatalf("%d documents in the command's test data, want many", len(docs))
	}
	table := &rollout.StringTable{}
	for round := range 2 {
		for _, doc := range docs {
			for _, validate := range []bool{false, true} {
				want, wantErr := doc.DecodeWith(rollout.DecodeOptions{Validate: validate})
				got, err := doc.DecodeWith(rollout.DecodeOptions{Validate: validate, Strings: table})
				if fmt.Sprint(err) != fmt.Sprint(wantErr) {
					t.Errorf("%s (round %d): error %v, want %v", doc, round, err, wantErr)
				}
				if diff := cmp.Diff(want, got, cmpopts.EquateComparable(surge.Value{})); diff != "" {
					t.Errorf("%s (round %d): Decode with a StringTable mismatch (-want +got):\n%s", doc, round, diff)
				}
			}
		}
	}
}

// Objects decoded through one StringTable share their equal strings, and
// are the objects decoded without it.
func ExampleStringTable() {
	table := &rollout.StringTable{}
	opts := rollout.DecodeOptions{Strings: table}
	for _, ns := range []string{"staging", "prod"} {
		objs, err := opts.Decode([]byte(`{"apiVersion": "apps/v1", "kind": "Deployment",
		  "metadata": {"name": "web", "namespace": "` + ns + `"},
		  "spec": {"selector": {"matchLabels": {"app": "web"}},
		    "template": {"metadata": {"labels": {"app": "web"}}, "spec": {"containers": [{"name": "c", "image": "img:v1"}]}}}}`))
		if err != nil {
			fmt.Println(err)
			return
		}
		d := objs.Deployments[0]
		fmt.Println(d.Namespace, d.Name, d.Spec.Replicas, d.Spec.Template.Labels["app"])
	}
	// Output:
	// staging web 1 web
	// prod web 1 web
}
