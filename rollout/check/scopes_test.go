package check_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rolloutmath/rolloutmath/rollout/check"
	"github.com/rolloutmath/rolloutmath/rollout/manifest"
)

// TestRepeatedObjectsSplitTheInput: the same Deployments in two
// directories are each checked in both, and the notes that say so stop
// at ten, the last counting the rest, so that a copied directory of
// hundreds does not drown the report.
func TestRepeatedObjectsSplitTheInput(t *testing.T) {
	var b strings.Builder
	for i := range 12 {
		fmt.Fprintf(&b, "---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d%d}\nspec:\n  selector: {matchLabels: {app: d%d}}\n  template:\n    metadata: {labels: {app: d%d}}\n    spec: {containers: [{name: app, image: app:1}]}\n", i, i, i)
	}
	var docs []manifest.Document
	for _, name := range []string{"prod/app.yaml", "staging/app.yaml"} {
		d, err := manifest.Parse(name, []byte(b.String()))
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, d...)
	}
	in := check.Load("deploy", docs, check.LoadOptions{})
	report := check.Run(in, check.Config{Workers: 2})
	if len(report.Deployments) != 24 || report.BadInput() {
		t.Fatalf("checked %d Deployments (bad input %v), want all 24", len(report.Deployments), report.BadInput())
	}
	if len(report.Notes) != 10 || !strings.HasPrefix(report.Notes[0], "Deployment default/d0 is in 2 places (prod, staging): each is checked") ||
		!strings.HasPrefix(report.Notes[9], "and 3 more Deployments in several places") {
		t.Errorf("notes:\n%s\nwant nine of them named and the last counting three more", strings.Join(report.Notes, "\n"))
	}
}
