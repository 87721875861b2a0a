package rollout_test

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/surge"
)

// Sync-level ports through Plan: upstream's deployment_controller_test
// action sequences (vectors C.12) and the end-to-end traces of the upstream
// controller (vectors E). Helpers are prefixed sy so that they do not clash
// with other test files of the package.

// syFixture is upstream's newDeployment(name, replicas, nil, nil, nil,
// selector) of the controller tests: RollingUpdate with maxSurge and
// maxUnavailable both int 0 (which the API server refuses, so Plan needs
// Options.SkipValidation), no history limit, no progress deadline,
// generation 0.
func syFixture(name string, replicas int32, selector map[string]string) rollout.Deployment {
	return rollout.Deployment{
		ObjectMeta: rollout.ObjectMeta{Name: name, Namespace: "default", UID: "uid-" + name, Annotations: map[string]string{}},
		Spec: rollout.DeploymentSpec{
			Replicas: replicas,
			Selector: rollout.LabelSelector{MatchLabels: selector},
			Template: rollout.PodTemplate{Labels: selector, Spec: rollout.MustParsePodSpec(`{"containers":[{"image":"foo/bar"}]}`)},
			Strategy: rollout.Strategy{Type: rollout.RollingUpdateStrategy, RollingUpdate: rollout.RollingUpdate{
				MaxSurge: surge.Count(0), MaxUnavailable: surge.Count(0),
			}},
		},
	}
}

// syOwnedRS is upstream's newReplicaSet(d, name, replicas): labels and
// selector from d's selector, d's template, a controller reference to d.
func syOwnedRS(d rollout.Deployment, name string, replicas int32) rollout.ReplicaSet {
	dd := d.DeepCopy()
	return rollout.ReplicaSet{
		ObjectMeta: rollout.ObjectMeta{
			Name: name, Namespace: "default", UID: "uid-" + name, Labels: dd.Spec.Selector.MatchLabels,
			OwnerReferences: []rollout.OwnerReference{{
				APIVersion: "apps/v1", Kind: "Deployment", Name: d.Name, UID: d.UID, Controller: true, BlockOwnerDeletion: true,
			}},
		},
		Spec: rollout.ReplicaSetSpec{Replicas: replicas, Selector: d.DeepCopy().Spec.Selector, Template: dd.Spec.Template},
	}
}

func syTypes(actions []rollout.Action) []rollout.ActionType {
	var out []rollout.ActionType
	for _, a := range actions {
		if a.IsAPICall() {
			out = append(out, a.Type)
		}
	}
	return out
}

var syNow = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

// TestSyncDeploymentCreatesReplicaSet ports upstream's test of that name:
// a create, the status write of the revision, and the status write of the
// rollout status.
func TestSyncDeploymentCreatesReplicaSet(t *testing.T) {
	want := []rollout.ActionType{rollout.CreateReplicaSet, rollout.UpdateDeploymentStatus, rollout.UpdateDeploymentStatus}
	tests := []struct {
		name string
		d    rollout.Deployment
		opts rollout.Options
	}{
		{name: "upstream's fixture", d: syFixture("foo", 1, map[string]string{"foo": "bar"}), opts: rollout.Options{SkipValidation: true}},
		{name: "valid limits", d: func() rollout.Deployment {
			d := syFixture("foo", 1, map[string]string{"foo": "bar"})
			d.Spec.Strategy.RollingUpdate.MaxUnavailable = surge.Count(1)
			return d
		}()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			actions, err := rollout.Plan(rollout.State{Deployment: tt.d, Now: syNow, Options: tt.opts})
			if err != nil {
				t.Fatalf("Plan() error: %v", err)
			}
			if diff := cmp.Diff(want, syTypes(actions)); diff != "" {
				t.Errorf("Plan() mismatch (-want +got):\n%s", diff)
			}
		})
	}
	// Upstream's fixture has maxSurge = maxUnavailable = 0, which the API
	// server refuses; by default Plan refuses it too.
	if actions, err := rollout.Plan(rollout.State{Deployment: tests[0].d, Now: syNow}); err == nil || actions != nil {
		t.Errorf("Plan(maxSurge 0, maxUnavailable 0) = %v, %v; want no actions and an error", actions, err)
	}
}

// TestSyncDeploymentDontDoAnythingDuringDeletion ports upstream's test of
// that name: only the status is written.
func TestSyncDeploymentDontDoAnythingDuringDeletion(t *testing.T) {
	d := syFixture("foo", 1, map[string]string{"foo": "bar"})
	d.DeletionTimestamp = syNow
	actions, err := rollout.Plan(rollout.State{Deployment: d, Now: syNow, Options: rollout.Options{SkipValidation: true}})
	if err != nil {
		t.Fatalf("Plan() error: %v", err)
	}
	if diff := cmp.Diff([]rollout.ActionType{rollout.UpdateDeploymentStatus}, syTypes(actions)); diff != "" {
		t.Errorf("Plan() mismatch (-want +got):\n%s", diff)
	}
}

// TestDontSyncDeploymentsWithEmptyPodSelector ports upstream's test of that
// name. By default Plan refuses the empty selector as the API server does;
// with SkipValidation it does what upstream's controller does: a warning
// event, and a status write only when the generation is not yet observed.
func TestDontSyncDeploymentsWithEmptyPodSelector(t *testing.T) {
	const warning = "Warning SelectingAll This deployment is selecting all pods. A non-empty selector is required."
	tests := []struct {
		name       string
		generation int64
		opts       rollout.Options
		wantErr    bool
		want       []string
	}{
		{name: "refused by validation", wantErr: true},
		{name: "generation observed: no API call", opts: rollout.Options{SkipValidation: true}, want: []string{"RecordEvent " + warning}},
		{
			name: "generation not observed: observedGeneration written", generation: 1, opts: rollout.Options{SkipValidation: true},
			want: []string{"RecordEvent " + warning, "UpdateDeploymentStatus observedGeneration=1"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := syFixture("foo", 1, map[string]string{"foo": "bar"})
			d.Spec.Selector = rollout.LabelSelector{}
			d.Generation = tt.generation
			actions, err := rollout.Plan(rollout.State{Deployment: d, Now: syNow, Options: tt.opts})
			if (err != nil) != tt.wantErr {
				t.Fatalf("Plan() error = %v, want an error: %t", err, tt.wantErr)
			}
			if tt.wantErr && !strings.Contains(err.Error(), "spec.selector") {
				t.Errorf("Plan() error = %v, want one naming spec.selector", err)
			}
			var got []string
			for _, a := range actions {
				switch a.Type {
				case rollout.UpdateDeploymentStatus:
					got = append(got, fmt.Sprintf("%s observedGeneration=%d", a.Type, a.Status.ObservedGeneration))
				default:
					got = append(got, a.String())
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Plan() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestReentrantRollback ports upstream's TestReentrantRollback: a rollback
// to revision 0 (the previous one) only updates the Deployment, with the
// template of revision 1, and writes no ReplicaSet. (Upstream's fixture
// shares one label map between the Deployment's selector, its template and
// the ReplicaSets, so all of them also carry the pod-template-hash label;
// here only the ReplicaSets do.)
func TestReentrantRollback(t *testing.T) {
	d := syFixture("foo", 1, map[string]string{"foo": "bar"})
	d.Annotations = map[string]string{rollout.RevisionAnnotation: "2", rollout.RollbackToAnnotation: "0"}
	withHash := func(rs rollout.ReplicaSet) rollout.ReplicaSet {
		rs.Labels = map[string]string{"foo": "bar", rollout.PodTemplateHashLabel: "hash"}
		rs.Spec.Selector.MatchLabels = map[string]string{"foo": "bar", rollout.PodTemplateHashLabel: "hash"}
		return rs
	}
	rs1 := withHash(syOwnedRS(d, "deploymentrs-old", 0))
	rs1.Annotations = map[string]string{rollout.RevisionAnnotation: "1"}
	rs1.Spec.Template.Spec = rollout.MustParsePodSpec(`{"containers":[{"image":"foo/bar"}],"terminationGracePeriodSeconds":1}`)
	rs2 := withHash(syOwnedRS(d, "deploymentrs-new", 1))
	rs2.Annotations = map[string]string{rollout.RevisionAnnotation: "2"}

	actions, err := rollout.Plan(rollout.State{
		Deployment: d, ReplicaSets: []rollout.ReplicaSet{rs1, rs2}, Now: syNow, Options: rollout.Options{SkipValidation: true},
	})
	if err != nil {
		t.Fatalf("Plan() error: %v", err)
	}
	if diff := cmp.Diff([]rollout.ActionType{rollout.UpdateDeployment}, syTypes(actions)); diff != "" {
		t.Fatalf("Plan() mismatch (-want +got):\n%s", diff)
	}
	type update struct {
		Annotations map[string]string
		Template    rollout.PodTemplate
		Event       string
	}
	want := update{
		Annotations: map[string]string{rollout.RevisionAnnotation: "2"},
		Template:    rollout.PodTemplate{Labels: map[string]string{"foo": "bar"}, Spec: rs1.Spec.Template.Spec},
		Event:       `Normal DeploymentRollback Rolled back deployment "foo" to revision 1`,
	}
	a := actions[0]
	if diff := cmp.Diff(want, update{a.Annotations, a.Template, a.Event.String()}); diff != "" {
		t.Errorf("Plan() UpdateDeployment mismatch (-want +got):\n%s", diff)
	}
}

// TestGetReplicaSetsForDeploymentThroughPlan ports upstream's
// TestGetReplicaSetsForDeployment and
// TestGetReplicaSetsForDeploymentAdoptRelease as far as Plan shows them:
// no adoption of another Deployment's ReplicaSet, whose counts stay out of
// the status; an orphan adopted and a non-matching ReplicaSet released,
// first, in name order. (controller_internal_test.go checks the claimed
// lists themselves.)
func TestGetReplicaSetsForDeploymentThroughPlan(t *testing.T) {
	selector := map[string]string{"foo": "bar"}
	d1 := syFixture("foo", 1, selector)
	d2 := syFixture("bar", 1, selector)
	running := func(rs rollout.ReplicaSet, n int32) rollout.ReplicaSet {
		rs.Status = rollout.ReplicaSetStatus{Replicas: n, ReadyReplicas: n, AvailableReplicas: n}
		return rs
	}
	rs1, rs2 := running(syOwnedRS(d1, "rs1", 1), 1), running(syOwnedRS(d2, "rs2", 1), 2)
	rsAdopt := syOwnedRS(d1, "rsAdopt", 1)
	rsAdopt.OwnerReferences = nil
	rsRelease := syOwnedRS(d1, "rsRelease", 1)
	rsRelease.Labels = map[string]string{"foo": "notbar"}

	tests := []struct {
		name         string
		d            rollout.Deployment
		sets         []rollout.ReplicaSet
		wantClaims   []string // the adoptions and releases
		wantReplicas int32    // status.replicas written
	}{
		{name: "d1 claims rs1", d: d1, sets: []rollout.ReplicaSet{rs1, rs2}, wantReplicas: 1},
		{name: "d2 claims rs2", d: d2, sets: []rollout.ReplicaSet{rs1, rs2}, wantReplicas: 2},
		{
			name: "adopt and release", d: d1, sets: []rollout.ReplicaSet{rsRelease, rsAdopt},
			wantClaims: []string{"AdoptReplicaSet rsAdopt", "ReleaseReplicaSet rsRelease"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			actions, err := rollout.Plan(rollout.State{Deployment: tt.d, ReplicaSets: tt.sets, Now: syNow, Options: rollout.Options{SkipValidation: true}})
			if err != nil {
				t.Fatalf("Plan() error: %v", err)
			}
			var claims []string
			replicas := int32(-1)
			for _, a := range actions {
				switch a.Type {
				case rollout.AdoptReplicaSet, rollout.ReleaseReplicaSet:
					claims = append(claims, a.String())
				case rollout.UpdateDeploymentStatus:
					replicas = a.Status.Replicas
				}
			}
			if diff := cmp.Diff(tt.wantClaims, claims); diff != "" {
				t.Errorf("Plan() claims mismatch (-want +got):\n%s", diff)
			}
			if n := len(tt.wantClaims); !slices.Equal(claims, syStrings(actions[:min(n, len(actions))])) {
				t.Errorf("Plan() = %v, want the claims first", actions)
			}
			if tt.wantReplicas != 0 {
				if diff := cmp.Diff(tt.wantReplicas, replicas); diff != "" {
					t.Errorf("Plan() status.replicas mismatch (-want +got):\n%s", diff)
				}
			}
		})
	}
}

func syStrings(actions []rollout.Action) []string {
	var out []string
	for _, a := range actions {
		out = append(out, a.String())
	}
	return out
}

// syRecreate is a Recreate Deployment of upstream's fixture.
func syRecreate(replicas int32) rollout.Deployment {
	d := syFixture("foo", replicas, map[string]string{"foo": "bar"})
	d.Spec.Strategy = rollout.Strategy{Type: rollout.RecreateStrategy}
	return d
}

// syOldRS is an old ReplicaSet of d: owned, matching, another template.
func syOldRS(d rollout.Deployment, name string, replicas int32) rollout.ReplicaSet {
	rs := syOwnedRS(d, name, replicas)
	rs.Spec.Template.Spec = rollout.MustParsePodSpec(`{"containers":[{"image":"foo/old"}]}`)
	return rs
}

// TestScaleDownOldReplicaSets ports upstream's TestScaleDownOldReplicaSets
// (vectors C.9) through Plan: a Recreate sync first scales the old
// ReplicaSet to 0.
func TestScaleDownOldReplicaSets(t *testing.T) {
	d := syRecreate(3)
	actions, err := rollout.Plan(rollout.State{Deployment: d, ReplicaSets: []rollout.ReplicaSet{syOldRS(d, "foo-0", 3)}, Now: syNow})
	if err != nil {
		t.Fatalf("Plan() error: %v", err)
	}
	want := []string{
		"ScaleReplicaSet foo-0 3 -> 0: Normal ScalingReplicaSet Scaled down replica set foo-0 from 3 to 0",
		"UpdateDeploymentStatus",
	}
	if diff := cmp.Diff(want, syStrings(actions)); diff != "" {
		t.Errorf("Plan() mismatch (-want +got):\n%s", diff)
	}
}

// TestGetPodMapForReplicaSetsThroughPlan shows upstream's
// TestGetPodMapForReplicaSets where Plan observes it, in a Recreate sync:
// a pod counts for an old ReplicaSet through its controller reference
// alone, and a failed one does not keep the rollout waiting.
func TestGetPodMapForReplicaSetsThroughPlan(t *testing.T) {
	d := syRecreate(1)
	rs1 := syOldRS(d, "rs1", 0)
	pod := func(name string, owner *rollout.ReplicaSet, phase rollout.PodPhase) rollout.Pod {
		p := rollout.Pod{ObjectMeta: rollout.ObjectMeta{Name: name, Namespace: "default", Labels: map[string]string{"foo": "bar"}}, Phase: phase}
		if owner != nil {
			p.OwnerReferences = []rollout.OwnerReference{{APIVersion: "v1beta1", Kind: "ReplicaSet", Name: owner.Name, UID: owner.UID, Controller: true}}
		}
		return p
	}
	tests := []struct {
		name       string
		pods       []rollout.Pod
		wantCreate bool
	}{
		{name: "pod3 without owner and failed pod4: create the new ReplicaSet", pods: []rollout.Pod{pod("pod3", nil, rollout.PodRunning), pod("pod4", &rs1, rollout.PodFailed)}, wantCreate: true},
		{name: "rs1-pod runs: wait", pods: []rollout.Pod{pod("rs1-pod", &rs1, ""), pod("pod4", &rs1, rollout.PodFailed)}, wantCreate: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			actions, err := rollout.Plan(rollout.State{Deployment: d, ReplicaSets: []rollout.ReplicaSet{rs1}, Pods: tt.pods, Now: syNow})
			if err != nil {
				t.Fatalf("Plan() error: %v", err)
			}
			created := slices.ContainsFunc(actions, func(a rollout.Action) bool { return a.Type == rollout.CreateReplicaSet })
			if diff := cmp.Diff(tt.wantCreate, created); diff != "" {
				t.Errorf("Plan() created mismatch (-want +got):\n%s\nactions: %v", diff, actions)
			}
		})
	}
}

// TestDeploymentController_generateReplicaSetName ports upstream's test of
// that name through Plan: the created ReplicaSet is named after the
// Deployment, truncated so that the name fits 253 bytes with the hash
// (R-NAME-1: 242 bytes for upstream's 10-character hash).
func TestDeploymentController_generateReplicaSetName(t *testing.T) {
	tests := []struct {
		name           string
		deploymentName string
	}{
		{name: "short name", deploymentName: "my-deployment"},
		{name: "very long name truncated", deploymentName: strings.Repeat("a", 250)},
		{name: "very long name not truncated", deploymentName: strings.Repeat("a", 242)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := syFixture(tt.deploymentName, 1, map[string]string{"foo": "bar"})
			actions, err := rollout.Plan(rollout.State{Deployment: d, Now: syNow, Options: rollout.Options{SkipValidation: true}})
			if err != nil {
				t.Fatalf("Plan() error: %v", err)
			}
			var name string
			for _, a := range actions {
				if a.Type == rollout.CreateReplicaSet {
					name = a.ReplicaSet
				}
			}
			h := rollout.PodTemplateHash(d)
			prefix := tt.deploymentName[:min(len(tt.deploymentName), 253-1-len(h))]
			if diff := cmp.Diff(prefix+"-"+h, name); diff != "" {
				t.Errorf("Plan() name mismatch (-want +got):\n%s", diff)
			}
			if len(name) > 253 {
				t.Errorf("name length %d, want <= 253", len(name))
			}
			if len(h) == 10 && len(tt.deploymentName) > 242 && len(prefix) != 242 {
				t.Errorf("prefix length %d, want upstream's 242", len(prefix))
			}
		})
	}
}

// TestCleanupDeploymentOrderThroughPlan runs upstream's
// TestDeploymentController_cleanupDeploymentOrder (vectors C.7) through
// Plan, on a paused Recreate Deployment as large as its ReplicaSets (so the
// sync only cleans up): the same ReplicaSets are deleted.
func TestCleanupDeploymentOrderThroughPlan(t *testing.T) {
	tests := rollout.CleanupOrderCases
	for _, tt := range tests {
		t.Run(tt.Name, func(t *testing.T) {
			var total int32
			for _, s := range tt.Old {
				total += s.Size
			}
			d := syRecreate(total)
			d.Spec.Paused = true
			d.Spec.RevisionHistoryLimit = rollout.Int32(tt.Limit)
			var sets []rollout.ReplicaSet
			for i, s := range tt.Old {
				rs := syOldRS(d, fmt.Sprintf("foo-%d", i+1), s.Size)
				rs.CreationTimestamp = syNow.Add(time.Duration(i-1) * time.Minute)
				if s.Rev != "" {
					rs.Annotations = map[string]string{rollout.RevisionAnnotation: s.Rev}
				}
				rs.Status.Replicas = s.Size
				sets = append(sets, rs)
			}
			actions, err := rollout.Plan(rollout.State{Deployment: d, ReplicaSets: sets, Now: syNow})
			if err != nil {
				t.Fatalf("Plan() error: %v", err)
			}
			var deleted []string
			for _, a := range actions {
				switch a.Type {
				case rollout.DeleteReplicaSet:
					deleted = append(deleted, a.ReplicaSet)
				case rollout.ScaleReplicaSet, rollout.UpdateReplicaSet, rollout.CreateReplicaSet:
					t.Errorf("Plan() = %v, want no ReplicaSet writes", a)
				}
			}
			slices.Sort(deleted)
			if diff := cmp.Diff(tt.Want, deleted); diff != "" {
				t.Errorf("Plan() deletions mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// The end-to-end traces (vectors E). Each sync is Plan, then Apply, then a
// tiny ReplicaSet controller (sySimulate). Actions are compared as one-line
// summaries: type, target, sizes, annotations, the written status and the
// event. ReplicaSet names carry upstream's pod-template-hash, as the
// vectors give it (D.5).

var syStart = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

// sySpec is the pod spec of the traces' template with the given image.
func sySpec(image string) rollout.PodSpec {
	return rollout.MustParsePodSpec(fmt.Sprintf(`{"containers":[{"image":%q,"name":"c"}]}`, image))
}

// syName is the name of the ReplicaSet Plan creates for image: upstream's
// name for the traces' template (vectors D.5).
func syName(image string) string {
	return map[string]string{"img:v1": "web-6df65d4dc7", "img:v2": "web-84d9d7c55d"}[image]
}

// syWeb is the traces' Deployment: "web", template {app: web} with one
// container of img:v1, revision history 10, progress deadline 600s,
// generation 1.
func syWeb(replicas int32, strategy rollout.Strategy) rollout.State {
	return rollout.State{Deployment: rollout.Deployment{
		ObjectMeta: rollout.ObjectMeta{Name: "web", Namespace: "default", UID: "dep-uid", Generation: 1},
		Spec: rollout.DeploymentSpec{
			Replicas:                replicas,
			Selector:                rollout.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template:                rollout.PodTemplate{Labels: map[string]string{"app": "web"}, Spec: sySpec("img:v1")},
			Strategy:                strategy,
			RevisionHistoryLimit:    rollout.Int32(10),
			ProgressDeadlineSeconds: rollout.Int32(600),
		},
	}}
}

var syRolling = rollout.Strategy{Type: rollout.RollingUpdateStrategy, RollingUpdate: rollout.DefaultRollingUpdate()}

// sySimulate is the ReplicaSet controller of the traces: every ReplicaSet
// gets status.replicas = ready = available = spec (available 0 when its
// template runs the unhealthy image), observedGeneration = generation and
// terminatingReplicas = 0.
func sySimulate(s *rollout.State, unhealthy string) {
	for i := range s.ReplicaSets {
		rs := &s.ReplicaSets[i]
		avail := rs.Spec.Replicas
		if unhealthy != "" && strings.Contains(rs.Spec.Template.Spec.String(), `"`+unhealthy+`"`) {
			avail = 0
		}
		rs.Status.Replicas = rs.Spec.Replicas
		rs.Status.ReadyReplicas = avail
		rs.Status.AvailableReplicas = avail
		rs.Status.ObservedGeneration = rs.Generation
		rs.Status.TerminatingReplicas = rollout.Int32(0)
	}
}

// syAnn prints annotations: the controller's under short names (rev, hist,
// desired, max, rollback) in that order, then the others sorted.
func syAnn(a map[string]string) string {
	short := []struct{ key, name string }{
		{rollout.RevisionAnnotation, "rev"}, {rollout.RevisionHistoryAnnotation, "hist"},
		{rollout.DesiredReplicasAnnotation, "desired"}, {rollout.MaxReplicasAnnotation, "max"},
		{rollout.RollbackToAnnotation, "rollback"},
	}
	var parts []string
	rest := maps.Clone(a)
	for _, s := range short {
		if v, ok := a[s.key]; ok {
			parts = append(parts, s.name+"="+v)
			delete(rest, s.key)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(rest)) {
		parts = append(parts, k+"="+rest[k])
	}
	return "ann{" + strings.Join(parts, " ") + "}"
}

// syStatus prints a status as {observedGeneration replicas updated ready
// available unavailable terminating} [conditions], with cc=n when
// collisionCount is set; "-" is an absent terminating count.
func syStatus(s rollout.DeploymentStatus) string {
	term := "-"
	if s.TerminatingReplicas.Valid {
		term = fmt.Sprint(s.TerminatingReplicas.Value)
	}
	out := fmt.Sprintf("{%d %d %d %d %d %d %s}", s.ObservedGeneration, s.Replicas, s.UpdatedReplicas, s.ReadyReplicas, s.AvailableReplicas, s.UnavailableReplicas, term)
	if s.CollisionCount.Valid {
		out += fmt.Sprintf(" cc=%d", s.CollisionCount.Value)
	}
	var conds []string
	for _, c := range s.Conditions {
		conds = append(conds, fmt.Sprintf("%s=%s/%s", c.Type, c.Status, c.Reason))
	}
	return out + " [" + strings.Join(conds, " ") + "]"
}

// sySummary prints one action on a line; progress re-checks are left out,
// since the traces record API calls and events only.
func sySummary(a rollout.Action) (string, bool) {
	var s string
	switch a.Type {
	case rollout.RecheckProgress:
		return "", false
	case rollout.CreateReplicaSet:
		s = fmt.Sprintf("create %s %d %s", a.ReplicaSet, a.To, syAnn(a.Annotations))
	case rollout.ScaleReplicaSet, rollout.UpdateReplicaSet:
		s = fmt.Sprintf("update %s %d->%d %s", a.ReplicaSet, a.From, a.To, syAnn(a.Annotations))
	case rollout.UpdateDeploymentStatus:
		s = "status " + syStatus(a.Status) + " " + syAnn(a.Annotations)
	case rollout.UpdateDeployment:
		s = "update deployment " + syAnn(a.Annotations) + " template " + a.Template.Spec.String()
	case rollout.RecordEvent:
		s = "event"
	default:
		s = fmt.Sprintf("%s %s", a.Type, a.ReplicaSet)
	}
	if !a.Event.IsZero() {
		s += " | " + a.Event.String()
	}
	return s, true
}

// Expected summary lines.

func syCreate(name string, size int32, ann string) string {
	return fmt.Sprintf("create %s %d %s | Normal ScalingReplicaSet Scaled up replica set %s from 0 to %d", name, size, ann, name, size)
}

func syScale(name string, from, to int32, ann string) string {
	dir := "up"
	if to < from {
		dir = "down"
	}
	return fmt.Sprintf("update %s %d->%d %s | Normal ScalingReplicaSet Scaled %s replica set %s from %d to %d", name, from, to, ann, dir, name, from, to)
}

func syUpdate(name string, size int32, ann string) string {
	return fmt.Sprintf("update %s %d->%d %s", name, size, size, ann)
}

const (
	syAvT       = "Available=True/MinimumReplicasAvailable"
	syAvF       = "Available=False/MinimumReplicasUnavailable"
	syPrCreated = "Progressing=True/NewReplicaSetCreated"
	syPrUpdated = "Progressing=True/ReplicaSetUpdated"
	syPrAvail   = "Progressing=True/NewReplicaSetAvailable"
	syPrPaused  = "Progressing=Unknown/DeploymentPaused"
	syPrResumed = "Progressing=Unknown/DeploymentResumed"
)

// syStatusLine is a status write: the counts {observedGeneration replicas
// updated ready available unavailable terminating}, the conditions and the
// Deployment's annotations.
func syStatusLine(counts, conds, ann string) string {
	return "status " + counts + " [" + conds + "] " + ann
}

// A syStep is one sync of a trace.
type syStep struct {
	name      string               // what the trace says of it
	change    func(*rollout.State) // made by the test before the sync
	want      []string
	msg       string // the Progressing message of the last status write, when checked
	collision string // the name of a *CollisionError the sync ends with
}

// syRun plays a trace: steps are syncs 1, 2, ... at syStart plus that many
// seconds.
func syRun(t *testing.T, s rollout.State, unhealthy string, steps []syStep) {
	t.Helper()
	for i, st := range steps {
		n := i + 1
		t.Run(fmt.Sprintf("sync %02d %s", n, st.name), func(t *testing.T) {
			if st.change != nil {
				st.change(&s)
			}
			s.Now = syStart.Add(time.Duration(n) * time.Second)
			before := syDeepCopy(s)
			actions, err := rollout.Plan(s)
			if diff := cmp.Diff(before, s, cmp.Comparer(func(a, b surge.Value) bool { return a == b })); diff != "" {
				t.Errorf("Plan() modified its state (-before +after):\n%s", diff)
			}
			if st.collision != "" {
				var ce *rollout.CollisionError
				if !errors.As(err, &ce) || ce.Name != st.collision {
					t.Errorf("Plan() error = %v, want a *rollout.CollisionError for %s", err, st.collision)
				}
			} else if err != nil {
				t.Errorf("Plan() error: %v", err)
			}
			var got []string
			var msg string
			for _, a := range actions {
				if line, ok := sySummary(a); ok {
					got = append(got, line)
				}
				if c, ok := rollout.GetDeploymentCondition(a.Status, rollout.Progressing); ok && a.Type == rollout.UpdateDeploymentStatus {
					msg = c.Message
				}
			}
			if diff := cmp.Diff(st.want, got); diff != "" {
				t.Errorf("Plan() mismatch (-want +got):\n%s", diff)
			}
			if st.msg != "" {
				if diff := cmp.Diff(st.msg, msg); diff != "" {
					t.Errorf("Plan() Progressing message mismatch (-want +got):\n%s", diff)
				}
			}
			s = rollout.Apply(s, actions)
			sySimulate(&s, unhealthy)
		})
	}
}

// syDeepCopy returns a copy of s that shares no maps or slices with it.
func syDeepCopy(s rollout.State) rollout.State {
	c := s
	c.Deployment = s.Deployment.DeepCopy()
	c.ReplicaSets = slices.Clone(s.ReplicaSets)
	for i := range c.ReplicaSets {
		c.ReplicaSets[i] = c.ReplicaSets[i].DeepCopy()
	}
	c.Pods = slices.Clone(s.Pods)
	return c
}

// syNewImage changes the template's image, which bumps the generation.
func syNewImage(image string) func(*rollout.State) {
	return func(s *rollout.State) {
		s.Deployment.Spec.Template.Spec = sySpec(image)
		s.Deployment.Generation++
	}
}

func syScaleTo(replicas int32) func(*rollout.State) {
	return func(s *rollout.State) {
		s.Deployment.Spec.Replicas = replicas
		s.Deployment.Generation++
	}
}

// syRollout10 are syncs 1 to 3 of E-A: a rollout of 10 replicas.
func syRollout10(v1 string) []syStep {
	return []syStep{
		{
			name: "create",
			want: []string{
				syCreate(v1, 10, "ann{rev=1 desired=10 max=13}"),
				syStatusLine("{0 0 0 0 0 0 -}", syPrCreated, "ann{rev=1}"),
				syStatusLine("{1 0 0 0 0 10 0}", syPrCreated+" "+syAvF, "ann{rev=1}"),
			},
			msg: fmt.Sprintf("Created new replica set %q", v1),
		},
		{
			name: "complete",
			want: []string{syStatusLine("{1 10 10 10 10 0 0}", syAvT+" "+syPrAvail, "ann{rev=1}")},
			msg:  fmt.Sprintf("ReplicaSet %q has successfully progressed.", v1),
		},
		{name: "no writes"},
	}
}

// TestTraceRollingUpdate is vectors E-A: RollingUpdate of 10 replicas with
// 25%/25%, pods available at once.
func TestTraceRollingUpdate(t *testing.T) {
	v1, v2 := syName("img:v1"), syName("img:v2")
	a1 := func(desired, max int) string { return fmt.Sprintf("ann{rev=1 desired=%d max=%d}", desired, max) }
	a2 := func(desired, max int) string { return fmt.Sprintf("ann{rev=2 desired=%d max=%d}", desired, max) }
	steps := append(syRollout10(v1), []syStep{
		{
			name: "new image: create v2, scale v1 down", change: syNewImage("img:v2"),
			want: []string{
				syCreate(v2, 3, a2(10, 13)),
				syStatusLine("{1 10 10 10 10 0 0}", syAvT+" "+syPrCreated, "ann{rev=2}"),
				syScale(v1, 10, 8, a1(10, 13)),
				syStatusLine("{2 10 0 10 10 3 0}", syAvT+" "+syPrCreated, "ann{rev=2}"),
			},
		},
		{
			name: "v2 up",
			want: []string{syScale(v2, 3, 5, a2(10, 13)), syStatusLine("{2 11 3 11 11 0 0}", syAvT+" "+syPrUpdated, "ann{rev=2}")},
			msg:  fmt.Sprintf("ReplicaSet %q is progressing.", v2),
		},
		{name: "v1 down", want: []string{syScale(v1, 8, 3, a1(10, 13)), syStatusLine("{2 13 5 13 13 0 0}", syAvT+" "+syPrUpdated, "ann{rev=2}")}},
		{name: "v2 up", want: []string{syScale(v2, 5, 10, a2(10, 13)), syStatusLine("{2 8 5 8 8 0 0}", syAvT+" "+syPrUpdated, "ann{rev=2}")}},
		{name: "v1 down", want: []string{syScale(v1, 3, 0, a1(10, 13)), syStatusLine("{2 13 10 13 13 0 0}", syAvT+" "+syPrUpdated, "ann{rev=2}")}},
		{
			name: "complete",
			want: []string{syStatusLine("{2 10 10 10 10 0 0}", syAvT+" "+syPrAvail, "ann{rev=2}")},
			msg:  fmt.Sprintf("ReplicaSet %q has successfully progressed.", v2),
		},
		{name: "no writes"},
	}...)
	syRun(t, syWeb(10, syRolling), "", steps)
}

// TestTraceStuckScaleRollback is vectors E-B: the v2 pods never become
// available; the Deployment is scaled to 20 (proportional scaling), then
// rolled back to the previous revision. Upstream's trace runs against a fake
// clientset that does not bump the generation when the rollback rewrites the
// template; Apply does, as the API server does, so from sync 12 on the
// observed generation is 5 where the trace has 4.
func TestTraceStuckScaleRollback(t *testing.T) {
	v1, v2 := syName("img:v1"), syName("img:v2")
	a1 := func(desired, max int) string { return fmt.Sprintf("ann{rev=1 desired=%d max=%d}", desired, max) }
	a2 := func(desired, max int) string { return fmt.Sprintf("ann{rev=2 desired=%d max=%d}", desired, max) }
	a3 := "ann{rev=3 hist=1 desired=20 max=25}"
	steps := append(syRollout10(v1), []syStep{
		{
			name: "new image: create v2, scale v1 down", change: syNewImage("img:v2"),
			want: []string{
				syCreate(v2, 3, a2(10, 13)),
				syStatusLine("{1 10 10 10 10 0 0}", syAvT+" "+syPrCreated, "ann{rev=2}"),
				syScale(v1, 10, 8, a1(10, 13)),
				syStatusLine("{2 10 0 10 10 3 0}", syAvT+" "+syPrCreated, "ann{rev=2}"),
			},
		},
		{name: "v2 up", want: []string{syScale(v2, 3, 5, a2(10, 13)), syStatusLine("{2 11 3 8 8 3 0}", syAvT+" "+syPrUpdated, "ann{rev=2}")}},
		{name: "surge full, nothing to scale down", want: []string{syStatusLine("{2 13 5 8 8 5 0}", syAvT+" "+syPrUpdated, "ann{rev=2}")}},
		{name: "stalled"},
		{
			name: "scaled to 20: proportional", change: syScaleTo(20),
			want: []string{
				syScale(v1, 8, 15, a1(20, 25)),
				syScale(v2, 5, 10, a2(20, 25)),
				syStatusLine("{3 13 5 8 8 5 0}", syPrUpdated+" "+syAvF, "ann{rev=2}"),
			},
		},
		{name: "status", want: []string{syStatusLine("{3 25 10 15 15 10 0}", syAvT+" "+syPrUpdated, "ann{rev=2}")}},
		{name: "stalled"},
		{
			name: "rollback to revision 0",
			change: func(s *rollout.State) {
				s.Deployment.Annotations[rollout.RollbackToAnnotation] = "0"
				s.Deployment.Generation++
			},
			want: []string{
				"update deployment ann{rev=2} template " + sySpec("img:v1").String() +
					` | Normal DeploymentRollback Rolled back deployment "web" to revision 1`,
			},
		},
		{
			name: "v1 is new again: revision 3 written twice (Q-2), v2 cleaned up",
			want: []string{
				syUpdate(v1, 15, a3),
				syUpdate(v1, 15, a3),
				syScale(v2, 10, 0, a2(20, 25)),
				syStatusLine("{5 25 15 15 15 10 0}", syAvT+" "+syPrUpdated, "ann{rev=2}"),
			},
			msg: fmt.Sprintf("ReplicaSet %q is progressing.", v1),
		},
		{
			name: "revision 3, v1 up",
			want: []string{
				syStatusLine("{5 25 15 15 15 10 0}", syAvT+" "+syPrUpdated, "ann{rev=3}"),
				syScale(v1, 15, 20, a3),
				syStatusLine("{5 15 15 15 15 0 0}", syAvT+" "+syPrUpdated, "ann{rev=3}"),
			},
		},
		{name: "complete", want: []string{syStatusLine("{5 20 20 20 20 0 0}", syAvT+" "+syPrAvail, "ann{rev=3}")}},
		{name: "no writes"},
	}...)
	syRun(t, syWeb(10, syRolling), "img:v2", steps)
}

// TestTraceRecreate is vectors E-C: Recreate of 3 replicas.
func TestTraceRecreate(t *testing.T) {
	v1, v2 := syName("img:v1"), syName("img:v2")
	steps := []syStep{
		{
			name: "create",
			want: []string{
				syCreate(v1, 3, "ann{rev=1 desired=3 max=3}"),
				syStatusLine("{0 0 0 0 0 0 -}", syPrCreated, "ann{rev=1}"),
				syStatusLine("{1 0 0 0 0 3 0}", syPrCreated+" "+syAvF, "ann{rev=1}"),
			},
		},
		{name: "complete", want: []string{syStatusLine("{1 3 3 3 3 0 0}", syAvT+" "+syPrAvail, "ann{rev=1}")}},
		{name: "no writes"},
		{
			name: "new image: v1 to 0", change: syNewImage("img:v2"),
			want: []string{
				syScale(v1, 3, 0, "ann{rev=1 desired=3 max=3}"),
				syStatusLine("{2 3 0 3 3 0 0}", syAvT+" "+syPrAvail, "ann{rev=1}"),
			},
		},
		{
			name: "old pods gone: create v2",
			want: []string{
				syCreate(v2, 3, "ann{rev=2 desired=3 max=3}"),
				syStatusLine("{2 3 0 3 3 0 0}", syAvT+" "+syPrCreated, "ann{rev=2}"),
				syStatusLine("{2 0 0 0 0 3 0}", syAvF+" "+syPrUpdated, "ann{rev=2}"),
			},
		},
		{name: "complete", want: []string{syStatusLine("{2 3 3 3 3 0 0}", syAvT+" "+syPrAvail, "ann{rev=2}")}},
		{name: "no writes"},
	}
	syRun(t, syWeb(3, rollout.Strategy{Type: rollout.RecreateStrategy}), "", steps)
}

// TestTraceStaleDesiredReplicas is vectors E-E: a desired-replicas
// annotation that disagrees with spec.replicas makes every sync a scaling
// event, so the new image is never rolled out.
func TestTraceStaleDesiredReplicas(t *testing.T) {
	v1 := syName("img:v1")
	steps := []syStep{
		{
			name: "create",
			want: []string{
				syCreate(v1, 3, "ann{rev=1 desired=3 max=4}"),
				syStatusLine("{0 0 0 0 0 0 -}", syPrCreated, "ann{rev=1}"),
				syStatusLine("{1 0 0 0 0 3 0}", syPrCreated+" "+syAvF, "ann{rev=1}"),
			},
		},
		{name: "complete", want: []string{syStatusLine("{1 3 3 3 3 0 0}", syAvT+" "+syPrAvail, "ann{rev=1}")}},
		{name: "no writes"},
		{
			name: "stale annotation, new image: status only",
			change: func(s *rollout.State) {
				for i := range s.ReplicaSets {
					s.ReplicaSets[i].Annotations[rollout.DesiredReplicasAnnotation] = "2"
				}
				syNewImage("img:v2")(s)
			},
			want: []string{syStatusLine("{2 3 0 3 3 0 0}", syAvT+" "+syPrAvail, "ann{rev=1}")},
		},
		{name: "never rolls out"},
		{name: "never rolls out"},
	}
	syRun(t, syWeb(3, syRolling), "", steps)
}

// TestTracePaused is vectors E-F: pausing, resizing and changing the image
// while paused (a resize only), then resuming.
func TestTracePaused(t *testing.T) {
	v1, v2 := syName("img:v1"), syName("img:v2")
	a1 := "ann{rev=1 desired=15 max=19}"
	a2 := "ann{rev=2 desired=15 max=19}"
	steps := append(syRollout10(v1), []syStep{
		{
			name: "paused",
			change: func(s *rollout.State) {
				s.Deployment.Spec.Paused = true
				s.Deployment.Generation++
			},
			want: []string{
				syStatusLine("{1 10 10 10 10 0 0}", syAvT+" "+syPrPaused, "ann{rev=1}"),
				syStatusLine("{2 10 10 10 10 0 0}", syAvT+" "+syPrPaused, "ann{rev=1}"),
			},
			msg: "Deployment is paused",
		},
		{name: "no writes"},
		{
			name: "new image and 15 replicas while paused: resize only",
			change: func(s *rollout.State) {
				s.Deployment.Spec.Template.Spec = sySpec("img:v2")
				s.Deployment.Spec.Replicas = 15
				s.Deployment.Generation++
			},
			want: []string{
				syScale(v1, 10, 15, a1),
				syStatusLine("{3 10 0 10 10 0 0}", syPrPaused+" "+syAvF, "ann{rev=1}"),
			},
		},
		{name: "status", want: []string{syStatusLine("{3 15 0 15 15 0 0}", syPrPaused+" "+syAvT, "ann{rev=1}")}},
		{name: "no writes"},
		{
			name: "resumed: rollout starts",
			change: func(s *rollout.State) {
				s.Deployment.Spec.Paused = false
				s.Deployment.Generation++
			},
			want: []string{
				syStatusLine("{3 15 0 15 15 0 0}", syAvT+" "+syPrResumed, "ann{rev=1}"),
				syCreate(v2, 4, a2),
				syStatusLine("{3 15 0 15 15 0 0}", syAvT+" "+syPrCreated, "ann{rev=2}"),
				syScale(v1, 15, 12, a1),
				syStatusLine("{4 15 0 15 15 4 0}", syAvT+" "+syPrCreated, "ann{rev=2}"),
			},
		},
		{name: "v2 to 7", want: []string{syScale(v2, 4, 7, a2), syStatusLine("{4 16 4 16 16 0 0}", syAvT+" "+syPrUpdated, "ann{rev=2}")}},
		{name: "v1 to 5", want: []string{syScale(v1, 12, 5, a1), syStatusLine("{4 19 7 19 19 0 0}", syAvT+" "+syPrUpdated, "ann{rev=2}")}},
		{name: "v2 to 14", want: []string{syScale(v2, 7, 14, a2), syStatusLine("{4 12 7 12 12 0 0}", syAvT+" "+syPrUpdated, "ann{rev=2}")}},
		{name: "v1 to 0", want: []string{syScale(v1, 5, 0, a1), syStatusLine("{4 19 14 19 19 0 0}", syAvT+" "+syPrUpdated, "ann{rev=2}")}},
		{name: "v2 to 15", want: []string{syScale(v2, 14, 15, a2), syStatusLine("{4 14 14 14 14 0 0}", syAvT+" "+syPrUpdated, "ann{rev=2}")}},
		{name: "complete", want: []string{syStatusLine("{4 15 15 15 15 0 0}", syAvT+" "+syPrAvail, "ann{rev=2}")}},
		{name: "no writes"},
	}...)
	syRun(t, syWeb(10, syRolling), "", steps)
}

// TestTraceAnnotationOnly is vectors E-G: an annotation added to a complete
// Deployment is copied to its ReplicaSet, by two identical writes.
func TestTraceAnnotationOnly(t *testing.T) {
	v1 := syName("img:v1")
	steps := []syStep{
		{
			name: "create",
			want: []string{
				syCreate(v1, 2, "ann{rev=1 desired=2 max=3}"),
				syStatusLine("{0 0 0 0 0 0 -}", syPrCreated, "ann{rev=1}"),
				syStatusLine("{1 0 0 0 0 2 0}", syPrCreated+" "+syAvF, "ann{rev=1}"),
			},
		},
		{name: "complete", want: []string{syStatusLine("{1 2 2 2 2 0 0}", syAvT+" "+syPrAvail, "ann{rev=1}")}},
		{name: "no writes"},
		{
			name: "annotation team=blue",
			change: func(s *rollout.State) {
				s.Deployment.Annotations["team"] = "blue"
				s.Deployment.Generation++
			},
			want: []string{
				syUpdate(v1, 2, "ann{rev=1 desired=2 max=3 team=blue}"),
				syUpdate(v1, 2, "ann{rev=1 desired=2 max=3 team=blue}"),
				syStatusLine("{2 2 2 2 2 0 0}", syAvT+" "+syPrAvail, "ann{rev=1 team=blue}"),
			},
		},
		{name: "no writes"},
	}
	syRun(t, syWeb(2, syRolling), "", steps)
}

// TestTraceHashCollision is vectors E-H: a ReplicaSet owned by nobody, with
// another template, already has the new ReplicaSet's name. The sync raises
// collisionCount and fails; the next one creates the ReplicaSet under the
// name hashed with collision count 1 (upstream's names, vectors D.5).
func TestTraceHashCollision(t *testing.T) {
	taken, renamed := "web-6df65d4dc7", "web-6f7f9c7dfb"
	s := syWeb(2, syRolling)
	s.ReplicaSets = []rollout.ReplicaSet{{
		ObjectMeta: rollout.ObjectMeta{Name: taken, Namespace: "default", UID: "other-uid", Labels: map[string]string{"other": "x"}},
		Spec: rollout.ReplicaSetSpec{
			Replicas: 1,
			Selector: rollout.LabelSelector{MatchLabels: map[string]string{"other": "x"}},
			Template: rollout.PodTemplate{Labels: map[string]string{"other": "x"}, Spec: rollout.MustParsePodSpec(`{"containers":[{"image":"other","name":"o"}]}`)},
		},
	}}
	steps := []syStep{
		{
			name:      "collision",
			want:      []string{syStatusLine("{0 0 0 0 0 0 -} cc=1", "", "ann{}")},
			collision: taken,
		},
		{
			name: "create under the new name",
			want: []string{
				syCreate(renamed, 2, "ann{rev=1 desired=2 max=3}"),
				syStatusLine("{0 0 0 0 0 0 -} cc=1", syPrCreated, "ann{rev=1}"),
				syStatusLine("{1 0 0 0 0 2 0} cc=1", syPrCreated+" "+syAvF, "ann{rev=1}"),
			},
		},
	}
	syRun(t, s, "", steps)
}

// TestTraceAdoption is vectors E-I: an orphan whose labels match is
// adopted and an owned ReplicaSet whose labels do not is released, before
// anything else; the adopted one counts as an old ReplicaSet. (Upstream
// patches in cache order; Plan in name order. Sync 2 is not in the trace.)
func TestTraceAdoption(t *testing.T) {
	v1 := syName("img:v1")
	s := syWeb(2, syRolling)
	s.ReplicaSets = []rollout.ReplicaSet{
		{
			ObjectMeta: rollout.ObjectMeta{Name: "owned", Namespace: "default", UID: "owned-uid", Labels: map[string]string{"app": "other"},
				OwnerReferences: []rollout.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: "web", UID: "dep-uid", Controller: true, BlockOwnerDeletion: true}}},
			Spec: rollout.ReplicaSetSpec{Replicas: 1, Selector: rollout.LabelSelector{MatchLabels: map[string]string{"app": "other"}}},
		},
		{
			ObjectMeta: rollout.ObjectMeta{Name: "orphan", Namespace: "default", UID: "orphan-uid", Labels: map[string]string{"app": "web"}},
			Spec:       rollout.ReplicaSetSpec{Replicas: 1, Selector: rollout.LabelSelector{MatchLabels: map[string]string{"app": "web"}}},
		},
	}
	steps := []syStep{
		{
			name: "adopt, release, create",
			want: []string{
				"AdoptReplicaSet orphan",
				"ReleaseReplicaSet owned",
				syCreate(v1, 2, "ann{rev=1 desired=2 max=3}"),
				syStatusLine("{0 0 0 0 0 0 -}", syPrCreated, "ann{rev=1}"),
				syStatusLine("{1 0 0 0 0 3 0}", syPrCreated+" "+syAvF, "ann{rev=1}"),
			},
		},
		{
			name: "the adopted ReplicaSet is scaled down as an old one",
			want: []string{
				syScale("orphan", 1, 0, "ann{desired=2 max=3}"),
				syStatusLine("{1 3 2 3 3 0 0}", syAvT+" "+syPrUpdated, "ann{rev=1}"),
			},
		},
	}
	syRun(t, s, "", steps)
}
