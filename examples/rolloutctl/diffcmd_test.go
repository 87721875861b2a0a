package main

import (
	"os"
	"strings"
	"testing"
)

// TestDiffJSON: diff -o json gives every answer with its changes, the
// values as JSON, and whether any Deployment rolls.
func TestDiffJSON(t *testing.T) {
	r := liveRun(t, exitOK, "diff", "next/web-no-replicas.yaml", "web-hpa-scaled.yaml", "-o", "json")
	want := `{
  "rollout": false,
  "apply": [
    {
      "deployment": "default/web",
      "summary": "no rollout: the template is unchanged once defaulted; spec.replicas changed: 7 -\u003e 1",
      "rollout": false,
      "created": false,
      "changes": [
        {
          "path": "spec.replicas",
          "from": 7,
          "to": 1
        }
      ]
    }
  ]
}
`
	if r.stdout != want {
		t.Errorf("diff -o json printed\n%s\nwant\n%s", r.stdout, want)
	}
	r = liveRun(t, exitRollout, "diff", "next/web-no-sidecar.yaml", "web.yaml", "-o", "json")
	for _, w := range []string{`"rollout": true,`, `"path": "spec.template.spec.containers[name=log-shipper]",`, `"from": {`, `"name": "log-shipper"`} {
		if !strings.Contains(r.stdout, w) {
			t.Errorf("diff -o json lacks %q:\n%s", w, r.stdout)
		}
	}
	if strings.Contains(r.stdout, `"to"`) {
		t.Errorf("a removed container has a to:\n%s", r.stdout)
	}
}

// TestDiffStandardInput: either input may come from standard input, as
// with kubectl: the manifests piped in, or the live objects (--live -).
func TestDiffStandardInput(t *testing.T) {
	live, err := os.ReadFile(livePath("cluster/web.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	next, err := os.ReadFile(livePath("next/web-image.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	const want = "default/web: rollout: spec.template.spec.containers[name=app].image changed\n"
	for _, tc := range []struct {
		stdin string
		args  []string
	}{
		{string(live), []string{"diff", "-f", livePath("next/web-image.yaml"), "--live", "-"}},
		{string(next), []string{"diff", "--live", livePath("cluster/web.yaml")}},
		{string(next), []string{"diff", "-f", "-", "--live", livePath("cluster/web.yaml")}},
	} {
		r := runCLI(t, tc.stdin, tc.args...)
		r.wantCode(t, tc.args, exitRollout)
		if r.stdout != want {
			t.Errorf("run(%q) printed %q, want %q", tc.args, r.stdout, want)
		}
	}
}

// TestDiffEmptyLive: live objects without Deployments (an empty
// namespace) make every manifest a first apply.
func TestDiffEmptyLive(t *testing.T) {
	args := []string{"diff", "-f", livePath("next/shop.yaml"), "-n", "shop", "--live", "-"}
	r := runCLI(t, "apiVersion: v1\nkind: List\nitems: []\n", args...)
	r.wantCode(t, args, exitRollout)
	if want := "shop/cart: rollout: a new Deployment\nshop/checkout: rollout: a new Deployment\n"; r.stdout != want {
		t.Errorf("run(%q) printed %q, want %q", args, r.stdout, want)
	}
}

// TestDiffWarnsOfReplicaSetsInManifests: with --live, ReplicaSets and
// Pods come from the live objects; those of -f are left out, and said so.
func TestDiffWarnsOfReplicaSetsInManifests(t *testing.T) {
	args := []string{"diff", "-f", livePath("cluster/web-restarted.yaml"), "--live", livePath("cluster/web.yaml")}
	r := runCLI(t, "", args...)
	r.wantCode(t, args, exitRollout)
	if want := "warning: " + livePath("cluster/web-restarted.yaml") + ": 2 ReplicaSets and 3 Pods left out: with --live, the live ones count\n"; !strings.Contains(r.stderr, want) {
		t.Errorf("stderr %q, want %q", r.stderr, want)
	}
	if want := "default/web: rollout: spec.template.metadata.annotations[kubectl.kubernetes.io/restartedAt] changed"; !strings.HasPrefix(r.stdout, want) {
		t.Errorf("stdout %q, want %q", r.stdout, want)
	}
}

// TestLiveInputErrors: what --live and -n refuse, each with exit 2 and a
// line that says what to do.
func TestLiveInputErrors(t *testing.T) {
	otherNamespace := strings.Replace(readLive(t, "next/web-image.yaml"), "  name: web\n", "  name: web\n  namespace: storefront\n", 1)
	twice := readLive(t, "next/web-image.yaml") + "---\n" + strings.Replace(readLive(t, "next/web-image.yaml"), "  name: web\n", "  name: web\n  namespace: shop\n", 1)
	tests := []struct {
		name  string
		stdin string
		args  []string
		want  string
	}{
		{"diff without --live", "", []string{"diff", "-f", livePath("next/web-image.yaml")}, "no live objects: name them with --live FILE"},
		{"no manifests", "", []string{"diff", "--live", livePath("cluster/web.yaml")}, "no manifests: name the files to apply with -f"},
		{"live from stdin, manifests too", "x", []string{"diff", "--live", "-"}, "--live - reads the live objects from standard input: name the manifests with -f"},
		{"both from stdin", "x", []string{"diff", "-f", "-", "--live", "-"}, "standard input holds the manifests or the live objects, not both"},
		{"namespace twice", "", []string{"diff", "-n", "a", "--namespace", "b"}, `given twice ("a", then "b")`},
		{"another namespace than -n", otherNamespace, []string{"diff", "-n", "shop", "--live", livePath("cluster/shop.yaml")},
			`<stdin>:2: Deployment "web": metadata.namespace "storefront" is not -n shop`},
		{"one Deployment twice", twice, []string{"diff", "-n", "shop", "--live", livePath("cluster/shop.yaml")},
			"Deployment shop/web: also at <stdin>:2: document 1: a Deployment is applied once"},
		{"a manifest as live object", "", []string{"diff", "-f", livePath("next/web-image.yaml"), "--live", livePath("applied/web.yaml")},
			"the live object: metadata.resourceVersion: Required value"},
		{"bad live input", "", []string{"diff", "-f", livePath("next/web-image.yaml"), "--live", livePath("missing.yaml")}, "missing.yaml"},
		{"bad output", "", []string{"diff", "-f", livePath("next/web-image.yaml"), "--live", livePath("cluster/web.yaml"), "-o", "svg"}, `-o "svg": want text, json or yaml`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runCLI(t, tt.stdin, tt.args...)
			r.wantCode(t, tt.args, exitBadInput)
			if !strings.Contains(r.stderr, tt.want) {
				t.Errorf("run(%q) stderr = %q, want it to contain %q", tt.args, r.stderr, tt.want)
			}
			if r.stdout != "" {
				t.Errorf("run(%q) stdout = %q, want nothing", tt.args, r.stdout)
			}
		})
	}
}

func readLive(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(livePath(name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
