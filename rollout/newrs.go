package rollout

import (
	"fmt"
	"maps"
	"strconv"

	"github.com/rolloutmath/rolloutmath/hash"
	"github.com/rolloutmath/rolloutmath/revision"
)

// CollisionError reports that the name of the new ReplicaSet is taken by a
// ReplicaSet with another template or owner. The sync raises
// status.collisionCount, so the next sync hashes to another name.
type CollisionError struct{ Name string }

// Error gives the API server's AlreadyExists message for the name.
func (e *CollisionError) Error() string {
	return fmt.Sprintf("replicasets.apps %q already exists", e.Name)
}

// createMode says whether finding the new ReplicaSet may create it
// (upstream: the createIfNotExisted flag).
type createMode bool

const (
	findOnly        createMode = false
	createIfMissing createMode = true
)

// getAllReplicaSetsAndSyncRevision finds the new and old ReplicaSets and
// brings the new one's annotations and the Deployment's revision up to date
// (R-GAR-1..3). The old ones come oldest first; the new one is nil when it
// does not exist and mode is findOnly. Every call starts from the same
// snapshots.
func (p *planner) getAllReplicaSetsAndSyncRevision(mode createMode) (*ReplicaSet, []*ReplicaSet, error) {
	if !p.found {
		// The snapshots and the template do not change before the last
		// call, so the search is made once.
		p.newIdx = findNew(&p.d.Spec.Template, p.rsList)
		p.old = appendOld(p.oldBuf, p.rsList, p.newIdx)
		p.next, p.nextErr = nextRevision(p.old)
		p.found = true
	}
	newRS, err := p.getNewReplicaSet(p.old, mode)
	return newRS, p.old, err
}

// nextRevision is the revision of a new ReplicaSet: the highest of old plus
// one (R-NEW-2), or an error naming the annotation when that is past
// MaxInt64.
func nextRevision(old []*ReplicaSet) (int64, error) {
	var buf [8]revision.Rev // a few old ReplicaSets, on the stack
	next, err := revision.Next(appendRevisions(buf[:0], old))
	if err != nil {
		return 0, fmt.Errorf("metadata.annotations[%s]: %w", RevisionAnnotation, err)
	}
	return next, nil
}

// getNewReplicaSet returns the Deployment's new ReplicaSet (R-NEW-1..9):
// the existing one, updated when its annotations or minReadySeconds lag, or
// else, when mode allows, one it creates.
func (p *planner) getNewReplicaSet(old []*ReplicaSet, mode createMode) (*ReplicaSet, error) {
	if p.nextErr != nil {
		return nil, p.nextErr
	}
	if p.newIdx >= 0 {
		return p.syncNewReplicaSet(p.rsList[p.newIdx]), nil
	}
	if mode == findOnly {
		return nil, nil // R-NEW-5
	}
	return p.createNewReplicaSet(old)
}

// syncNewReplicaSet brings an existing new ReplicaSet up to date (R-NEW-3,
// R-NEW-4). When the ReplicaSet needs a write, the Deployment's revision
// waits for a later call. Upstream: the branch of getNewReplicaSet
// for an existing new ReplicaSet.
func (p *planner) syncNewReplicaSet(existing *ReplicaSet) *ReplicaSet {
	if p.synced != nil {
		// An earlier call found nothing to write, and only it changes
		// what this one reads: it would find nothing again.
		return p.synced
	}
	current := existing.Annotations != nil && newReplicaSetAnnotationsCurrent(&p.d, existing, p.next)
	if current && existing.Spec.MinReadySeconds == p.d.Spec.MinReadySeconds {
		// Nothing to write: the sync goes on with the snapshot itself,
		// which the planner only reads (it changes a ReplicaSet only in
		// a copy of its own: withOwnAnnotations), as it would with a copy
		// of it, without allocating one a sync.
		return p.recordNewRevision(existing)
	}
	var rs ReplicaSet
	annotationsChanged := false
	if current {
		// Nothing to write in its annotations: the copy shares them, and
		// the planner changes a ReplicaSet's annotations only in a copy
		// of its own (withOwnAnnotations).
		rs = *existing
	} else {
		rs = existing.withOwnAnnotations()
		annotationsChanged = setNewReplicaSetAnnotations(&p.d, &rs, p.next, true)
	}
	if annotationsChanged || rs.Spec.MinReadySeconds != p.d.Spec.MinReadySeconds {
		rs.Spec.MinReadySeconds = p.d.Spec.MinReadySeconds
		mark := len(p.actions)
		p.updateReplicaSet(&rs, existing.Spec.Replicas, Event{})
		p.explain(mark, "new ReplicaSet's annotations (revision %d) and minReadySeconds brought up to date", p.next)
		return &rs
	}
	return p.recordNewRevision(&rs)
}

// recordNewRevision ends syncNewReplicaSet when the new ReplicaSet rs
// needs no write: the Deployment takes its revision, and its Progressing
// condition when it has none; rs is returned and kept for later calls.
func (p *planner) recordNewRevision(rs *ReplicaSet) *ReplicaSet {
	// The ReplicaSet's revision, verbatim even when it is not a number.
	changed := p.setDeploymentRevision(rs.Annotations[RevisionAnnotation])
	if _, ok := GetDeploymentCondition(p.d.Status, Progressing); !ok && HasProgressDeadline(p.d) {
		msg := fmt.Sprintf("Found new replica set %q", rs.Name)
		p.setCondition(Progressing, ConditionTrue, ReasonFoundNewReplicaSet, msg)
		changed = true
	}
	if changed {
		mark := len(p.actions)
		p.updateStatus()
		p.explain(mark, "revision annotation %s of the new ReplicaSet recorded", p.d.Annotations[RevisionAnnotation])
	}
	p.synced = rs
	return rs
}

// NewReplicaSet returns the ReplicaSet a sync creates for d's pod template
// when none of d's ReplicaSets has it (R-NEW-6, R-NEW-7; upstream: the
// creating half of getNewReplicaSet), as a controller-manager of the
// newest supported minor sends it to the API server (its name and hash
// label are [PodTemplateHash]'s; [Plan] names it by [Options.Version]):
//
//   - named [NewReplicaSetName](d), in d's namespace, controlled by d
//     ([NewControllerRef]);
//   - with d's template, its labels and d's selector, each with the
//     pod-template-hash label [PodTemplateHash](d) added;
//   - with d's minReadySeconds and the size [NewRSNewReplicas] gives it next
//     to oldRSs;
//   - annotated with d's annotations that the controller copies
//     ([CopiesAnnotation]), the revision one above the highest of oldRSs,
//     and the desired- and max-replicas annotations of d's size.
//
// It has no UID, creation time, generation or status, which the API server
// and the ReplicaSet controller give it. It fails for a strategy type that
// NewRSNewReplicas refuses, and when a revision of oldRSs is MaxInt64 (an
// error wrapping revision.ErrOverflow). NewReplicaSet modifies neither d
// nor oldRSs, and the result shares no map or slice with them.
func NewReplicaSet(d *Deployment, oldRSs []*ReplicaSet) (ReplicaSet, error) {
	return NewReplicaSetFor(d, oldRSs, Latest)
}

// NewReplicaSetFor is [NewReplicaSet] as a controller-manager of minor v
// creates the ReplicaSet: named, and labelled, by [PodTemplateHashFor] d
// and v.
func NewReplicaSetFor(d *Deployment, oldRSs []*ReplicaSet, v Version) (ReplicaSet, error) {
	next, err := nextRevision(oldRSs)
	if err != nil {
		return ReplicaSet{}, err
	}
	return newReplicaSet(d, oldRSs, next, v)
}

// newReplicaSet is NewReplicaSet at the revision next, named as a
// controller-manager of minor v names it.
func newReplicaSet(d *Deployment, oldRSs []*ReplicaSet, next int64, v Version) (ReplicaSet, error) {
	h := PodTemplateHashFor(*d, v)
	template := d.Spec.Template.clone()
	template.Labels = withLabel(d.Spec.Template.Labels, PodTemplateHashLabel, h)
	selector := d.Spec.Selector.clone()
	selector.MatchLabels = withLabel(d.Spec.Selector.MatchLabels, PodTemplateHashLabel, h)
	rs := ReplicaSet{
		ObjectMeta: ObjectMeta{
			Name:            hash.Name(d.Name, h),
			Namespace:       d.Namespace,
			Labels:          maps.Clone(template.Labels),
			OwnerReferences: []OwnerReference{NewControllerRef(d.ObjectMeta, AppsAPIVersion, DeploymentKind)},
		},
		Spec: ReplicaSetSpec{MinReadySeconds: d.Spec.MinReadySeconds, Selector: selector, Template: template},
	}
	// R-NEW-7: sized against the old ReplicaSets (the new one is still 0).
	size, err := NewRSNewReplicas(d, oldRSs, &rs)
	if err != nil {
		return ReplicaSet{}, err
	}
	rs.Spec.Replicas = size
	setNewReplicaSetAnnotations(d, &rs, next, false)
	return rs, nil
}

// createNewReplicaSet creates the ReplicaSet for the Deployment's template
// (R-NEW-6..9), or finds that its name is taken (R-NEW-8a). Upstream: the
// creating half of getNewReplicaSet.
func (p *planner) createNewReplicaSet(old []*ReplicaSet) (*ReplicaSet, error) {
	d := &p.d
	rs, err := newReplicaSet(d, old, p.next, p.opts.Version)
	if err != nil {
		return nil, err
	}
	created := &rs
	alreadyExisted := false
	if taken := p.byName(rs.Name); taken != nil { // R-NEW-8a
		if !IsControlledBy(&taken.ObjectMeta, &d.ObjectMeta) || !EqualIgnoreHash(d.Spec.Template, taken.Spec.Template) {
			return nil, p.collision(rs.Name)
		}
		created, alreadyExisted = taken, true
	} else {
		var e Event
		if size := rs.Spec.Replicas; size > 0 {
			e = Event{EventTypeNormal, ScalingReplicaSetReason, fmt.Sprintf("Scaled up replica set %s from 0 to %d", rs.Name, size)}
		}
		sent := rs.DeepCopy()
		p.actions = append(p.actions, Action{
			Type: CreateReplicaSet, ReplicaSet: rs.Name, To: rs.Spec.Replicas,
			Labels: maps.Clone(rs.Labels), Annotations: maps.Clone(rs.Annotations),
			Created: &sent, Event: e, Reason: p.createReason(old, rs.Spec.Replicas),
		})
	}
	// R-NEW-9: the computed revision, even for an existing ReplicaSet.
	changed := p.setDeploymentRevision(strconv.FormatInt(p.next, 10))
	if !alreadyExisted && HasProgressDeadline(*d) {
		p.setCondition(Progressing, ConditionTrue, ReasonNewReplicaSetCreated, fmt.Sprintf("Created new replica set %q", rs.Name))
		changed = true
	}
	if changed {
		mark := len(p.actions)
		p.updateStatus()
		p.explain(mark, "revision %d and the Progressing condition recorded", p.next)
	}
	return created, nil
}

// collision raises status.collisionCount after the new ReplicaSet's name
// turned out to be taken by another template or owner, writes the status,
// and returns the error that ends the sync (R-NEW-8a).
func (p *planner) collision(name string) error {
	cc := p.d.Status.CollisionCount
	if cc.Value == Unlimited {
		return &OverflowError{Field: "status.collisionCount", Value: int64(cc.Value) + 1}
	}
	p.d.Status.CollisionCount = Int32(cc.Value + 1)
	mark := len(p.actions)
	p.updateStatus()
	p.explain(mark, "hash collision: ReplicaSet %s exists with another template; collisionCount %d gives the next name", name, cc.Value+1)
	return &CollisionError{Name: name}
}

// createReason explains the size of a new ReplicaSet.
func (p *planner) createReason(old []*ReplicaSet, size int32) string {
	d := p.d
	if d.Spec.Strategy.Type != RollingUpdateStrategy {
		return fmt.Sprintf("new ReplicaSet for the new template at replicas %d: no old pod is left", size)
	}
	return fmt.Sprintf("new ReplicaSet for the new template at %d: replicas %d + maxSurge %d - current total %d, at most replicas",
		size, d.Spec.Replicas, p.maxReplicas-int64(d.Spec.Replicas), GetReplicaCountForReplicaSets(old))
}

// PodTemplateHash returns the pod-template-hash of d's template and
// status.collisionCount, the label and name suffix of the ReplicaSet a sync
// creates for it (R-HASH-1), as a controller-manager of the newest
// supported minor computes it: [PodTemplateHashFor] with the zero
// [Version].
func PodTemplateHash(d Deployment) string { return PodTemplateHashFor(d, Latest) }

// PodTemplateHashFor returns the pod-template-hash of d's template and
// status.collisionCount as a controller-manager of Kubernetes v computes
// it. Each minor gives every template another hash, since the text hashed
// holds every field of the minor's pod template, unset ones included; the
// same template and collision count always give the same hash for one
// minor. A Version that is not Valid hashes as the newest minor.
func PodTemplateHashFor(d Deployment, v Version) string {
	return templateHash(d.Spec.Template, d.Status.CollisionCount, v)
}

// NewReplicaSetName returns the name of the ReplicaSet a sync creates for
// d's template: the Deployment's name, cut to fit, "-" and
// [PodTemplateHash] (R-NAME-1; upstream: generateReplicaSetName).
func NewReplicaSetName(d Deployment) string { return hash.Name(d.Name, PodTemplateHash(d)) }

// byName returns the ReplicaSet of the namespace with that name, or nil.
func (p *planner) byName(name string) *ReplicaSet {
	for _, rs := range p.inNamespace {
		if rs.Name == name {
			return rs
		}
	}
	return nil
}

// setCondition sets a condition on the in-memory status, stamped now.
func (p *planner) setCondition(t ConditionType, s ConditionStatus, reason, msg string) {
	p.d.Status = SetDeploymentCondition(p.d.Status, NewDeploymentCondition(t, s, reason, msg, p.ts))
}

// withLabel returns a copy of labels with key set to v.
func withLabel(labels map[string]string, key, v string) map[string]string {
	out := make(map[string]string, len(labels)+1)
	maps.Copy(out, labels)
	out[key] = v
	return out
}
