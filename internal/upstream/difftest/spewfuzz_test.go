package difftest

import (
	"encoding/json"
	"testing"

	v1 "k8s.io/api/core/v1"
	"k8s.io/utils/dump"

	"github.com/rolloutmath/rolloutmath/internal/kubeversion"
	"github.com/rolloutmath/rolloutmath/internal/schema"
)

// TestSpewRandomTemplates compares schema's rendering for the hash with
// go-spew's on random templates: both decode the same JSON.
func TestSpewRandomTemplates(t *testing.T) {
	n := 3000
	if testing.Short() {
		n = 300
	}
	for seed := range n {
		var tpl v1.PodTemplateSpec
		filler(int64(seed)).Fill(&tpl)
		in, err := json.Marshal(tpl)
		if err != nil {
			t.Fatal(err)
		}
		var up v1.PodTemplateSpec
		if err := json.Unmarshal(in, &up); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		want := dump.ForHash(up)
		ours, res := schema.DecodePodTemplateSpec(in, schema.DecodeOptions{Version: kubeversion.V1_36})
		if len(res.Errs) > 0 {
			t.Fatalf("seed %d: %v\n%s", seed, res.Errs, in)
		}
		got := string(schema.SpewText(nil, ours, kubeversion.V1_36))
		if got != want {
			i := 0
			for i < len(got) && i < len(want) && got[i] == want[i] {
				i++
			}
			lo := max(0, i-200)
			t.Fatalf("seed %d: rendering differs at byte %d\n got: ...%s\nwant: ...%s", seed, i, got[lo:min(len(got), i+200)], want[lo:min(len(want), i+200)])
		}
	}
}
