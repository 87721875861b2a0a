package rollout

import (
	"maps"
	"testing"

	"pgregory.net/rapid"
)

// TestNewReplicaSetAnnotationsCurrentProperties: the check Plan makes
// before copying a new ReplicaSet's annotations agrees with what
// setNewReplicaSetAnnotations does to a copy: current exactly when it
// reports no change and leaves the annotations as they were.
func TestNewReplicaSetAnnotationsCurrentProperties(t *testing.T) {
	keys := []string{"a", "b", RevisionAnnotation, RevisionHistoryAnnotation, DesiredReplicasAnnotation, MaxReplicasAnnotation, LastAppliedAnnotation, RollbackToAnnotation}
	values := []string{"", "1", "2", "3", "x", "10"}
	annotations := rapid.Custom(func(t *rapid.T) map[string]string {
		m := map[string]string{}
		for _, k := range keys {
			if rapid.Bool().Draw(t, "has "+k) {
				m[k] = rapid.SampledFrom(values).Draw(t, k)
			}
		}
		return m
	})
	rapid.Check(t, func(t *rapid.T) {
		d := Deployment{ObjectMeta: ObjectMeta{Annotations: annotations.Draw(t, "deployment")}}
		rs := ReplicaSet{ObjectMeta: ObjectMeta{Annotations: annotations.Draw(t, "replicaSet")}}
		next := rapid.Int64Range(0, 4).Draw(t, "next")
		got := newReplicaSetAnnotationsCurrent(&d, &rs, next)
		c := rs.withOwnAnnotations()
		changed := setNewReplicaSetAnnotations(&d, &c, next, true)
		if want := !changed && maps.Equal(c.Annotations, rs.Annotations); got != want {
			t.Fatalf("newReplicaSetAnnotationsCurrent() = %t; setNewReplicaSetAnnotations changed %t, annotations %v -> %v", got, changed, rs.Annotations, c.Annotations)
		}
	})
}
