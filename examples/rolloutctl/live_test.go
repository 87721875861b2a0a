package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rolloutmath/rolloutmath/rollout/check"
	"github.com/rolloutmath/rolloutmath/rollout/manifest"
)

// The cases a user hits when applying a manifest onto a running
// Deployment, each with the manifest of testdata/live/next (or applied)
// and the live objects of testdata/live/cluster: the answer diff gives and
// its exit code, then what plan, simulate or check make of the state
// after the apply.

// liveNow is when the plans of these tests run: after every fixture's
// last write.
const liveNow = "2026-03-02T11:00:00Z"

func livePath(p string) string { return filepath.Join(liveDir, p) }

// liveRun runs a command with -f manifest (in testdata/live) and --live
// cluster/<live>, then args, and checks its exit code.
func liveRun(t *testing.T, code int, command, manifest, live string, args ...string) result {
	t.Helper()
	all := append([]string{command, "-f", livePath(manifest), "--live", livePath("cluster/" + live)}, args...)
	r := runCLI(t, "", all...)
	r.wantCode(t, all, code)
	return r
}

// wantDiff checks diff's whole output and exit code for manifest onto live.
func wantDiff(t *testing.T, manifest, live string, code int, want string) {
	t.Helper()
	r := liveRun(t, code, "diff", manifest, live)
	if r.stdout != want {
		t.Errorf("diff -f %s --live %s printed\n%s\nwant\n%s", manifest, live, r.stdout, want)
	}
	if r.stderr != "" {
		t.Errorf("diff -f %s --live %s: stderr %q, want none", manifest, live, r.stderr)
	}
}

// wantHas checks that out holds each of want.
func wantHas(t *testing.T, out string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
}

// TestLiveHPAManagedLastAppliedWithoutReplicas: an autoscaler owns the
// replicas from the start (the manifests never set them) and scaled web to
// 7. An image bump keeps the 7: kubectl's merge leaves spec.replicas alone,
// and the rollout is of 7 replicas.
func TestLiveHPAManagedLastAppliedWithoutReplicas(t *testing.T) {
	wantDiff(t, "next/web-hpa-image.yaml", "web-hpa-managed.yaml", exitRollout,
		"default/web: rollout: spec.template.spec.containers[name=app].image changed\n")
	r := liveRun(t, exitOK, "plan", "next/web-hpa-image.yaml", "web-hpa-managed.yaml", "--now", liveNow)
	wantHas(t, r.stdout, "default/web: rollout: spec.template.spec.containers[name=app].image changed\n\nCreateReplicaSet web-",
		"replicas 7 + maxSurge 1 - current total 7")
}

// TestLiveHPAManagedLastAppliedWithReplicas is the pitfall of the HPA
// documentation: the last apply set replicas: 3, the autoscaler scaled to
// 7, and the manifest drops replicas to hand them to the autoscaler. The
// merge deletes the field, the API server defaults it to 1: no rollout,
// but a scale down to one pod, which check's --min-available catches.
func TestLiveHPAManagedLastAppliedWithReplicas(t *testing.T) {
	wantDiff(t, "next/web-no-replicas.yaml", "web-hpa-scaled.yaml", exitOK,
		"default/web: no rollout: the template is unchanged once defaulted; spec.replicas changed: 7 -> 1\n")
	r := liveRun(t, exitOK, "plan", "next/web-no-replicas.yaml", "web-hpa-scaled.yaml", "--now", liveNow)
	wantHas(t, r.stdout, "ScaleReplicaSet web-bf4c5549c 7 -> 1")
	r = liveRun(t, exitViolation, "check", "next/web-no-replicas.yaml", "web-hpa-scaled.yaml", "--min-available", "3")
	wantHas(t, r.stdout, "default/web: no rollout: the template is unchanged once defaulted; spec.replicas changed: 7 -> 1\n\n"+podModel+"FAIL web replicas=1",
		"min-available")
}

// TestLiveAfterRolloutRestart: `kubectl rollout restart` put its
// restartedAt annotation in the live template. Applying the manifest of
// the last apply again keeps it (the last apply did not set it): nothing
// rolls, and the controller has nothing to do. kubectl still sends a patch
// ($retainKeys for a strategy that names no type), so the answer is not
// "no change".
func TestLiveAfterRolloutRestart(t *testing.T) {
	wantDiff(t, "applied/web.yaml", "web-restarted.yaml", exitOK,
		"default/web: no rollout: the template is unchanged once defaulted\n")
	r := liveRun(t, exitOK, "plan", "applied/web.yaml", "web-restarted.yaml", "--now", liveNow)
	wantHas(t, r.stdout, "no actions: the Deployment is as the controller wants it")
}

// TestLiveReorderOnlyContainers: the manifest swaps the two containers
// and changes nothing else. The stored list takes the manifest's order,
// which is another template: a rollout.
func TestLiveReorderOnlyContainers(t *testing.T) {
	wantDiff(t, "next/web-reordered.yaml", "web.yaml", exitRollout,
		"default/web: rollout: spec.template.spec.containers (order) changed\n")
}

// TestLiveCPUInAnotherUnit: cpu: 1000m against a live "1" is the same
// quantity once the API server parses it: no rollout. The last-applied
// annotation changes, which bumps the generation, so the controller
// records the new observedGeneration and nothing else.
func TestLiveCPUInAnotherUnit(t *testing.T) {
	wantDiff(t, "next/web-cpu-millis.yaml", "web.yaml", exitOK,
		"default/web: no rollout: the template is unchanged once defaulted\n")
	r := liveRun(t, exitOK, "plan", "next/web-cpu-millis.yaml", "web.yaml", "--now", liveNow)
	if strings.Contains(r.stdout, "ReplicaSet ") {
		t.Errorf("plan writes a ReplicaSet:\n%s", r.stdout)
	}
}

// TestLiveImageBump: the common case. The rollout is simulated from the
// live ReplicaSet (maxSurge 1, maxUnavailable 0: at most 4 pods, never
// fewer than 3 available), and -o json carries the change's values.
func TestLiveImageBump(t *testing.T) {
	wantDiff(t, "next/web-image.yaml", "web.yaml", exitRollout,
		"default/web: rollout: spec.template.spec.containers[name=app].image changed\n")
	r := liveRun(t, exitOK, "simulate", "next/web-image.yaml", "web.yaml")
	wantHas(t, r.stdout, "default/web: rollout: spec.template.spec.containers[name=app].image changed\n\nweb: the ReplicaSets in the input\n",
		"web-bf4c5549c ", "outcome:       complete", "peak pods:     4 (ceiling 4)", "min available: 3 (floor 3)")

	r = liveRun(t, exitOK, "simulate", "next/web-image.yaml", "web.yaml", "-o", "json")
	var out struct {
		Apply   answerJSON `json:"apply"`
		Summary struct {
			PeakPods int `json:"peakPods"`
		} `json:"summary"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatalf("simulate -o json: %v\n%s", err, r.stdout)
	}
	want := `[{"path":"spec.template.spec.containers[name=app].image","from":"registry.example.com/storefront/web:2.14.0","to":"registry.example.com/storefront/web:2.15.0"}]`
	if got := mustJSON(t, out.Apply.Changes); got != want || !out.Apply.Rollout || out.Apply.Created || out.Summary.PeakPods != 4 {
		t.Errorf("simulate -o json: apply %+v (changes %s), peak pods %d; want the image's change, a rollout, 4 pods", out.Apply, got, out.Summary.PeakPods)
	}

	// -o svg is the chart alone; the answer goes to stderr.
	r = liveRun(t, exitOK, "simulate", "next/web-image.yaml", "web.yaml", "-o", "svg")
	if !strings.HasPrefix(r.stdout, "<?xml") || r.stderr != "default/web: rollout: spec.template.spec.containers[name=app].image changed\n" {
		t.Errorf("simulate -o svg: stdout starts %.40q, stderr %q", r.stdout, r.stderr)
	}
}

// TestLiveRemovedSidecar: the manifest drops the log-shipper, which the
// last apply set: the merge deletes it by its name, and the template
// changes.
func TestLiveRemovedSidecar(t *testing.T) {
	wantDiff(t, "next/web-no-sidecar.yaml", "web.yaml", exitRollout,
		"default/web: rollout: spec.template.spec.containers[name=log-shipper] changed\n")
}

// TestLiveChangedSelector: apps/v1 selectors are immutable. Every command
// refuses the apply as the API server does, naming the manifest, the live
// object and spec.selector, and exits 2; check reports it as a finding
// of rule input at the manifest (issue 27, point 2), the others print
// nothing.
func TestLiveChangedSelector(t *testing.T) {
	for _, command := range []string{"diff", "plan", "simulate", "check"} {
		r := liveRun(t, exitBadInput, command, "next/web-selector.yaml", "web.yaml")
		wantHas(t, r.stderr, "rolloutctl "+command+": "+livePath("next/web-selector.yaml")+":4: Deployment default/web: kubectl apply onto the live object ("+
			livePath("cluster/web.yaml")+":3: items[0]): spec.selector: Invalid value", "field is immutable")
		if command == "check" {
			wantHas(t, r.stdout, "BAD  "+livePath("next/web-selector.yaml")+":4: Deployment default/web: kubectl apply onto the live object", "field is immutable")
			continue
		}
		if r.stdout != "" {
			t.Errorf("%s printed %q on a refused apply", command, r.stdout)
		}
	}
}

// TestLiveFirstApply: a manifest that matches no live Deployment is
// created, and its rollout is the creation of all its pods.
func TestLiveFirstApply(t *testing.T) {
	wantDiff(t, "next/web-worker.yaml", "web.yaml", exitRollout, "default/web-worker: rollout: a new Deployment\n")
	r := liveRun(t, exitOK, "plan", "next/web-worker.yaml", "web.yaml", "--now", liveNow, "-o", "json")
	var out struct {
		Apply   answerJSON `json:"apply"`
		Actions []struct {
			Type string `json:"type"`
			To   int    `json:"to"`
		} `json:"actions"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatal(err)
	}
	if !out.Apply.Created || !out.Apply.Rollout || len(out.Apply.Changes) != 0 || out.Actions[0].Type != "CreateReplicaSet" || out.Actions[0].To != 2 {
		t.Errorf("plan -o json: %s", r.stdout)
	}
}

// TestLiveTwoDeployments: two Deployments of namespace shop at once,
// matched by name in the namespace -n gives to manifests that name none:
// cart's image bump rolls, checkout is unchanged. Without -n they are in
// default, where nothing runs: two first applies.
func TestLiveTwoDeployments(t *testing.T) {
	r := liveRun(t, exitRollout, "diff", "next/shop.yaml", "shop.yaml", "-n", "shop")
	want := "shop/cart: rollout: spec.template.spec.containers[name=cart].image changed\nshop/checkout: no change: kubectl sends no patch\n"
	if r.stdout != want {
		t.Errorf("diff -n shop printed\n%s\nwant\n%s", r.stdout, want)
	}
	r = liveRun(t, exitRollout, "diff", "next/shop.yaml", "shop.yaml")
	if want := "default/cart: rollout: a new Deployment\ndefault/checkout: rollout: a new Deployment\n"; r.stdout != want {
		t.Errorf("diff without -n printed\n%s\nwant\n%s", r.stdout, want)
	}
	r = liveRun(t, exitOK, "check", "next/shop.yaml", "shop.yaml", "--namespace", "shop")
	wantHas(t, r.stdout, want+"\n"+podModel+"OK   shop/cart replicas=4: peak pods 5, min available 3,", "OK   shop/checkout replicas=2")
	r = liveRun(t, exitOK, "check", "next/shop.yaml", "shop.yaml", "-n", "shop", "-o", "json")
	var out struct {
		Apply       []answerJSON   `json:"apply"`
		Deployments []check.Result `json:"deployments"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatal(err)
	}
	if len(out.Apply) != 2 || out.Apply[0].Deployment != "shop/cart" || !out.Apply[0].Rollout || out.Apply[1].Rollout || len(out.Deployments) != 2 {
		t.Errorf("check -o json: %s", r.stdout)
	}
}

// TestLiveOnlyTheDeployment: live objects without the Deployment's
// ReplicaSets (kubectl get deploy alone) are taken as fully rolled out on
// the live template, with a warning: the ReplicaSet is the one the
// controller made, named as in the full fixture.
func TestLiveOnlyTheDeployment(t *testing.T) {
	docs, err := manifest.Read(manifest.Options{}, livePath("cluster/web.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "deploy.json")
	if err := os.WriteFile(path, docs[0].JSON, 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"plan", "-f", livePath("next/web-image.yaml"), "--live", path, "--now", liveNow, "--kubernetes-version", "1.36"}
	r := runCLI(t, "", args...)
	r.wantCode(t, args, exitOK)
	wantHas(t, r.stderr, "warning: "+path+":1: the live objects hold no ReplicaSet of Deployment default/web: taking it as fully rolled out on its live template (web-bf4c5549c)")
	wantHas(t, r.stdout, "replicas 3 + maxSurge 1 - current total 3")
}

// TestREADMEShowsDiff keeps the manual's diff example true: each
// "$ rolloutctl" line of the block that starts in testdata/live is run
// there, and its output is the lines that follow it.
func TestREADMEShowsDiff(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	const start = "```\n$ cd examples/rolloutctl/testdata/live"
	_, block, ok := strings.Cut(string(readme), start)
	if !ok {
		t.Fatalf("the manual (README.md) has no block starting %q", start)
	}
	block, _, _ = strings.Cut(block, "```")
	commands := strings.Split(block, "\n$ rolloutctl ")[1:]
	if len(commands) == 0 {
		t.Fatal("the manual's diff example runs no rolloutctl command")
	}
	for _, c := range commands {
		line, want, _ := strings.Cut(c, "\n")
		want = strings.TrimSuffix(want, "\n") + "\n"
		args := strings.Fields(line)
		for i := 1; i < len(args); i++ {
			if args[i-1] == "-f" || args[i-1] == "--live" {
				args[i] = livePath(args[i])
			}
		}
		r := runCLI(t, "", args...)
		if r.code != exitOK && r.code != exitRollout || r.stdout != want {
			t.Errorf("README.md shows `rolloutctl %s` printing\n%s\nbut it prints (exit %d)\n%s%s", line, want, r.code, r.stdout, r.stderr)
		}
	}
}

// podModel is the head of check's text report without version, pod time
// and quota flags (see checkHead).
const podModel = checkHead

// TestLivePartialManifest: with --live a manifest is decoded strictly but
// validated only once applied, as kubectl and the API server do. A
// manifest that sets only a container's image, applied onto a web that
// kubectl create made (no last-applied annotation), keeps the live
// selector and labels and starts a rollout, with kubectl's warning. The
// same manifest onto the web that kubectl apply made removes what the last
// apply set, the selector among it, and the API server refuses the update.
func TestLivePartialManifest(t *testing.T) {
	dir := t.TempDir()
	partial := filepath.Join(dir, "partial.yaml")
	if err := os.WriteFile(partial, []byte(`apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  template:
    spec:
      containers:
      - name: app
        image: registry.example.com/storefront/web:2.15.0
`), 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(livePath("cluster/web.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var kept []string
	for _, l := range strings.Split(string(b), "\n") {
		if !strings.Contains(l, "last-applied-configuration") && !strings.HasPrefix(strings.TrimSpace(l), `{"apiVersion"`) {
			kept = append(kept, l)
		}
	}
	created := filepath.Join(dir, "created.yaml")
	if err := os.WriteFile(created, []byte(strings.Join(kept, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}

	args := []string{"diff", "-f", partial, "--live", created}
	r := runCLI(t, "", args...)
	r.wantCode(t, args, 1)
	wantHas(t, r.stdout, "rollout: spec.template.spec.containers[name=app].image changed")
	wantHas(t, r.stderr, "has no kubectl.kubernetes.io/last-applied-configuration annotation")

	args = []string{"diff", "-f", partial, "--live", livePath("cluster/web.yaml")}
	r = runCLI(t, "", args...)
	r.wantCode(t, args, 2)
	wantHas(t, r.stderr, "kubectl apply onto the live object", "spec.selector: Required value")
}
