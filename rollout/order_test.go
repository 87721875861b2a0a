package rollout_test

import (
	"slices"
	"sort"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutmath/rolloutmath/rollout"
)

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
			name: "ReplicaSetsByRevision an invalid revision compares by creation",
			sets: []rollout.ReplicaSet{rs("foo-1", 0, t0, "5"), rs("foo-2", 0, t0.Add(time.Minute), "x")},
			sort: func(s []rollout.ReplicaSet) { sort.Sort(rollout.ReplicaSetsByRevision(s)) },
			want: []string{"foo-1", "foo-2"},
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
				s := rollout.DeepCopies(tt.sets)
				if start == "reversed" {
					slices.Reverse(s)
				}
				tt.sort(s)
				if diff := cmp.Diff(tt.want, rollout.Names(s)); diff != "" {
					t.Errorf("%s, input %s: sort mismatch (-want +got):\n%s", tt.name, start, diff)
				}
			}
		})
	}
}

// TestSortEqualKeys: the sort.Interface types order by a strict less, as
// upstream's do, so sort.Sort keeps two ReplicaSets with equal keys (name,
// size, creation time, revision) in their input order, whichever comes
// first.
func TestSortEqualKeys(t *testing.T) {
	t0 := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	same := func(uid string) rollout.ReplicaSet {
		return rollout.ReplicaSet{ObjectMeta: rollout.ObjectMeta{Name: "a", UID: uid, CreationTimestamp: t0,
			Annotations: map[string]string{rollout.RevisionAnnotation: "1"}}, Spec: rollout.ReplicaSetSpec{Replicas: 2}}
	}
	sorts := map[string]func([]rollout.ReplicaSet){
		"ReplicaSetsByCreationTimestamp": func(s []rollout.ReplicaSet) { sort.Sort(rollout.ReplicaSetsByCreationTimestamp(s)) },
		"ReplicaSetsBySizeOlder":         func(s []rollout.ReplicaSet) { sort.Sort(rollout.ReplicaSetsBySizeOlder(s)) },
		"ReplicaSetsBySizeNewer":         func(s []rollout.ReplicaSet) { sort.Sort(rollout.ReplicaSetsBySizeNewer(s)) },
		"ReplicaSetsByRevision":          func(s []rollout.ReplicaSet) { sort.Sort(rollout.ReplicaSetsByRevision(s)) },
	}
	for name, sortFn := range sorts {
		for _, order := range [][]string{{"x", "y"}, {"y", "x"}} {
			s := []rollout.ReplicaSet{same(order[0]), same(order[1])}
			sortFn(s)
			if got := []string{s[0].UID, s[1].UID}; !slices.Equal(got, order) {
				t.Errorf("%s: sort.Sort of equal keys %v gives %v", name, order, got)
			}
		}
	}
}
