package rollout_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutmath/rolloutmath/rollout"
)

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
				rs := rollout.UpstreamGenerateRS(rollout.UpstreamGenerateDeployment("nginx"), "nginx-rs", "uid")
				if !tt.absent {
					rs.Annotations = map[string]string{key: tt.value, "foo": "2"}
				}
				get := rollout.GetDesiredReplicasAnnotation
				if key == rollout.MaxReplicasAnnotation {
					get = rollout.GetMaxReplicasAnnotation
				}
				v, ok := get(&rs)
				if diff := cmp.Diff(result{tt.want, tt.wantOK}, result{v, ok}); diff != "" {
					t.Errorf("%s: Get*ReplicasAnnotation() mismatch (-want +got):\n%s", key, diff)
				}
			}
		})
	}
}

// TestAnnotationUtils ports the SetReplicasAnnotations and IsSaturated
// parts of upstream's TestAnnotationUtils (B.14). The revision-history
// part is in claim_internal_test.go.
func TestAnnotationUtils(t *testing.T) {
	d := rollout.UpstreamGenerateDeployment("nginx")
	d.Annotations[rollout.RevisionAnnotation] = "1"
	rs := rollout.UpstreamGenerateRS(d, "nginx-rs", "uid")

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
			if diff := cmp.Diff(tt.want, rollout.IsSaturated(&d, &rs)); diff != "" {
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
			if diff := cmp.Diff(tt.want, rollout.ReplicasAnnotationsNeedUpdate(&rs, 10, 20)); diff != "" {
				t.Errorf("ReplicasAnnotationsNeedUpdate() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCopiesAnnotation(t *testing.T) {
	for key, want := range map[string]bool{
		"team":                            true,
		"":                                true,
		rollout.LastAppliedAnnotation:     false,
		rollout.RevisionAnnotation:        false,
		rollout.RevisionHistoryAnnotation: false,
		rollout.DesiredReplicasAnnotation: false,
		rollout.MaxReplicasAnnotation:     false,
		rollout.RollbackToAnnotation:      false,
	} {
		if got := rollout.CopiesAnnotation(key); got != want {
			t.Errorf("CopiesAnnotation(%q) = %v, want %v", key, got, want)
		}
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
			before := rollout.DeepCopies(tt.sets)
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
