package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rolloutmath/rolloutmath/rollout/check"
)

// policyPath names a manifest of testdata/policy.
func policyPath(name string) string { return filepath.Join("testdata", "policy", name) }

// policyArgs is -f for each manifest of testdata/policy named.
func policyArgs(names ...string) []string {
	var args []string
	for _, n := range names {
		args = append(args, "-f", policyPath(n))
	}
	return args
}

// TestQuotaChangesVerdict: a ResourceQuota next to a Deployment decides
// between a rollout that passes, one it throttles (a warning: it completes,
// waiting for room) and one it blocks for good (no room for a surge pod
// and maxUnavailable 0). Each finding points at the Deployment's field and
// at the quota's.
func TestQuotaChangesVerdict(t *testing.T) {
	checkLines(t, "", exitOK, []string{"OK   payments/checkout replicas=10: peak pods 13, min available 10, complete in 4m"},
		policyArgs("checkout.yaml")...)
	throttled := []string{
		"WARN payments/checkout replicas=10 at +30s: quota-throttles: ResourceQuota compute allows requests.cpu 6, of which other pods use 0: room for 12 pods of 500m each: the quota refused pods 4 times",
		"OK   payments/checkout replicas=10: peak pods 12, min available 10, complete in 5m",
	}
	checkLines(t, "", exitOK, throttled, policyArgs("checkout.yaml", "quota-throttles.yaml")...)
	checkLines(t, "", exitViolation, throttled, append(policyArgs("checkout.yaml", "quota-throttles.yaml"), "--fail-on", "warning")...)
	checkLines(t, "", exitViolation, []string{
		"FAIL payments/checkout replicas=10 at +30s: never-finishes: the rollout can never finish: ResourceQuota compute allows requests.cpu 5, of which other pods use 0: room for 10 pods of 500m each, none above the 10 replicas for a surge pod, and maxUnavailable is 0 [" +
			policyPath("checkout.yaml") + ":18 spec.strategy.rollingUpdate.maxUnavailable; " + policyPath("quota-blocks.yaml") + ":10 ResourceQuota payments/compute spec.hard[requests.cpu]]",
		"FAIL payments/checkout replicas=10 at +10m30s: progress-deadline",
	}, policyArgs("checkout.yaml", "quota-blocks.yaml")...)
	// --quota-pods overrides the quota objects.
	checkLines(t, "", exitOK, []string{"OK   payments/checkout replicas=10: peak pods 13"}, append(policyArgs("checkout.yaml", "quota-blocks.yaml"), "--quota-pods", "13")...)
}

// TestQuotaUsesStatusUsed: a quota read from a cluster says what the
// namespace uses; what other pods use leaves less room.
func TestQuotaUsesStatusUsed(t *testing.T) {
	live := `{"apiVersion": "v1", "kind": "ResourceQuota", "metadata": {"name": "compute", "namespace": "payments"},
	 "spec": {"hard": {"requests.cpu": "10"}}, "status": {"hard": {"requests.cpu": "10"}, "used": {"requests.cpu": "9"}}}`
	checkLines(t, live, exitOK, []string{
		"WARN payments/checkout replicas=10 at +30s: quota-throttles: ResourceQuota compute allows requests.cpu 10, of which other pods use 4: room for 12 pods of 500m each",
		"OK   payments/checkout replicas=10: peak pods 12"}, "-f", "-", "-f", policyPath("checkout.yaml"))
}

// TestLimitRangeChangesVerdict: a quota on CPU and memory requests refuses
// pods whose containers request neither, so the rollout can never finish;
// a LimitRange's default requests make them admissible, and a LimitRange
// whose max is below the default limit refuses them again.
func TestLimitRangeChangesVerdict(t *testing.T) {
	checkLines(t, "", exitViolation, []string{
		"FAIL search/indexer replicas=4 at +0s (input): never-finishes: the rollout can never finish: ResourceQuota search-compute tracks requests.cpu, so it refuses every pod that does not set it (must specify requests.cpu for: indexer), and no LimitRange gives a default [" +
			policyPath("indexer.yaml") + ":29 spec.template.spec.containers[0].resources.requests.cpu (default); " + policyPath("indexer.yaml") + ":10 ResourceQuota search/search-compute spec.hard[requests.cpu]]",
		"FAIL search/indexer replicas=4 at +0s (input): never-finishes: the rollout can never finish: ResourceQuota search-compute tracks requests.memory",
	}, policyArgs("indexer.yaml")...)
	checkLines(t, "", exitOK, []string{"OK   search/indexer replicas=4: peak pods 5, min available 3, complete in 2m30s"},
		policyArgs("indexer.yaml", "limitrange-defaults.yaml")...)
	checkLines(t, "", exitViolation, []string{
		"FAIL search/indexer replicas=4 at +0s (input): never-finishes: the rollout can never finish: LimitRange container-max refuses every pod: maximum cpu usage per Container is 500m, but limit is 1 [" +
			policyPath("indexer.yaml") + ":29 spec.template.spec.containers[0].resources.limits.cpu (default); " + policyPath("limitrange-max.yaml") + ":12 LimitRange search/container-max spec.limits[0].max[cpu]]",
	}, policyArgs("indexer.yaml", "limitrange-defaults.yaml", "limitrange-max.yaml")...)
}

// TestPDBChangesVerdict: a PodDisruptionBudget that keeps every replica
// allows no eviction at all (an error); one that keeps three of four lets
// drains through at rest, but the rollout, taking one pod down, blocks
// them for a while (a warning).
func TestPDBChangesVerdict(t *testing.T) {
	checkLines(t, "", exitOK, []string{"OK   web/storefront replicas=4: peak pods 5, min available 3, complete in 2m30s"}, policyArgs("frontend.yaml")...)
	checkLines(t, "", exitViolation, []string{
		"FAIL web/storefront replicas=4 at +0s (input): pdb-no-disruption: PodDisruptionBudget storefront (minAvailable 4) keeps 4 of 4 pods ready with every replica ready, at replicas 4: it allows no eviction, so node drains and cluster upgrades wait for ever [" +
			policyPath("pdb-all.yaml") + ":8 spec.minAvailable; " + policyPath("frontend.yaml") + ":8 Deployment web/storefront spec.replicas]",
	}, policyArgs("frontend.yaml", "pdb-all.yaml")...)
	checkLines(t, "", exitOK, []string{
		"WARN web/storefront replicas=4 at +1m: pdb-drain-blocked: during the rollout the ready pods drop to 3 while PodDisruptionBudget storefront (minAvailable 3) keeps 3 of 4 pods ready: a node drain is refused at +1m (at replicas 4): the budget allows 0 evictions then, and the drain waits; a drain that deletes pods without eviction (kubectl drain --disable-eviction, a node lost) leaves 2 ready, below the 3 it keeps [" +
			policyPath("frontend.yaml") + ":12 spec.strategy.rollingUpdate.maxUnavailable; " + policyPath("pdb-three.yaml") + ":9 PodDisruptionBudget web/storefront spec.minAvailable]",
		"OK   web/storefront replicas=4",
	}, policyArgs("frontend.yaml", "pdb-three.yaml")...)
}

// TestPDBDrainBothModels: frontend.yaml with pdb-three.yaml reports min
// available 3 under the interval model and under the default controllers
// model, and the budget keeps 3: both warn of the blocked drain. Under
// the controllers model the drop to 3 happens between syncs, in the race
// order where deletions go first, which the summary's figure comes from;
// the drain rule judged only the in-order run's syncs and passed it.
func TestPDBDrainBothModels(t *testing.T) {
	warn := "WARN web/storefront replicas=4 at +"
	drain := "pdb-drain-blocked: during the rollout the ready pods drop to 3 while PodDisruptionBudget storefront (minAvailable 3) keeps 3 of 4 pods ready"
	for _, model := range []string{"interval", "controllers"} {
		args := append(policyArgs("frontend.yaml", "pdb-three.yaml"), "--model", model)
		checkLines(t, "", exitOK, []string{warn, "OK   web/storefront replicas=4: peak pods 5, min available 3"}, args...)
		r := runCLI(t, "", append([]string{"check"}, args...)...)
		if !strings.Contains(r.stdout, drain) {
			t.Errorf("check --model %s: no %q in\n%s", model, drain, r.stdout)
		}
	}
}

// TestHPAChangesVerdict: an HPA's minReplicas..maxReplicas replace
// spec.replicas, so the largest count breaks --max-pods; and a manifest
// that sets spec.replicas for a Deployment an HPA scales gets a warning at
// that line.
func TestHPAChangesVerdict(t *testing.T) {
	checkLines(t, "", exitOK, []string{"OK   api/gateway replicas=3: peak pods 4"}, append(policyArgs("gateway.yaml"), "--max-pods", "14")...)
	checkLines(t, "", exitViolation, []string{
		"WARN api/gateway replicas=3 at +0s (input): hpa-replicas: spec.replicas is 3 while HorizontalPodAutoscaler gateway scales this Deployment (3..12): every kubectl apply resets the replicas it chose; leave spec.replicas out [" +
			policyPath("gateway.yaml") + ":9 spec.replicas; " + policyPath("gateway-hpa.yaml") + ":7 HorizontalPodAutoscaler api/gateway spec.scaleTargetRef]",
		"FAIL api/gateway replicas=12 at +0s: max-pods: 15 pods exist, above the max-pods limit 14 (peak 15) [" + policyPath("gateway.yaml") + ":12 spec.strategy.rollingUpdate.maxSurge]",
	}, append(policyArgs("gateway.yaml", "gateway-hpa.yaml"), "--max-pods", "14")...)
	// The same HPA as autoscaling/v1.
	checkLines(t, "", exitViolation, []string{
		"WARN api/gateway replicas=3 at +0s (input): hpa-replicas: spec.replicas is 3 while HorizontalPodAutoscaler gateway scales this Deployment (3..12)",
		"FAIL api/gateway replicas=12 at +0s: max-pods: 15 pods exist, above the max-pods limit 14 (peak 15)",
	}, append(policyArgs("gateway.yaml", "gateway-hpa-v1.yaml"), "--max-pods", "14")...)
	// --replicas overrides the HPA's range.
	checkLines(t, "", exitOK, []string{"WARN api/gateway replicas=3", "OK   api/gateway replicas=3..4 (2 rollouts)"},
		append(policyArgs("gateway.yaml", "gateway-hpa.yaml"), "--max-pods", "14", "--replicas", "3..4")...)
}

// TestPolicyObjectOfAnotherVersion: a policy object of a version the API
// server does not serve is bad input, at the line of its apiVersion; a
// field that only autoscaling/v2 has is unknown in autoscaling/v1.
func TestPolicyObjectOfAnotherVersion(t *testing.T) {
	deployment, err := os.ReadFile(policyPath("gateway.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		object string
		line   int // in the object
		want   string
	}{
		{"apiVersion: policy/v1beta1\nkind: PodDisruptionBudget\nmetadata: {name: gateway, namespace: api}\nspec: {minAvailable: 2}\n", 1,
			`document 2: PodDisruptionBudget gateway: apiVersion: Invalid value: "policy/v1beta1": no kind "PodDisruptionBudget" in this version: want policy/v1`},
		{"kind: HorizontalPodAutoscaler\napiVersion: autoscaling/v2beta2\nmetadata: {name: gateway, namespace: api}\nspec: {maxReplicas: 4, scaleTargetRef: {kind: Deployment, name: gateway}}\n", 2,
			`document 2: HorizontalPodAutoscaler gateway: apiVersion: Invalid value: "autoscaling/v2beta2": no kind "HorizontalPodAutoscaler" in this version: want autoscaling/v2`},
		{"apiVersion: autoscaling/v1\nkind: HorizontalPodAutoscaler\nmetadata: {name: gateway, namespace: api}\nspec:\n  maxReplicas: 4\n  scaleTargetRef: {kind: Deployment, name: gateway}\n  metrics: []\n", 7,
			`document 2: HorizontalPodAutoscaler: spec.metrics: unknown field`},
	} {
		r := runCLI(t, string(deployment)+"---\n"+tt.object, "check", "-f", "-")
		r.wantCode(t, []string{"check"}, exitBadInput)
		want := fmt.Sprintf("<stdin>:%d: %s", bytes.Count(deployment, []byte("\n"))+1+tt.line, tt.want)
		if !strings.Contains(r.stderr, want) {
			t.Errorf("check of\n%s\nstderr:\n%s\nwant it to contain %s", tt.object, r.stderr, want)
		}
	}
}

// TestSeveralDeploymentsInANamespace: two Deployments share a pod quota
// that holds one rollout at a time; with --max-rollouts 2 their surges add
// up and neither can surge: each rollout is blocked for good.
func TestSeveralDeploymentsInANamespace(t *testing.T) {
	checkLines(t, "", exitOK, []string{
		"OK   orders/order-api replicas=10: peak pods 13, min available 10, complete in 4m",
		"OK   orders/order-worker replicas=10: peak pods 13, min available 10, complete in 4m",
	}, policyArgs("orders.yaml")...)
	blocked := "never-finishes: the rollout can never finish: ResourceQuota pods allows pods 23, of which other pods use 10, and 3 goes to the surge of 1 other Deployment rolling out at once: room for 10 pods, none above the 10 replicas for a surge pod"
	checkLines(t, "", exitViolation, []string{
		"FAIL orders/order-api replicas=10 at +30s: " + blocked,
		"FAIL orders/order-api replicas=10 at +10m30s: progress-deadline",
		"FAIL orders/order-worker replicas=10 at +30s: " + blocked,
		"FAIL orders/order-worker replicas=10 at +10m30s: progress-deadline",
	}, append(policyArgs("orders.yaml"), "--max-rollouts", "2")...)
}

// TestFindingsPointAtRealLines: every finding of the policy manifests
// names a file and a line that exists in it, and its field, when written,
// is on that line.
func TestFindingsPointAtRealLines(t *testing.T) {
	var all []check.Finding
	for _, group := range [][]string{
		{"checkout.yaml", "quota-blocks.yaml", "indexer.yaml", "frontend.yaml", "pdb-all.yaml", "gateway.yaml", "gateway-hpa.yaml", "orders.yaml"},
		{"checkout.yaml", "quota-throttles.yaml", "indexer.yaml", "limitrange-defaults.yaml", "limitrange-max.yaml", "frontend.yaml", "pdb-three.yaml", "gateway.yaml", "gateway-hpa-v1.yaml"},
	} {
		args := append([]string{"check", "-o", "json", "--max-pods", "12", "--max-rollouts", "2", "--min-available", "90%"}, policyArgs(group...)...)
		r := runCLI(t, "", args...)
		var out check.Report
		if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
			t.Fatalf("check: %v:\n%s%s", err, r.stdout, r.stderr)
		}
		all = append(all, out.Findings...)
	}
	if len(all) < 15 {
		t.Fatalf("%d violations, want more", len(all))
	}
	for _, v := range all {
		for _, p := range append([]check.Location{v.Location}, v.Related...) {
			lines := readLines(t, p.File)
			if p.Line < 1 || p.Line > len(lines) {
				t.Errorf("%s: line %d of %d", p, p.Line, len(lines))
				continue
			}
			last := p.Field[strings.LastIndexAny(p.Field, ".[")+1:]
			last = strings.TrimSuffix(last, "]")
			if p.Written && !strings.Contains(lines[p.Line-1], last) {
				t.Errorf("%s: line %d is %q, not the field", p, p.Line, lines[p.Line-1])
			}
		}
	}
}

// readLines returns the lines of a file.
func readLines(t *testing.T, name string) []string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(string(b), "\n")
}

// TestLivePolicyObjects: with --live, the live objects' quota counts (its
// status.used says what the namespace uses: 2 pods besides cart's 4, so
// a quota of 6 throttles cart's rollout), and a quota among the
// manifests takes the place of the live one of its name.
func TestLivePolicyObjects(t *testing.T) {
	dir := t.TempDir()
	cluster, err := os.ReadFile(livePath("cluster/shop.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	quota := func(pods string) string {
		return `{"apiVersion": "v1", "kind": "ResourceQuota", "metadata": {"name": "pods", "namespace": "shop"},
 "spec": {"hard": {"pods": "` + pods + `"}}, "status": {"hard": {"pods": "` + pods + `"}, "used": {"pods": "6"}}}`
	}
	live := filepath.Join(dir, "live.yaml")
	if err := os.WriteFile(live, append(append(cluster, "\n---\n"...), quota("6")...), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"check", "-f", livePath("next/shop.yaml"), "--live", live, "-n", "shop"}
	r := runCLI(t, "", args...)
	if !strings.Contains(r.stdout, "WARN shop/cart replicas=4 at +30s: quota-throttles: ResourceQuota pods allows pods 6, of which other pods use 2: room for 4 pods") {
		t.Errorf("a live quota that leaves no room for a surge pod: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	roomy := filepath.Join(dir, "quota.yaml")
	if err := os.WriteFile(roomy, []byte(quota("20")), 0o644); err != nil {
		t.Fatal(err)
	}
	r = runCLI(t, "", append(args, "-f", roomy)...)
	if r.code != exitOK || strings.Contains(r.stdout, "quota-throttles") {
		t.Errorf("the manifests' quota in place of the live one: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}
