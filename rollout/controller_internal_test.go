package rollout

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutmath/rolloutmath/surge"
)

// Ports of upstream's controller-package tests (vectors C) against the
// planner methods that implement the controller functions they call.
// Helpers are prefixed ci so that they do not clash with other test files
// of the package.

// ciNewDeployment is upstream's newDeployment(name, replicas, limit,
// maxSurge, maxUnavailable, selector) of the controller tests:
// RollingUpdate with maxSurge and maxUnavailable int 0 unless given
// (upstream passes nil pointers for "not given"; so does this helper), no
// progress deadline, generation 0.
func ciNewDeployment(name string, replicas int32, limit OptionalInt32, maxSurge, maxUnavailable *surge.Value, selector map[string]string) Deployment {
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

func ciCount(n int32) *surge.Value { v := surge.Count(n); return &v }

// ciRS is upstream's rs(name, replicas, selector, timestamp): namespace
// default, an empty template, no annotations, UID or owner.
func ciRS(name string, replicas int32, selector map[string]string, created time.Time) *ReplicaSet {
	return &ReplicaSet{
		ObjectMeta: ObjectMeta{Name: name, Namespace: "default", CreationTimestamp: created},
		Spec:       ReplicaSetSpec{Replicas: replicas, Selector: LabelSelector{MatchLabels: selector}},
	}
}

// ciRSWithStatus is upstream's newRSWithStatus.
func ciRSWithStatus(name string, spec, status int32, selector map[string]string) *ReplicaSet {
	rs := ciRS(name, spec, selector, time.Time{})
	rs.Status.Replicas = status
	return rs
}

// ciNow is the clock of the tests that do not care about it.
var ciNow = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

func ciPlanner(d Deployment, now time.Time) *planner {
	return newPlanner(State{Deployment: d, Now: now})
}

// ciWrites returns the ReplicaSet writes among actions as "name from->to".
func ciWrites(actions []Action) []string {
	var out []string
	for _, a := range actions {
		switch a.Type {
		case ScaleReplicaSet, UpdateReplicaSet:
			out = append(out, fmt.Sprintf("%s %d->%d", a.ReplicaSet, a.From, a.To))
		}
	}
	return out
}

// TestDeploymentController_reconcileNewReplicaSet ports upstream's test of
// that name (vectors C.1): either no write, or exactly one with the given
// size.
func TestDeploymentController_reconcileNewReplicaSet(t *testing.T) {
	tests := []struct {
		name                                 string
		replicas, maxSurge, oldSize, newSize int32
		want                                 []string // the writes
	}{
		{name: "should not scale up", replicas: 10, maxSurge: 0, oldSize: 10, newSize: 0},
		{name: "scale up by the surge", replicas: 10, maxSurge: 2, oldSize: 10, newSize: 0, want: []string{"foo-v2 0->2"}},
		{name: "scale up by the room left", replicas: 10, maxSurge: 2, oldSize: 5, newSize: 0, want: []string{"foo-v2 0->7"}},
		{name: "surge used up", replicas: 10, maxSurge: 2, oldSize: 10, newSize: 2},
		{name: "should scale down", replicas: 10, maxSurge: 2, oldSize: 2, newSize: 11, want: []string{"foo-v2 11->10"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			newRS := ciRS("foo-v2", tt.newSize, nil, time.Time{})
			oldRS := ciRS("foo-v2", tt.oldSize, nil, time.Time{})
			d := ciNewDeployment("foo", tt.replicas, OptionalInt32{}, ciCount(tt.maxSurge), ciCount(0), map[string]string{"foo": "bar"})
			p := ciPlanner(d, ciNow)
			scaled := p.reconcileNewReplicaSet([]*ReplicaSet{newRS, oldRS}, newRS)
			if diff := cmp.Diff(tt.want != nil, scaled); diff != "" {
				t.Errorf("reconcileNewReplicaSet() scaled mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.want, ciWrites(p.actions)); diff != "" {
				t.Errorf("reconcileNewReplicaSet() mismatch (-want +got):\n%s", diff)
			}
			if len(p.actions) != len(tt.want) {
				t.Errorf("reconcileNewReplicaSet() made %d actions, want %d: %v", len(p.actions), len(tt.want), p.actions)
			}
		})
	}
}

// TestDeploymentController_reconcileOldReplicaSets ports upstream's test of
// that name (vectors C.2): the scaled flag, and the old ReplicaSet's size
// the upstream test documents, read from the writes.
func TestDeploymentController_reconcileOldReplicaSets(t *testing.T) {
	tests := []struct {
		name                       string
		replicas, maxUnavailable   int32
		oldSize, newSize           int32
		oldAvailable, newAvailable int32
		wantScaled                 bool
		wantWrites                 []string
	}{
		{
			name: "maxUnavailable 0 resolves to 1", replicas: 10, maxUnavailable: 0, oldSize: 10, newSize: 0, oldAvailable: 10,
			wantScaled: true, wantWrites: []string{"foo-old 10->9"},
		},
		{
			name: "scale down by maxUnavailable", replicas: 10, maxUnavailable: 2, oldSize: 10, newSize: 0, oldAvailable: 10,
			wantScaled: true, wantWrites: []string{"foo-old 10->8"},
		},
		{
			name: "expect unhealthy replicas from old replica sets been cleaned up", replicas: 10, maxUnavailable: 2, oldSize: 10, newSize: 0, oldAvailable: 8,
			wantScaled: true, wantWrites: []string{"foo-old 10->8"},
		},
		{
			name: "expect 1 unhealthy replica from old replica sets been cleaned up, and 1 ready pod been scaled down", replicas: 10, maxUnavailable: 2, oldSize: 10, newSize: 0, oldAvailable: 9,
			wantScaled: true, wantWrites: []string{"foo-old 10->9", "foo-old 9->8"},
		},
		{
			name: "the unavailable pods from the newRS would not make us scale down old RSs in a further step", replicas: 10, maxUnavailable: 2, oldSize: 8, newSize: 2, oldAvailable: 8,
			wantScaled: false,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			newSelector := map[string]string{"foo": "new"}
			newRS := ciRS("foo-new", tt.newSize, newSelector, time.Time{})
			newRS.Status.AvailableReplicas = tt.newAvailable
			oldRS := ciRS("foo-old", tt.oldSize, map[string]string{"foo": "old"}, time.Time{})
			oldRS.Status.AvailableReplicas = tt.oldAvailable
			d := ciNewDeployment("foo", tt.replicas, OptionalInt32{}, ciCount(0), ciCount(tt.maxUnavailable), newSelector)
			p := ciPlanner(d, ciNow)
			scaled := p.reconcileOldReplicaSets([]*ReplicaSet{oldRS, newRS}, []*ReplicaSet{oldRS}, newRS)
			if diff := cmp.Diff(tt.wantScaled, scaled); diff != "" {
				t.Errorf("reconcileOldReplicaSets() scaled mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantWrites, ciWrites(p.actions)); diff != "" {
				t.Errorf("reconcileOldReplicaSets() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestDeploymentController_cleanupUnhealthyReplicas ports upstream's test
// of that name (vectors C.3).
func TestDeploymentController_cleanupUnhealthyReplicas(t *testing.T) {
	tests := []struct {
		name       string
		available  int32
		maxCleanup int64
		want       int64
		wantWrites []string
	}{
		{name: "cleanup limited to 1", available: 8, maxCleanup: 1, want: 1, wantWrites: []string{"foo-v2 10->9"}},
		{name: "cleanup all 2 unhealthy", available: 8, maxCleanup: 3, want: 2, wantWrites: []string{"foo-v2 10->8"}},
		{name: "no cleanup allowed", available: 8, maxCleanup: 0, want: 0},
		{name: "nothing unhealthy", available: 10, maxCleanup: 3, want: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			oldRS := ciRS("foo-v2", 10, nil, time.Time{})
			oldRS.Status.AvailableReplicas = tt.available
			d := ciNewDeployment("foo", 10, OptionalInt32{}, ciCount(2), ciCount(2), nil)
			p := ciPlanner(d, ciNow)
			_, cleaned, err := p.cleanupUnhealthyReplicas([]*ReplicaSet{oldRS}, tt.maxCleanup)
			if err != nil {
				t.Fatalf("cleanupUnhealthyReplicas() error: %v", err)
			}
			if diff := cmp.Diff(tt.want, cleaned); diff != "" {
				t.Errorf("cleanupUnhealthyReplicas() mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantWrites, ciWrites(p.actions)); diff != "" {
				t.Errorf("cleanupUnhealthyReplicas() writes mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestDeploymentController_scaleDownOldReplicaSetsForRollingUpdate ports
// upstream's test of that name (vectors C.4).
func TestDeploymentController_scaleDownOldReplicaSetsForRollingUpdate(t *testing.T) {
	tests := []struct {
		name                      string
		maxUnavailable, available int32
		oldSize                   int32
		want                      int64
		wantWrites                []string
	}{
		{name: "maxUnavailable 0 resolves to 1", maxUnavailable: 0, available: 10, oldSize: 10, want: 1, wantWrites: []string{"foo-v2 10->9"}},
		{name: "scale down by maxUnavailable", maxUnavailable: 2, available: 10, oldSize: 10, want: 2, wantWrites: []string{"foo-v2 10->8"}},
		{name: "available at the minimum", maxUnavailable: 2, available: 8, oldSize: 10, want: 0},
		{name: "old ReplicaSet already at 0", maxUnavailable: 2, available: 10, oldSize: 0, want: 0},
		{name: "available below the minimum", maxUnavailable: 2, available: 1, oldSize: 10, want: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			oldRS := ciRS("foo-v2", tt.oldSize, nil, time.Time{})
			oldRS.Status.AvailableReplicas = tt.available
			d := ciNewDeployment("foo", 10, OptionalInt32{}, ciCount(0), ciCount(tt.maxUnavailable), map[string]string{"foo": "bar"})
			p := ciPlanner(d, ciNow)
			got := p.scaleDownOldReplicaSets([]*ReplicaSet{oldRS}, []*ReplicaSet{oldRS})
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("scaleDownOldReplicaSets() mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantWrites, ciWrites(p.actions)); diff != "" {
				t.Errorf("scaleDownOldReplicaSets() writes mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestScale ports upstream's TestScale (vectors C.5) through
// planner.scale. As upstream does, every ReplicaSet first gets
// desired-replicas = the old Deployment's replicas (or the row's override)
// and max-replicas = that + MaxSurge(old Deployment); the sizes are read
// from the writes, ignoring those to ReplicaSets in wasntUpdated.
func TestScale(t *testing.T) {
	newTS := time.Date(2016, 5, 20, 2, 0, 0, 0, time.UTC)
	oldTS := time.Date(2016, 5, 20, 1, 0, 0, 0, time.UTC)
	olderTS := time.Date(2016, 5, 20, 0, 0, 0, 0, time.UTC)
	dep := func(replicas int32, maxSurge, maxUnavailable *surge.Value) Deployment {
		return ciNewDeployment("foo", replicas, OptionalInt32{}, maxSurge, maxUnavailable, nil)
	}
	updatedTemplate := func(replicas int32) Deployment {
		d := ciNewDeployment("foo", replicas, OptionalInt32{}, nil, nil, map[string]string{"foo": "bar"})
		d.Spec.Template.Labels = map[string]string{"foo": "bar", "another": "label"}
		return d
	}
	type size struct {
		name string
		size int32
		ts   time.Time
	}
	tests := []struct {
		name                  string
		deployment, oldDeploy Deployment
		newRS                 *size
		oldRSs                []size
		want                  map[string]int32
		wasntUpdated          []string
		desiredOverride       map[string]int32
		noWrites              bool
	}{
		{
			name: "normal scaling event: 10 -> 12", deployment: dep(12, nil, nil), oldDeploy: dep(10, nil, nil),
			newRS: &size{"foo-v1", 10, newTS},
			want:  map[string]int32{"foo-v1": 12},
		},
		{
			name: "normal scaling event: 10 -> 5", deployment: dep(5, nil, nil), oldDeploy: dep(10, nil, nil),
			newRS: &size{"foo-v1", 10, newTS},
			want:  map[string]int32{"foo-v1": 5},
		},
		{
			name: "proportional scaling: 5 -> 10", deployment: dep(10, nil, nil), oldDeploy: dep(5, nil, nil),
			newRS: &size{"foo-v2", 2, newTS}, oldRSs: []size{{"foo-v1", 3, oldTS}},
			want: map[string]int32{"foo-v2": 4, "foo-v1": 6},
		},
		{
			name: "proportional scaling: 5 -> 3", deployment: dep(3, nil, nil), oldDeploy: dep(5, nil, nil),
			newRS: &size{"foo-v2", 2, newTS}, oldRSs: []size{{"foo-v1", 3, oldTS}},
			want: map[string]int32{"foo-v2": 1, "foo-v1": 2},
		},
		{
			name: "proportional scaling: 9 -> 4", deployment: dep(4, nil, nil), oldDeploy: dep(9, nil, nil),
			newRS: &size{"foo-v2", 8, newTS}, oldRSs: []size{{"foo-v1", 1, oldTS}},
			want: map[string]int32{"foo-v2": 4, "foo-v1": 0},
		},
		{
			name: "proportional scaling: 7 -> 10", deployment: dep(10, nil, nil), oldDeploy: dep(7, nil, nil),
			newRS: &size{"foo-v3", 2, newTS}, oldRSs: []size{{"foo-v2", 3, oldTS}, {"foo-v1", 2, olderTS}},
			want: map[string]int32{"foo-v3": 3, "foo-v2": 4, "foo-v1": 3},
		},
		{
			name: "proportional scaling: 13 -> 8", deployment: dep(8, nil, nil), oldDeploy: dep(13, nil, nil),
			newRS: &size{"foo-v3", 2, newTS}, oldRSs: []size{{"foo-v2", 8, oldTS}, {"foo-v1", 3, olderTS}},
			want: map[string]int32{"foo-v3": 1, "foo-v2": 5, "foo-v1": 2},
		},
		{
			name: "leftover distribution: 3 -> 4", deployment: dep(4, nil, nil), oldDeploy: dep(3, nil, nil),
			newRS: &size{"foo-v3", 1, newTS}, oldRSs: []size{{"foo-v2", 1, oldTS}, {"foo-v1", 1, olderTS}},
			want: map[string]int32{"foo-v3": 2, "foo-v2": 1, "foo-v1": 1},
		},
		{
			name: "leftover distribution: 3 -> 2", deployment: dep(2, nil, nil), oldDeploy: dep(3, nil, nil),
			newRS: &size{"foo-v3", 1, newTS}, oldRSs: []size{{"foo-v2", 1, oldTS}, {"foo-v1", 1, olderTS}},
			want: map[string]int32{"foo-v3": 1, "foo-v2": 1, "foo-v1": 0},
		},
		{
			name: "proportional scaling (no new rs): 4 -> 5", deployment: dep(5, nil, nil), oldDeploy: dep(4, nil, nil),
			oldRSs: []size{{"foo-v2", 2, oldTS}, {"foo-v1", 2, olderTS}},
			want:   map[string]int32{"foo-v2": 3, "foo-v1": 2},
		},
		{
			name: "proportional scaling: 6 -> 0", deployment: dep(0, nil, nil), oldDeploy: dep(6, nil, nil),
			newRS: &size{"foo-v3", 3, newTS}, oldRSs: []size{{"foo-v2", 2, oldTS}, {"foo-v1", 1, olderTS}},
			want: map[string]int32{"foo-v3": 0, "foo-v2": 0, "foo-v1": 0},
		},
		{
			name: "proportional scaling: 0 -> 6", deployment: dep(6, nil, nil), oldDeploy: dep(6, nil, nil),
			newRS: &size{"foo-v3", 0, newTS}, oldRSs: []size{{"foo-v2", 0, oldTS}, {"foo-v1", 0, olderTS}},
			want:         map[string]int32{"foo-v3": 6, "foo-v2": 0, "foo-v1": 0},
			wasntUpdated: []string{"foo-v2", "foo-v1"},
		},
		{
			name: "failed rs update", deployment: dep(5, nil, nil), oldDeploy: dep(5, nil, nil),
			newRS: &size{"foo-v3", 2, newTS}, oldRSs: []size{{"foo-v2", 1, oldTS}, {"foo-v1", 1, olderTS}},
			want:            map[string]int32{"foo-v3": 2, "foo-v2": 2, "foo-v1": 1},
			wasntUpdated:    []string{"foo-v3", "foo-v1"},
			desiredOverride: map[string]int32{"foo-v2": 3},
		},
		{
			name: "deployment with surge pods", deployment: dep(20, ciCount(2), nil), oldDeploy: dep(10, ciCount(2), nil),
			newRS: &size{"foo-v2", 6, newTS}, oldRSs: []size{{"foo-v1", 6, oldTS}},
			want: map[string]int32{"foo-v2": 11, "foo-v1": 11},
		},
		{
			name: "change both surge and size", deployment: dep(50, ciCount(6), nil), oldDeploy: dep(10, ciCount(3), nil),
			newRS: &size{"foo-v2", 5, newTS}, oldRSs: []size{{"foo-v1", 8, oldTS}},
			want: map[string]int32{"foo-v2": 22, "foo-v1": 34},
		},
		{
			name: "change both size and template", deployment: updatedTemplate(14),
			oldDeploy: ciNewDeployment("foo", 10, OptionalInt32{}, nil, nil, map[string]string{"foo": "bar"}),
			oldRSs:    []size{{"foo-v2", 7, newTS}, {"foo-v1", 3, oldTS}},
			want:      map[string]int32{"foo-v2": 10, "foo-v1": 4},
		},
		{
			name:       "saturated but broken new replica set does not affect old pods",
			deployment: dep(2, ciCount(1), ciCount(1)), oldDeploy: dep(2, ciCount(1), ciCount(1)),
			newRS: &size{"foo-v2", 2, newTS}, oldRSs: []size{{"foo-v1", 1, oldTS}},
			want:     map[string]int32{"foo-v2": 2, "foo-v1": 1},
			noWrites: true, // sizes kept and annotations current (vectors C.5 #17)
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			annotate := func(rs *ReplicaSet) {
				desired := tt.oldDeploy.Spec.Replicas
				if o, ok := tt.desiredOverride[rs.Name]; ok {
					desired = o
				}
				rs.Annotations = map[string]string{
					DesiredReplicasAnnotation: strconv.Itoa(int(desired)),
					MaxReplicasAnnotation:     strconv.Itoa(int(desired + MaxSurge(tt.oldDeploy))),
				}
			}
			sizes := map[string]int32{}
			var newRS *ReplicaSet
			if tt.newRS != nil {
				newRS = ciRS(tt.newRS.name, tt.newRS.size, nil, tt.newRS.ts)
				annotate(newRS)
				sizes[newRS.Name] = newRS.Spec.Replicas
			}
			var old []*ReplicaSet
			for _, s := range tt.oldRSs {
				rs := ciRS(s.name, s.size, nil, s.ts)
				annotate(rs)
				sizes[rs.Name] = rs.Spec.Replicas
				old = append(old, rs)
			}
			p := ciPlanner(tt.deployment, ciNow)
			if err := p.scale(newRS, old); err != nil {
				t.Fatalf("scale() error: %v", err)
			}
			for _, a := range p.actions {
				if (a.Type == ScaleReplicaSet || a.Type == UpdateReplicaSet) && !slices.Contains(tt.wasntUpdated, a.ReplicaSet) {
					sizes[a.ReplicaSet] = a.To
				}
			}
			if diff := cmp.Diff(tt.want, sizes); diff != "" {
				t.Errorf("scale() mismatch (-want +got):\n%s", diff)
			}
			if tt.noWrites && len(p.actions) != 0 {
				t.Errorf("scale() made %v, want no writes", p.actions)
			}
		})
	}
}

// ciDeletions returns the names of the deleted ReplicaSets, sorted.
func ciDeletions(actions []Action) []string {
	var out []string
	for _, a := range actions {
		if a.Type == DeleteReplicaSet {
			out = append(out, a.ReplicaSet)
		}
	}
	slices.Sort(out)
	return out
}

// TestDeploymentController_cleanupDeployment ports upstream's test of that
// name (vectors C.6) through planner.cleanup.
func TestDeploymentController_cleanupDeployment(t *testing.T) {
	selector := map[string]string{"foo": "bar"}
	alreadyDeleted := ciRSWithStatus("foo-1", 0, 0, selector)
	alreadyDeleted.DeletionTimestamp = ciNow
	tests := []struct {
		name  string
		old   []*ReplicaSet
		limit int32
		want  int
	}{
		{
			name:  "limit 1 of 3 idle",
			old:   []*ReplicaSet{ciRSWithStatus("foo-1", 0, 0, selector), ciRSWithStatus("foo-2", 0, 0, selector), ciRSWithStatus("foo-3", 0, 0, selector)},
			limit: 1, want: 2,
		},
		{
			name: "only delete the replica set with Spec.Replicas = Status.Replicas = 0",
			old: []*ReplicaSet{
				ciRSWithStatus("foo-1", 0, 0, selector), ciRSWithStatus("foo-2", 0, 1, selector),
				ciRSWithStatus("foo-3", 1, 0, selector), ciRSWithStatus("foo-4", 1, 1, selector),
			},
			limit: 0, want: 1,
		},
		{
			name:  "limit 0 of 2 idle",
			old:   []*ReplicaSet{ciRSWithStatus("foo-1", 0, 0, selector), ciRSWithStatus("foo-2", 0, 0, selector)},
			limit: 0, want: 2,
		},
		{
			name:  "limit 0, none idle",
			old:   []*ReplicaSet{ciRSWithStatus("foo-1", 1, 1, selector), ciRSWithStatus("foo-2", 1, 1, selector)},
			limit: 0, want: 0,
		},
		{
			name:  "already being deleted",
			old:   []*ReplicaSet{alreadyDeleted},
			limit: 0, want: 0,
		},
		{
			name:  "with unlimited revisionHistoryLimit",
			old:   []*ReplicaSet{ciRSWithStatus("foo-1", 0, 0, selector), ciRSWithStatus("foo-2", 0, 0, selector), ciRSWithStatus("foo-3", 0, 0, selector)},
			limit: math.MaxInt32, want: 0,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := ciNewDeployment("foo", 1, Int32(tt.limit), nil, nil, selector)
			p := ciPlanner(d, ciNow)
			p.cleanup(tt.old)
			if diff := cmp.Diff(tt.want, len(ciDeletions(p.actions))); diff != "" {
				t.Errorf("cleanup() deletions mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// CleanupOrderCase is a row of upstream's
// TestDeploymentController_cleanupDeploymentOrder (vectors C.7): old
// ReplicaSets foo-1, foo-2, ... created in that order, the history limit,
// and the ones cleanup deletes. It is exported to the external tests,
// which run the same rows through Plan.
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

// TestDeploymentController_cleanupDeploymentOrder ports upstream's test of
// that name (vectors C.7) through planner.cleanup: creation order is
// always foo-1 < foo-2 < foo-3 < foo-4.
func TestDeploymentController_cleanupDeploymentOrder(t *testing.T) {
	selector := map[string]string{"foo": "bar"}
	tests := CleanupOrderCases
	for _, tt := range tests {
		t.Run(tt.Name, func(t *testing.T) {
			var old []*ReplicaSet
			for i, s := range tt.Old {
				rs := ciRS(fmt.Sprintf("foo-%d", i+1), s.Size, selector, ciNow.Add(time.Duration(i-1)*time.Minute))
				if s.Rev != "" {
					rs.Annotations = map[string]string{RevisionAnnotation: s.Rev}
				}
				rs.Status.Replicas = s.Size
				old = append(old, rs)
			}
			d := ciNewDeployment("foo", 1, Int32(tt.Limit), nil, nil, selector)
			p := ciPlanner(d, ciNow)
			p.cleanup(old)
			if diff := cmp.Diff(tt.Want, ciDeletions(p.actions)); diff != "" {
				t.Errorf("cleanup() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestOldPodsRunning ports upstream's TestOldPodsRunning (vectors C.9)
// through planner.groupPods and planner.oldPodsRunning. Upstream fills the
// pod map by hand; here the pods carry owner references to ReplicaSets the
// Deployment controls, so groupPods builds the same map: one entry per
// controlled ReplicaSet, with its pods whatever their phase. Upstream's rs-1
// has no UID; it gets uid-1, the key upstream's pods use.
func TestOldPodsRunning(t *testing.T) {
	selector := map[string]string{"foo": "bar"}
	d := ciNewDeployment("foo", 1, OptionalInt32{}, nil, nil, selector)
	owned := func(name, uid string, spec, status int32) ReplicaSet {
		return ReplicaSet{
			ObjectMeta: ObjectMeta{
				Name: name, Namespace: "default", UID: uid, Labels: selector,
				OwnerReferences: []OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: d.Name, UID: d.UID, Controller: true}},
			},
			Spec:   ReplicaSetSpec{Replicas: spec, Selector: LabelSelector{MatchLabels: selector}},
			Status: ReplicaSetStatus{Replicas: status},
		}
	}
	rsWithUID := func(uid string) ReplicaSet { return owned("foo-"+uid, uid, 0, 0) }
	rs1 := func(status int32) ReplicaSet { return owned("rs-1", "uid-1", 0, status) }
	tests := []struct {
		name   string
		old    []ReplicaSet
		newRS  *ReplicaSet
		pods   map[string][]PodPhase // by the UID of the owning ReplicaSet
		others []string              // UIDs in pods that are not old ReplicaSets
		want   bool
	}{
		{name: "no old RSs", want: false},
		{
			name: "old RSs with running pods",
			old:  []ReplicaSet{rsWithUID("some-uid"), rsWithUID("other-uid")},
			pods: map[string][]PodPhase{"some-uid": {"", ""}, "other-uid": {"", ""}},
			want: true,
		},
		{name: "old RSs without pods but with non-zero status replicas", old: []ReplicaSet{rs1(1)}, want: true},
		{name: "old RSs without pods or non-zero status replicas", old: []ReplicaSet{rs1(0)}, want: false},
		{
			name: "old RSs with zero status replicas but pods in terminal state are present",
			old:  []ReplicaSet{rs1(0)},
			pods: map[string][]PodPhase{"uid-1": {PodFailed, PodSucceeded}},
			want: false,
		},
		{
			name: "old RSs with zero status replicas but pod in unknown phase present",
			old:  []ReplicaSet{rs1(0)},
			pods: map[string][]PodPhase{"uid-1": {PodUnknown}},
			want: true,
		},
		{
			name: "old RSs with zero status replicas with pending pod present",
			old:  []ReplicaSet{rs1(0)},
			pods: map[string][]PodPhase{"uid-1": {PodPending}},
			want: true,
		},
		{
			name: "old RSs with zero status replicas with running pod present",
			old:  []ReplicaSet{rs1(0)},
			pods: map[string][]PodPhase{"uid-1": {PodRunning}},
			want: true,
		},
		{
			name:   "old RSs with zero status replicas but pods in terminal state and pending are present",
			old:    []ReplicaSet{rs1(0)},
			pods:   map[string][]PodPhase{"uid-1": {PodFailed, PodSucceeded}, "uid-2": {}, "uid-3": {PodPending}},
			others: []string{"uid-2", "uid-3"},
			want:   true,
		},
		// Not upstream (R-REC-2): the new ReplicaSet's pods do not count.
		{
			name:  "only the new ReplicaSet's pods run",
			old:   []ReplicaSet{rs1(0)},
			newRS: func() *ReplicaSet { rs := owned("rs-new", "uid-new", 1, 1); return &rs }(),
			pods:  map[string][]PodPhase{"uid-new": {PodRunning}},
			want:  false,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sets := slices.Clone(tt.old)
			for _, uid := range tt.others {
				sets = append(sets, owned("rs-"+uid, uid, 0, 0))
			}
			if tt.newRS != nil {
				sets = append(sets, *tt.newRS)
			}
			var pods []Pod
			for _, uid := range slices.Sorted(maps.Keys(tt.pods)) {
				var owner string
				for _, rs := range sets {
					if rs.UID == uid {
						owner = rs.Name
					}
				}
				for i, phase := range tt.pods[uid] {
					pods = append(pods, Pod{
						ObjectMeta: ObjectMeta{
							Name: fmt.Sprintf("%s-pod-%d", owner, i), Namespace: "default", Labels: selector,
							OwnerReferences: []OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: owner, UID: uid, Controller: true}},
						},
						Phase: phase,
					})
				}
			}
			p := newPlanner(State{Deployment: d, ReplicaSets: sets, Now: ciNow})
			if err := p.claimReplicaSets(); err != nil {
				t.Fatal(err)
			}
			if err := p.groupPods(pods); err != nil {
				t.Fatal(err)
			}
			var old []*ReplicaSet
			for i := range tt.old {
				old = append(old, &tt.old[i])
			}
			if diff := cmp.Diff(tt.want, p.oldPodsRunning(tt.newRS, old)); diff != "" {
				t.Errorf("oldPodsRunning() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestGetPodMapForReplicaSets ports upstream's test of that name (vectors
// C.12) through planner.groupPods: pods grouped by owner reference alone,
// whatever their phase; a pod without one belongs to no ReplicaSet.
func TestGetPodMapForReplicaSets(t *testing.T) {
	selector := map[string]string{"foo": "bar"}
	d := ciNewDeployment("foo", 1, OptionalInt32{}, nil, nil, selector)
	rs := func(name string) ReplicaSet {
		return ReplicaSet{
			ObjectMeta: ObjectMeta{
				Name: name, Namespace: "default", UID: "uid-" + name, Labels: selector,
				OwnerReferences: []OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: d.Name, UID: d.UID, Controller: true, BlockOwnerDeletion: true}},
			},
			Spec: ReplicaSetSpec{Replicas: 1, Selector: LabelSelector{MatchLabels: selector}, Template: d.Spec.Template},
		}
	}
	pod := func(name string, owner *ReplicaSet, phase PodPhase) Pod {
		p := Pod{ObjectMeta: ObjectMeta{Name: name, Namespace: "default", Labels: selector}, Phase: phase}
		if owner != nil {
			p.OwnerReferences = []OwnerReference{{APIVersion: "v1beta1", Kind: "ReplicaSet", Name: owner.Name, UID: owner.UID, Controller: true}}
		}
		return p
	}
	rs1, rs2 := rs("rs1"), rs("rs2")
	pods := []Pod{
		pod("rs1-pod", &rs1, ""),
		pod("rs2-pod", &rs2, ""),
		pod("pod3", nil, ""),         // matching labels, no controller reference
		pod("pod4", &rs1, PodFailed), // owned but inactive
	}
	p := newPlanner(State{Deployment: d, ReplicaSets: []ReplicaSet{rs1, rs2}, Pods: pods, Now: ciNow})
	if err := p.claimReplicaSets(); err != nil {
		t.Fatal(err)
	}
	if err := p.groupPods(pods); err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	for uid, ps := range p.pods {
		got[uid] = []string{}
		for _, pod := range ps {
			got[uid] = append(got[uid], pod.Name)
		}
		slices.Sort(got[uid])
	}
	want := map[string][]string{"uid-rs1": {"pod4", "rs1-pod"}, "uid-rs2": {"rs2-pod"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("groupPods() mismatch (-want +got):\n%s", diff)
	}
}

// TestGetReplicaSetsForDeployment ports upstream's
// TestGetReplicaSetsForDeployment and
// TestGetReplicaSetsForDeploymentAdoptRelease (vectors C.12) through
// planner.claimReplicaSets.
func TestGetReplicaSetsForDeployment(t *testing.T) {
	selector := map[string]string{"foo": "bar"}
	d1 := ciNewDeployment("foo", 1, OptionalInt32{}, nil, nil, selector)
	d2 := ciNewDeployment("bar", 1, OptionalInt32{}, nil, nil, selector)
	owned := func(d Deployment, name string) ReplicaSet {
		return ReplicaSet{
			ObjectMeta: ObjectMeta{
				Name: name, Namespace: "default", UID: "uid-" + name, Labels: selector,
				OwnerReferences: []OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: d.Name, UID: d.UID, Controller: true, BlockOwnerDeletion: true}},
			},
			Spec: ReplicaSetSpec{Replicas: 1, Selector: LabelSelector{MatchLabels: selector}, Template: d.Spec.Template},
		}
	}
	rsAdopt := owned(d1, "rsAdopt")
	rsAdopt.OwnerReferences = nil
	rsRelease := owned(d1, "rsRelease")
	rsRelease.Labels = map[string]string{"foo": "notbar"}

	tests := []struct {
		name        string
		d           Deployment
		sets        []ReplicaSet
		want        []string
		wantActions []string
	}{
		{name: "d1 claims rs1", d: d1, sets: []ReplicaSet{owned(d1, "rs1"), owned(d2, "rs2")}, want: []string{"rs1"}},
		{name: "d2 claims rs2", d: d2, sets: []ReplicaSet{owned(d1, "rs1"), owned(d2, "rs2")}, want: []string{"rs2"}},
		{
			name: "adopt and release", d: d1, sets: []ReplicaSet{rsRelease, rsAdopt}, want: []string{"rsAdopt"},
			wantActions: []string{"AdoptReplicaSet rsAdopt", "ReleaseReplicaSet rsRelease"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newPlanner(State{Deployment: tt.d, ReplicaSets: tt.sets, Now: ciNow})
			if err := p.claimReplicaSets(); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, rs := range p.rsList {
				got = append(got, rs.Name)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("claimReplicaSets() mismatch (-want +got):\n%s", diff)
			}
			var acts []string
			for _, a := range p.actions {
				acts = append(acts, a.String())
			}
			if diff := cmp.Diff(tt.wantActions, acts); diff != "" {
				t.Errorf("claimReplicaSets() actions mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// ciCurrentDeployment is upstream's currentDeployment of the progress
// tests: "progress-test", Recreate, the given deadline, replicas, status and
// conditions, generation 0.
func ciCurrentDeployment(pds OptionalInt32, replicas, statusReplicas, updated, available int32, conditions []Condition) Deployment {
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

// TestRequeueStuckDeployment ports upstream's TestRequeueStuckDeployment
// (vectors C.10) through planner.recheckProgress: upstream's -1 is no
// RecheckProgress, 0 is one at now, and a duration d one at now+d+1s
// (upstream adds the second when it enqueues).
func TestRequeueStuckDeployment(t *testing.T) {
	pds := Int32(60)
	failed := []Condition{{Type: Progressing, Status: ConditionFalse, Reason: ReasonProgressDeadlineExceeded}}
	stuck := []Condition{{Type: Progressing, Status: ConditionTrue, LastUpdateTime: time.Date(2017, 2, 15, 18, 49, 0, 0, time.UTC)}}
	at := func(min, sec, nsec int) time.Time { return time.Date(2017, 2, 15, 18, min, sec, nsec, time.UTC) }
	const never, immediately = time.Duration(-1), time.Duration(0)
	tests := []struct {
		name   string
		d      Deployment
		status DeploymentStatus
		now    time.Time
		want   time.Duration
	}{
		{name: "nil progressDeadlineSeconds specified", d: ciCurrentDeployment(OptionalInt32{}, 4, 3, 3, 2, nil), status: DeploymentStatus{Replicas: 3, UpdatedReplicas: 3, AvailableReplicas: 2}, now: at(49, 0, 0), want: never},
		{name: "infinite progressDeadlineSeconds specified", d: ciCurrentDeployment(Int32(math.MaxInt32), 4, 3, 3, 2, nil), status: DeploymentStatus{Replicas: 3, UpdatedReplicas: 3, AvailableReplicas: 2}, now: at(49, 0, 0), want: never},
		{name: "no progressing condition found", d: ciCurrentDeployment(pds, 4, 3, 3, 2, nil), status: DeploymentStatus{Replicas: 3, UpdatedReplicas: 3, AvailableReplicas: 2}, now: at(49, 0, 0), want: never},
		{name: "complete deployment does not need to be requeued", d: ciCurrentDeployment(pds, 3, 3, 3, 3, nil), status: DeploymentStatus{Replicas: 3, UpdatedReplicas: 3, AvailableReplicas: 3}, now: at(49, 0, 0), want: never},
		{name: "already failed deployment does not need to be requeued", d: ciCurrentDeployment(pds, 3, 3, 3, 0, failed), status: DeploymentStatus{Replicas: 3, UpdatedReplicas: 3}, now: at(49, 0, 0), want: never},
		{name: "stuck deployment - 30s", d: ciCurrentDeployment(pds, 3, 3, 3, 1, stuck), status: DeploymentStatus{Replicas: 3, UpdatedReplicas: 3, AvailableReplicas: 1}, now: at(49, 30, 0), want: 30 * time.Second},
		{name: "stuck deployment - 1s", d: ciCurrentDeployment(pds, 3, 3, 3, 1, stuck), status: DeploymentStatus{Replicas: 3, UpdatedReplicas: 3, AvailableReplicas: 1}, now: at(49, 59, 0), want: time.Second},
		{name: "failed deployment - less than a second => now", d: ciCurrentDeployment(pds, 3, 3, 3, 1, stuck), status: DeploymentStatus{Replicas: 3, UpdatedReplicas: 3, AvailableReplicas: 1}, now: at(49, 59, 1), want: immediately},
		{name: "failed deployment - now", d: ciCurrentDeployment(pds, 3, 3, 3, 1, stuck), status: DeploymentStatus{Replicas: 3, UpdatedReplicas: 3, AvailableReplicas: 1}, now: at(50, 0, 0), want: immediately},
		{name: "failed deployment - 1s after deadline", d: ciCurrentDeployment(pds, 3, 3, 3, 1, stuck), status: DeploymentStatus{Replicas: 3, UpdatedReplicas: 3, AvailableReplicas: 1}, now: at(50, 1, 0), want: immediately},
		{name: "failed deployment - 60s after deadline", d: ciCurrentDeployment(pds, 3, 3, 3, 1, stuck), status: DeploymentStatus{Replicas: 3, UpdatedReplicas: 3, AvailableReplicas: 1}, now: at(51, 0, 0), want: immediately},
		// Not upstream: a clock before the condition's update time waits
		// for the whole deadline from then.
		{name: "now before the last update", d: ciCurrentDeployment(pds, 3, 3, 3, 1, stuck), status: DeploymentStatus{Replicas: 3, UpdatedReplicas: 3, AvailableReplicas: 1}, now: at(48, 0, 0), want: 120 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := ciPlanner(tt.d, tt.now)
			p.recheckProgress(tt.status)
			type recheck struct {
				Type ActionType
				At   time.Time
			}
			var want, got []recheck
			switch {
			case tt.want == never:
			case tt.want == immediately:
				want = []recheck{{RecheckProgress, tt.now}}
			default:
				want = []recheck{{RecheckProgress, tt.now.Add(tt.want + time.Second)}}
			}
			for _, a := range p.actions {
				got = append(got, recheck{a.Type, a.At})
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("recheckProgress() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestSyncRolloutStatus ports upstream's TestSyncRolloutStatus (vectors
// C.11) through planner.syncRolloutStatus and checks the whole resulting
// Progressing condition: upstream's own time checks compare the test's
// fields with themselves, so "keep" rows are checked here for real. The new
// ReplicaSet, if any, is appended to allRSs.
func TestSyncRolloutStatus(t *testing.T) {
	pds := Int32(60)
	testTime := time.Date(2017, 2, 15, 18, 49, 0, 0, time.UTC)
	now := testTime.Add(time.Hour)
	failedTimedOut := Condition{Type: Progressing, Status: ConditionFalse, Reason: ReasonProgressDeadlineExceeded}
	newRSAvailable := Condition{Type: Progressing, Status: ConditionTrue, Reason: ReasonNewReplicaSetAvailable, LastUpdateTime: testTime, LastTransitionTime: testTime}
	replicaSetUpdated := Condition{Type: Progressing, Status: ConditionTrue, Reason: ReasonReplicaSetUpdated, LastUpdateTime: testTime, LastTransitionTime: testTime}
	withAvailable := func(name string, spec, status, available int32) *ReplicaSet {
		rs := ciRS(name, spec, nil, time.Time{})
		rs.Status = ReplicaSetStatus{Replicas: status, AvailableReplicas: available}
		return rs
	}
	cond := func(s ConditionStatus, reason, msg string, update, transition time.Time) *Condition {
		return &Condition{Type: Progressing, Status: s, Reason: reason, Message: msg, LastUpdateTime: update, LastTransitionTime: transition}
	}
	const (
		fooProgressing = `ReplicaSet "foo" is progressing.`
		fooComplete    = `ReplicaSet "foo" has successfully progressed.`
		fooTimedOut    = `ReplicaSet "foo" has timed out progressing.`
	)
	tests := []struct {
		name  string
		d     Deployment
		all   []*ReplicaSet
		newRS *ReplicaSet
		want  *Condition // nil: no Progressing condition
	}{
		{
			name:  "General: remove Progressing condition and do not estimate progress if deployment has no Progress Deadline",
			d:     ciCurrentDeployment(OptionalInt32{}, 3, 2, 2, 2, []Condition{replicaSetUpdated}),
			all:   []*ReplicaSet{withAvailable("bar", 0, 1, 1)},
			newRS: withAvailable("foo", 3, 2, 2),
		},
		{
			name: "General: do not estimate progress of deployment with only one active ReplicaSet",
			d:    ciCurrentDeployment(pds, 3, 3, 3, 3, []Condition{newRSAvailable}),
			all:  []*ReplicaSet{withAvailable("bar", 3, 3, 3)},
			want: &newRSAvailable,
		},
		{
			name:  "DeploymentProgressing: dont update lastTransitionTime if deployment already has Progressing=True",
			d:     ciCurrentDeployment(pds, 3, 2, 2, 2, []Condition{replicaSetUpdated}),
			all:   []*ReplicaSet{withAvailable("bar", 0, 1, 1)},
			newRS: withAvailable("foo", 3, 2, 2),
			want:  cond(ConditionTrue, ReasonReplicaSetUpdated, fooProgressing, now, testTime),
		},
		{
			name:  "DeploymentProgressing: update everything if deployment has Progressing=False",
			d:     ciCurrentDeployment(pds, 3, 2, 2, 2, []Condition{failedTimedOut}),
			all:   []*ReplicaSet{withAvailable("bar", 0, 1, 1)},
			newRS: withAvailable("foo", 3, 2, 2),
			want:  cond(ConditionTrue, ReasonReplicaSetUpdated, fooProgressing, now, now),
		},
		{
			name:  "DeploymentProgressing: create Progressing condition if it does not exist",
			d:     ciCurrentDeployment(pds, 3, 2, 2, 2, []Condition{}),
			all:   []*ReplicaSet{withAvailable("bar", 0, 1, 1)},
			newRS: withAvailable("foo", 3, 2, 2),
			want:  cond(ConditionTrue, ReasonReplicaSetUpdated, fooProgressing, now, now),
		},
		{
			name:  "DeploymentComplete: dont update lastTransitionTime if deployment already has Progressing=True",
			d:     ciCurrentDeployment(pds, 3, 3, 3, 3, []Condition{replicaSetUpdated}),
			newRS: withAvailable("foo", 3, 3, 3),
			want:  cond(ConditionTrue, ReasonNewReplicaSetAvailable, fooComplete, now, testTime),
		},
		{
			name:  "DeploymentComplete: update everything if deployment has Progressing=False",
			d:     ciCurrentDeployment(pds, 3, 3, 3, 3, []Condition{failedTimedOut}),
			newRS: withAvailable("foo", 3, 3, 3),
			want:  cond(ConditionTrue, ReasonNewReplicaSetAvailable, fooComplete, now, now),
		},
		{
			name:  "DeploymentComplete: create Progressing condition if it does not exist",
			d:     ciCurrentDeployment(pds, 3, 3, 3, 3, []Condition{}),
			newRS: withAvailable("foo", 3, 3, 3),
			want:  cond(ConditionTrue, ReasonNewReplicaSetAvailable, fooComplete, now, now),
		},
		{
			name: "DeploymentComplete: defend against NPE when newRS=nil",
			d:    ciCurrentDeployment(pds, 0, 3, 3, 3, []Condition{replicaSetUpdated}),
			all:  []*ReplicaSet{withAvailable("foo", 0, 0, 0)},
			want: cond(ConditionTrue, ReasonNewReplicaSetAvailable, `Deployment "progress-test" has successfully progressed.`, now, testTime),
		},
		{
			name:  "DeploymentTimedOut: update status if rollout exceeds Progress Deadline",
			d:     ciCurrentDeployment(pds, 3, 2, 2, 2, []Condition{replicaSetUpdated}),
			newRS: withAvailable("foo", 3, 2, 2),
			want:  cond(ConditionFalse, ReasonProgressDeadlineExceeded, fooTimedOut, now, now),
		},
		{
			name:  "DeploymentTimedOut: do not update status if deployment has existing timedOut condition",
			d:     ciCurrentDeployment(pds, 3, 2, 2, 2, []Condition{failedTimedOut}),
			newRS: withAvailable("foo", 3, 2, 2),
			want:  &failedTimedOut,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			all := tt.all
			if tt.newRS != nil {
				all = append(all, tt.newRS)
			}
			p := ciPlanner(tt.d, now)
			if err := p.syncRolloutStatus(all, tt.newRS); err != nil {
				t.Fatal(err)
			}
			var got *Condition
			if c, ok := GetDeploymentCondition(p.d.Status, Progressing); ok {
				got = &c
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("syncRolloutStatus() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestAnnotationUtilsRevisionHistory is the revision-history part of
// upstream's TestAnnotationUtils (vectors B.14) through
// planner.setNewReplicaSetAnnotations: promoting a ReplicaSet to revisions
// 11 through 20 sets each revision and appends the previous one to the
// history. Upstream passes a 5-byte history limit, which keeps the last two
// entries ("18,19" after 20); the controller's limit is 2000 bytes, which
// keeps them all, so the history here ends with upstream's.
func TestAnnotationUtilsRevisionHistory(t *testing.T) {
	d := Deployment{ObjectMeta: ObjectMeta{Name: "nginx", Annotations: map[string]string{RevisionAnnotation: "1"}}}
	rs := ReplicaSet{ObjectMeta: ObjectMeta{Name: "nginx-rs"}}
	p := ciPlanner(d, ciNow)
	var history []string
	for next := int64(11); next <= 20; next++ {
		p.setNewReplicaSetAnnotations(&rs, next, true)
		type result struct{ Revision, History, UpstreamTail string }
		want := result{Revision: strconv.FormatInt(next, 10), History: strings.Join(history, ",")}
		got := result{Revision: rs.Annotations[RevisionAnnotation], History: rs.Annotations[RevisionHistoryAnnotation]}
		if next >= 13 {
			want.UpstreamTail = fmt.Sprintf("%d,%d", next-2, next-1)
			if i := strings.LastIndexByte(got.History[:strings.LastIndexByte(got.History, ',')], ','); i >= 0 {
				got.UpstreamTail = got.History[i+1:]
			} else {
				got.UpstreamTail = got.History
			}
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("setNewReplicaSetAnnotations(%d) mismatch (-want +got):\n%s", next, diff)
		}
		history = append(history, strconv.FormatInt(next, 10))
	}
}
