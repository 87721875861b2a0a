package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rolloutmath/rolloutmath/rollout/check"
)

// placeDeploy is a Deployment whose pods want a node each (required
// anti-affinity on the hostname), 3 replicas, maxSurge 1 and
// maxUnavailable 0: on 3 nodes its surge pod has no place (kubernetes#116891).
const placeDeploy = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 3
  strategy:
    rollingUpdate:
      maxSurge: 1
      maxUnavailable: 0
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      affinity:
        podAntiAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
          - labelSelector: {matchLabels: {app: web}}
            topologyKey: kubernetes.io/hostname
      containers:
      - name: app
        image: web:1.0
`

// placeNodes is 'kubectl get nodes -o yaml' of n nodes: a v1 List.
func placeNodes(n int, extra string) string {
	var b strings.Builder
	b.WriteString("apiVersion: v1\nkind: List\nitems:\n")
	for i := 1; i <= n; i++ {
		name := "n" + string(rune('0'+i))
		b.WriteString("- apiVersion: v1\n  kind: Node\n  metadata:\n    name: " + name + "\n    labels: {kubernetes.io/hostname: " + name + "}\n" +
			extra + "  status:\n    allocatable: {cpu: \"4\", memory: 16Gi, pods: \"110\"}\n")
	}
	return b.String()
}

func writePlaceFiles(t *testing.T, nodes string) (deploy, nodesFile string) {
	t.Helper()
	dir := t.TempDir()
	deploy, nodesFile = filepath.Join(dir, "deploy.yaml"), filepath.Join(dir, "nodes.yaml")
	if err := os.WriteFile(deploy, []byte(placeDeploy), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(nodesFile, []byte(nodes), 0o644); err != nil {
		t.Fatal(err)
	}
	return deploy, nodesFile
}

// TestCheckPlacement runs check with a nodes file, and with --nodes: the
// never-finishes finding points at maxUnavailable (line 10) with the
// anti-affinity term and the nodes as related places, in the text and
// JSON reports; a fourth node lets the rollout finish.
func TestCheckPlacement(t *testing.T) {
	deploy, nodes := writePlaceFiles(t, placeNodes(3, ""))
	args := []string{"check", deploy, nodes}
	r := runCLI(t, "", args...)
	r.wantCode(t, args, exitViolation)
	want := "never-finishes: the rollout can never finish: required pod anti-affinity on kubernetes.io/hostname allows one pod per node: 3 nodes with room; so the nodes hold 3 pods of the Deployment at once"
	if !strings.Contains(r.stdout, want) || !strings.Contains(r.stdout, deploy+":10 spec.strategy.rollingUpdate.maxUnavailable; "+deploy+":20 Deployment web spec.template.spec.affinity.podAntiAffinity") ||
		!strings.Contains(r.stdout, nodes+":10 Node n1 status.allocatable") {
		t.Errorf("check %s %s:\n%s", deploy, nodes, r.stdout)
	}

	args = []string{"check", deploy, nodes, "-o", "json"}
	r = runCLI(t, "", args...)
	r.wantCode(t, args, exitViolation)
	var out check.Report
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, v := range out.Findings {
		if v.Rule == "never-finishes" {
			found = true
			if v.Location.Line != 10 || v.Location.Field != "spec.strategy.rollingUpdate.maxUnavailable" || len(v.Related) != 4 || v.Related[0].Line != 20 {
				t.Errorf("never-finishes at %+v, related %+v", v.Location, v.Related)
			}
		}
	}
	if !found {
		t.Errorf("no never-finishes finding in %s", r.stdout)
	}

	// Every report points at the line of maxUnavailable.
	for format, want := range map[string]string{
		"github": "::error file=" + deploy + ",line=10,title=rolloutctl never-finishes::",
		"sarif":  "\"startLine\": 10",
		"junit":  `line="10"`,
		"yaml":   "line: 10",
	} {
		args := []string{"check", deploy, nodes, "-o", format}
		r := runCLI(t, "", args...)
		r.wantCode(t, args, exitViolation)
		if !strings.Contains(r.stdout, want) {
			t.Errorf("check -o %s does not hold %q:\n%s", format, want, r.stdout)
		}
	}

	for _, args := range [][]string{
		{"check", deploy, "--nodes", "4"},
		{"check", deploy, "--nodes", "4", "--node-allocatable", "cpu=2,memory=8Gi"},
	} {
		r = runCLI(t, "", args...)
		r.wantCode(t, args, exitOK)
	}
	args = []string{"check", deploy, "--nodes", "3", "--node-allocatable", "cpu=2,pods=20"}
	r = runCLI(t, "", args...)
	r.wantCode(t, args, exitViolation)
	if !strings.Contains(r.stdout, "never-finishes") {
		t.Errorf("--nodes 3:\n%s", r.stdout)
	}
}

// TestCheckPlacementBadInput: a Node with an unknown field is bad input
// naming the field, and bad flags are refused.
func TestCheckPlacementBadInput(t *testing.T) {
	deploy, nodes := writePlaceFiles(t, placeNodes(1, "  spec: {unschedulabel: true}\n"))
	args := []string{"check", deploy, nodes}
	r := runCLI(t, "", args...)
	r.wantCode(t, args, exitBadInput)
	if !strings.Contains(r.stdout+r.stderr, "unschedulabel") {
		t.Errorf("check with an unknown Node field:\nstdout:\n%s\nstderr:\n%s", r.stdout, r.stderr)
	}
	for _, args := range [][]string{
		{"check", deploy, "--nodes", "-1"},
		{"check", deploy, "--node-allocatable", "cpu=2"},
		{"check", deploy, "--nodes", "2", "--node-allocatable", "cpu=two"},
		{"check", deploy, "--nodes", "2", "--node-allocatable", "cpu=-1"},
	} {
		r := runCLI(t, "", args...)
		if r.code == exitOK || r.code == exitViolation {
			t.Errorf("run(%q) = %d, want a usage error\n%s", args, r.code, r.stderr)
		}
	}
}

// TestSimulatePlacement: simulate places the pods on the input's nodes,
// says what decides the places, shows the pending pods in a PENDING
// column, in JSON and in the chart, and ends stuck.
func TestSimulatePlacement(t *testing.T) {
	args := []string{"simulate", "-f", "testdata/placement/web.yaml", "-f", "testdata/placement/nodes.yaml", "--image", "registry.example/web:2.5"}
	r := runCLI(t, "", args...)
	r.wantCode(t, args, exitOK)
	for _, want := range []string{
		"policy: placement: required pod anti-affinity on kubernetes.io/hostname allows one pod per node: 3 nodes with room; so the nodes hold 3 pods of the Deployment at once",
		"AVAILABLE  PENDING\n",
		"stuck: pods cannot be placed: ReplicaSet web-7b844d9ffd has 1 of 1 pods pending",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("simulate does not print %q:\n%s", want, r.stdout)
		}
	}
	jsonArgs := append(slices.Clone(args), "-o", "json")
	r = runCLI(t, "", jsonArgs...)
	r.wantCode(t, jsonArgs, exitOK)
	if !strings.Contains(r.stdout, `"pending": 1`) {
		t.Errorf("simulate -o json shows no pending pod:\n%s", r.stdout)
	}
	svgArgs := append(slices.Clone(args), "-o", "svg")
	r = runCLI(t, "", svgArgs...)
	r.wantCode(t, svgArgs, exitOK)
	if !strings.Contains(r.stdout, `<polygon class="pending" data-name="web-7b844d9ffd"`) || !strings.Contains(r.stdout, "pending (no place on the nodes)") {
		t.Errorf("simulate -o svg shows no pending pods:\n%s", r.stdout)
	}
	args = append(args, "--nodes", "4")
	r = runCLI(t, "", args...)
	r.wantCode(t, args, exitOK)
	if !strings.Contains(r.stdout, "outcome:       complete") || strings.Contains(r.stdout, "PENDING") {
		t.Errorf("simulate --nodes 4:\n%s", r.stdout)
	}
}

// TestCheckPlacementLive: the Deployment's own pods, bound to a node in
// the live objects, hold places of the Deployment, not room taken from
// it; and a ReadWriteOnce claim is held where they run.
func TestCheckPlacementLive(t *testing.T) {
	live, err := os.ReadFile("testdata/live/cluster/web.yaml")
	if err != nil {
		t.Fatal(err)
	}
	pods := strings.ReplaceAll(string(live), "  spec:\n    containers:\n", "  spec:\n    nodeName: n2\n    containers:\n")
	if strings.Count(pods, "nodeName: n2") != 3 {
		t.Fatalf("the fixture's pods changed: %d bound", strings.Count(pods, "nodeName: n2"))
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "live.yaml")
	// One node with room for 3 pods of 1050m: the Deployment's 3 replicas
	// and no surge pod.
	node := "---\napiVersion: v1\nkind: Node\nmetadata: {name: n2, labels: {kubernetes.io/hostname: n2}}\nstatus: {allocatable: {cpu: 3500m, memory: 8Gi, pods: \"110\"}}\n"
	if err := os.WriteFile(file, []byte(pods+node), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"check", file}
	r := runCLI(t, "", args...)
	r.wantCode(t, args, exitViolation)
	if want := "1 eligible node has room for 3 pods requesting cpu 1050m, memory 576Mi; so the nodes hold 3 pods of the Deployment at once, and no old pod leaves"; !strings.Contains(r.stdout, want) {
		t.Errorf("check of live pods on their node does not say %q:\n%s", want, r.stdout)
	}
}

// TestCheckPlacementLiveClaim: a ReadWriteOnce claim is held where the
// live Deployment's pods run, and the new pod the scheduler sends to the
// other node waits on Multi-Attach; with the pods already on two nodes,
// the claim is not held by one, and nothing is said of it.
func TestCheckPlacementLiveClaim(t *testing.T) {
	live, err := os.ReadFile("testdata/live/cluster/web.yaml")
	if err != nil {
		t.Fatal(err)
	}
	// The Deployment's template (the first volumes list) mounts the claim
	// data too: the template changes, and the rollout brings it in.
	withClaim := strings.Replace(string(live), "        volumes:\n        - emptyDir: {}\n          name: logs\n",
		"        volumes:\n        - emptyDir: {}\n          name: logs\n        - name: data\n          persistentVolumeClaim: {claimName: data}\n", 1)
	extra := "---\napiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: data, namespace: default}\nspec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}\n"
	for _, n := range []string{"n1", "n2"} {
		extra += "---\napiVersion: v1\nkind: Node\nmetadata: {name: " + n + ", labels: {kubernetes.io/hostname: " + n + "}}\nstatus: {allocatable: {cpu: \"16\", memory: 64Gi, pods: \"110\"}}\n"
	}
	for _, tc := range []struct {
		name  string
		nodes []string // of the 3 pods
		want  string   // "" no never-finishes
	}{
		{"pods on one node", []string{"n2", "n2", "n2"}, "the ReadWriteOnce claim data is attached to n2 (where the Deployment's pods run)"},
		{"pods on two nodes", []string{"n1", "n2", "n2"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := withClaim
			for _, n := range tc.nodes {
				src = strings.Replace(src, "  spec:\n    containers:\n", "  spec:\n    nodeName: "+n+"\n    containers:\n", 1)
			}
			file := filepath.Join(t.TempDir(), "live.yaml")
			if err := os.WriteFile(file, []byte(src+extra), 0o644); err != nil {
				t.Fatal(err)
			}
			args := []string{"check", file}
			r := runCLI(t, "", args...)
			if tc.want == "" {
				r.wantCode(t, args, exitOK)
				return
			}
			r.wantCode(t, args, exitViolation)
			if !strings.Contains(r.stdout, tc.want) || !strings.Contains(r.stdout, "such as n1, where it waits on Multi-Attach") {
				t.Errorf("check does not say %q:\n%s", tc.want, r.stdout)
			}
		})
	}
}
