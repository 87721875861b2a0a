package rollout_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/rolloutmath/rolloutmath/internal/gen"
	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/surge"
)

// benchTemplate is a realistic pod template for image: an app container
// with ports, probes' worth of env and resources, and two sidecars.
func benchTemplate(image string) rollout.PodTemplate {
	container := func(name, image string, env int) map[string]any {
		var es []any
		for i := range env {
			es = append(es, map[string]any{"name": fmt.Sprintf("%s_VAR_%d", name, i), "value": strconv.Itoa(i * 1000)})
		}
		return map[string]any{
			"name": name, "image": image, "imagePullPolicy": "IfNotPresent", "env": es,
			"ports":                  []any{map[string]any{"containerPort": 8080, "name": "http", "protocol": "TCP"}},
			"resources":              map[string]any{"limits": map[string]any{"cpu": "1", "memory": "512Mi"}, "requests": map[string]any{"cpu": "250m", "memory": "256Mi"}},
			"terminationMessagePath": "/dev/termination-log", "terminationMessagePolicy": "File",
		}
	}
	return rollout.PodTemplate{
		Labels:      map[string]string{"app": gen.Name},
		Annotations: map[string]string{"example.com/owner": "team-payments"},
		Spec: gen.PodSpec(container("app", image, 8), container("log-shipper", "fluent-bit:2.2", 3),
			container("proxy", "envoy:1.29", 4)),
	}
}

// benchState is a RollingUpdate Deployment of 100 replicas (25%/25%) in
// mid-rollout over n ReplicaSets: the new one at 40 (30 available), the
// newest old one at 70 and all 70 available, the other old ones empty.
// Every ReplicaSet's replica annotations are current, so Plan scales the
// new ReplicaSet up.
func benchState(n int) rollout.State {
	epoch := gen.Epoch()
	d := rollout.Deployment{
		ObjectMeta: rollout.ObjectMeta{Name: gen.Name, Namespace: gen.Namespace, UID: gen.UID, Generation: 2,
			CreationTimestamp: epoch, Annotations: map[string]string{rollout.RevisionAnnotation: strconv.Itoa(n)}},
		Spec: rollout.DeploymentSpec{
			Replicas: 100, Selector: gen.Selector(), Template: benchTemplate("app:new"),
			Strategy:                rollout.Strategy{Type: rollout.RollingUpdateStrategy, RollingUpdate: rollout.DefaultRollingUpdate()},
			RevisionHistoryLimit:    rollout.Int32(rollout.Unlimited),
			ProgressDeadlineSeconds: rollout.Int32(rollout.DefaultProgressDeadlineSeconds),
		},
		Status: rollout.DeploymentStatus{ObservedGeneration: 2, Replicas: 110, UpdatedReplicas: 40, ReadyReplicas: 100, AvailableReplicas: 100},
	}
	s := rollout.State{Deployment: d, Now: epoch.Add(time.Duration(n+1) * time.Minute)}
	for i := range n {
		tmpl := benchTemplate(fmt.Sprintf("app:%d", i))
		size, avail := int32(0), int32(0)
		switch i {
		case n - 1:
			tmpl, size, avail = benchTemplate("app:new"), 40, 30
		case n - 2:
			size, avail = 70, 70
		}
		h := fmt.Sprintf("h%08d", i)
		tmpl.Labels[rollout.PodTemplateHashLabel] = h
		s.ReplicaSets = append(s.ReplicaSets, rollout.ReplicaSet{
			ObjectMeta: rollout.ObjectMeta{
				Name: "web-" + h, Namespace: gen.Namespace, UID: "uid-" + h, Generation: 1,
				CreationTimestamp: epoch.Add(time.Duration(i) * time.Minute),
				Labels:            map[string]string{"app": gen.Name, rollout.PodTemplateHashLabel: h},
				Annotations: map[string]string{rollout.RevisionAnnotation: strconv.Itoa(i + 1),
					rollout.DesiredReplicasAnnotation: "100", rollout.MaxReplicasAnnotation: "125"},
				OwnerReferences: []rollout.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: gen.Name, UID: gen.UID, Controller: true}},
			},
			Spec: rollout.ReplicaSetSpec{Replicas: size,
				Selector: rollout.LabelSelector{MatchLabels: map[string]string{"app": gen.Name, rollout.PodTemplateHashLabel: h}},
				Template: tmpl},
			Status: rollout.ReplicaSetStatus{Replicas: size, FullyLabeledReplicas: size, ReadyReplicas: avail, AvailableReplicas: avail,
				ObservedGeneration: 1, TerminatingReplicas: rollout.Int32(0)},
		})
	}
	return s
}

var benchSizes = []int{1, 10, 100, 1000}

func BenchmarkPlan(b *testing.B) {
	for _, n := range benchSizes {
		s := benchState(n)
		if _, err := rollout.Plan(s); err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("sets=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				rollout.Plan(s)
			}
		})
	}
}

func BenchmarkFindNewReplicaSet(b *testing.B) {
	for _, n := range benchSizes[1:] {
		s := benchState(n)
		if rs, ok := rollout.FindNewReplicaSet(s.Deployment, s.ReplicaSets); !ok || rs.Name != s.ReplicaSets[n-1].Name {
			b.Fatalf("FindNewReplicaSet() = %q, %t", rs.Name, ok)
		}
		b.Run(fmt.Sprintf("sets=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				rollout.FindNewReplicaSet(s.Deployment, s.ReplicaSets)
			}
		})
	}
}

func BenchmarkApply(b *testing.B) {
	s := benchState(10)
	actions, err := rollout.Plan(s)
	if err != nil || len(actions) == 0 {
		b.Fatalf("Plan() = %v, %v", actions, err)
	}
	b.ReportAllocs()
	for b.Loop() {
		rollout.Apply(s, actions)
	}
}

// BenchmarkApplyTo is BenchmarkApply in place, as a simulator moves its
// one state forward: only the objects written are copied. (Each round
// applies to a fresh shallow copy of the state's ReplicaSets, so that the
// sizes written do not pile up.)
func BenchmarkApplyTo(b *testing.B) {
	s := benchState(10)
	actions, err := rollout.Plan(s)
	if err != nil || len(actions) == 0 {
		b.Fatalf("Plan() = %v, %v", actions, err)
	}
	sets := slices.Clone(s.ReplicaSets)
	b.ReportAllocs()
	for b.Loop() {
		copy(sets, s.ReplicaSets)
		in := s
		in.ReplicaSets = sets
		rollout.ApplyTo(&in, actions)
	}
}

func BenchmarkDecode(b *testing.B) {
	data, err := os.ReadFile(filepath.Join("..", "testdata", "golden", "scenarios", "rolling-3-replicas-percent", "step-02.state.json"))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := rollout.Decode(data); err != nil {
			b.Fatal(err)
		}
	}
}

// smallRollout is a Deployment of 10 replicas (25%/25%) with three
// ReplicaSets, the last one new.
func smallRollout() (*rollout.Deployment, []*rollout.ReplicaSet) {
	d := rollout.Deployment{Spec: rollout.DeploymentSpec{Replicas: 10,
		Strategy: rollout.Strategy{Type: rollout.RollingUpdateStrategy, RollingUpdate: rollout.DefaultRollingUpdate()}}}
	sets := []*rollout.ReplicaSet{
		{Spec: rollout.ReplicaSetSpec{Replicas: 2}},
		{Spec: rollout.ReplicaSetSpec{Replicas: 6}},
		{Spec: rollout.ReplicaSetSpec{Replicas: 3}},
	}
	return &d, sets
}

func BenchmarkNewRSNewReplicas(b *testing.B) {
	d, sets := smallRollout()
	b.ReportAllocs()
	for b.Loop() {
		rollout.NewRSNewReplicas(d, sets, sets[2])
	}
}

func BenchmarkResolveFenceposts(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		rollout.ResolveFenceposts(surge.Percent(25), surge.Percent(25), 10)
	}
}

// TestArithmeticAllocs pins zero allocations for the pure arithmetic.
func TestArithmeticAllocs(t *testing.T) {
	d, sets := smallRollout()
	now := gen.Epoch()
	status := rollout.DeploymentStatus{Replicas: 10, UpdatedReplicas: 10, AvailableReplicas: 10,
		Conditions: []rollout.Condition{rollout.NewDeploymentCondition(rollout.Progressing, rollout.ConditionTrue, rollout.ReasonReplicaSetUpdated, "", now)}}
	dl := *d
	dl.Spec.ProgressDeadlineSeconds = rollout.Int32(600)
	var n int32
	var ok bool
	for _, tc := range []struct {
		name string
		f    func()
	}{
		{"MaxSurge", func() { n = rollout.MaxSurge(*d) }},
		{"MaxUnavailable", func() { n = rollout.MaxUnavailable(*d) }},
		{"NewRSNewReplicas", func() { n, _ = rollout.NewRSNewReplicas(d, sets, sets[2]) }},
		{"Count", func() { ok = rollout.Count(sets).TerminatingKnown }},
		{"FindActiveOrLatest", func() { ok = rollout.FindActiveOrLatest(sets[2], sets[:2]) == nil }},
		{"IsSaturated", func() { ok = rollout.IsSaturated(d, sets[2]) }},
		{"ResolveFenceposts", func() { n, _ = rollout.ResolveFenceposts(surge.Percent(25), surge.Count(1), 10) }},
		{"DeploymentComplete", func() { ok = rollout.DeploymentComplete(*d, status) }},
		{"DeploymentTimedOut", func() { ok = rollout.DeploymentTimedOut(dl, status, now.Add(time.Hour)) }},
	} {
		if got := testing.AllocsPerRun(100, tc.f); got != 0 {
			t.Errorf("%s allocates %v times per call, want 0", tc.name, got)
		}
	}
	_, _ = n, ok
}

// BenchmarkPodTemplateHash hashes the 1.7 KB three-container template as
// upstream's ComputeHash does.
func BenchmarkPodTemplateHash(b *testing.B) {
	d := benchState(1).Deployment
	b.ReportAllocs()
	for b.Loop() {
		rollout.PodTemplateHash(d)
	}
}
