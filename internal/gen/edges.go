package gen

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"

	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/rollout"
)

// edges pushes a drawn Deployment and its ReplicaSets to the edges of int32
// and int64 in a fair share of states, so that every overflow path of
// rollout.Plan is reached in a default property run (TestReach measures
// how often):
//
//   - in about 1 of 6, one ReplicaSet's size is near math.MaxInt32
//     ([NearMaxInt32]), its status alike;
//   - in about 1 of 4, there is no new ReplicaSet, and one that d controls,
//     with another template, has the name the new ReplicaSet would take, so
//     a sync that creates it collides; in half of those
//     status.collisionCount is math.MaxInt32, and raising it overflows;
//   - in about 1 of 3, two ReplicaSets at least are active (both near
//     math.MaxInt32 when d's replicas are) and every active one carries the
//     desired- and max-replicas annotations of a Deployment of at most 60
//     replicas, so the sync scales proportionally, by a factor beyond int32
//     when d's replicas are near math.MaxInt32;
//   - in about 1 of 10, a ReplicaSet's revision is math.MaxInt64, which has
//     no next revision when it is an old one;
//   - in about 1 of 8, a ReplicaSet's desired-replicas annotation is 2^32 +
//     d's replicas, beyond int32, which upstream's truncation reads as d's
//     replicas.
//
// Together with [Replicas] near math.MaxInt32 (about 1 of 4), sizes of
// ReplicaSets sum past int32, replicas + maxSurge passes it, and
// proportional scaling from a stale max-replicas annotation gives a size
// beyond it.
func edges(t *rapid.T, d *rollout.Deployment, sets []rollout.ReplicaSet) []rollout.ReplicaSet {
	if len(sets) > 0 && rapid.IntRange(0, 5).Draw(t, "edge: a huge ReplicaSet") == 0 {
		rs := &sets[rapid.IntRange(0, len(sets)-1).Draw(t, "huge ReplicaSet")]
		rs.Spec.Replicas = NearMaxInt32().Draw(t, "huge size")
		rs.Status = replicaSetStatus(t, *rs)
	}
	if rapid.IntRange(0, 3).Draw(t, "edge: a name collision") == 0 {
		if rapid.Bool().Draw(t, "collision count at MaxInt32") {
			d.Status.CollisionCount = rollout.Int32(math.MaxInt32)
		}
		// The sync creates the new ReplicaSet only when there is none.
		sets = slices.DeleteFunc(sets, func(rs rollout.ReplicaSet) bool { return rollout.EqualIgnoreHash(d.Spec.Template, rs.Spec.Template) })
		if squatter, ok := squatter(t, *d, sets); ok {
			sets = append(sets, squatter)
		}
	}
	if rapid.IntRange(0, 2).Draw(t, "edge: scaled from a small size") == 0 {
		// Every active ReplicaSet, two at least, was sized for a
		// Deployment of at most 60: a scaling event, spread in proportion
		// to the stale max-replicas annotations.
		for i := range min(2, len(sets)) {
			switch {
			case d.Spec.Replicas >= 1<<30:
				sets[i].Spec.Replicas = NearMaxInt32().Draw(t, "active size")
			case sets[i].Spec.Replicas == 0:
				sets[i].Spec.Replicas = rapid.Int32Range(1, 10).Draw(t, "active size")
			default:
				continue
			}
			sets[i].Status = replicaSetStatus(t, sets[i])
		}
		desired := rapid.Int32Range(0, 60).Draw(t, "stale desired-replicas")
		maxR := desired + rapid.Int32Range(0, 5).Draw(t, "stale surge")
		for i := range sets {
			if sets[i].Spec.Replicas > 0 {
				sets[i].Annotations = withAnnotation(sets[i].Annotations, rollout.DesiredReplicasAnnotation, strconv.Itoa(int(desired)))
				sets[i].Annotations[rollout.MaxReplicasAnnotation] = strconv.Itoa(int(maxR))
			}
		}
	}
	if len(sets) > 0 && rapid.IntRange(0, 9).Draw(t, "edge: revision MaxInt64") == 0 {
		rs := &sets[rapid.IntRange(0, len(sets)-1).Draw(t, "revision MaxInt64 on")]
		rs.Annotations = withAnnotation(rs.Annotations, rollout.RevisionAnnotation, strconv.FormatInt(math.MaxInt64, 10))
	}
	if len(sets) > 0 && rapid.IntRange(0, 7).Draw(t, "edge: desired-replicas beyond int32") == 0 {
		rs := &sets[rapid.IntRange(0, len(sets)-1).Draw(t, "desired-replicas beyond int32 on")]
		desired := 1<<32 + int64(d.Spec.Replicas)
		rs.Annotations = withAnnotation(rs.Annotations, rollout.DesiredReplicasAnnotation, strconv.FormatInt(desired, 10))
	}
	return sets
}

// squatter returns a ReplicaSet that d controls, with another template,
// named as the ReplicaSet a sync of d would create; false when a ReplicaSet
// of sets already has that name.
func squatter(t *rapid.T, d rollout.Deployment, sets []rollout.ReplicaSet) (rollout.ReplicaSet, bool) {
	name := rollout.NewReplicaSetName(d)
	for _, rs := range sets {
		if rs.Name == name {
			return rollout.ReplicaSet{}, false
		}
	}
	tmpl := Template("app:squatter").Draw(t, "squatter template")
	h := rollout.PodTemplateHash(rollout.Deployment{Spec: rollout.DeploymentSpec{Template: tmpl}})
	tmpl.Labels[rollout.PodTemplateHashLabel] = h
	rs := rollout.ReplicaSet{
		ObjectMeta: rollout.ObjectMeta{
			Name: name, Namespace: d.Namespace, UID: "uid-" + name, Generation: 1,
			CreationTimestamp: Epoch(),
			Labels:            maps.Clone(tmpl.Labels),
			Annotations:       map[string]string{rollout.RevisionAnnotation: fmt.Sprint(len(sets) + 1)},
			OwnerReferences: []rollout.OwnerReference{{
				APIVersion: "apps/v1", Kind: "Deployment", Name: d.Name, UID: d.UID, Controller: true, BlockOwnerDeletion: true,
			}},
		},
		Spec: rollout.ReplicaSetSpec{
			Replicas: rapid.Int32Range(0, 3).Draw(t, "squatter size"),
			Selector: rollout.LabelSelector{MatchLabels: map[string]string{"app": Name, rollout.PodTemplateHashLabel: h}},
			Template: tmpl,
		},
	}
	rs.Status = replicaSetStatus(t, rs)
	return rs, true
}

// withAnnotation returns a with key set to v, a new map when a is nil.
func withAnnotation(a map[string]string, key, v string) map[string]string {
	if a == nil {
		a = map[string]string{}
	}
	a[key] = v
	return a
}
