package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const historyFile = "testdata/history.yaml"

// TestHistory lists the revisions of a live Deployment with the times,
// images and change-causes that kubectl rollout history leaves out.
func TestHistory(t *testing.T) {
	r := runCLI(t, "", "history", "-f", historyFile)
	r.wantCode(t, []string{"history"}, exitOK)
	want := `shop/api
REVISION     REPLICASET      CREATED               REPLICAS  IMAGES   CHANGE-CAUSE
1            api-6c7b9d5f8c  2026-03-02T09:14:05Z  0         api:1.0  kubectl apply --filename=deploy/api.yaml
2            api-7f9c4b6d9d  2026-03-09T16:40:51Z  0         api:1.1  <none>
3            api-5d8f7c6b4a  2026-03-11T08:02:17Z  0         api:1.1  kubectl set env deployment/api LOG_LEVEL=debug
4 (current)  api-84c5f9b7d6  2026-03-17T13:27:40Z  3         api:1.2  release 1.2: retries on 503
`
	if diff := cmp.Diff(want, r.stdout); diff != "" {
		t.Errorf("history mismatch (-want +got):\n%s", diff)
	}
	var out historyJSON
	j := runCLI(t, "", "history", "-f", historyFile, "-o", "json")
	if err := json.Unmarshal([]byte(j.stdout), &out); err != nil || len(out.Revisions) != 4 || !out.Revisions[3].Current || out.Revisions[1].ChangeCause != "<none>" {
		t.Errorf("history -o json: %v\n%s", err, j.stdout)
	}
}

// TestHistoryRevisionAndDiff: --revision prints a template, --diff the
// lines that changed between two, without the pod-template-hash label.
func TestHistoryRevisionAndDiff(t *testing.T) {
	r := runCLI(t, "", "history", "-f", historyFile, "--revision", "3")
	r.wantCode(t, []string{"history", "--revision", "3"}, exitOK)
	if !strings.Contains(r.stdout, "  - env:\n    - name: LOG_LEVEL\n      value: debug\n    image: api:1.1\n") {
		t.Errorf("--revision 3:\n%s", r.stdout)
	}
	d := runCLI(t, "", "history", "-f", historyFile, "--diff", "2..4")
	want := `--- revision 2
+++ revision 4
@@ -3,7 +3,10 @@
     app: api
 spec:
   containers:
-  - image: api:1.1
+  - env:
+    - name: LOG_LEVEL
+      value: debug
+    image: api:1.2
     imagePullPolicy: IfNotPresent
     name: api
     ports:
`
	if diff := cmp.Diff(want, d.stdout); diff != "" {
		t.Errorf("--diff 2..4 mismatch (-want +got):\n%s", diff)
	}
	if same := runCLI(t, "", "history", "-f", historyFile, "--diff", "3..3"); same.code != exitOK || same.stdout != "" {
		t.Errorf("--diff 3..3: exit %d, %q; want no difference", same.code, same.stdout)
	}
}

func TestHistoryErrors(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--revision", "7"}, "Deployment shop/api has no revision 7 (revisions: 1, 2, 3, 4)"},
		{[]string{"--diff", "2-4"}, `--diff "2-4": want two revisions A..B`},
		{[]string{"--diff", "1..9"}, "has no revision 9"},
		{[]string{"--revision", "2", "--diff", "1..2"}, "not with --diff"},
	} {
		args := append([]string{"history", "-f", historyFile}, tt.args...)
		r := runCLI(t, "", args...)
		if r.code != exitBadInput || !strings.Contains(r.stderr, tt.want) || r.stdout != "" {
			t.Errorf("run(%q) = %d, %q; want 2 and %q", args, r.code, r.stderr, tt.want)
		}
	}
	r := runCLI(t, "", "history", "-f", manifestPath("recreate.yaml"))
	if r.code != exitBadInput || !strings.Contains(r.stderr, "history reads the live objects") {
		t.Errorf("history of a manifest: %d, %q", r.code, r.stderr)
	}
}

// TestUnifiedDiff: hunks with three lines of context, far-apart changes
// in separate hunks, additions at the end.
func TestUnifiedDiff(t *testing.T) {
	a := strings.Split("a b c d e f g h i j k l m n", " ")
	b := strings.Split("a B c d e f g h i j k l m n o", " ")
	want := "--- x\n+++ y\n@@ -1,5 +1,5 @@\n a\n-b\n+B\n c\n d\n e\n@@ -12,3 +12,4 @@\n l\n m\n n\n+o\n"
	if got := unifiedDiff("x", "y", a, b); got != want {
		t.Errorf("unifiedDiff:\n%s\nwant\n%s", got, want)
	}
	if got := unifiedDiff("x", "y", a, a); got != "" {
		t.Errorf("unifiedDiff of equal lines = %q", got)
	}
}
