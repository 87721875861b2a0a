package check_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rolloutmath/rolloutmath/rollout/check"
	"github.com/rolloutmath/rolloutmath/rollout/manifest"
	"github.com/rolloutmath/rolloutmath/rollout/sim"
)

// placeDeployment is a Deployment web in namespace shop with replicas, a
// rolling strategy, and spec lines added to its pod template's spec
// (indented by 6).
func placeDeployment(replicas int, maxSurge, maxUnavailable, spec string) string {
	return fmt.Sprintf(`apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  replicas: %d
  strategy: {rollingUpdate: {maxSurge: %s, maxUnavailable: %s}}
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: app
        image: web:1.0
        resources: {requests: {cpu: 500m, memory: 512Mi}}
%s`, replicas, maxSurge, maxUnavailable, spec)
}

// nodeDoc is a Node as 'kubectl get nodes -o yaml' lists it.
func nodeDoc(name, zone, cpu, extra string) string {
	return fmt.Sprintf(`---
apiVersion: v1
kind: Node
metadata:
  name: %s
  labels: {kubernetes.io/hostname: %s, topology.kubernetes.io/zone: %s}
spec: {%s}
status:
  allocatable: {cpu: "%s", memory: 16Gi, pods: "110"}
`, name, name, zone, extra, cpu)
}

func claimDoc(name, mode string) string {
	return fmt.Sprintf(`---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: %s, namespace: shop}
spec:
  accessModes: [%s]
  resources: {requests: {storage: 1Gi}}
`, name, mode)
}

const claimVolume = `      volumes:
      - name: data
        persistentVolumeClaim: {claimName: data}
`

const hostnameAntiAffinity = `      affinity:
        podAntiAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
          - labelSelector: {matchLabels: {app: web}}
            topologyKey: kubernetes.io/hostname
`

func threeNodes(cpu string) string {
	return nodeDoc("n1", "a", cpu, "") + nodeDoc("n2", "b", cpu, "") + nodeDoc("n3", "c", cpu, "")
}

// TestPlacement checks each rule of placement on real-looking manifests:
// the finding (never-finishes when a pod the rollout needs never gets a
// place, placement-waits when new pods wait for old ones to leave), its
// message and the field it points at, and the related places.
func TestPlacement(t *testing.T) {
	tests := []struct {
		name     string
		src      string
		config   check.Config
		rule     string // "" no placement finding
		field    string
		says     []string
		related  []string // fields among the related places
		notRules []string
	}{
		// Azure/AKS#1919, longhorn#30: the surge pod waits on the claim
		// another node holds.
		{name: "ReadWriteOnce claim, 25% surge, other nodes",
			src:  placeDeployment(4, "25%", "0", claimVolume) + claimDoc("data", "ReadWriteOnce") + threeNodes("8"),
			rule: check.RuleNeverFinish, field: "spec.strategy.rollingUpdate.maxUnavailable",
			says: []string{"ReadWriteOnce claim data is attached to n1", "such as n2, where it waits on Multi-Attach", "the nodes hold 4 pods",
				"set maxSurge 0 and maxUnavailable ≥1, or use Recreate"},
			related: []string{"spec.template.spec.volumes[0].persistentVolumeClaim", "spec.accessModes", "status.allocatable"}},
		{name: "ReadWriteOnce claim, 25% surge, one node with room for the replicas only",
			src:  placeDeployment(4, "25%", "0", claimVolume) + claimDoc("data", "ReadWriteOnce") + nodeDoc("n1", "a", "2", ""),
			rule: check.RuleNeverFinish, field: "spec.strategy.rollingUpdate.maxUnavailable",
			says:    []string{"ReadWriteOnce claim data ties every pod to the node holding it, n1", "the nodes hold 4 pods"},
			related: []string{"spec.template.spec.volumes[0].persistentVolumeClaim", "spec.accessModes", "status.allocatable"}},
		{name: "ReadWriteOnce claim, one replica, maxSurge 0 maxUnavailable 1",
			src:      placeDeployment(1, "0", "1", claimVolume) + claimDoc("data", "ReadWriteOnce") + threeNodes("8"),
			notRules: []string{check.RuleNeverFinish}},
		{name: "ReadWriteOnce claim, Recreate",
			src: strings.Replace(placeDeployment(4, "25%", "0", claimVolume), "strategy: {rollingUpdate: {maxSurge: 25%, maxUnavailable: 0}}", "strategy: {type: Recreate}", 1) +
				claimDoc("data", "ReadWriteOnce") + threeNodes("2"),
			notRules: []string{check.RuleNeverFinish, check.RulePlacementWaits}},
		{name: "ReadWriteOnce claim with room for the surge on its only node",
			src:      placeDeployment(4, "25%", "0", claimVolume) + claimDoc("data", "ReadWriteOnce") + nodeDoc("n1", "a", "8", ""),
			notRules: []string{check.RuleNeverFinish, check.RulePlacementWaits}},
		{name: "ReadWriteMany claim is no limit",
			src:      placeDeployment(4, "25%", "0", claimVolume) + claimDoc("data", "ReadWriteMany") + threeNodes("2"),
			notRules: []string{check.RuleNeverFinish, check.RulePlacementWaits}},
		{name: "ReadWriteOncePod claim, maxSurge 1",
			src:  placeDeployment(1, "1", "0", claimVolume) + claimDoc("data", "ReadWriteOncePod") + threeNodes("8"),
			rule: check.RuleNeverFinish, field: "spec.strategy.rollingUpdate.maxUnavailable",
			says: []string{"ReadWriteOncePod claim data lets one pod at all use it"}},
		{name: "ReadWriteOncePod claim, maxSurge 0 maxUnavailable 1",
			src:      placeDeployment(1, "0", "1", claimVolume) + claimDoc("data", "ReadWriteOncePod") + threeNodes("8"),
			notRules: []string{check.RuleNeverFinish}},
		// kubernetes#116891, #90151, #56539.
		{name: "anti-affinity on the hostname, replicas = nodes, surge 1 unavailable 0",
			src:  placeDeployment(3, "1", "0", hostnameAntiAffinity) + threeNodes("8"),
			rule: check.RuleNeverFinish, field: "spec.strategy.rollingUpdate.maxUnavailable",
			says:    []string{"required pod anti-affinity on kubernetes.io/hostname allows one pod per node: 3 nodes with room", "the nodes hold 3 pods"},
			related: []string{"spec.template.spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0]"}},
		{name: "anti-affinity on the hostname, replicas = nodes, surge 1 unavailable 1",
			src:  placeDeployment(3, "1", "1", hostnameAntiAffinity) + threeNodes("8"),
			rule: check.RulePlacementWaits, field: "spec.strategy.rollingUpdate.maxSurge",
			says: []string{"wait pending for a place", "the rollout finishes in"}},
		// A scheduler extender's manifest in the style of the real ones:
		// 3 replicas, one per node, the default 25%/25% strategy, whose
		// maxUnavailable rounds down to 0.
		{name: "anti-affinity on the hostname, replicas = nodes, default strategy",
			src:  placeDeployment(3, "25%", "25%", hostnameAntiAffinity) + threeNodes("8"),
			rule: check.RuleNeverFinish, field: "spec.strategy.rollingUpdate.maxUnavailable",
			says: []string{"while maxUnavailable is 25% (0 of 3 replicas)"}},
		{name: "anti-affinity on the hostname, a node spare",
			src:      placeDeployment(2, "1", "0", hostnameAntiAffinity) + threeNodes("8"),
			notRules: []string{check.RuleNeverFinish}},
		{name: "anti-affinity on the hostname, --nodes 3",
			src:    placeDeployment(3, "1", "0", hostnameAntiAffinity),
			config: check.Config{Nodes: 3},
			rule:   check.RuleNeverFinish, field: "spec.strategy.rollingUpdate.maxUnavailable",
			says: []string{"one pod per node: 3 nodes with room"}},
		// Beyond 64 identical nodes, the last stands for the rest.
		{name: "anti-affinity on the hostname, --nodes 100, replicas 100",
			src:    placeDeployment(100, "1", "0", hostnameAntiAffinity),
			config: check.Config{Nodes: 100},
			rule:   check.RuleNeverFinish, says: []string{"one pod per node: 100 nodes with room; so the nodes hold 100 pods"}},
		// Identical nodes leave a hostname spread even: their room decides.
		{name: "spread on the hostname, --nodes 100 with room for 1 pod each, replicas 150",
			src: placeDeployment(150, "1", "1", `      topologySpreadConstraints:
      - {maxSkew: 1, topologyKey: kubernetes.io/hostname, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: web}}}
`),
			config: check.Config{Nodes: 100, NodeAllocatable: mustAllocatable(t, "cpu=500m")},
			rule:   check.RuleNeverFinish, says: []string{"100 eligible nodes have room for 100 pods requesting cpu 500m, memory 512Mi; so the nodes hold 100 pods of the Deployment at once, fewer than its 150 replicas"}},
		// A count of 1 takes a singular noun.
		{name: "--nodes 1 with room for 1 pod, replicas 2",
			src:    placeDeployment(2, "1", "0", ""),
			config: check.Config{Nodes: 1, NodeAllocatable: mustAllocatable(t, "cpu=500m")},
			rule:   check.RuleNeverFinish, says: []string{"1 eligible node has room for 1 pod requesting cpu 500m, memory 512Mi; so the nodes hold 1 pod of the Deployment at once"}},
		{name: "--nodes 1 without room, replicas 1",
			src:    placeDeployment(1, "1", "0", ""),
			config: check.Config{Nodes: 1, NodeAllocatable: mustAllocatable(t, "cpu=100m")},
			rule:   check.RuleNeverFinish, says: []string{"so the nodes hold 0 pods of the Deployment at once, fewer than its 1 replica: some never run"}},
		{name: "the most nodes an int holds",
			src:      placeDeployment(3, "1", "0", hostnameAntiAffinity),
			config:   check.Config{Nodes: 1<<31 - 1},
			notRules: []string{check.RuleNeverFinish, check.RulePlacementWaits}},
		// kubernetes#90669, #106417.
		{name: "hostPort, replicas = nodes",
			src:  placeDeployment(3, "1", "0", "") + threeNodes("8"),
			rule: check.RuleNeverFinish, field: "spec.strategy.rollingUpdate.maxUnavailable",
			says:    []string{"host port 8080/TCP takes one pod per node"},
			related: []string{"spec.template.spec.containers[0].ports[0].hostPort"}},
		{name: "spread over zones, DoNotSchedule, a zone without room",
			src: placeDeployment(8, "1", "0", `      topologySpreadConstraints:
      - maxSkew: 1
        topologyKey: topology.kubernetes.io/zone
        whenUnsatisfiable: DoNotSchedule
        labelSelector: {matchLabels: {app: web}}
`) + nodeDoc("n1", "a", "8", "") + nodeDoc("n2", "b", "8", "") + nodeDoc("n3", "c", "1", ""),
			rule: check.RuleNeverFinish, field: "spec.strategy.rollingUpdate.maxUnavailable",
			says: []string{"topology spread on topology.kubernetes.io/zone (maxSkew 1, DoNotSchedule) over 3 zones, the emptiest with room for 2", "the nodes hold 8 pods"}},
		{name: "taints and an unschedulable node leave one node",
			src: placeDeployment(4, "1", "0", "") +
				nodeDoc("n1", "a", "2", "") + nodeDoc("n2", "a", "8", "taints: [{key: dedicated, value: gpu, effect: NoSchedule}]") + nodeDoc("n3", "a", "8", "unschedulable: true"),
			rule: check.RuleNeverFinish, field: "spec.strategy.rollingUpdate.maxUnavailable",
			says: []string{"1 eligible node of 3 (taints, unschedulable, node selector or affinity) has room for 4 pods requesting cpu 500m, memory 512Mi"}},
		{name: "a toleration opens the tainted node",
			src: placeDeployment(4, "1", "0", "      tolerations: [{key: dedicated, operator: Exists, effect: NoSchedule}]\n") +
				nodeDoc("n1", "a", "2", "") + nodeDoc("n2", "a", "8", "taints: [{key: dedicated, value: gpu, effect: NoSchedule}]"),
			notRules: []string{check.RuleNeverFinish, check.RulePlacementWaits}},
		{name: "a node without room for the surge, maxUnavailable 25%",
			src:  placeDeployment(4, "25%", "25%", "") + nodeDoc("n1", "a", "2", ""),
			rule: check.RulePlacementWaits, field: "spec.strategy.rollingUpdate.maxSurge",
			says: []string{"the nodes hold 4 pods of the Deployment at once"}},
		{name: "fewer places than replicas",
			src:  placeDeployment(6, "1", "1", "") + nodeDoc("n1", "a", "2", ""),
			rule: check.RuleNeverFinish, says: []string{"fewer than its 6 replicas"}},
		{name: "other pods of the input take room",
			src: placeDeployment(3, "1", "0", "") + nodeDoc("n1", "a", "2", "") + `---
apiVersion: v1
kind: Pod
metadata: {name: batch, namespace: jobs}
spec:
  nodeName: n1
  containers: [{name: x, image: x, resources: {requests: {cpu: 500m}}}]
`,
			rule: check.RuleNeverFinish, says: []string{"the nodes hold 3 pods"}},
		{name: "--nodes with allocatable",
			src:    placeDeployment(4, "1", "0", ""),
			config: check.Config{Nodes: 2, NodeAllocatable: mustAllocatable(t, "cpu=1,memory=4Gi")},
			rule:   check.RuleNeverFinish, says: []string{"2 eligible nodes have room for 4 pods"}},
	}
	for _, tt := range tests {
		for _, model := range []sim.Model{sim.ModelSimple, sim.ModelControllers} {
			t.Run(model.Name(0)+"/"+tt.name, func(t *testing.T) {
				src := tt.src
				if strings.HasPrefix(tt.name, "hostPort") {
					src = strings.Replace(src, "        image: web:1.0\n", "        image: web:1.0\n        ports: [{containerPort: 80, hostPort: 8080}]\n", 1)
				}
				docs, err := manifest.Parse("in.yaml", []byte(src))
				if err != nil {
					t.Fatal(err)
				}
				in := check.Load("in.yaml", docs, check.LoadOptions{})
				cfg := tt.config
				cfg.Sim.Model = model
				r := check.Run(in, cfg)
				for _, f := range r.Findings {
					if f.Rule == check.RuleInput {
						t.Fatalf("input problem: %s", f.Message)
					}
				}
				var got *check.Finding
				for i, f := range r.Findings {
					if f.Rule == tt.rule {
						got = &r.Findings[i]
						break
					}
				}
				for _, f := range r.Findings {
					for _, not := range tt.notRules {
						if f.Rule == not {
							t.Errorf("finding %s: %s", f.Rule, f.Message)
						}
					}
				}
				if tt.rule == "" {
					return
				}
				if got == nil {
					t.Fatalf("no %s finding in %+v", tt.rule, r.Findings)
				}
				for _, s := range tt.says {
					if !strings.Contains(got.Message, s) {
						t.Errorf("message %q does not say %q", got.Message, s)
					}
				}
				if tt.field != "" && got.Location.Field != tt.field {
					t.Errorf("Location.Field = %q, want %q", got.Location.Field, tt.field)
				}
				for _, want := range tt.related {
					found := false
					for _, p := range got.Related {
						found = found || (p.Field == want && p.Line > 0)
					}
					if !found {
						t.Errorf("no related place %s with a line in %+v", want, got.Related)
					}
				}
			})
		}
	}
}

func mustAllocatable(t interface {
	Helper()
	Fatal(...any)
}, s string) check.Allocatable {
	t.Helper()
	a, err := check.ParseAllocatable(s)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestPlacementPlacesAt checks PlacesAt at other replica counts than
// spec.replicas: the places of a host port are the nodes whatever the
// replicas; a ReadWriteOnce claim the scheduler sends new pods away from
// gives at most the replicas; without nodes there are none.
func TestPlacementPlacesAt(t *testing.T) {
	for _, c := range []struct {
		name  string
		src   string
		nodes int
		want  map[int32]int64
	}{
		{"hostPort on 3 nodes", withHostPort(placeDeployment(3, "1", "0", "")) + threeNodes("8"), 0,
			map[int32]int64{1: 3, 3: 3, 10: 3}},
		{"ReadWriteOnce claim, other nodes with room", placeDeployment(4, "25%", "0", claimVolume) + claimDoc("data", "ReadWriteOnce") + threeNodes("8"), 0,
			map[int32]int64{1: 1, 4: 4}},
		{"no nodes", placeDeployment(3, "1", "0", ""), 0, map[int32]int64{3: 0}},
		{"hostPort on --nodes 5", withHostPort(placeDeployment(3, "1", "0", "")), 5, map[int32]int64{3: 5, 7: 5}},
	} {
		t.Run(c.name, func(t *testing.T) {
			docs, err := manifest.Parse("in.yaml", []byte(c.src))
			if err != nil {
				t.Fatal(err)
			}
			in := check.Load("in.yaml", docs, check.LoadOptions{})
			d := in.Objects().Deployments[0]
			p, err := in.Placement(d, c.nodes, check.Allocatable{})
			if err != nil {
				t.Fatal(err)
			}
			if got := p.PlacesAt(d.Spec.Replicas); got != p.Places {
				t.Errorf("PlacesAt(spec.replicas %d) = %d, Places = %d", d.Spec.Replicas, got, p.Places)
			}
			for r, want := range c.want {
				if got := p.PlacesAt(r); got != want {
					t.Errorf("PlacesAt(%d) = %d, want %d (%s)", r, got, want, p.Why)
				}
			}
		})
	}
}

// withHostPort gives placeDeployment's container host port 8080.
func withHostPort(src string) string {
	return strings.Replace(src, "        image: web:1.0\n", "        image: web:1.0\n        ports: [{containerPort: 80, hostPort: 8080}]\n", 1)
}
