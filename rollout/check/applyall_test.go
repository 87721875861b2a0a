package check_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/rolloutmath/rolloutmath/rollout/check"
	"github.com/rolloutmath/rolloutmath/rollout/manifest"
)

// TestApplyAllRefusals holds what kubectl apply refuses before the API
// server sees it: a manifest of another namespace than -n's, and one
// Deployment given twice; each is a finding of rule input at its
// manifest's line, and the other applies go on.
func TestApplyAllRefusals(t *testing.T) {
	dep := func(name, ns string) string {
		meta := "{name: " + name + "}"
		if ns != "" {
			meta = "{name: " + name + ", namespace: " + ns + "}"
		}
		return "apiVersion: apps/v1\nkind: Deployment\nmetadata: " + meta + "\nspec:\n  selector: {matchLabels: {app: a}}\n  template:\n    metadata: {labels: {app: a}}\n    spec: {containers: [{name: c, image: i}]}\n"
	}
	for _, c := range []struct {
		name, n, yaml string
		wantDone      []string
		wantRefused   []string // "line: substring"
	}{
		{"kubectl's -n puts namespace-less manifests in it", "prod", dep("web", ""), []string{"prod/web"}, nil},
		{"no -n: default", "", dep("web", ""), []string{"default/web"}, nil},
		{"kubectl refuses another namespace than -n's", "prod", dep("web", "dev") + "---\n" + dep("api", ""),
			[]string{"prod/api"}, []string{`1: Deployment "web": metadata.namespace "dev" is not -n prod`}},
		{"a Deployment is applied once (here -n makes two one)", "prod", dep("web", "") + "---\n" + dep("web", "prod"),
			[]string{"prod/web"}, []string{"10: Deployment prod/web: also at deploy.yaml:1"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			docs, err := manifest.Parse("deploy.yaml", []byte(c.yaml))
			if err != nil {
				t.Fatal(err)
			}
			manifests := check.Load("deploy.yaml", docs, check.LoadOptions{SkipValidation: true}) // as the command loads them: -n is ApplyAll's
			done, refused := check.ApplyAll(manifests, check.Load("cluster", nil, check.LoadOptions{}), check.ApplyOptions{Namespace: c.n})
			var names []string
			for _, a := range done {
				names = append(names, a.Name)
			}
			if strings.Join(names, ",") != strings.Join(c.wantDone, ",") {
				t.Errorf("applied %q, want %q", names, c.wantDone)
			}
			if len(refused) != len(c.wantRefused) {
				t.Fatalf("refused %+v, want %q", refused, c.wantRefused)
			}
			for i, f := range refused {
				line, text, _ := strings.Cut(c.wantRefused[i], ": ")
				if got := f.Rule + " " + strconv.Itoa(f.Location.Line); got != "input "+line || !strings.HasPrefix(f.Message, text) {
					t.Errorf("refused[%d] = %s at line %d: %q, want input at line %s: %q", i, f.Rule, f.Location.Line, f.Message, line, text)
				}
			}
		})
	}
}
