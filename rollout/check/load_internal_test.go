package check

import (
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/manifest"
)

// TestValidationProblemsAtFieldLines: a problem rollout.Validate finds
// after a decode that did not validate is at the line of its field, as
// the decoder's own are.
func TestValidationProblemsAtFieldLines(t *testing.T) {
	docs, err := manifest.Parse("frozen.yaml", mustRead(t, "../../testdata/manifests/surge-zero-unavailable-zero.yaml"))
	if err != nil || len(docs) != 1 {
		t.Fatalf("Parse() = %d documents, %v", len(docs), err)
	}
	objs, err := docs[0].DecodeWith(rollout.DecodeOptions{})
	if err != nil || len(objs.Deployments) != 1 {
		t.Fatalf("DecodeWith() = %+v, %v", objs, err)
	}
	var got []string
	for _, f := range atFields(docs[0], `Deployment "frozen": `, rollout.Validate(objs.Deployments[0])) {
		got = append(got, f.ProblemText())
	}
	want := []string{"frozen.yaml:14: Deployment \"frozen\": spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("atFields() mismatch (-want +got):\n%s", diff)
	}
}

func mustRead(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
