package rollout_test

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/surge"
)

// Ports of upstream's util package tests (vectors B) and the vectors
// computed from upstream's code (D), through the rollout functions that
// carry upstream's names. Helpers are prefixed ut so that they do not clash
// with other test files of the package.

// utHash is the pod-template-hash label key.
const utHash = rollout.PodTemplateHashLabel

// utGenerateDeployment is upstream's generateDeployment(image): name =
// image, empty annotations, 1 replica, selector and template labels
// {name: image}, one container, and no strategy type.
func utGenerateDeployment(image string) rollout.Deployment {
	labels := map[string]string{"name": image}
	return rollout.Deployment{
		ObjectMeta: rollout.ObjectMeta{Name: image, Annotations: map[string]string{}},
		Spec: rollout.DeploymentSpec{
			Replicas: 1,
			Selector: rollout.LabelSelector{MatchLabels: labels},
			Template: rollout.PodTemplate{
				Labels: map[string]string{"name": image},
				Spec:   utContainerSpec(image, image),
			},
		},
	}
}

// utContainerSpec is generateDeployment's pod spec, in canonical JSON.
func utContainerSpec(name, image string) rollout.PodSpec {
	return rollout.MustParsePodSpec(fmt.Sprintf(`{"containers":[{"image":%q,"imagePullPolicy":"Always","name":%q,"terminationMessagePath":"/dev/termination-log"}],`+
		`"dnsPolicy":"ClusterFirst","enableServiceLinks":true,"restartPolicy":"Always","securityContext":{},"terminationGracePeriodSeconds":30}`, image, name))
}

// utGenerateRS is upstream's generateRS(d): d's template, labels and
// selector from the template's labels, a controller reference to d and
// size 0. Upstream's random name and UID are given.
func utGenerateRS(d rollout.Deployment, name, uid string) rollout.ReplicaSet {
	t := d.DeepCopy().Spec.Template
	return rollout.ReplicaSet{
		ObjectMeta: rollout.ObjectMeta{
			Name:   name,
			UID:    uid,
			Labels: t.Labels,
			OwnerReferences: []rollout.OwnerReference{{
				APIVersion: "apps/v1", Kind: "Deployment", Name: d.Name, UID: d.UID, Controller: true,
			}},
		},
		Spec: rollout.ReplicaSetSpec{
			Template: t,
			Selector: rollout.LabelSelector{MatchLabels: t.Labels},
		},
	}
}

// utRolling returns a RollingUpdate Deployment of replicas with the given
// limits.
func utRolling(replicas int32, maxSurge, maxUnavailable surge.Value) rollout.Deployment {
	return rollout.Deployment{Spec: rollout.DeploymentSpec{
		Replicas: replicas,
		Strategy: rollout.Strategy{
			Type:          rollout.RollingUpdateStrategy,
			RollingUpdate: rollout.RollingUpdate{MaxSurge: maxSurge, MaxUnavailable: maxUnavailable},
		},
	}}
}

func utCopies(sets []rollout.ReplicaSet) []rollout.ReplicaSet {
	if sets == nil {
		return nil
	}
	out := make([]rollout.ReplicaSet, len(sets))
	for i, rs := range sets {
		out[i] = rs.DeepCopy()
	}
	return out
}

func utNames(sets []rollout.ReplicaSet) []string {
	var out []string
	for _, rs := range sets {
		out = append(out, rs.Name)
	}
	return out
}

// TestEqualIgnoreHash ports upstream's TestEqualIgnoreHash (vectors B.1):
// each case in both argument orders, and neither template changes.
func TestEqualIgnoreHash(t *testing.T) {
	tmpl := func(nodeName string, annotations, labels map[string]string) rollout.PodTemplate {
		// Upstream also sets metadata.name, which PodTemplate does not keep.
		return rollout.PodTemplate{Labels: labels, Annotations: annotations, Spec: rollout.MustParsePodSpec(fmt.Sprintf(`{"nodeName":%q}`, nodeName))}
	}
	tests := []struct {
		name           string
		former, latter rollout.PodTemplate
		want           bool
		reason         string
	}{
		{
			name:   "Same spec, same labels",
			former: tmpl("foo-node", map[string]string{}, map[string]string{utHash: "value-1", "something": "else"}),
			latter: tmpl("foo-node", map[string]string{}, map[string]string{utHash: "value-1", "something": "else"}),
			want:   true,
		},
		{
			name:   "Same spec, only pod-template-hash label value is different",
			former: tmpl("foo-node", map[string]string{}, map[string]string{utHash: "value-1", "something": "else"}),
			latter: tmpl("foo-node", map[string]string{}, map[string]string{utHash: "value-2", "something": "else"}),
			want:   true,
		},
		{
			name:   "Same spec, the former doesn't have pod-template-hash label",
			former: tmpl("foo-node", map[string]string{}, map[string]string{"something": "else"}),
			latter: tmpl("foo-node", map[string]string{}, map[string]string{utHash: "value-2", "something": "else"}),
			want:   true,
		},
		{
			name:   "Same spec, the label is different, the former doesn't have pod-template-hash label, same number of labels",
			former: tmpl("foo-node", map[string]string{}, map[string]string{"something": "else"}),
			latter: tmpl("foo-node", map[string]string{}, map[string]string{utHash: "value-2"}),
			want:   false,
		},
		{
			name:   "Same spec, the label is different, the latter doesn't have pod-template-hash label, same number of labels",
			former: tmpl("foo-node", map[string]string{}, map[string]string{utHash: "value-1"}),
			latter: tmpl("foo-node", map[string]string{}, map[string]string{"something": "else"}),
			want:   false,
		},
		{
			name:   "Same spec, the label is different, and the pod-template-hash label value is the same",
			former: tmpl("foo-node", map[string]string{}, map[string]string{utHash: "value-1"}),
			latter: tmpl("foo-node", map[string]string{}, map[string]string{utHash: "value-1", "something": "else"}),
			want:   false,
		},
		{
			name:   "Different spec, same labels",
			former: tmpl("foo-node", map[string]string{"former": "value"}, map[string]string{utHash: "value-1", "something": "else"}),
			latter: tmpl("foo-node", map[string]string{"latter": "value"}, map[string]string{utHash: "value-1", "something": "else"}),
			want:   false,
		},
		{
			name:   "Different spec, different pod-template-hash label value",
			former: tmpl("foo-node", map[string]string{}, map[string]string{utHash: "value-1", "something": "else"}),
			latter: tmpl("foo-node", map[string]string{}, map[string]string{utHash: "value-2", "something": "else"}),
			want:   true,
			reason: "upstream's templates differ only in metadata.name (foo-1, foo-2), which PodTemplate does not keep; upstream says false",
		},
		{
			name:   "Different spec, the former doesn't have pod-template-hash label",
			former: tmpl("foo-node-1", map[string]string{}, map[string]string{"something": "else"}),
			latter: tmpl("foo-node-2", map[string]string{}, map[string]string{utHash: "value-2", "something": "else"}),
			want:   false,
		},
		{
			name:   "Different spec, different labels",
			former: tmpl("foo-node-1", map[string]string{}, map[string]string{"something": "else"}),
			latter: tmpl("foo-node-2", map[string]string{}, map[string]string{"nothing": "else"}),
			want:   false,
		},
		// Not upstream: nil and empty maps are equal (R-EQ-1).
		{
			name:   "nil and empty label maps",
			former: tmpl("foo-node", nil, nil),
			latter: tmpl("foo-node", map[string]string{}, map[string]string{utHash: "x"}),
			want:   true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, order := range [][2]rollout.PodTemplate{{tt.former, tt.latter}, {tt.latter, tt.former}} {
				a, b := order[0], order[1]
				wantA, wantB := a.Labels, b.Labels
				a.Labels, b.Labels = maps.Clone(a.Labels), maps.Clone(b.Labels)
				if diff := cmp.Diff(tt.want, rollout.EqualIgnoreHash(a, b)); diff != "" {
					t.Errorf("EqualIgnoreHash() mismatch (-want +got):\n%s", diff)
				}
				if diff := cmp.Diff(wantA, a.Labels); diff != "" {
					t.Errorf("EqualIgnoreHash() changed the first labels (-want +got):\n%s", diff)
				}
				if diff := cmp.Diff(wantB, b.Labels); diff != "" {
					t.Errorf("EqualIgnoreHash() changed the second labels (-want +got):\n%s", diff)
				}
			}
		})
	}
}

// utFindFixtures is the fixture of upstream's TestFindNewReplicaSet and
// TestFindOldReplicaSets (vectors B.2, B.3).
func utFindFixtures(newSize int32) (d rollout.Deployment, newRS, newRSDup, oldRS rollout.ReplicaSet) {
	now := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	d = utGenerateDeployment("nginx")
	newRS = utGenerateRS(d, "nginx-new", "uid-new")
	newRS.Spec.Replicas = newSize
	// generateRS shares the label map with the template.
	newRS.Labels[utHash] = "hash"
	newRS.Spec.Template.Labels = newRS.Labels
	newRS.CreationTimestamp = now.Add(time.Minute)

	newRSDup = utGenerateRS(d, "nginx-dup", "uid-dup")
	newRSDup.Labels[utHash] = "different-hash"
	newRSDup.Spec.Template.Labels = newRSDup.Labels
	newRSDup.CreationTimestamp = now

	oldD := utGenerateDeployment("nginx")
	oldD.Spec.Template.Spec = utContainerSpec("nginx-old-1", "nginx")
	oldRS = utGenerateRS(oldD, "nginx-old", "uid-old")
	return d, newRS, newRSDup, oldRS
}

// TestFindNewReplicaSet ports upstream's TestFindNewReplicaSet (B.2).
func TestFindNewReplicaSet(t *testing.T) {
	d, newRS, newRSDup, oldRS := utFindFixtures(0)
	type result struct {
		RS rollout.ReplicaSet
		OK bool
	}
	tests := []struct {
		name string
		sets []rollout.ReplicaSet
		want result
	}{
		{
			name: "Get new ReplicaSet with the same template as Deployment spec but different pod-template-hash value",
			sets: []rollout.ReplicaSet{newRS, oldRS},
			want: result{newRS, true},
		},
		{
			name: "Get the oldest new ReplicaSet when there are more than one ReplicaSet with the same template",
			sets: []rollout.ReplicaSet{newRS, oldRS, newRSDup},
			want: result{newRSDup, true},
		},
		{
			name: "Get nil new ReplicaSet",
			sets: []rollout.ReplicaSet{oldRS},
			want: result{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := utCopies(tt.sets)
			rs, ok := rollout.FindNewReplicaSet(d, tt.sets)
			if diff := cmp.Diff(tt.want, result{rs, ok}); diff != "" {
				t.Errorf("FindNewReplicaSet() mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(before, tt.sets); diff != "" {
				t.Errorf("FindNewReplicaSet() modified its input (-before +after):\n%s", diff)
			}
		})
	}
}

// TestFindOldReplicaSets ports upstream's TestFindOldReplicaSets (B.3):
// all old ReplicaSets oldest first, and those with replicas.
func TestFindOldReplicaSets(t *testing.T) {
	d, newRS, newRSDup, oldRS := utFindFixtures(1)
	oldRS.CreationTimestamp = newRSDup.CreationTimestamp.Add(-time.Minute)
	tests := []struct {
		name         string
		sets         []rollout.ReplicaSet
		wantAll      []rollout.ReplicaSet
		wantReplicas []rollout.ReplicaSet
	}{
		{
			name:    "Get old ReplicaSets",
			sets:    []rollout.ReplicaSet{newRS, oldRS},
			wantAll: []rollout.ReplicaSet{oldRS},
		},
		{
			name:    "Get old ReplicaSets with no new ReplicaSet",
			sets:    []rollout.ReplicaSet{oldRS},
			wantAll: []rollout.ReplicaSet{oldRS},
		},
		{
			name:         "Get old ReplicaSets with two new ReplicaSets, only the oldest new ReplicaSet is seen as new ReplicaSet",
			sets:         []rollout.ReplicaSet{oldRS, newRS, newRSDup},
			wantAll:      []rollout.ReplicaSet{oldRS, newRS},
			wantReplicas: []rollout.ReplicaSet{newRS},
		},
		{
			name: "Get empty old ReplicaSets",
			sets: []rollout.ReplicaSet{newRS},
		},
		// Not upstream: the result is oldest first whatever the input order.
		{
			name:         "input newest first",
			sets:         []rollout.ReplicaSet{newRS, newRSDup, oldRS},
			wantAll:      []rollout.ReplicaSet{oldRS, newRS},
			wantReplicas: []rollout.ReplicaSet{newRS},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := utCopies(tt.sets)
			withReplicas, all := rollout.FindOldReplicaSets(d, tt.sets)
			if diff := cmp.Diff(tt.wantAll, all); diff != "" {
				t.Errorf("FindOldReplicaSets() all mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantReplicas, withReplicas); diff != "" {
				t.Errorf("FindOldReplicaSets() with replicas mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(before, tt.sets); diff != "" {
				t.Errorf("FindOldReplicaSets() modified its input (-before +after):\n%s", diff)
			}
		})
	}
}

// TestGetReplicaCountForReplicaSets ports upstream's test of the same name
// (B.4), including the terminating count that is unknown once a synced
// ReplicaSet does not report it.
func TestGetReplicaCountForReplicaSets(t *testing.T) {
	mk := func(name string, obsGen int64, spec, status int32, terminating rollout.OptionalInt32) rollout.ReplicaSet {
		rs := utGenerateRS(utGenerateDeployment(name), name, "uid-"+name)
		rs.Status.ObservedGeneration = obsGen
		rs.Spec.Replicas = spec
		rs.Status.Replicas = status
		rs.Status.TerminatingReplicas = terminating
		return rs
	}
	rs1 := mk("foo-rs", 1, 1, 2, rollout.Int32(3))
	rs2 := mk("bar-rs", 0, 2, 3, rollout.Int32(1)) // upstream sets rs1's generation twice
	rs3 := mk("unsynced-rs", 0, 3, 0, rollout.OptionalInt32{})
	rs4 := mk("dropped-rs", 1, 1, 1, rollout.OptionalInt32{})

	type counts struct {
		Spec, Status     int64
		Terminating      int64
		TerminatingKnown bool
	}
	tests := []struct {
		name string
		sets []rollout.ReplicaSet
		want counts
	}{
		{name: "scaling down rs1", sets: []rollout.ReplicaSet{rs1}, want: counts{1, 2, 3, true}},
		{name: "scaling down rs1 and rs2", sets: []rollout.ReplicaSet{rs1, rs2}, want: counts{3, 5, 4, true}},
		{name: "scaling up rs3", sets: []rollout.ReplicaSet{rs3}, want: counts{3, 0, 0, true}},
		{name: "scaling down rs1 and rs2 and scaling up rs3", sets: []rollout.ReplicaSet{rs1, rs2, rs3}, want: counts{6, 5, 4, true}},
		{name: "invalid/unknown terminating status for rs4", sets: []rollout.ReplicaSet{rs4}, want: counts{1, 1, 0, false}},
		{name: "invalid/unknown terminating status for rs4 with rs1, rs2 and rs3", sets: []rollout.ReplicaSet{rs1, rs2, rs3, rs4}, want: counts{7, 6, 0, false}},
		// Not upstream: the unknown count stays unknown whatever follows.
		{name: "rs4 first", sets: []rollout.ReplicaSet{rs4, rs1}, want: counts{2, 3, 0, false}},
		{name: "no sets", want: counts{0, 0, 0, true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := utCopies(tt.sets)
			term, known := rollout.GetTerminatingReplicaCountForReplicaSets(tt.sets)
			got := counts{
				Spec:             rollout.GetReplicaCountForReplicaSets(tt.sets),
				Status:           rollout.GetActualReplicaCountForReplicaSets(tt.sets),
				Terminating:      term,
				TerminatingKnown: known,
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Get*ReplicaCountForReplicaSets() mismatch (-want +got):\n%s", diff)
			}
			c := rollout.Count(tt.sets)
			if diff := cmp.Diff(tt.want, counts{c.Spec, c.Replicas, c.Terminating, c.TerminatingKnown}); diff != "" {
				t.Errorf("Count() mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(before, tt.sets); diff != "" {
				t.Errorf("Count() modified its input (-before +after):\n%s", diff)
			}
		})
	}
}

// TestCountReadyAvailable checks the two sums upstream's count test does
// not cover.
func TestCountReadyAvailable(t *testing.T) {
	sets := []rollout.ReplicaSet{
		{Status: rollout.ReplicaSetStatus{ReadyReplicas: 2, AvailableReplicas: 1}},
		{Status: rollout.ReplicaSetStatus{ReadyReplicas: math.MaxInt32, AvailableReplicas: math.MaxInt32}},
	}
	got := []int64{rollout.GetReadyReplicaCountForReplicaSets(sets), rollout.GetAvailableReplicaCountForReplicaSets(sets)}
	want := []int64{math.MaxInt32 + 2, math.MaxInt32 + 1} // int64 sums do not wrap
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Get{Ready,Available}ReplicaCountForReplicaSets() mismatch (-want +got):\n%s", diff)
	}
}

// TestResolveFenceposts ports upstream's TestResolveFenceposts (B.5) at the
// rollout level. Upstream's values are strings or nil: nil is the count 0
// (upstream's default), and the two malformed strings fail in surge.Parse,
// before any resolution.
func TestResolveFenceposts(t *testing.T) {
	tests := []struct {
		name                       string
		maxSurge, maxUnavailable   string // "" is nil
		desired                    int32
		wantSurge, wantUnavailable int32
		wantErr                    bool
	}{
		{name: "0", maxSurge: "0%", maxUnavailable: "0%", desired: 0, wantSurge: 0, wantUnavailable: 1},
		{name: "1", maxSurge: "39%", maxUnavailable: "39%", desired: 10, wantSurge: 4, wantUnavailable: 3},
		{name: "2", maxSurge: "oops", maxUnavailable: "39%", desired: 10, wantErr: true},
		{name: "3", maxSurge: "55%", maxUnavailable: "urg", desired: 10, wantErr: true},
		{name: "4", maxUnavailable: "39%", desired: 10, wantSurge: 0, wantUnavailable: 3},
		{name: "5", maxSurge: "39%", desired: 10, wantSurge: 4, wantUnavailable: 0},
		{name: "6", desired: 10, wantSurge: 0, wantUnavailable: 1},
	}
	parse := func(s string) (surge.Value, error) {
		if s == "" {
			return surge.Value{}, nil
		}
		return surge.Parse(s)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ms, err1 := parse(tt.maxSurge)
			mu, err2 := parse(tt.maxUnavailable)
			if gotErr := err1 != nil || err2 != nil; gotErr != tt.wantErr {
				t.Fatalf("surge.Parse(%q, %q) errors = %v, %v; want an error: %t", tt.maxSurge, tt.maxUnavailable, err1, err2, tt.wantErr)
			}
			if tt.wantErr {
				return
			}
			s, u := rollout.ResolveFenceposts(ms, mu, tt.desired)
			if diff := cmp.Diff([2]int32{tt.wantSurge, tt.wantUnavailable}, [2]int32{s, u}); diff != "" {
				t.Errorf("ResolveFenceposts() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestFencepostVectors ports vectors D.1: ResolveFenceposts, MaxSurge,
// MaxUnavailable and MinAvailable of RollingUpdate Deployments, as computed
// by upstream's code.
func TestFencepostVectors(t *testing.T) {
	tests := []struct {
		name                     string
		maxSurge, maxUnavailable surge.Value
		replicas                 int32
		want                     [5]int32 // resolved surge, unavailable; MaxSurge, MaxUnavailable, MinAvailable
	}{
		{name: `"25%" "25%" of 10`, maxSurge: surge.Percent(25), maxUnavailable: surge.Percent(25), replicas: 10, want: [5]int32{3, 2, 3, 2, 8}},
		{name: `"25%" "25%" of 1`, maxSurge: surge.Percent(25), maxUnavailable: surge.Percent(25), replicas: 1, want: [5]int32{1, 0, 1, 0, 1}},
		{name: `"25%" "25%" of 0`, maxSurge: surge.Percent(25), maxUnavailable: surge.Percent(25), replicas: 0, want: [5]int32{0, 1, 0, 0, 0}},
		{name: `0 "25%" of 3`, maxSurge: surge.Count(0), maxUnavailable: surge.Percent(25), replicas: 3, want: [5]int32{0, 1, 0, 1, 2}},
		{name: `"0%" "0%" of 5`, maxSurge: surge.Percent(0), maxUnavailable: surge.Percent(0), replicas: 5, want: [5]int32{0, 1, 0, 1, 4}},
		{name: `"1%" "1%" of 2`, maxSurge: surge.Percent(1), maxUnavailable: surge.Percent(1), replicas: 2, want: [5]int32{1, 0, 1, 0, 2}},
		{name: `"100%" "100%" of 7`, maxSurge: surge.Percent(100), maxUnavailable: surge.Percent(100), replicas: 7, want: [5]int32{7, 7, 7, 7, 0}},
		{name: `3 0 of 10`, maxSurge: surge.Count(3), maxUnavailable: surge.Count(0), replicas: 10, want: [5]int32{3, 0, 3, 0, 10}},
		{name: `"30%" "30%" of 7`, maxSurge: surge.Percent(30), maxUnavailable: surge.Percent(30), replicas: 7, want: [5]int32{3, 2, 3, 2, 5}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := utRolling(tt.replicas, tt.maxSurge, tt.maxUnavailable)
			s, u := rollout.ResolveFenceposts(tt.maxSurge, tt.maxUnavailable, tt.replicas)
			got := [5]int32{s, u, rollout.MaxSurge(d), rollout.MaxUnavailable(d), rollout.MinAvailable(d)}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ResolveFenceposts(), MaxSurge(), MaxUnavailable(), MinAvailable() mismatch (-want +got):\n%s", diff)
			}
			l := rollout.Limits(d)
			if diff := cmp.Diff([2]int32{tt.want[2], tt.want[3]}, [2]int32{l.Surge, l.Unavailable}); diff != "" {
				t.Errorf("Limits() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestNewRSNewReplicas ports upstream's TestNewRSNewReplicas (B.6): the
// new ReplicaSet is not among allRSs, which hold one ReplicaSet of 5.
func TestNewRSNewReplicas(t *testing.T) {
	tests := []struct {
		name          string
		strategy      rollout.StrategyType
		depReplicas   int32
		newRSReplicas int32
		maxSurge      int32
		want          int32
		wantErr       bool
	}{
		{name: "can not scale up - to newRSReplicas", strategy: rollout.RollingUpdateStrategy, depReplicas: 1, newRSReplicas: 5, maxSurge: 1, want: 5},
		{name: "scale up - to depReplicas", strategy: rollout.RollingUpdateStrategy, depReplicas: 6, newRSReplicas: 2, maxSurge: 10, want: 6},
		{name: "recreate - to depReplicas", strategy: rollout.RecreateStrategy, depReplicas: 3, newRSReplicas: 1, maxSurge: 1, want: 3},
		// Not upstream: an unknown strategy is an error, as upstream's.
		{name: "no strategy type", strategy: "", depReplicas: 3, newRSReplicas: 1, maxSurge: 1, wantErr: true},
	}
	d := utGenerateDeployment("nginx")
	newRS := utGenerateRS(d, "nginx-new", "uid-new")
	rs5 := utGenerateRS(d, "nginx-5", "uid-5")
	rs5.Spec.Replicas = 5
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := d.DeepCopy()
			d.Spec.Replicas = tt.depReplicas
			d.Spec.Strategy = rollout.Strategy{Type: tt.strategy, RollingUpdate: rollout.RollingUpdate{
				MaxUnavailable: surge.Count(1), MaxSurge: surge.Count(tt.maxSurge),
			}}
			n := newRS.DeepCopy()
			n.Spec.Replicas = tt.newRSReplicas
			all := []rollout.ReplicaSet{rs5}
			before := utCopies(all)
			got, err := rollout.NewRSNewReplicas(d, all, n)
			if (err != nil) != tt.wantErr {
				t.Fatalf("NewRSNewReplicas() error = %v, want an error: %t", err, tt.wantErr)
			}
			if tt.wantErr {
				return
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("NewRSNewReplicas() mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(before, all); diff != "" {
				t.Errorf("NewRSNewReplicas() modified its input (-before +after):\n%s", diff)
			}
		})
	}
}

var (
	utP1 = rollout.Condition{Type: rollout.Progressing, Status: rollout.ConditionFalse, Reason: "ForSomeReason"}
	utP2 = rollout.Condition{Type: rollout.Progressing, Status: rollout.ConditionTrue, Reason: "BecauseItIs"}
	utA  = rollout.Condition{Type: rollout.Available, Status: rollout.ConditionTrue, Reason: "AwesomeController"}
)

// TestGetCondition ports upstream's TestGetCondition (B.7).
func TestGetCondition(t *testing.T) {
	s := rollout.DeploymentStatus{Conditions: []rollout.Condition{utP1, utA}}
	type result struct {
		C  rollout.Condition
		OK bool
	}
	tests := []struct {
		name string
		t    rollout.ConditionType
		want result
	}{
		{name: "condition exists", t: rollout.Available, want: result{utA, true}},
		{name: "condition does not exist", t: rollout.ReplicaFailure, want: result{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, ok := rollout.GetDeploymentCondition(s, tt.t)
			if diff := cmp.Diff(tt.want, result{c, ok}); diff != "" {
				t.Errorf("GetDeploymentCondition() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestSetCondition ports upstream's TestSetCondition (B.7), and checks the
// input's conditions are not changed in place.
func TestSetCondition(t *testing.T) {
	t0 := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	t1 := t0.Add(time.Hour)
	at := func(c rollout.Condition, update, transition time.Time) rollout.Condition {
		c.LastUpdateTime, c.LastTransitionTime = update, transition
		return c
	}
	tests := []struct {
		name   string
		status []rollout.Condition
		cond   rollout.Condition
		want   []rollout.Condition
	}{
		{name: "set for the first time", cond: utA, want: []rollout.Condition{utA}},
		{name: "simple set", status: []rollout.Condition{utP1}, cond: utA, want: []rollout.Condition{utP1, utA}},
		{name: "overwrite", status: []rollout.Condition{utP1}, cond: utP2, want: []rollout.Condition{utP2}},
		// Not upstream (R-COND-3): same status and reason keep the old
		// condition; same status, new reason keeps the transition time and
		// moves the condition to the end.
		{
			name:   "same status and reason: unchanged",
			status: []rollout.Condition{at(utP2, t0, t0), utA},
			cond:   at(utP2, t1, t1),
			want:   []rollout.Condition{at(utP2, t0, t0), utA},
		},
		{
			name:   "same status, new reason: keeps the transition time, moves to the end",
			status: []rollout.Condition{at(utA, t0, t0), utP1},
			cond:   at(rollout.Condition{Type: rollout.Available, Status: rollout.ConditionTrue, Reason: "Other"}, t1, t1),
			want:   []rollout.Condition{utP1, at(rollout.Condition{Type: rollout.Available, Status: rollout.ConditionTrue, Reason: "Other"}, t1, t0)},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := rollout.DeploymentStatus{Conditions: tt.status}
			before := slices.Clone(tt.status)
			got := rollout.SetDeploymentCondition(in, tt.cond)
			if diff := cmp.Diff(tt.want, got.Conditions); diff != "" {
				t.Errorf("SetDeploymentCondition() mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(before, tt.status); diff != "" {
				t.Errorf("SetDeploymentCondition() modified its input (-before +after):\n%s", diff)
			}
		})
	}
}

// TestRemoveCondition ports upstream's TestRemoveCondition (B.7); none left
// gives nil.
func TestRemoveCondition(t *testing.T) {
	tests := []struct {
		name   string
		status []rollout.Condition
		t      rollout.ConditionType
		want   []rollout.Condition
	}{
		{name: "remove from empty status", t: rollout.Progressing},
		{name: "simple remove", status: []rollout.Condition{utP1}, t: rollout.Progressing},
		{name: "doesn't remove anything", status: []rollout.Condition{utP1, utA}, t: rollout.ReplicaFailure, want: []rollout.Condition{utP1, utA}},
		// Not upstream: every condition of the type goes, the others keep
		// their order.
		{name: "duplicates", status: []rollout.Condition{utP1, utA, utP2}, t: rollout.Progressing, want: []rollout.Condition{utA}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := slices.Clone(tt.status)
			got := rollout.RemoveDeploymentCondition(rollout.DeploymentStatus{Conditions: tt.status}, tt.t)
			if diff := cmp.Diff(tt.want, got.Conditions); diff != "" {
				t.Errorf("RemoveDeploymentCondition() mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(before, tt.status); diff != "" {
				t.Errorf("RemoveDeploymentCondition() modified its input (-before +after):\n%s", diff)
			}
		})
	}
}

// TestDeploymentComplete ports upstream's TestDeploymentComplete (B.8).
func TestDeploymentComplete(t *testing.T) {
	deployment := func(desired, current, updated, available, maxUnavailable, maxSurge int32) rollout.Deployment {
		d := utRolling(desired, surge.Count(maxSurge), surge.Count(maxUnavailable))
		d.Status = rollout.DeploymentStatus{Replicas: current, UpdatedReplicas: updated, AvailableReplicas: available}
		return d
	}
	tests := []struct {
		name string
		d    rollout.Deployment
		want bool
	}{
		{name: "not complete: min but not all pods become available", d: deployment(5, 5, 5, 4, 1, 0), want: false},
		{name: "not complete: min availability is not honored", d: deployment(5, 5, 5, 3, 1, 0), want: false},
		{name: "complete", d: deployment(5, 5, 5, 5, 0, 0), want: true},
		{name: "not complete: all pods are available but not updated", d: deployment(5, 5, 4, 5, 0, 0), want: false},
		{name: "not complete: still running old pods", d: deployment(1, 2, 1, 1, 0, 1), want: false},
		{name: "not complete: one replica deployment never comes up", d: deployment(1, 1, 1, 0, 1, 1), want: false},
		// Not upstream (R-PRED-1): an unobserved generation is not complete.
		{name: "not complete: generation not observed", d: func() rollout.Deployment {
			d := deployment(5, 5, 5, 5, 0, 0)
			d.Generation = 2
			d.Status.ObservedGeneration = 1
			return d
		}(), want: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, rollout.DeploymentComplete(tt.d, tt.d.Status)); diff != "" {
				t.Errorf("DeploymentComplete() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestDeploymentProgressing ports upstream's TestDeploymentProgressing
// (B.9).
func TestDeploymentProgressing(t *testing.T) {
	status := func(current, updated, ready, available int32) rollout.DeploymentStatus {
		return rollout.DeploymentStatus{Replicas: current, UpdatedReplicas: updated, ReadyReplicas: ready, AvailableReplicas: available}
	}
	tests := []struct {
		name      string
		old, next rollout.DeploymentStatus
		want      bool
	}{
		{name: "progressing: updated pods", old: status(10, 4, 4, 4), next: status(10, 6, 4, 4), want: true},
		{name: "not progressing", old: status(10, 4, 4, 4), next: status(10, 4, 4, 4), want: false},
		{name: "progressing: old pods removed", old: status(10, 4, 6, 6), next: status(8, 4, 6, 6), want: true},
		{name: "not progressing: less new pods", old: status(10, 7, 3, 3), next: status(10, 6, 3, 3), want: false},
		{name: "progressing: less overall but more new pods", old: status(10, 4, 7, 7), next: status(8, 8, 5, 5), want: true},
		{name: "progressing: more ready pods", old: status(10, 10, 9, 8), next: status(10, 10, 10, 8), want: true},
		{name: "progressing: more available pods", old: status(10, 10, 10, 9), next: status(10, 10, 10, 10), want: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := rollout.Deployment{Status: tt.old}
			if diff := cmp.Diff(tt.want, rollout.DeploymentProgressing(d, tt.next)); diff != "" {
				t.Errorf("DeploymentProgressing() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestDeploymentTimedOut ports upstream's TestDeploymentTimedOut (B.10),
// plus the clock going backwards: a now before the condition's update time
// is not a timeout.
func TestDeploymentTimedOut(t *testing.T) {
	at := func(min, sec int) time.Time { return time.Date(2016, 1, 1, 0, min, sec, 0, time.UTC) }
	deployment := func(reason string, pds rollout.OptionalInt32, from time.Time) rollout.Deployment {
		return rollout.Deployment{
			Spec: rollout.DeploymentSpec{ProgressDeadlineSeconds: pds},
			Status: rollout.DeploymentStatus{Conditions: []rollout.Condition{{
				Type: rollout.Progressing, Status: rollout.ConditionTrue, Reason: reason, LastUpdateTime: from,
			}}},
		}
	}
	ten := rollout.Int32(10)
	tests := []struct {
		name string
		d    rollout.Deployment
		now  time.Time
		want bool
	}{
		{name: "nil progressDeadlineSeconds specified - no timeout", d: deployment("", rollout.OptionalInt32{}, at(1, 9)), now: at(1, 20), want: false},
		{name: "infinite progressDeadlineSeconds specified - no timeout", d: deployment("", rollout.Int32(math.MaxInt32), at(1, 9)), now: at(1, 20), want: false},
		{name: "progressDeadlineSeconds: 10s, now - started => 00:01:20 - 00:01:09 => 11s", d: deployment("", ten, at(1, 9)), now: at(1, 20), want: true},
		{name: "progressDeadlineSeconds: 10s, now - started => 00:01:20 - 00:01:11 => 9s", d: deployment("", ten, at(1, 11)), now: at(1, 20), want: false},
		{name: "previous status was a complete deployment", d: deployment(rollout.ReasonNewReplicaSetAvailable, rollout.OptionalInt32{}, time.Time{}), want: false},
		// Not upstream (R-PRED-3).
		{name: "exactly at the deadline is not a timeout", d: deployment("", ten, at(1, 10)), now: at(1, 20), want: false},
		{name: "now before the update time is not a timeout", d: deployment("", ten, at(1, 9)), now: at(0, 0), want: false},
		{name: "complete with a deadline never times out", d: deployment(rollout.ReasonNewReplicaSetAvailable, ten, at(0, 0)), now: at(59, 0), want: false},
		{name: "already timed out", d: deployment(rollout.ReasonProgressDeadlineExceeded, ten, at(1, 9)), now: at(1, 9), want: true},
		{name: "no Progressing condition", d: rollout.Deployment{Spec: rollout.DeploymentSpec{ProgressDeadlineSeconds: ten}}, now: at(59, 0), want: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, rollout.DeploymentTimedOut(tt.d, tt.d.Status, tt.now)); diff != "" {
				t.Errorf("DeploymentTimedOut() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestMaxUnavailable ports upstream's TestMaxUnavailable (B.11).
func TestMaxUnavailable(t *testing.T) {
	tests := []struct {
		name string
		d    rollout.Deployment
		want int32
	}{
		{name: "maxUnavailable less than replicas", d: utRolling(10, surge.Count(1), surge.Count(5)), want: 5},
		{name: "maxUnavailable equal replicas", d: utRolling(10, surge.Count(1), surge.Count(10)), want: 10},
		{name: "maxUnavailable greater than replicas", d: utRolling(5, surge.Count(1), surge.Count(10)), want: 5},
		{name: "maxUnavailable with replicas is 0", d: utRolling(0, surge.Count(1), surge.Count(10)), want: 0},
		{name: "maxUnavailable with Recreate deployment strategy", d: rollout.Deployment{Spec: rollout.DeploymentSpec{Strategy: rollout.Strategy{Type: rollout.RecreateStrategy}}}, want: 0},
		{name: "maxUnavailable less than replicas with percents", d: utRolling(10, surge.Count(1), surge.Percent(50)), want: 5},
		{name: "maxUnavailable equal replicas with percents", d: utRolling(10, surge.Count(1), surge.Percent(100)), want: 10},
		{name: "maxUnavailable greater than replicas with percents", d: utRolling(5, surge.Count(1), surge.Percent(100)), want: 5},
		// Not upstream (R-FENCE-2): a Recreate Deployment with replicas and
		// leftover RollingUpdate limits still has none.
		{name: "Recreate with replicas", d: func() rollout.Deployment {
			d := utRolling(10, surge.Count(1), surge.Count(5))
			d.Spec.Strategy.Type = rollout.RecreateStrategy
			return d
		}(), want: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, rollout.MaxUnavailable(tt.d)); diff != "" {
				t.Errorf("MaxUnavailable() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestMinAvailable ports upstream's TestMinAvailable (B.12).
func TestMinAvailable(t *testing.T) {
	tests := []struct {
		name string
		d    rollout.Deployment
		want int32
	}{
		{name: "replicas greater than maxUnavailable", d: utRolling(10, surge.Count(1), surge.Count(5)), want: 5},
		{name: "replicas equal maxUnavailable", d: utRolling(10, surge.Count(1), surge.Count(10)), want: 0},
		{name: "replicas less than maxUnavailable", d: utRolling(5, surge.Count(1), surge.Count(10)), want: 0},
		{name: "replicas is 0", d: utRolling(0, surge.Count(1), surge.Count(10)), want: 0},
		{name: "minAvailable with Recreate deployment strategy", d: rollout.Deployment{Spec: rollout.DeploymentSpec{Replicas: 10, Strategy: rollout.Strategy{Type: rollout.RecreateStrategy}}}, want: 0},
		{name: "replicas greater than maxUnavailable with percents", d: utRolling(10, surge.Count(1), surge.Percent(60)), want: 4},
		{name: "replicas equal maxUnavailable with percents", d: utRolling(10, surge.Count(1), surge.Percent(100)), want: 0},
		{name: "replicas less than maxUnavailable with percents", d: utRolling(5, surge.Count(1), surge.Percent(100)), want: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, rollout.MinAvailable(tt.d)); diff != "" {
				t.Errorf("MinAvailable() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestGetNonNegativeInt32FromAnnotation ports upstream's test of that name
// (B.13) through the two annotation getters. Upstream also returns the
// parse error; ours reports only whether the value is valid.
func TestGetNonNegativeInt32FromAnnotation(t *testing.T) {
	tests := []struct {
		name   string
		value  string
		absent bool // no annotations at all
		want   int32
		wantOK bool
	}{
		{name: "invalid empty", absent: true},
		{name: "invalid", value: "invalid"},
		{name: "invalid negative ", value: "-1"},
		{name: "valid zero", value: "0", want: 0, wantOK: true},
		{name: "valid", value: "13", want: 13, wantOK: true},
		{name: "valid max", value: "2147483647", want: math.MaxInt32, wantOK: true},
		{name: "invalid max out of range", value: "2147483648"},
		{name: "invalid max out of range 2", value: "4294967296"},
		// Not upstream (R-ANN-1): no sign, no spaces, not empty.
		{name: "plus sign", value: "+1"},
		{name: "space", value: " 1"},
		{name: "empty string", value: ""},
		{name: "leading zeros", value: "007", want: 7, wantOK: true},
	}
	type result struct {
		V  int32
		OK bool
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, key := range []string{rollout.DesiredReplicasAnnotation, rollout.MaxReplicasAnnotation} {
				rs := utGenerateRS(utGenerateDeployment("nginx"), "nginx-rs", "uid")
				if !tt.absent {
					rs.Annotations = map[string]string{key: tt.value, "foo": "2"}
				}
				get := rollout.GetDesiredReplicasAnnotation
				if key == rollout.MaxReplicasAnnotation {
					get = rollout.GetMaxReplicasAnnotation
				}
				v, ok := get(rs)
				if diff := cmp.Diff(result{tt.want, tt.wantOK}, result{v, ok}); diff != "" {
					t.Errorf("%s: Get*ReplicasAnnotation() mismatch (-want +got):\n%s", key, diff)
				}
			}
		})
	}
}

// TestAnnotationUtils ports the SetReplicasAnnotations and IsSaturated
// parts of upstream's TestAnnotationUtils (B.14). The revision-history
// part is in controller_internal_test.go.
func TestAnnotationUtils(t *testing.T) {
	d := utGenerateDeployment("nginx")
	d.Annotations[rollout.RevisionAnnotation] = "1"
	rs := utGenerateRS(d, "nginx-rs", "uid")

	t.Run("SetReplicasAnnotations", func(t *testing.T) {
		before := rs.DeepCopy()
		got, changed := rollout.SetReplicasAnnotations(rs, 10, 11)
		if diff := cmp.Diff(true, changed); diff != "" {
			t.Errorf("SetReplicasAnnotations() changed mismatch (-want +got):\n%s", diff)
		}
		want := map[string]string{rollout.DesiredReplicasAnnotation: "10", rollout.MaxReplicasAnnotation: "11"}
		if diff := cmp.Diff(want, got.Annotations); diff != "" {
			t.Errorf("SetReplicasAnnotations() mismatch (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff(before, rs); diff != "" {
			t.Errorf("SetReplicasAnnotations() modified its input (-before +after):\n%s", diff)
		}
		// Not upstream (R-ANN-2): the same values again change nothing; a
		// new max alone does.
		if _, changed := rollout.SetReplicasAnnotations(got, 10, 11); changed {
			t.Errorf("SetReplicasAnnotations(same values) = changed, want unchanged")
		}
		again, changed := rollout.SetReplicasAnnotations(got, 10, 12)
		if !changed || again.Annotations[rollout.MaxReplicasAnnotation] != "12" {
			t.Errorf("SetReplicasAnnotations(new max) = %v, %t; want max 12, changed", again.Annotations, changed)
		}
	})

	saturated := rs.DeepCopy()
	saturated.Annotations = map[string]string{rollout.DesiredReplicasAnnotation: "1"}
	saturated.Status.AvailableReplicas = 1
	saturated.Spec.Replicas = 1
	tests := []struct {
		name   string
		mutate func(*rollout.ReplicaSet)
		want   bool
	}{
		{name: "IsSaturated", mutate: func(*rollout.ReplicaSet) {}, want: true},
		// Not upstream (R-SAT-1): each of the three conditions matters.
		{name: "not all available", mutate: func(rs *rollout.ReplicaSet) { rs.Status.AvailableReplicas = 0 }, want: false},
		{name: "stale desired-replicas", mutate: func(rs *rollout.ReplicaSet) { rs.Annotations[rollout.DesiredReplicasAnnotation] = "2" }, want: false},
		{name: "no desired-replicas", mutate: func(rs *rollout.ReplicaSet) { rs.Annotations = nil }, want: false},
		{name: "another size", mutate: func(rs *rollout.ReplicaSet) { rs.Spec.Replicas = 2 }, want: false},
		{name: "desired-replicas with a sign (Q-8)", mutate: func(rs *rollout.ReplicaSet) { rs.Annotations[rollout.DesiredReplicasAnnotation] = "+1" }, want: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs := saturated.DeepCopy()
			tt.mutate(&rs)
			if diff := cmp.Diff(tt.want, rollout.IsSaturated(d, rs)); diff != "" {
				t.Errorf("IsSaturated() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestReplicasAnnotationsNeedUpdate ports upstream's test of that name
// (B.15), called with desired 10 and max 20.
func TestReplicasAnnotationsNeedUpdate(t *testing.T) {
	tests := []struct {
		name        string
		annotations map[string]string
		want        bool
	}{
		{name: "test Annotations nil", want: true},
		{name: "test desiredReplicas update", annotations: map[string]string{rollout.DesiredReplicasAnnotation: "8", rollout.MaxReplicasAnnotation: "20"}, want: true},
		{name: "test maxReplicas update", annotations: map[string]string{rollout.DesiredReplicasAnnotation: "10", rollout.MaxReplicasAnnotation: "16"}, want: true},
		{name: "test needn't update", annotations: map[string]string{rollout.DesiredReplicasAnnotation: "10", rollout.MaxReplicasAnnotation: "20"}, want: false},
		// Not upstream (R-ANN-3): the comparison is of strings.
		{name: "same number, other spelling", annotations: map[string]string{rollout.DesiredReplicasAnnotation: "010", rollout.MaxReplicasAnnotation: "20"}, want: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs := rollout.ReplicaSet{
				ObjectMeta: rollout.ObjectMeta{Name: "hello", Namespace: "test", Annotations: tt.annotations},
				Spec:       rollout.ReplicaSetSpec{Selector: rollout.LabelSelector{MatchLabels: map[string]string{"foo": "bar"}}},
			}
			if diff := cmp.Diff(tt.want, rollout.ReplicasAnnotationsNeedUpdate(rs, 10, 20)); diff != "" {
				t.Errorf("ReplicasAnnotationsNeedUpdate() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestGetReplicaSetProportion ports upstream's TestGetReplicaSetFraction
// (B.17) through GetReplicaSetProportion: with an unlimited budget (toAdd
// ±MaxInt32, nothing added yet) the proportion is the fraction. Then the
// budget rows (R-SCALE-5) and vector D.6.
func TestGetReplicaSetProportion(t *testing.T) {
	type fixture struct {
		replicas, statusReplicas, maxSurge, rsReplicas int32
		maxAnnotation                                  string // "" is absent
	}
	build := func(f fixture) (rollout.ReplicaSet, rollout.Deployment) {
		d := utGenerateDeployment("nginx")
		d.Status.Replicas = f.statusReplicas
		d.Spec.Replicas = f.replicas
		d.Spec.Strategy = rollout.Strategy{Type: rollout.RollingUpdateStrategy, RollingUpdate: rollout.RollingUpdate{
			MaxSurge: surge.Count(f.maxSurge), MaxUnavailable: surge.Count(1),
		}}
		rs := utGenerateRS(d, "nginx-rs", "uid")
		if f.maxAnnotation != "" {
			rs.Annotations = map[string]string{rollout.MaxReplicasAnnotation: f.maxAnnotation}
		}
		rs.Spec.Replicas = f.rsReplicas
		return rs, d
	}
	fractions := []struct {
		name string
		f    fixture
		want int32
	}{
		{name: "empty deployment always scales to 0", f: fixture{0, 0, 0, 10, ""}, want: -10},
		{name: "unsynced deployment does not scale when max-replicas annotation is missing (removed by a 3rd party)", f: fixture{10, 0, 0, 5, ""}, want: 0},
		{name: "unsynced deployment does not scale when max-replicas annotation is incorrectly set to 0 (by a 3rd party)", f: fixture{10, 0, 0, 5, "0"}, want: 0},
		{name: "scale up by 1/5 should increase RS replicas by 1/5 when max-replicas annotation is missing (removed by a 3rd party)", f: fixture{120, 100, 0, 50, ""}, want: 10},
		{name: "scale up by 1/5 should increase RS replicas by 1/5 when max-replicas annotation is incorrectly set to 0 (by a 3rd party)", f: fixture{120, 100, 0, 50, "0"}, want: 10},
		{name: "scale up by 1/5 should increase RS replicas by 1/5", f: fixture{120, 0, 0, 50, "100"}, want: 10},
		{name: "scale up with maxSurge by 1/5 should increase RS replicas approximately by 1/5", f: fixture{120, 0, 10, 50, "110"}, want: 9},
		{name: "scale down by 1/6 should decrease RS replicas by 1/6", f: fixture{10, 0, 0, 6, "12"}, want: -1},
		{name: "scale down with maxSurge by 1/6 should decrease RS replicas approximately by 1/6", f: fixture{100, 0, 10, 50, "130"}, want: -8},
	}
	for _, tt := range fractions {
		t.Run(tt.name, func(t *testing.T) {
			rs, d := build(tt.f)
			for _, toAdd := range []int32{math.MaxInt32, -math.MaxInt32} {
				if diff := cmp.Diff(tt.want, rollout.GetReplicaSetProportion(rs, d, toAdd, 0)); diff != "" {
					t.Errorf("GetReplicaSetProportion(toAdd %d) mismatch (-want +got):\n%s", toAdd, diff)
				}
				if diff := cmp.Diff(tt.want, rollout.GetProportion(rs, d, toAdd, 0)); diff != "" {
					t.Errorf("GetProportion(toAdd %d) mismatch (-want +got):\n%s", toAdd, diff)
				}
			}
		})
	}

	upFifth := fixture{120, 0, 0, 50, "100"} // fraction +10
	downSixth := fixture{10, 0, 0, 6, "12"}  // fraction -1
	budget := []struct {
		name         string
		f            fixture
		toAdd, added int32
		want         int32
		reason       string
	}{
		{name: "budget smaller than the fraction", f: upFifth, toAdd: 5, added: 0, want: 5},
		{name: "budget partly used", f: upFifth, toAdd: 20, added: 15, want: 5},
		{name: "budget used up", f: upFifth, toAdd: 20, added: 20, want: 0},
		{name: "nothing to add", f: upFifth, toAdd: 0, added: 0, want: 0},
		{name: "empty ReplicaSet", f: fixture{120, 0, 0, 0, "100"}, toAdd: 20, added: 0, want: 0},
		{name: "shrinking within the budget", f: downSixth, toAdd: -3, added: 0, want: -1},
		{name: "shrinking, budget left -1", f: downSixth, toAdd: -3, added: -2, want: -1},
		{name: "against the direction of toAdd (Q-19)", f: downSixth, toAdd: 3, added: 0, want: -1},
		{
			name: "int32 overflow (vectors D.6, Q-3)", f: fixture{60000, 0, 0, 40000, "50000"}, toAdd: 10000, added: 0, want: 8000,
			reason: "upstream multiplies 40000·60000 in int32 and gets -77899; the exact fraction is 40000·60000/50000 - 40000 = 8000",
		},
	}
	for _, tt := range budget {
		t.Run(tt.name, func(t *testing.T) {
			rs, d := build(tt.f)
			if diff := cmp.Diff(tt.want, rollout.GetReplicaSetProportion(rs, d, tt.toAdd, tt.added)); diff != "" {
				t.Errorf("GetReplicaSetProportion() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestActiveReplicaSetsFiltering ports controller_utils'
// TestActiveReplicaSetsFiltering (B.18). Upstream's list also holds a nil
// entry, which a []ReplicaSet cannot.
func TestActiveReplicaSetsFiltering(t *testing.T) {
	rs := func(name string, replicas int32) rollout.ReplicaSet {
		return rollout.ReplicaSet{ObjectMeta: rollout.ObjectMeta{Name: name}, Spec: rollout.ReplicaSetSpec{Replicas: replicas}}
	}
	tests := []struct {
		name string
		sets []rollout.ReplicaSet
		want []string
	}{
		{name: "zero, foo, bar", sets: []rollout.ReplicaSet{rs("zero", 0), rs("foo", 1), rs("bar", 2)}, want: []string{"foo", "bar"}},
		{name: "none", want: nil},
		{name: "all inactive", sets: []rollout.ReplicaSet{rs("zero", 0)}, want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := utCopies(tt.sets)
			if diff := cmp.Diff(tt.want, utNames(rollout.FilterActiveReplicaSets(tt.sets))); diff != "" {
				t.Errorf("FilterActiveReplicaSets() mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(before, tt.sets); diff != "" {
				t.Errorf("FilterActiveReplicaSets() modified its input (-before +after):\n%s", diff)
			}
		})
	}
}

// TestSortOrders ports vectors D.3 through the Compare functions and the
// sort.Interface types, and checks the revision order (R-PRIM-7).
func TestSortOrders(t *testing.T) {
	t0 := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	rs := func(name string, replicas int32, created time.Time, rev string) rollout.ReplicaSet {
		r := rollout.ReplicaSet{ObjectMeta: rollout.ObjectMeta{Name: name, CreationTimestamp: created}, Spec: rollout.ReplicaSetSpec{Replicas: replicas}}
		if rev != "" {
			r.Annotations = map[string]string{rollout.RevisionAnnotation: rev}
		}
		return r
	}
	d3 := []rollout.ReplicaSet{
		rs("a", 2, t0, ""), rs("b", 2, t0, ""), rs("c", 2, t0.Add(time.Second), ""),
		rs("d", 5, t0, ""), rs("e", 1, t0.Add(time.Second), ""),
	}
	byCompare := func(cmpf func(a, b *rollout.ReplicaSet) int) func([]rollout.ReplicaSet) {
		return func(s []rollout.ReplicaSet) {
			slices.SortStableFunc(s, func(a, b rollout.ReplicaSet) int { return cmpf(&a, &b) })
		}
	}
	tests := []struct {
		name string
		sets []rollout.ReplicaSet
		sort func([]rollout.ReplicaSet)
		want []string
	}{
		{name: "CompareBySizeNewer", sets: d3, sort: byCompare(rollout.CompareBySizeNewer), want: []string{"d", "c", "b", "a", "e"}},
		{name: "CompareBySizeOlder", sets: d3, sort: byCompare(rollout.CompareBySizeOlder), want: []string{"d", "a", "b", "c", "e"}},
		{name: "CompareByCreation", sets: d3, sort: byCompare(rollout.CompareByCreation), want: []string{"a", "b", "d", "c", "e"}},
		{name: "ReplicaSetsBySizeNewer", sets: d3, sort: func(s []rollout.ReplicaSet) { sort.Sort(rollout.ReplicaSetsBySizeNewer(s)) }, want: []string{"d", "c", "b", "a", "e"}},
		{name: "ReplicaSetsBySizeOlder", sets: d3, sort: func(s []rollout.ReplicaSet) { sort.Sort(rollout.ReplicaSetsBySizeOlder(s)) }, want: []string{"d", "a", "b", "c", "e"}},
		{name: "ReplicaSetsByCreationTimestamp", sets: d3, sort: func(s []rollout.ReplicaSet) { sort.Sort(rollout.ReplicaSetsByCreationTimestamp(s)) }, want: []string{"a", "b", "d", "c", "e"}},
		// Upstream: TestDeploymentController_cleanupDeploymentOrder's
		// revision orders (vectors C.7): smaller revision first, an absent
		// revision is 0, equal revisions by creation.
		{
			name: "ReplicaSetsByRevision rs2 < rs4 < rs1 < rs3",
			sets: []rollout.ReplicaSet{rs("foo-1", 0, t0, "3"), rs("foo-2", 0, t0.Add(time.Minute), "1"), rs("foo-3", 0, t0.Add(2*time.Minute), "4"), rs("foo-4", 0, t0.Add(3*time.Minute), "2")},
			sort: func(s []rollout.ReplicaSet) { sort.Sort(rollout.ReplicaSetsByRevision(s)) },
			want: []string{"foo-2", "foo-4", "foo-1", "foo-3"},
		},
		{
			name: "ReplicaSetsByRevision absent revision first",
			sets: []rollout.ReplicaSet{rs("foo-1", 0, t0, "1"), rs("foo-2", 0, t0.Add(time.Minute), "")},
			sort: func(s []rollout.ReplicaSet) { sort.Sort(rollout.ReplicaSetsByRevision(s)) },
			want: []string{"foo-2", "foo-1"},
		},
		{
			name: "ReplicaSetsByRevision equal revisions by creation",
			sets: []rollout.ReplicaSet{rs("foo-2", 0, t0.Add(time.Minute), "1"), rs("foo-1", 0, t0, "1")},
			sort: func(s []rollout.ReplicaSet) { sort.Sort(rollout.ReplicaSetsByRevision(s)) },
			want: []string{"foo-1", "foo-2"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, start := range []string{"as given", "reversed"} {
				s := utCopies(tt.sets)
				if start == "reversed" {
					slices.Reverse(s)
				}
				tt.sort(s)
				if diff := cmp.Diff(tt.want, utNames(s)); diff != "" {
					t.Errorf("%s, input %s: sort mismatch (-want +got):\n%s", tt.name, start, diff)
				}
			}
		})
	}
}

// TestRevisions ports vectors D.4: MaxRevision skips unparsable revisions;
// LastRevision is the second highest of the multiset.
func TestRevisions(t *testing.T) {
	sets := func(revs ...string) []rollout.ReplicaSet {
		var out []rollout.ReplicaSet
		for i, r := range revs {
			out = append(out, rollout.ReplicaSet{ObjectMeta: rollout.ObjectMeta{
				Name: fmt.Sprintf("rs-%d", i), Annotations: map[string]string{rollout.RevisionAnnotation: r},
			}})
		}
		return out
	}
	tests := []struct {
		name     string
		sets     []rollout.ReplicaSet
		wantMax  int64
		wantLast int64
	}{
		{name: `["2","2"]`, sets: sets("2", "2"), wantMax: 2, wantLast: 2},
		{name: `["3","1","2"]`, sets: sets("3", "1", "2"), wantMax: 3, wantLast: 2},
		{name: `["x","5"]`, sets: sets("x", "5"), wantMax: 5, wantLast: 0},
		{name: `["x","5","-7"]`, sets: sets("x", "5", "-7"), wantMax: 5, wantLast: 0},
		{name: "none", wantMax: 0, wantLast: 0},
		{name: "absent revision is 0", sets: append(sets("4"), rollout.ReplicaSet{}), wantMax: 4, wantLast: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := utCopies(tt.sets)
			got := [2]int64{rollout.MaxRevision(tt.sets), rollout.LastRevision(tt.sets)}
			if diff := cmp.Diff([2]int64{tt.wantMax, tt.wantLast}, got); diff != "" {
				t.Errorf("MaxRevision(), LastRevision() mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(before, tt.sets); diff != "" {
				t.Errorf("MaxRevision() or LastRevision() modified its input (-before +after):\n%s", diff)
			}
		})
	}
}

// TestRevision checks the revision getter (R-REV-1).
func TestRevision(t *testing.T) {
	tests := []struct {
		name        string
		annotations map[string]string
		want        int64
		wantErr     bool
	}{
		{name: "absent", want: 0},
		{name: "number", annotations: map[string]string{rollout.RevisionAnnotation: "12"}, want: 12},
		{name: "not a number", annotations: map[string]string{rollout.RevisionAnnotation: "x"}, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := rollout.Revision(rollout.ReplicaSet{ObjectMeta: rollout.ObjectMeta{Annotations: tt.annotations}})
			if (err != nil) != tt.wantErr {
				t.Fatalf("Revision() error = %v, want an error: %t", err, tt.wantErr)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Revision() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestFunctionsDoNotModifyInputs calls each exported function of this file
// on inputs in an order none of them keeps, and checks that the inputs, deep
// copied before the call, are unchanged after it.
func TestFunctionsDoNotModifyInputs(t *testing.T) {
	t0 := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	d := utRolling(10, surge.Percent(25), surge.Percent(25))
	d.Spec.Template = rollout.PodTemplate{Labels: map[string]string{"app": "x"}, Spec: rollout.MustParsePodSpec(`{"containers":[{"image":"x:2","name":"c"}]}`)}
	d.Status.Conditions = []rollout.Condition{utA, utP1}
	mk := func(name string, replicas int32, created time.Time, image, rev string) rollout.ReplicaSet {
		return rollout.ReplicaSet{
			ObjectMeta: rollout.ObjectMeta{
				Name: name, UID: "uid-" + name, CreationTimestamp: created,
				Labels:      map[string]string{"app": "x", utHash: name},
				Annotations: map[string]string{rollout.RevisionAnnotation: rev, rollout.MaxReplicasAnnotation: "13", rollout.DesiredReplicasAnnotation: "10"},
			},
			Spec: rollout.ReplicaSetSpec{Replicas: replicas, Template: rollout.PodTemplate{
				Labels: map[string]string{"app": "x", utHash: name},
				Spec:   rollout.MustParsePodSpec(fmt.Sprintf(`{"containers":[{"image":%q,"name":"c"}]}`, image)),
			}},
			Status: rollout.ReplicaSetStatus{Replicas: replicas, AvailableReplicas: replicas},
		}
	}
	sets := []rollout.ReplicaSet{
		mk("new-late", 3, t0.Add(2*time.Hour), "x:2", "3"),
		mk("old-b", 0, t0.Add(time.Hour), "x:1", "2"),
		mk("new-early", 2, t0.Add(time.Minute), "x:2", "4"),
		mk("old-a", 5, t0, "x:0", "1"),
	}
	calls := []struct {
		name string
		call func(d rollout.Deployment, sets []rollout.ReplicaSet)
	}{
		{"FindNewReplicaSet", func(d rollout.Deployment, s []rollout.ReplicaSet) { rollout.FindNewReplicaSet(d, s) }},
		{"FindOldReplicaSets", func(d rollout.Deployment, s []rollout.ReplicaSet) { rollout.FindOldReplicaSets(d, s) }},
		{"FindActiveOrLatest", func(d rollout.Deployment, s []rollout.ReplicaSet) { rollout.FindActiveOrLatest(s[0], true, s[1:]) }},
		{"FilterActiveReplicaSets", func(d rollout.Deployment, s []rollout.ReplicaSet) { rollout.FilterActiveReplicaSets(s) }},
		{"Count", func(d rollout.Deployment, s []rollout.ReplicaSet) { rollout.Count(s) }},
		{"MaxRevision", func(d rollout.Deployment, s []rollout.ReplicaSet) { rollout.MaxRevision(s) }},
		{"LastRevision", func(d rollout.Deployment, s []rollout.ReplicaSet) { rollout.LastRevision(s) }},
		{"NewRSNewReplicas", func(d rollout.Deployment, s []rollout.ReplicaSet) { _, _ = rollout.NewRSNewReplicas(d, s[1:], s[0]) }},
		{"IsSaturated", func(d rollout.Deployment, s []rollout.ReplicaSet) { rollout.IsSaturated(d, s[0]) }},
		{"SetReplicasAnnotations", func(d rollout.Deployment, s []rollout.ReplicaSet) { rollout.SetReplicasAnnotations(s[0], 7, 9) }},
		{"ReplicasAnnotationsNeedUpdate", func(d rollout.Deployment, s []rollout.ReplicaSet) { rollout.ReplicasAnnotationsNeedUpdate(s[0], 7, 9) }},
		{"GetReplicaSetProportion", func(d rollout.Deployment, s []rollout.ReplicaSet) { rollout.GetReplicaSetProportion(s[0], d, 5, 1) }},
		{"EqualIgnoreHash", func(d rollout.Deployment, s []rollout.ReplicaSet) {
			rollout.EqualIgnoreHash(d.Spec.Template, s[0].Spec.Template)
		}},
		{"SetDeploymentCondition", func(d rollout.Deployment, s []rollout.ReplicaSet) { rollout.SetDeploymentCondition(d.Status, utP2) }},
		{"RemoveDeploymentCondition", func(d rollout.Deployment, s []rollout.ReplicaSet) {
			rollout.RemoveDeploymentCondition(d.Status, rollout.Available)
		}},
		{"DeploymentComplete", func(d rollout.Deployment, s []rollout.ReplicaSet) { rollout.DeploymentComplete(d, d.Status) }},
		{"DeploymentTimedOut", func(d rollout.Deployment, s []rollout.ReplicaSet) { rollout.DeploymentTimedOut(d, d.Status, t0) }},
		{"Limits", func(d rollout.Deployment, s []rollout.ReplicaSet) { rollout.Limits(d); rollout.MinAvailable(d) }},
	}
	for _, c := range calls {
		t.Run(c.name, func(t *testing.T) {
			in := utCopies(sets)
			dd := d.DeepCopy()
			c.call(dd, in)
			if diff := cmp.Diff(sets, in); diff != "" {
				t.Errorf("%s() modified or reordered the ReplicaSets (-before +after):\n%s", c.name, diff)
			}
			if diff := cmp.Diff(d, dd, cmp.Comparer(func(a, b surge.Value) bool { return a == b })); diff != "" {
				t.Errorf("%s() modified the Deployment (-before +after):\n%s", c.name, diff)
			}
		})
	}
}
