package placediff

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/informers"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/apis/config"
	"k8s.io/kubernetes/pkg/scheduler/backend/cache"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	plfeature "k8s.io/kubernetes/pkg/scheduler/framework/plugins/feature"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/interpodaffinity"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/nodeaffinity"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/nodeports"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/noderesources"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/nodeunschedulable"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/podtopologyspread"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/tainttoleration"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/volumerestrictions"
	frameworkruntime "k8s.io/kubernetes/pkg/scheduler/framework/runtime"
	"k8s.io/kubernetes/pkg/scheduler/metrics"

	"github.com/rolloutmath/rolloutmath/rollout/check"
	"github.com/rolloutmath/rolloutmath/rollout/manifest"
)

// A cluster is a drawn case: nodes, and a Deployment's pod.
type cluster struct {
	claim    *v1.PersistentVolumeClaim // the claim the pods mount, if any
	nodes    []*v1.Node
	others   []*v1.Pod // pods of another namespace, bound to nodes
	pod      v1.PodSpec
	replicas int
}

func (c cluster) String() string {
	var b strings.Builder
	for _, n := range c.nodes {
		fmt.Fprintf(&b, "node %s zone %s cpu %s pods %s taints %v unschedulable %v; ", n.Name, n.Labels["topology.kubernetes.io/zone"],
			n.Status.Allocatable.Cpu(), n.Status.Allocatable.Pods(), n.Spec.Taints, n.Spec.Unschedulable)
	}
	for _, p := range c.others {
		fmt.Fprintf(&b, "pod %s on %s requests %v ports %v; ", p.Name, p.Spec.NodeName, p.Spec.Containers[0].Resources.Requests, p.Spec.Containers[0].Ports)
	}
	fmt.Fprintf(&b, "replicas %d; pod %+v", c.replicas, c.pod)
	return b.String()
}

// draw draws a cluster of 1 to 4 nodes in 2 zones and a pod with at most
// one of a host port, required anti-affinity and a spread constraint
// besides its requests, tolerations and node selector.
func draw(r *rand.Rand) cluster {
	var c cluster
	for i := range 1 + r.IntN(4) {
		name := fmt.Sprintf("n%d", i+1)
		n := &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{
			"kubernetes.io/hostname": name, "topology.kubernetes.io/zone": []string{"z1", "z2"}[r.IntN(2)]}}}
		n.Status.Allocatable = v1.ResourceList{
			v1.ResourceCPU:    resource.MustParse([]string{"1", "2", "4"}[r.IntN(3)]),
			v1.ResourceMemory: resource.MustParse("8Gi"),
			v1.ResourcePods:   resource.MustParse([]string{"110", "3", "1"}[r.IntN(3)]),
		}
		if r.IntN(5) == 0 {
			n.Spec.Taints = []v1.Taint{{Key: "dedicated", Value: "gpu", Effect: []v1.TaintEffect{v1.TaintEffectNoSchedule, v1.TaintEffectNoExecute, v1.TaintEffectPreferNoSchedule}[r.IntN(3)]}}
		}
		n.Spec.Unschedulable = r.IntN(10) == 0
		c.nodes = append(c.nodes, n)
	}
	for i := range r.IntN(3) {
		other := v1.Container{Name: "x", Image: "batch:1", Resources: v1.ResourceRequirements{Requests: v1.ResourceList{
			v1.ResourceCPU: resource.MustParse([]string{"100m", "500m", "1"}[r.IntN(3)])}}}
		if r.IntN(3) == 0 {
			other.Ports = []v1.ContainerPort{{ContainerPort: 80, HostPort: 8080, Protocol: v1.ProtocolTCP}}
		}
		c.others = append(c.others, &v1.Pod{
			ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("batch-%d", i), Namespace: "other", Labels: map[string]string{"app": "batch"}},
			Spec:       v1.PodSpec{NodeName: c.nodes[r.IntN(len(c.nodes))].Name, Containers: []v1.Container{other}},
		})
	}
	ctr := v1.Container{Name: "app", Image: "web:1.0"}
	if cpu := []string{"", "500m", "1", "2"}[r.IntN(4)]; cpu != "" {
		ctr.Resources.Requests = v1.ResourceList{v1.ResourceCPU: resource.MustParse(cpu)}
	}
	sel := &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
	switch r.IntN(4) {
	case 1:
		ctr.Ports = []v1.ContainerPort{{ContainerPort: 80, HostPort: 8080, Protocol: v1.ProtocolTCP}}
	case 2:
		key := []string{"kubernetes.io/hostname", "topology.kubernetes.io/zone"}[r.IntN(2)]
		c.pod.Affinity = &v1.Affinity{PodAntiAffinity: &v1.PodAntiAffinity{
			RequiredDuringSchedulingIgnoredDuringExecution: []v1.PodAffinityTerm{{LabelSelector: sel, TopologyKey: key}}}}
	case 3:
		key := []string{"kubernetes.io/hostname", "topology.kubernetes.io/zone"}[r.IntN(2)]
		c.pod.TopologySpreadConstraints = []v1.TopologySpreadConstraint{{MaxSkew: int32(1 + r.IntN(2)), TopologyKey: key,
			WhenUnsatisfiable: v1.DoNotSchedule, LabelSelector: sel}}
	}
	c.pod.Containers = []v1.Container{ctr}
	if r.IntN(3) == 0 {
		c.pod.Tolerations = []v1.Toleration{{Key: "dedicated", Operator: v1.TolerationOpExists}}
	}
	if r.IntN(6) == 0 {
		c.pod.NodeSelector = map[string]string{"topology.kubernetes.io/zone": "z1"}
	}
	if r.IntN(6) == 0 {
		c.claim = &v1.PersistentVolumeClaim{ObjectMeta: metav1.ObjectMeta{Name: "data", Namespace: "default"},
			Spec: v1.PersistentVolumeClaimSpec{AccessModes: []v1.PersistentVolumeAccessMode{v1.ReadWriteOncePod},
				Resources: v1.VolumeResourceRequirements{Requests: v1.ResourceList{v1.ResourceStorage: resource.MustParse("1Gi")}}}}
		c.pod.Volumes = []v1.Volume{{Name: "data", VolumeSource: v1.VolumeSource{PersistentVolumeClaim: &v1.PersistentVolumeClaimVolumeSource{ClaimName: "data"}}}}
	}
	c.replicas = 1 + r.IntN(6)
	return c
}

// upstreamPlaces places pods of c one at a time, each on the first node
// (by name) that every filter of the scheduler's takes, and returns how
// many it placed, at most limit.
func upstreamPlaces(t *testing.T, c cluster, limit int) int {
	ctx := context.Background()
	placed := slices.Clone(c.others)
	for i := range limit {
		pod := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("web-%d", i), Namespace: "default", Labels: map[string]string{"app": "web"}},
			Spec: *c.pod.DeepCopy()}
		snap := cache.NewSnapshot(placed, c.nodes)
		fh := handle(t, snap, c.claim)
		fts := plfeature.Features{}
		type factory func(context.Context, runtime.Object, fwk.Handle, plfeature.Features) (fwk.Plugin, error)
		filters := []fwk.FilterPlugin{}
		for _, p := range []struct {
			f    factory
			args runtime.Object
		}{
			{nodeunschedulable.New, nil},
			{tainttoleration.New, nil},
			{nodeaffinity.New, &config.NodeAffinityArgs{}},
			{noderesources.NewFit, &config.NodeResourcesFitArgs{ScoringStrategy: &config.ScoringStrategy{Type: config.LeastAllocated,
				Resources: []config.ResourceSpec{{Name: "cpu", Weight: 1}, {Name: "memory", Weight: 1}}}}},
			{nodeports.New, nil},
			{interpodaffinity.New, &config.InterPodAffinityArgs{}},
			{podtopologyspread.New, &config.PodTopologySpreadArgs{DefaultingType: config.SystemDefaulting}},
			{volumerestrictions.New, nil},
		} {
			pl, err := p.f(ctx, p.args, fh, fts)
			if err != nil {
				t.Fatal(err)
			}
			filters = append(filters, pl.(fwk.FilterPlugin))
		}
		infos, err := snap.NodeInfos().List()
		if err != nil {
			t.Fatal(err)
		}
		state := framework.NewCycleState()
		skip := map[int]bool{}
		for k, f := range filters {
			if pf, ok := f.(fwk.PreFilterPlugin); ok {
				_, st := pf.PreFilter(ctx, state, pod, infos)
				switch {
				case st.IsSkip():
					skip[k] = true
				case !st.IsSuccess():
					return len(placed) - len(c.others) // no node at all
				}
			}
		}
		node := ""
		for _, ni := range infos { // in name order: the snapshot keeps the nodes' order
			ok := true
			for k, f := range filters {
				if !skip[k] && !f.Filter(ctx, state, pod, ni).IsSuccess() {
					ok = false
					break
				}
			}
			if ok {
				node = ni.Node().Name
				break
			}
		}
		if node == "" {
			return len(placed) - len(c.others)
		}
		pod.Spec.NodeName = node
		placed = append(placed, pod)
	}
	return limit
}

// TestSurgePlaceAgainstScheduler draws small clusters and checks that
// rolloutmath says never-finishes for a rollout with maxSurge 1 and
// maxUnavailable 0 exactly when the scheduler's filters, placing the
// Deployment's pods one at a time, find no place for replicas + 1 pods.
func TestSurgePlaceAgainstScheduler(t *testing.T) {
	metrics.Register() // the plugins' parallelizer records its goroutines
	n := 400
	if testing.Short() {
		n = 60
	}
	r := rand.New(rand.NewPCG(25, 1))
	outcomes := map[bool]int{}
	for i := range n {
		c := draw(r)
		up := upstreamPlaces(t, c, c.replicas+1)
		wantNever := up <= c.replicas
		outcomes[wantNever]++
		never, msg := oursNever(t, c)
		if never != wantNever {
			t.Errorf("case %d: the scheduler places %d of %d pods (replicas %d + 1 surge); rolloutmath never-finishes %v (%s)\n%s",
				i, up, c.replicas+1, c.replicas, never, msg, c)
		}
	}
	// The draws must try both answers, or the test proves little.
	if outcomes[true] < n/10 || outcomes[false] < n/10 {
		t.Errorf("of %d clusters, %d have no place for the surge pod and %d have one: draw more evenly", n, outcomes[true], outcomes[false])
	}
	t.Logf("of %d clusters, %d have no place for the surge pod, %d have one", n, outcomes[true], outcomes[false])
}

// oursNever runs rolloutmath's check on c as manifests: a Deployment
// with maxSurge 1 and maxUnavailable 0, and the Nodes.
func oursNever(t *testing.T, c cluster) (bool, string) {
	d := map[string]any{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"name": "web", "namespace": "default"},
		"spec": map[string]any{
			"replicas": c.replicas,
			"strategy": map[string]any{"rollingUpdate": map[string]any{"maxSurge": 1, "maxUnavailable": 0}},
			"selector": map[string]any{"matchLabels": map[string]any{"app": "web"}},
			"template": map[string]any{"metadata": map[string]any{"labels": map[string]any{"app": "web"}}, "spec": c.pod},
		},
	}
	docs := []any{d}
	for _, n := range c.nodes {
		x := n.DeepCopy()
		x.APIVersion, x.Kind = "v1", "Node"
		docs = append(docs, x)
	}
	for _, p := range c.others {
		x := p.DeepCopy()
		x.APIVersion, x.Kind = "v1", "Pod"
		docs = append(docs, x)
	}
	if c.claim != nil {
		x := c.claim.DeepCopy()
		x.APIVersion, x.Kind = "v1", "PersistentVolumeClaim"
		docs = append(docs, x)
	}
	var src strings.Builder
	for _, doc := range docs {
		b, err := jsonOf(doc)
		if err != nil {
			t.Fatal(err)
		}
		src.Write(b)
		src.WriteString("\n")
	}
	parsed, err := manifest.Parse("in.json", []byte(src.String()))
	if err != nil {
		t.Fatalf("%v\n%s", err, src.String())
	}
	rep := check.Run(check.Load("in.json", parsed, check.LoadOptions{}), check.Config{Workers: 1})
	for _, f := range rep.Findings {
		if f.Rule == check.RuleInput {
			t.Fatalf("input: %s\n%s", f.Message, src.String())
		}
		if f.Rule == check.RuleNeverFinish {
			return true, f.Message
		}
	}
	return false, ""
}

// handle is a framework handle over snap for the plugins: InterPodAffinity
// asks for a namespace lister, which pods of one namespace and no
// namespaceSelector never use, and VolumeRestrictions for a claim lister:
// an informer factory without a client, never started, gives both, the
// claim put in its store by hand.
func handle(t *testing.T, snap *cache.Snapshot, claim *v1.PersistentVolumeClaim) fwk.Handle {
	t.Helper()
	inf := informers.NewSharedInformerFactory(nil, 0)
	if claim != nil {
		if err := inf.Core().V1().PersistentVolumeClaims().Informer().GetIndexer().Add(claim); err != nil {
			t.Fatal(err)
		}
	}
	fh, err := frameworkruntime.NewFramework(context.Background(), nil, nil, frameworkruntime.WithSnapshotSharedLister(snap),
		frameworkruntime.WithInformerFactory(inf))
	if err != nil {
		t.Fatal(err)
	}
	return fh
}

// TestReadWriteOnceNotFiltered pins the premise of the ReadWriteOnce
// rule: no filter of the scheduler's keeps a pod of a ReadWriteOnce
// claim off a node other than the one where a pod using it runs (the
// attach fails later, on Multi-Attach), while one of a ReadWriteOncePod
// claim is kept off every node.
func TestReadWriteOnceNotFiltered(t *testing.T) {
	metrics.Register()
	ctx := context.Background()
	for _, tc := range []struct {
		mode v1.PersistentVolumeAccessMode
		want bool // the second pod may go on n2
	}{{v1.ReadWriteOnce, true}, {v1.ReadWriteOncePod, false}} {
		claim := &v1.PersistentVolumeClaim{ObjectMeta: metav1.ObjectMeta{Name: "data", Namespace: "default"},
			Spec: v1.PersistentVolumeClaimSpec{AccessModes: []v1.PersistentVolumeAccessMode{tc.mode}}}
		spec := v1.PodSpec{Containers: []v1.Container{{Name: "app", Image: "db:1"}},
			Volumes: []v1.Volume{{Name: "data", VolumeSource: v1.VolumeSource{PersistentVolumeClaim: &v1.PersistentVolumeClaimVolumeSource{ClaimName: "data"}}}}}
		var nodes []*v1.Node
		for _, name := range []string{"n1", "n2"} {
			nodes = append(nodes, &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"kubernetes.io/hostname": name}},
				Status: v1.NodeStatus{Allocatable: v1.ResourceList{v1.ResourcePods: resource.MustParse("110")}}})
		}
		old := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "db-old", Namespace: "default", Labels: map[string]string{"app": "db"}}, Spec: *spec.DeepCopy()}
		old.Spec.NodeName = "n1"
		pod := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "db-new", Namespace: "default", Labels: map[string]string{"app": "db"}}, Spec: *spec.DeepCopy()}
		snap := cache.NewSnapshot([]*v1.Pod{old}, nodes)
		pl, err := volumerestrictions.New(ctx, nil, handle(t, snap, claim), plfeature.Features{})
		if err != nil {
			t.Fatal(err)
		}
		vr := pl.(fwk.FilterPlugin)
		infos, err := snap.NodeInfos().List()
		if err != nil {
			t.Fatal(err)
		}
		state := framework.NewCycleState()
		_, st := vr.(fwk.PreFilterPlugin).PreFilter(ctx, state, pod, infos)
		ok := st.IsSkip() || (st.IsSuccess() && vr.Filter(ctx, state, pod, infos[1]).IsSuccess())
		if ok != tc.want {
			t.Errorf("%s: a second pod may go on n2: %v, want %v (%v)", tc.mode, ok, tc.want, st)
		}
	}
}
