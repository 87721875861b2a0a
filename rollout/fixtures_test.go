package rollout

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutmath/rolloutmath/surge"
)

// The fixtures shared by this package's tests, internal and external (which
// see them as rollout.X): upstream's test fixtures under upstream's names
// with an Upstream prefix, the rows tested both through a planner step and
// through Plan, and small readers of plans. They exist only in test builds.

// FixtureNow is the clock of the tests that do not care about it.
var FixtureNow = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

// UpstreamNewDeployment is upstream's newDeployment(name, replicas, limit,
// maxSurge, maxUnavailable, selector) of the controller tests: namespace
// default, UID "uid-<name>", RollingUpdate with maxSurge and maxUnavailable
// the count 0 unless given (upstream passes nil pointers for "not given";
// so does this fixture), no progress deadline, generation 0. With both
// limits 0 the API server refuses it, so Plan needs
// Options.SkipValidation.
func UpstreamNewDeployment(name string, replicas int32, limit OptionalInt32, maxSurge, maxUnavailable *surge.Value, selector map[string]string) Deployment {
	d := Deployment{
		ObjectMeta: ObjectMeta{Name: name, Namespace: "default", UID: "uid-" + name, Annotations: map[string]string{}},
		Spec: DeploymentSpec{
			Replicas: replicas,
			Selector: LabelSelector{MatchLabels: selector},
			Template: PodTemplate{Labels: selector, Spec: MustParsePodSpec(`{"containers":[{"image":"foo/bar"}]}`)},
			Strategy: Strategy{Type: RollingUpdateStrategy, RollingUpdate: RollingUpdate{
				MaxSurge: surge.Count(0), MaxUnavailable: surge.Count(0),
			}},
			RevisionHistoryLimit: limit,
		},
	}
	if maxSurge != nil {
		d.Spec.Strategy.RollingUpdate.MaxSurge = *maxSurge
	}
	if maxUnavailable != nil {
		d.Spec.Strategy.RollingUpdate.MaxUnavailable = *maxUnavailable
	}
	return d
}

// SurgeCount is a pointer to the count n, as upstream's fixtures take one.
func SurgeCount(n int32) *surge.Value { v := surge.Count(n); return &v }

// UpstreamNewReplicaSet is upstream's newReplicaSet(d, name, replicas) of
// the controller tests: labels and selector from d's selector, d's
// template, a controller reference to d.
func UpstreamNewReplicaSet(d Deployment, name string, replicas int32) ReplicaSet {
	dd := d.DeepCopy()
	return ReplicaSet{
		ObjectMeta: ObjectMeta{
			Name: name, Namespace: "default", UID: "uid-" + name, Labels: dd.Spec.Selector.MatchLabels,
			OwnerReferences: []OwnerReference{NewControllerRef(d.ObjectMeta, AppsAPIVersion, DeploymentKind)},
		},
		Spec: ReplicaSetSpec{Replicas: replicas, Selector: d.DeepCopy().Spec.Selector, Template: dd.Spec.Template},
	}
}

// UpstreamRS is upstream's rs(name, replicas, selector, timestamp):
// namespace default, an empty template, no annotations, UID or owner.
func UpstreamRS(name string, replicas int32, selector map[string]string, created time.Time) *ReplicaSet {
	return &ReplicaSet{
		ObjectMeta: ObjectMeta{Name: name, Namespace: "default", CreationTimestamp: created},
		Spec:       ReplicaSetSpec{Replicas: replicas, Selector: LabelSelector{MatchLabels: selector}},
	}
}

// UpstreamRSWithStatus is upstream's newRSWithStatus.
func UpstreamRSWithStatus(name string, spec, status int32, selector map[string]string) *ReplicaSet {
	rs := UpstreamRS(name, spec, selector, time.Time{})
	rs.Status.Replicas = status
	return rs
}

// UpstreamCurrentDeployment is upstream's currentDeployment of the progress
// tests: "progress-test", Recreate, the given deadline, replicas, status and
// conditions, generation 0.
func UpstreamCurrentDeployment(pds OptionalInt32, replicas, statusReplicas, updated, available int32, conditions []Condition) Deployment {
	return Deployment{
		ObjectMeta: ObjectMeta{Name: "progress-test"},
		Spec: DeploymentSpec{
			ProgressDeadlineSeconds: pds,
			Replicas:                replicas,
			Strategy:                Strategy{Type: RecreateStrategy},
		},
		Status: DeploymentStatus{Replicas: statusReplicas, UpdatedReplicas: updated, AvailableReplicas: available, Conditions: conditions},
	}
}

// UpstreamGenerateDeployment is upstream's generateDeployment(image) of the
// util tests: name = image, empty annotations, 1 replica, selector and
// template labels {name: image}, one container, and no strategy type.
func UpstreamGenerateDeployment(image string) Deployment {
	labels := map[string]string{"name": image}
	return Deployment{
		ObjectMeta: ObjectMeta{Name: image, Annotations: map[string]string{}},
		Spec: DeploymentSpec{
			Replicas: 1,
			Selector: LabelSelector{MatchLabels: labels},
			Template: PodTemplate{
				Labels: map[string]string{"name": image},
				Spec:   UpstreamContainerSpec(image, image),
			},
		},
	}
}

// UpstreamContainerSpec is generateDeployment's pod spec, in canonical JSON.
func UpstreamContainerSpec(name, image string) PodSpec {
	return MustParsePodSpec(fmt.Sprintf(`{"containers":[{"image":%q,"imagePullPolicy":"Always","name":%q,"terminationMessagePath":"/dev/termination-log"}],`+
		`"dnsPolicy":"ClusterFirst","enableServiceLinks":true,"restartPolicy":"Always","securityContext":{},"terminationGracePeriodSeconds":30}`, image, name))
}

// UpstreamGenerateRS is upstream's generateRS(d) of the util tests: d's
// template, labels and selector from the template's labels, a controller
// reference to d and size 0. Upstream's random name and UID are given.
func UpstreamGenerateRS(d Deployment, name, uid string) ReplicaSet {
	t := d.DeepCopy().Spec.Template
	ref := NewControllerRef(d.ObjectMeta, AppsAPIVersion, DeploymentKind)
	ref.BlockOwnerDeletion = false // upstream's generateRS sets controller only
	return ReplicaSet{
		ObjectMeta: ObjectMeta{Name: name, UID: uid, Labels: t.Labels, OwnerReferences: []OwnerReference{ref}},
		Spec:       ReplicaSetSpec{Template: t, Selector: LabelSelector{MatchLabels: t.Labels}},
	}
}

// RollingDeployment is a RollingUpdate Deployment of replicas with the
// given limits and nothing else.
func RollingDeployment(replicas int32, maxSurge, maxUnavailable surge.Value) Deployment {
	return Deployment{Spec: DeploymentSpec{
		Replicas: replicas,
		Strategy: Strategy{
			Type:          RollingUpdateStrategy,
			RollingUpdate: RollingUpdate{MaxSurge: maxSurge, MaxUnavailable: maxUnavailable},
		},
	}}
}

// RecreateDeployment is [UpstreamNewDeployment] "foo" of replicas with
// selector {foo: bar} and the Recreate strategy.
func RecreateDeployment(replicas int32) Deployment {
	d := UpstreamNewDeployment("foo", replicas, OptionalInt32{}, nil, nil, map[string]string{"foo": "bar"})
	d.Spec.Strategy = Strategy{Type: RecreateStrategy}
	return d
}

// OldReplicaSet is an old ReplicaSet of d: controlled by d, matching its
// selector, with another template.
func OldReplicaSet(d Deployment, name string, replicas int32) ReplicaSet {
	rs := UpstreamNewReplicaSet(d, name, replicas)
	rs.Spec.Template.Spec = MustParsePodSpec(`{"containers":[{"image":"foo/old"}]}`)
	return rs
}

// StaleState is vectors E-E: a complete rollout of 3 replicas whose
// ReplicaSet carries desired-replicas "2", then a new image.
func StaleState(t *testing.T) State {
	t.Helper()
	const manifest = `{"kind": "List", "items": [
	{"kind": "Deployment", "metadata": {"name": "web", "namespace": "default", "uid": "dep-uid", "generation": 2,
	  "annotations": {"deployment.kubernetes.io/revision": "1"}},
	 "spec": {"replicas": 3, "selector": {"matchLabels": {"app": "web"}},
	  "template": {"metadata": {"labels": {"app": "web"}}, "spec": {"containers": [{"name": "c", "image": "img:v2"}]}}},
	 "status": {"observedGeneration": 1, "replicas": 3, "updatedReplicas": 3, "readyReplicas": 3, "availableReplicas": 3}},
	{"kind": "ReplicaSet", "metadata": {"name": "web-v1", "namespace": "default", "uid": "rs-uid", "generation": 1,
	  "creationTimestamp": "2026-01-01T00:00:00Z",
	  "labels": {"app": "web", "pod-template-hash": "v1"},
	  "annotations": {"deployment.kubernetes.io/revision": "1", "deployment.kubernetes.io/desired-replicas": "2", "deployment.kubernetes.io/max-replicas": "4"},
	  "ownerReferences": [{"apiVersion": "apps/v1", "kind": "Deployment", "name": "web", "uid": "dep-uid", "controller": true}]},
	 "spec": {"replicas": 3, "selector": {"matchLabels": {"app": "web", "pod-template-hash": "v1"}},
	  "template": {"metadata": {"labels": {"app": "web", "pod-template-hash": "v1"}}, "spec": {"containers": [{"name": "c", "image": "img:v1"}]}}},
	 "status": {"replicas": 3, "readyReplicas": 3, "availableReplicas": 3, "observedGeneration": 1}}]}`
	objs, err := Decode([]byte(manifest))
	if err != nil {
		t.Fatal(err)
	}
	return objs.State(objs.Deployments[0], time.Date(2026, 1, 1, 0, 10, 0, 0, time.UTC))
}

// WebEpoch is the creation time of the first ReplicaSet of [WebState]s.
var WebEpoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// WebState is a RollingUpdate Deployment on image v<n> with the given
// ReplicaSets, all owned by it, each available at its size.
func WebState(replicas int32, ru RollingUpdate, image string, sets ...ReplicaSet) State {
	d := Deployment{
		ObjectMeta: ObjectMeta{Name: "web", Namespace: "default", UID: "dep-uid", Generation: 2},
		Spec: DeploymentSpec{
			Replicas:             replicas,
			Selector:             LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template:             PodTemplate{Labels: map[string]string{"app": "web"}, Spec: ContainerSpec(image)},
			Strategy:             Strategy{Type: RollingUpdateStrategy, RollingUpdate: ru},
			RevisionHistoryLimit: Int32(10), ProgressDeadlineSeconds: Int32(600),
		},
		Status: DeploymentStatus{ObservedGeneration: 1},
	}
	return State{Deployment: d, ReplicaSets: sets, Now: WebEpoch.Add(time.Hour)}
}

// ContainerSpec is a pod spec of one container "c" running image.
func ContainerSpec(image string) PodSpec {
	return MustParsePodSpec(fmt.Sprintf(`{"containers":[{"name":"c","image":%q}]}`, image))
}

// WebReplicaSet is a ReplicaSet of the Deployment with image, size and revision,
// all its pods available.
func WebReplicaSet(name, image string, size int32, rev int, created time.Time) ReplicaSet {
	return ReplicaSet{
		ObjectMeta: ObjectMeta{Name: name, Namespace: "default", UID: "uid-" + name, Generation: 1,
			CreationTimestamp: created,
			Labels:            map[string]string{"app": "web", PodTemplateHashLabel: name},
			Annotations:       map[string]string{RevisionAnnotation: strconv.Itoa(rev)},
			OwnerReferences:   []OwnerReference{{Kind: "Deployment", Name: "web", UID: "dep-uid", Controller: true}}},
		Spec: ReplicaSetSpec{Replicas: size,
			Selector: LabelSelector{MatchLabels: map[string]string{"app": "web", PodTemplateHashLabel: name}},
			Template: PodTemplate{Labels: map[string]string{"app": "web", PodTemplateHashLabel: name}, Spec: ContainerSpec(image)}},
		Status: ReplicaSetStatus{Replicas: size, ReadyReplicas: size, AvailableReplicas: size, ObservedGeneration: 1},
	}
}

// CheckNoNegative fails if an action of a plan for s holds a negative size,
// status count or collision count, or a replica annotation that is not a
// number in int32's range, unless s already held that value in that place:
// the count in the Deployment's status, the size the ReplicaSet had (From),
// the annotation the ReplicaSet had. Plan computes no such number; it can
// only carry over one that upstream's wrapping arithmetic wrote before.
func CheckNoNegative(t testing.TB, s State, actions []Action) {
	t.Helper()
	counts := func(st DeploymentStatus) []int64 {
		return []int64{st.ObservedGeneration, int64(st.Replicas), int64(st.UpdatedReplicas), int64(st.ReadyReplicas),
			int64(st.AvailableReplicas), int64(st.UnavailableReplicas), int64(st.TerminatingReplicas.Value), int64(st.CollisionCount.Value)}
	}
	had := counts(s.Deployment.Status)
	old := map[string]*ReplicaSet{}
	for i := range s.ReplicaSets {
		old[s.ReplicaSets[i].Name] = &s.ReplicaSets[i]
	}
	for _, a := range actions {
		if a.Status != nil {
			for i, n := range counts(*a.Status) {
				if n < 0 && n != had[i] {
					t.Errorf("negative count in %v: %+v", a, *a.Status)
				}
			}
		}
		prev := old[a.ReplicaSet]
		if a.To < 0 || (a.From < 0 && (prev == nil || prev.Spec.Replicas != a.From)) {
			t.Errorf("negative size in %v", a)
		}
		for _, key := range []string{DesiredReplicasAnnotation, MaxReplicasAnnotation} {
			v, ok := a.Annotations[key]
			if !ok || (prev != nil && prev.Annotations[key] == v) {
				continue
			}
			if n, err := strconv.ParseInt(v, 10, 64); err != nil || n < 0 || n > math.MaxInt32 {
				t.Errorf("%s %q in %v", key, v, a)
			}
		}
	}
}

// CleanupOrderCase is a row of upstream's
// TestDeploymentController_cleanupDeploymentOrder (vectors C.7): old
// ReplicaSets foo-1, foo-2, ... created in that order, the history limit,
// and the ones cleanup deletes. The rows run through cleanupDeployment and
// through Plan.
type CleanupOrderCase struct {
	Name  string
	Old   []CleanupOrderRS
	Limit int32
	Want  []string
}

// CleanupOrderRS is one old ReplicaSet of a [CleanupOrderCase].
type CleanupOrderRS struct {
	Size int32
	Rev  string // "" for no revision annotation
}

// CleanupOrderCases are the rows of upstream's test.
var CleanupOrderCases = []CleanupOrderCase{
	{Name: "revision order: rs1 < rs2, delete rs1", Old: []CleanupOrderRS{{0, "1"}, {0, "2"}}, Limit: 1, Want: []string{"foo-1"}},
	{Name: "revision order: rs2 < rs1, delete rs2", Old: []CleanupOrderRS{{0, "2"}, {0, "1"}}, Limit: 1, Want: []string{"foo-2"}},
	{Name: "rs1 has revision but rs2 doesn't have revision, delete rs2", Old: []CleanupOrderRS{{0, "1"}, {0, ""}}, Limit: 1, Want: []string{"foo-2"}},
	{Name: "rs1 doesn't have revision while rs2 has revision, delete rs1", Old: []CleanupOrderRS{{0, ""}, {0, "2"}}, Limit: 1, Want: []string{"foo-1"}},
	{Name: "revision order: rs1 < rs2 < r3, but rs1 has replicas, delete rs2", Old: []CleanupOrderRS{{1, "1"}, {0, "2"}, {0, "3"}}, Limit: 1, Want: []string{"foo-2"}},
	{Name: "revision order: rs1 < rs2 < r3, both rs1 && rs2 have replicas, don't delete", Old: []CleanupOrderRS{{1, "1"}, {1, "2"}, {0, "3"}}, Limit: 1},
	{Name: "revision order: rs2 < rs4 < rs1 < rs3, delete rs2 && rs4", Old: []CleanupOrderRS{{0, "3"}, {0, "1"}, {0, "4"}, {0, "2"}}, Limit: 2, Want: []string{"foo-2", "foo-4"}},
}

// testPlanner is a planner for d at now, with no ReplicaSets.
func testPlanner(d Deployment, now time.Time) *planner {
	return newPlanner(State{Deployment: d, Now: now})
}

// Pointers returns pointers to the elements of sets.
func Pointers(sets []ReplicaSet) []*ReplicaSet { return pointers(sets) }

// DeepCopies returns deep copies of sets, nil for nil.
func DeepCopies(sets []ReplicaSet) []ReplicaSet {
	if sets == nil {
		return nil
	}
	out := make([]ReplicaSet, len(sets))
	for i, rs := range sets {
		out[i] = rs.DeepCopy()
	}
	return out
}

// StateCmp compares States, Deployments and ReplicaSets: surge.Value has
// unexported fields and is comparable with ==.
var StateCmp = cmp.Comparer(func(a, b surge.Value) bool { return a == b })

// DeepCopyState returns a copy of s that shares no maps or slices with it.
func DeepCopyState(s State) State {
	out := s
	out.Deployment = s.Deployment.DeepCopy()
	if s.ReplicaSets != nil {
		out.ReplicaSets = make([]ReplicaSet, len(s.ReplicaSets))
		for i, rs := range s.ReplicaSets {
			out.ReplicaSets[i] = rs.DeepCopy()
		}
	}
	if s.Pods != nil {
		out.Pods = make([]Pod, len(s.Pods))
		for i, p := range s.Pods {
			p.Labels = maps.Clone(p.Labels)
			p.Annotations = maps.Clone(p.Annotations)
			p.OwnerReferences = slices.Clone(p.OwnerReferences)
			out.Pods[i] = p
		}
	}
	return out
}

// Scribble writes into every map and slice of s, so that a result sharing
// memory with an input shows up as a modified input.
func Scribble(s *State) {
	meta := func(m *ObjectMeta) {
		for k := range m.Labels {
			m.Labels[k] = "scribbled"
		}
		for k := range m.Annotations {
			m.Annotations[k] = "scribbled"
		}
		for i := range m.OwnerReferences {
			m.OwnerReferences[i].Name = "scribbled"
		}
	}
	tmpl := func(t *PodTemplate) {
		for k := range t.Labels {
			t.Labels[k] = "scribbled"
		}
		for k := range t.Annotations {
			t.Annotations[k] = "scribbled"
		}
		// A PodSpec cannot be modified, so it may be shared.
	}
	meta(&s.Deployment.ObjectMeta)
	tmpl(&s.Deployment.Spec.Template)
	for k := range s.Deployment.Spec.Selector.MatchLabels {
		s.Deployment.Spec.Selector.MatchLabels[k] = "scribbled"
	}
	for i := range s.Deployment.Status.Conditions {
		s.Deployment.Status.Conditions[i].Message = "scribbled"
	}
	for i := range s.ReplicaSets {
		rs := &s.ReplicaSets[i]
		meta(&rs.ObjectMeta)
		tmpl(&rs.Spec.Template)
		for k := range rs.Spec.Selector.MatchLabels {
			rs.Spec.Selector.MatchLabels[k] = "scribbled"
		}
		for i := range rs.Status.Conditions {
			rs.Status.Conditions[i].Message = "scribbled"
		}
	}
	for i := range s.Pods {
		meta(&s.Pods[i].ObjectMeta)
	}
}

// Names returns the names of sets, nil for none.
func Names[RS ReplicaSet | *ReplicaSet](sets []RS) []string {
	var out []string
	for i := range sets {
		switch rs := any(sets[i]).(type) {
		case ReplicaSet:
			out = append(out, rs.Name)
		case *ReplicaSet:
			out = append(out, rs.Name)
		}
	}
	return out
}

// APICallTypes returns the types of the API calls among actions.
func APICallTypes(actions []Action) []ActionType {
	var out []ActionType
	for _, a := range actions {
		if a.IsAPICall() {
			out = append(out, a.Type)
		}
	}
	return out
}

// APICalls returns the API calls among actions as "Type ReplicaSet".
func APICalls(actions []Action) []string {
	var out []string
	for _, a := range actions {
		if a.IsAPICall() {
			out = append(out, string(a.Type)+" "+a.ReplicaSet)
		}
	}
	return out
}

// ActionStrings returns actions as their String forms.
func ActionStrings(actions []Action) []string {
	var out []string
	for _, a := range actions {
		out = append(out, a.String())
	}
	return out
}

// Writes returns the ReplicaSet writes among actions as "name from->to".
func Writes(actions []Action) []string {
	var out []string
	for _, a := range actions {
		switch a.Type {
		case ScaleReplicaSet, UpdateReplicaSet:
			out = append(out, fmt.Sprintf("%s %d->%d", a.ReplicaSet, a.From, a.To))
		}
	}
	return out
}

// Deletions returns the names of the deleted ReplicaSets, sorted.
func Deletions(actions []Action) []string {
	var out []string
	for _, a := range actions {
		if a.Type == DeleteReplicaSet {
			out = append(out, a.ReplicaSet)
		}
	}
	slices.Sort(out)
	return out
}
