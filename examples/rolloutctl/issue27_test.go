package main

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"go/parser"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"sigs.k8s.io/yaml"

	"github.com/rolloutmath/rolloutmath/rollout/check"
)

// The tests of issue 27, "a command that survives real repositories":
// each is named after the point of the issue it holds.

// writeRepo writes files (path -> content) under a new directory and
// returns it.
func writeRepo(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// deploymentYAML is a Deployment of a name, replicas and namespace (""
// for none) in YAML.
func deploymentYAML(name string, replicas int, namespace string) string {
	ns := ""
	if namespace != "" {
		ns = "\n  namespace: " + namespace
	}
	return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ` + name + ns + `
spec:
  replicas: ` + itoa(replicas) + `
  selector:
    matchLabels: {app: ` + name + `}
  template:
    metadata:
      labels: {app: ` + name + `}
    spec:
      containers:
      - name: app
        image: ` + name + `:1
        resources: {requests: {cpu: 100m}}
`
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// TestIssue27RepeatedNamesCheckedInEachPlace is point 1: one repeated
// Deployment name stopped everything (exit 2, "an object is given once").
// The same file named twice is read once; the same Deployment in two
// directories (an overlay per environment) is checked in each, with the
// quota of its own directory, and a note.
func TestIssue27RepeatedNamesCheckedInEachPlace(t *testing.T) {
	dir := writeRepo(t, map[string]string{
		"prod/web.yaml":    deploymentYAML("web", 10, ""),
		"staging/web.yaml": deploymentYAML("web", 2, ""),
		// Staging's quota leaves no room for a surge pod.
		"staging/quota.yaml": "apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: q}\nspec: {hard: {pods: \"2\"}}\n",
	})
	args := []string{"check", "-o", "json", "-f", dir, "-f", filepath.Join(dir, "prod", "web.yaml")}
	r := runCLI(t, "", args...)
	var out check.Report
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatalf("run(%q): %v\n%s\n%s", args, err, r.stdout, r.stderr)
	}
	if len(out.Deployments) != 2 {
		t.Fatalf("run(%q) checked %d Deployments, want web twice:\n%s", args, len(out.Deployments), r.stdout)
	}
	for i, want := range []string{"prod/web.yaml", "staging/web.yaml"} {
		if got := out.Deployments[i].Location.File; !strings.HasSuffix(got, want) {
			t.Errorf("Deployment %d at %s, want %s", i, got, want)
		}
	}
	if out.Deployments[0].PeakPods != 13 || out.Deployments[1].PeakPods != 2 {
		t.Errorf("peak pods %d and %d, want 13 (prod, no quota) and 2 (staging's quota)", out.Deployments[0].PeakPods, out.Deployments[1].PeakPods)
	}
	for _, want := range []string{
		"prod/web.yaml: read once: named again",
		"Deployment default/web is in 2 places (" + filepath.Join(dir, "prod") + ", " + filepath.Join(dir, "staging") + "): each is checked with the objects of its own directory (or file, where the directory names it twice)",
	} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("run(%q) stderr:\n%s\nwant a note %q", args, r.stderr, want)
		}
	}
	if r.code == exitBadInput {
		t.Errorf("run(%q) = %d, bad input", args, r.code)
	}

	// A directory of examples that repeat a name: each file is checked
	// on its own; within one file, the first counts.
	dir = writeRepo(t, map[string]string{
		"examples/a.yaml": deploymentYAML("hello", 2, ""),
		"examples/b.yaml": deploymentYAML("hello", 3, ""),
		"examples/c.yaml": deploymentYAML("other", 1, "") + "---\n" + deploymentYAML("other", 4, ""),
	})
	r = runCLI(t, "", "check", "-o", "json", dir)
	out = check.Report{}
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatalf("check %s: %v\n%s\n%s", dir, err, r.stdout, r.stderr)
	}
	var got []string
	for _, d := range out.Deployments {
		got = append(got, fmt.Sprintf("%s=%d", d.Deployment, d.MinReplicas))
	}
	if strings.Join(got, " ") != "hello=2 hello=3 other=1" || r.code == exitBadInput {
		t.Errorf("check of a directory of examples checked %q (exit %d), want hello=2 hello=3 other=1\n%s", got, r.code, r.stderr)
	}
}

// TestIssue27BadInputStillReports is point 2: one refused document gave
// exit 2, one stderr line, no SARIF, no JUnit, no ::error line and no
// other Deployment checked. Now every format holds the problem, the rest
// is checked, and the exit code is 2.
func TestIssue27BadInputStillReports(t *testing.T) {
	dir := writeRepo(t, map[string]string{
		"a/web.yaml":               deploymentYAML("web", 3, "shop"),
		"b/bad.yaml":               strings.Replace(deploymentYAML("api", 3, "shop"), "replicas: 3", "replicas: -1", 1),
		"c/db.yaml":                deploymentYAML("db", 1, "shop"),
		"c/web.yaml":               deploymentYAML("web", 5, "shop"), // web again, elsewhere: checked in each place
		".github/workflows/ci.yml": "on: push\njobs: {}\n",
	})
	sarif, junit := filepath.Join(t.TempDir(), "o.sarif"), filepath.Join(t.TempDir(), "o.xml")
	args := []string{"check", "-f", dir, "--format", "sarif", "--output", sarif, "--format", "junit", "--output", junit, "--format", "github"}
	r := runCLI(t, "", args...)
	r.wantCode(t, args, exitBadInput)
	bad := filepath.Join(dir, "b", "bad.yaml")
	if want := "::error file=" + ghProperty(bad) + ",line=7,title=rolloutctl input::Deployment \"api\": spec.replicas: Invalid value: -1"; !strings.Contains(r.stdout, want) {
		t.Errorf("github output:\n%s\nwant %q", r.stdout, want)
	}
	if !strings.Contains(r.stderr, bad+":7: Deployment \"api\": spec.replicas: Invalid value: -1") {
		t.Errorf("stderr %q, want the problem", r.stderr)
	}

	var log sarifLog
	if err := json.Unmarshal(mustRead(t, sarif), &log); err != nil {
		t.Fatal(err)
	}
	run := log.Runs[0]
	if run.Invocations[0].ExecutionSuccessful {
		t.Errorf("SARIF: executionSuccessful with a bad document")
	}
	var rules []string
	for _, res := range run.Results {
		rules = append(rules, res.RuleID)
	}
	if len(rules) == 0 || rules[0] != "input" || run.Results[0].PhysicalLine() != 7 {
		t.Errorf("SARIF results %q, want the input problem first at line 7", rules)
	}
	if got := run.Tool.Driver.Rules[run.Results[0].RuleIndex].ID; got != "input" {
		t.Errorf("SARIF: the problem's ruleIndex points at %q", got)
	}

	var suites junitSuites
	if err := xml.Unmarshal(mustRead(t, junit), &suites); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range suites.Suites {
		names = append(names, s.Name)
	}
	if strings.Join(names, ",") != "input,shop/web,shop/db,shop/web" || suites.Errors != 1 || suites.Suites[0].Cases[0].Error == nil {
		t.Errorf("JUnit suites %q with %d errors, want input (in error), shop/web, shop/db, shop/web", names, suites.Errors)
	}
}

// PhysicalLine is the line of a SARIF result's first location.
func (r sarifResult) PhysicalLine() int { return r.Locations[0].PhysicalLocation.Region.StartLine }

// TestIssue27NothingToCheck is point 6: an input with nothing to check
// (only a StatefulSet, an empty chart) was bad input, exit 2, and
// StatefulSets and DaemonSets were skipped without a word. Now it is a
// note and exit 0, or exit 2 with --require-deployments; skipped kinds
// are named on stderr and in SARIF's notifications.
func TestIssue27NothingToCheck(t *testing.T) {
	sts := "apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: db}\nspec: {}\n---\napiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: agent}\nspec: {}\n"
	r := runCLI(t, sts, "check", "-o", "sarif")
	r.wantCode(t, nil, exitOK)
	for _, want := range []string{
		"rolloutctl check: note: not checked (only Deployments roll out here): 1 DaemonSet, 1 StatefulSet\n",
		"rolloutctl check: note: <stdin>: no Deployment to check (found 0 ReplicaSets, 0 Pods, 1 DaemonSet, 1 StatefulSet)\n",
	} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr %q, want %q", r.stderr, want)
		}
	}
	var log sarifLog
	if err := json.Unmarshal([]byte(r.stdout), &log); err != nil {
		t.Fatal(err)
	}
	if n := log.Runs[0].Invocations[0].ToolExecutionNotifications; len(n) != 2 || !strings.Contains(n[0].Message.Text, "1 StatefulSet") {
		t.Errorf("SARIF notifications %+v, want the skipped kinds and no Deployment", n)
	}
	r = runCLI(t, sts, "check", "--require-deployments")
	r.wantCode(t, nil, exitBadInput)
}

// TestIssue27RepositoryRoot is point 6 too: -f . at a repository root
// failed on .github/workflows/*.yml, values.yaml and package.json, walked
// hidden directories, had no --exclude, and said nothing of the
// kustomization.yaml beside the patches it failed on.
func TestIssue27RepositoryRoot(t *testing.T) {
	dir := writeRepo(t, map[string]string{
		".github/workflows/ci.yml":         "on: push\njobs: {build: {runs-on: ubuntu-latest}}\n",
		"chart/values.yaml":                "replicaCount: 3\n",
		"package.json":                     `{"name": "site"}`,
		"deploy/web.yaml":                  deploymentYAML("web", 2, ""),
		"third_party/broken.yaml":          "kind: [\n",
		"overlays/prod/kustomization.yaml": "resources: [../../deploy]\n",
	})
	args := []string{"check", "-f", dir, "--exclude", "third_party"}
	r := runCLI(t, "", args...)
	r.wantCode(t, args, exitOK)
	for _, want := range []string{
		filepath.Join(dir, ".github") + ": skipped: a hidden directory",
		filepath.Join(dir, "chart/values.yaml") + ": skipped: no Kubernetes object in it",
		filepath.Join(dir, "package.json") + ": skipped: no Kubernetes object in it",
		filepath.Join(dir, "third_party") + ": skipped: excluded",
		filepath.Join(dir, "overlays/prod") + ": a kustomize directory (kustomization.yaml): its files are kustomize's input, not manifests; pipe 'kustomize build",
	} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("run(%q) stderr:\n%s\nwant %q", args, r.stderr, want)
		}
	}
	if !strings.Contains(r.stdout, "OK   web replicas=2") {
		t.Errorf("run(%q) stdout:\n%s\nwant web checked", args, r.stdout)
	}
}

// TestIssue27JUnitPathsRelative is point 10: the JUnit file attribute
// was a file:// URL, which CI's JUnit readers do not match to the
// repository's paths. It is relative to the working directory.
func TestIssue27JUnitPathsRelative(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	abs := filepath.Join(wd, "testdata", "nginx-deployment.yaml")
	for _, tt := range []struct{ name, want string }{
		{abs, "testdata/nginx-deployment.yaml"},
		{"./testdata/x.yaml", "testdata/x.yaml"},
		{"../../testdata/manifests/recreate.yaml", "../../testdata/manifests/recreate.yaml"},
		{"/elsewhere/x.yaml", "/elsewhere/x.yaml"},
		{"<stdin>", "stdin"},
	} {
		if got := junitPath(tt.name, wd); got != tt.want {
			t.Errorf("junitPath(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
	r := runCLI(t, "", "check", "-o", "junit", "-f", abs)
	if strings.Contains(r.stdout, "file://") || !strings.Contains(r.stdout, `file="testdata/nginx-deployment.yaml"`) {
		t.Errorf("check -o junit -f %s:\n%s\nwant file=\"testdata/nginx-deployment.yaml\"", abs, r.stdout)
	}
}

// TestIssue27EmptyPipeIsNoDemo is point 4: 'true | rolloutctl simulate'
// ran the built-in example and exited 0, so a failed 'helm template'
// upstream yielded a report about someone else's Deployment. The example
// runs only when standard input is a terminal (or /dev/null).
func TestIssue27EmptyPipeIsNoDemo(t *testing.T) {
	for _, cmd := range []string{"simulate", "plan", "check", "bounds"} {
		r := runWith(t, strings.NewReader(""), cmd)
		r.wantCode(t, []string{cmd}, exitBadInput)
		if r.stdout != "" || !strings.Contains(r.stderr, "standard input is empty: nothing was piped in (did the command before the pipe fail?)") {
			t.Errorf("%s with an empty pipe: stdout %q, stderr %q", cmd, r.stdout, r.stderr)
		}
	}
	r := runWith(t, nil, "simulate") // a terminal
	r.wantCode(t, nil, exitOK)
	if !strings.HasPrefix(r.stdout, "nginx-deployment: ") {
		t.Errorf("simulate at a terminal:\n%s", r.stdout)
	}
}

// TestIssue27APIVersionRequired is point 5: a Deployment without
// apiVersion was accepted, which kubectl refuses ("error validating
// data: apiVersion not set"). Every command refuses it, at its line;
// check reports it and checks the rest.
func TestIssue27APIVersionRequired(t *testing.T) {
	noVersion := strings.Replace(deploymentYAML("web", 2, ""), "apiVersion: apps/v1\n", "", 1)
	for _, cmd := range []string{"plan", "simulate", "check"} {
		r := runCLI(t, noVersion+"---\n"+deploymentYAML("api", 2, ""), cmd, "--deployment", "web")
		if cmd == "check" {
			r = runCLI(t, noVersion+"---\n"+deploymentYAML("api", 2, ""), cmd)
		}
		r.wantCode(t, []string{cmd}, exitBadInput)
		if want := "<stdin>:1: document 1: Deployment: apiVersion not set: kubectl refuses an object without one (error validating data); add apiVersion: apps/v1"; !strings.Contains(r.stderr, want) {
			t.Errorf("%s: stderr %q, want %q", cmd, r.stderr, want)
		}
		if cmd == "check" && !strings.Contains(r.stdout, "OK   api replicas=2") {
			t.Errorf("check: stdout %q, want api checked", r.stdout)
		}
	}
}

// TestIssue27NamespaceFlagWithoutLive is point 3: Helm output names no
// namespace, so a quota in prod did not apply to it and -n prod was
// refused without --live. -n works as 'kubectl apply -n' does: objects
// that name no namespace go in it, and one of another is refused.
func TestIssue27NamespaceFlagWithoutLive(t *testing.T) {
	quota := "apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: q, namespace: prod}\nspec: {hard: {pods: \"2\"}}\n"
	input := deploymentYAML("web", 2, "") + "---\n" + quota
	r := runCLI(t, input, "check")
	r.wantCode(t, nil, exitOK) // web is in default, the quota in prod

	r = runCLI(t, input, "check", "-n", "prod")
	r.wantCode(t, nil, exitViolation)
	if want := "FAIL prod/web replicas=2 at +30s: never-finishes: the rollout can never finish: ResourceQuota q allows pods 2"; !strings.Contains(r.stdout, want) {
		t.Errorf("check -n prod:\n%s\nwant %q", r.stdout, want)
	}

	other := deploymentYAML("api", 1, "staging")
	r = runCLI(t, other, "check", "-n", "prod")
	r.wantCode(t, nil, exitBadInput)
	if want := `<stdin>:5: Deployment: metadata.namespace "staging" is not -n prod: 'kubectl apply -n prod' refuses an object of another namespace`; !strings.Contains(r.stderr, want) {
		t.Errorf("check -n prod of a staging object: stderr %q, want %q", r.stderr, want)
	}
	r = runCLI(t, deploymentYAML("web", 2, ""), "simulate", "-n", "prod", "-o", "json")
	r.wantCode(t, nil, exitOK)
	if !strings.Contains(r.stdout, `"namespace": "prod"`) {
		t.Errorf("simulate -n prod: the Deployment is not in prod:\n%s", r.stdout[:min(len(r.stdout), 400)])
	}
}

// TestIssue27StartWithoutReplicaSetsSaysSo is point 9: plan on a
// Deployment without its ReplicaSets planned a first rollout without a
// word, simulate without --image showed nothing happening, and with
// --live a paused live Deployment that never had a ReplicaSet got one
// made up, so plan after an apply differed from the controller, which
// only writes the status.
func TestIssue27StartWithoutReplicaSetsSaysSo(t *testing.T) {
	web := deploymentYAML("web", 2, "")
	r := runCLI(t, web, "plan", "--now", "2026-01-01T00:00:00Z")
	r.wantCode(t, nil, exitOK)
	if want := "rolloutctl plan: warning: <stdin>: the input holds no ReplicaSet of Deployment web: this is the first sync of a Deployment just created"; !strings.HasPrefix(r.stderr, want) {
		t.Errorf("plan stderr %q, want %q", r.stderr, want)
	}
	r = runCLI(t, web, "simulate")
	r.wantCode(t, nil, exitOK)
	for _, want := range []string{
		"rolloutctl simulate: warning: <stdin>: the input holds no ReplicaSet of Deployment web: taking it as fully rolled out on its template",
		"rolloutctl simulate: note: nothing rolls out: the Deployment's template is that of its ReplicaSet, and no flag changes it; give --image [CONTAINER=]IMAGE",
	} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("simulate stderr %q, want %q", r.stderr, want)
		}
	}
	r = runCLI(t, web, "simulate", "--image", "web:2")
	if strings.Contains(r.stderr, "nothing rolls out") {
		t.Errorf("simulate --image: stderr %q says nothing rolls out", r.stderr)
	}

	live := strings.Replace(strings.Replace(web, "  name: web\n", "  name: web\n  uid: 1b4e28ba-2fa1-11d2-883f-0016d3cca427\n  resourceVersion: \"42\"\n  generation: 1\n  creationTimestamp: \"2026-01-01T00:00:00Z\"\n", 1),
		"  replicas: 2\n", "  replicas: 2\n  paused: true\n", 1)
	dir := writeRepo(t, map[string]string{"live.yaml": live + "status: {}\n", "next.yaml": strings.Replace(strings.Replace(web, "web:1", "web:2", 1), "  replicas: 2\n", "  replicas: 2\n  paused: true\n", 1)})
	args := []string{"plan", "-o", "json", "--now", "2026-01-01T00:01:00Z", "-f", filepath.Join(dir, "next.yaml"), "--live", filepath.Join(dir, "live.yaml")}
	r = runCLI(t, "", args...)
	r.wantCode(t, args, exitOK)
	if strings.Contains(r.stderr, "taking it as fully rolled out") || strings.Contains(r.stdout, "CreateReplicaSet") || strings.Contains(r.stdout, `"replicas": 2`) {
		t.Errorf("run(%q) made up a ReplicaSet:\nstdout:\n%s\nstderr:\n%s", args, r.stdout, r.stderr)
	}
}

// TestIssue27KubectlAndLinterHabits is point 8: --output=json,
// --filename, positional paths (as kube-linter and kubeconform take them)
// and --version failed.
func TestIssue27KubectlAndLinterHabits(t *testing.T) {
	file := manifestPath("recreate.yaml")
	want := runCLI(t, "", "check", "-o", "json", "-f", file)
	for _, args := range [][]string{
		{"check", "--output=json", "-f", file},
		{"check", "--output", "json", "--filename", file},
		{"check", file, "-o", "json"},
		{"check", "-o", "json", file},
	} {
		r := runCLI(t, "", args...)
		if r.code != want.code || r.stdout != want.stdout {
			t.Errorf("run(%q) = %d\n%s\nwant %d\n%s", args, r.code, r.stdout, want.code, want.stdout)
		}
	}
	// Two paths, flags between them.
	r := runCLI(t, "", "check", manifestPath("recreate.yaml"), "--max-pods", "100", manifestPath("one-replica-surge-zero.yaml"))
	if strings.Count(r.stdout, "\nOK ")+strings.Count(r.stdout, "\nWARN ")+strings.Count(r.stdout, "\nFAIL ") < 2 {
		t.Errorf("check with two paths:\n%s", r.stdout)
	}
	// --output after a --format is its file, as before.
	out := filepath.Join(t.TempDir(), "json")
	r = runCLI(t, "", "check", "--format", "json", "--output", out, file)
	if r.stdout != "" || string(mustRead(t, out)) != want.stdout {
		t.Errorf("--format json --output FILE: stdout %q", r.stdout)
	}
	r = runCLI(t, "", "check", "--output", "json", "-o", "json", file)
	r.wantCode(t, nil, exitBadInput)

	r = runCLI(t, "", "--version")
	r.wantCode(t, nil, exitOK)
	if !strings.HasPrefix(r.stdout, "rolloutctl ") || !strings.Contains(r.stdout, "models Kubernetes v1.35.4, v1.36.3 and v1.37.2") {
		t.Errorf("--version: %q", r.stdout)
	}
}

// TestIssue27MaxInputSizeIsTotal is point 7's --max-input-size, which
// capped each file and not the inputs together.
func TestIssue27MaxInputSizeIsTotal(t *testing.T) {
	dir := writeRepo(t, map[string]string{"a.yaml": deploymentYAML("a", 1, ""), "b.yaml": deploymentYAML("b", 1, "")})
	size := len(deploymentYAML("a", 1, ""))
	args := []string{"check", "-f", dir, "--max-input-size", itoa(size + size/2)}
	r := runCLI(t, "", args...)
	r.wantCode(t, args, exitBadInput)
	if want := "b.yaml: input too large: the inputs together hold more than " + itoa(size+size/2) + " bytes"; !strings.Contains(r.stderr, want) {
		t.Errorf("run(%q) stderr %q, want %q", args, r.stderr, want)
	}
	args[len(args)-1] = itoa(2 * size)
	runCLI(t, "", args...).wantCode(t, args, exitOK)
}

// TestIssue27ProgressOnlyOnATerminal is point 7's progress: check says
// how far loading and checking got when either takes more than a second
// and stderr is a terminal; never otherwise (CI logs, the tests).
func TestIssue27ProgressOnlyOnATerminal(t *testing.T) {
	var b strings.Builder
	e := &env{stderr: &b, stderrTerminal: true}
	stop := e.after(time.Millisecond, "rolloutctl check: loading the inputs...")
	time.Sleep(50 * time.Millisecond)
	if !stop() || b.String() != "rolloutctl check: loading the inputs...\n" {
		t.Errorf("after a second: %q", b.String())
	}
	b.Reset()
	if stop := e.after(time.Hour, "never"); stop() || b.Len() > 0 {
		t.Errorf("stopped in time: %q", b.String())
	}
	e.stderrTerminal = false
	if stop := e.after(0, "never"); stop() || b.Len() > 0 {
		t.Errorf("not a terminal: %q", b.String())
	}
}

// TestIssue27LiveBadInputStillReports is point 2 with --live: a manifest
// that cannot be read, an apply the API server refuses (a changed
// selector, which is immutable) and a live document that cannot be read
// stopped check before any report. Now each is a finding of rule input at
// its file and line in SARIF, JUnit and ::error lines, the other
// Deployment is applied and checked, and the exit code is 2.
func TestIssue27LiveBadInputStillReports(t *testing.T) {
	oldAPI := strings.ReplaceAll(deploymentYAML("api", 3, "shop"), "{app: api}", "{app: old}")
	oldAPI = strings.Replace(oldAPI, "  name: api\n", "  name: api\n  resourceVersion: \"7\"\n", 1) // as the API server stores it
	dir := writeRepo(t, map[string]string{
		"deploy/api.yaml":    deploymentYAML("api", 3, "shop"),
		"deploy/broken.yaml": "kind: [\n",
		"deploy/web.yaml":    deploymentYAML("web", 2, "shop"),
		"live/api.yaml":      oldAPI,
		"live/bad.yaml":      "apiVersion: v1\nkind: [\n",
	})
	sarif, junit := filepath.Join(t.TempDir(), "o.sarif"), filepath.Join(t.TempDir(), "o.xml")
	args := []string{"check", "-f", filepath.Join(dir, "deploy"), "--live", filepath.Join(dir, "live"),
		"--format", "sarif", "--output", sarif, "--format", "junit", "--output", junit, "--format", "github"}
	r := runCLI(t, "", args...)
	r.wantCode(t, args, exitBadInput)
	api, broken, bad := filepath.Join(dir, "deploy", "api.yaml"), filepath.Join(dir, "deploy", "broken.yaml"), filepath.Join(dir, "live", "bad.yaml")
	for _, want := range []string{
		"::error file=" + ghProperty(api) + ",line=1,title=rolloutctl input::Deployment shop/api: kubectl apply onto the live object",
		"::error file=" + ghProperty(broken) + ",line=1,title=rolloutctl input::",
		"::error file=" + ghProperty(bad) + ",line=2,title=rolloutctl input::",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("github output:\n%s\nwant %q", r.stdout, want)
		}
	}
	if !strings.Contains(r.stderr, api+":1: Deployment shop/api: kubectl apply onto the live object") || !strings.Contains(r.stderr, "field is immutable") {
		t.Errorf("stderr %q, want the refused apply", r.stderr)
	}

	var log sarifLog
	if err := json.Unmarshal(mustRead(t, sarif), &log); err != nil {
		t.Fatal(err)
	}
	run := log.Runs[0]
	if run.Invocations[0].ExecutionSuccessful {
		t.Errorf("SARIF: executionSuccessful with bad input")
	}
	inputs := 0
	for _, res := range run.Results {
		if res.RuleID == "input" {
			inputs++
		}
	}
	if inputs != 3 || run.Results[0].RuleID != "input" {
		t.Errorf("SARIF: %d input results (first %q), want 3, first", inputs, run.Results[0].RuleID)
	}

	var suites junitSuites
	if err := xml.Unmarshal(mustRead(t, junit), &suites); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range suites.Suites {
		names = append(names, s.Name)
	}
	if strings.Join(names, ",") != "input,shop/web" || suites.Errors != 3 {
		t.Errorf("JUnit suites %q with %d errors, want input (3 in error) and shop/web, applied and checked", names, suites.Errors)
	}
}

// TestIssue27LiveMissingFileStillReports is point 2 with a --live file
// that cannot be read: a finding at that file, and every manifest is
// created and checked as on an empty cluster.
func TestIssue27LiveMissingFileStillReports(t *testing.T) {
	dir := writeRepo(t, map[string]string{"deploy/web.yaml": deploymentYAML("web", 2, "shop")})
	missing := filepath.Join(dir, "no-such-live.yaml")
	args := []string{"check", "-o", "json", "-f", filepath.Join(dir, "deploy"), "--live", missing}
	r := runCLI(t, "", args...)
	r.wantCode(t, args, exitBadInput)
	var out check.Report
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatalf("run(%q): %v\n%s\n%s", args, err, r.stdout, r.stderr)
	}
	if len(out.Deployments) != 1 || out.Deployments[0].Deployment != "shop/web" {
		t.Errorf("run(%q) checked %+v, want shop/web", args, out.Deployments)
	}
	if !strings.Contains(r.stderr, "rolloutctl check: "+missing) {
		t.Errorf("stderr %q, want the unreadable live file named", r.stderr)
	}
	if len(out.Findings) == 0 || out.Findings[0].Rule != "input" || out.Findings[0].Location.File != missing {
		t.Errorf("findings %+v, want one of rule input at %s first", out.Findings, missing)
	}
}

// TestIssue27CommandImportsNoSchemaOrAPIServer pins that the command is
// thin: no file of it, tests included, imports internal/schema or
// internal/apiserver; what it needs of them, package check and package
// rollout give. (They remain dependencies through rollout, which decodes
// as the API server does; the command does not reach into them.)
func TestIssue27CommandImportsNoSchemaOrAPIServer(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("the command's files: %v, %v", files, err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			for _, banned := range []string{"/internal/schema", "/internal/apiserver"} {
				if strings.HasSuffix(path, banned) || strings.Contains(path, banned+"/") {
					t.Errorf("%s imports %s: the command reads the API through rollout and rollout/check", fset.Position(imp.Pos()), path)
				}
			}
		}
	}
}

// writeRealistic writes n realistic Deployments as YAML documents into a
// file and returns its name and size.
func writeRealistic(t *testing.T, n int) (string, int) {
	t.Helper()
	var buf bytes.Buffer
	for i := range n {
		y, err := yaml.JSONToYAML([]byte(realistic(i)))
		if err != nil {
			t.Fatal(err)
		}
		buf.WriteString("---\n")
		buf.Write(y)
	}
	file := filepath.Join(t.TempDir(), "deployments.yaml")
	if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return file, buf.Len()
}

// liveHeap returns the heap in use after a collection.
func liveHeap() float64 {
	var m runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m)
	return float64(m.HeapAlloc)
}

// TestIssue27LoadHoldsLittleMoreThanTheObjects pins what a load of YAML
// keeps: the place of each Deployment, with its text packed against the
// first document's (manifest.Packer), not the JSON it was converted to
// nor the input's text; the decoded objects with their strings from one
// table (rollout.StringTable) and their pod specs compact
// (rollout.DecodeOptions.Compact: stored JSON packed against the first
// spec's, decoded again when read). The heap held after loading 2,000
// realistic Deployments stays under 1.4 times the input: 1.09 times when
// measured. (It was 3.63 times with the input's text and every spec
// decoded; 4.24 times with a comparison form of every spec too; 6.5 times
// with the JSON kept as well.)
func TestIssue27LoadHoldsLittleMoreThanTheObjects(t *testing.T) {
	file, size := writeRealistic(t, 2000)
	f := inputFlags{files: listFlag{file}, maxSize: 1 << 30}
	before := liveHeap()
	in, err := f.load(&env{stderr: io.Discard}, "test")
	if err != nil {
		t.Fatal(err)
	}
	held := liveHeap() - before
	for _, d := range in.Documents() {
		if d.JSON != nil {
			t.Fatalf("%s: the input keeps the JSON converted from its YAML", d)
		}
	}
	t.Logf("held %.1f MB after loading %.1f MB of YAML: %.2f times", held/(1<<20), float64(size)/(1<<20), held/float64(size))
	if held > 1.4*float64(size) {
		t.Errorf("a load of %d bytes of YAML holds %.0f bytes of heap (%.2f times), want under 1.4 times", size, held, held/float64(size))
	}
	runtime.KeepAlive(in)
}

// TestIssue27CheckPeakHeap pins the heap a check holds once its input is
// loaded, sampled after a collection every 100 rollouts of 2,000
// realistic Deployments: under 2.5 times the input (2.2 times when
// measured; 1.8 times on the benchmark's 20,000, where the fixed costs
// weigh less). Past the load's 1.1 times, the check adds a copy of each
// Deployment and its policy (run's deps and policies, about 1.1 KB a
// Deployment). The load itself peaks higher, at 2.6 times on the 20,000,
// while the input's text and the JSON converted from all of it are in
// memory together; the command's soft memory limit (3.5 times the input)
// keeps the process under 4 times its input through both.
func TestIssue27CheckPeakHeap(t *testing.T) {
	file, size := writeRealistic(t, 2000)
	f := inputFlags{files: listFlag{file}, maxSize: 1 << 30}
	before := liveHeap()
	in, err := f.load(&env{stderr: io.Discard}, "test")
	if err != nil {
		t.Fatal(err)
	}
	peak := liveHeap() - before
	r := check.Run(in, check.Config{MaxPods: 100, Progress: func(done, total int64) {
		if done%100 == 0 || done == total {
			peak = max(peak, liveHeap()-before)
		}
	}})
	if len(r.Deployments) != 2000 || !r.OK {
		t.Fatalf("check of 2,000 Deployments: %d results, ok %v", len(r.Deployments), r.OK)
	}
	t.Logf("peak %.1f MB checking %.1f MB of YAML: %.2f times", peak/(1<<20), float64(size)/(1<<20), peak/float64(size))
	if peak > 2.5*float64(size) {
		t.Errorf("a check of %d bytes of YAML holds %.0f bytes of heap at its peak (%.2f times), want under 2.5 times", size, peak, peak/float64(size))
	}
	runtime.KeepAlive(r)
}
