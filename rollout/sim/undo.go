package sim

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/rolloutmath/rolloutmath/rollout"
)

// UndoPreview is what `kubectl rollout undo [--to-revision=N]` would do to
// a Deployment.
type UndoPreview struct {
	// Target is the ReplicaSet of the revision, whose template comes back
	// ("" when there is no such revision).
	Target string
	// Revision is the revision rolled back to: the requested one, or for
	// 0 the previous one (rollout.LastRevision).
	Revision int64
	// NoOp is true when the Deployment's template already is the
	// revision's (upstream's DeploymentRollbackTemplateUnchanged).
	NoOp bool
	// NotFound is upstream's event message when there is no such revision
	// ("" when there is).
	NotFound string
	// NewRevision is the revision Target gets on the next sync (0 when
	// nothing is restored), and History its revision-history annotation
	// then.
	NewRevision int64
	History     string
	// Deployment is the Deployment after the rollback write: the restored
	// template and annotations, the request cleared.
	Deployment rollout.Deployment
	// State is the whole state after the rollback write, for Run.
	State rollout.State
}

// PreviewUndo previews a rollback of s.Deployment to toRevision (0: the
// previous revision) at s.Now. It sets the rollback annotation
// (deprecated.deployment.rollback.to) and runs a sync with Plan and Apply,
// which restores the template or records why not (after the syncs that a
// taken ReplicaSet name costs, as the controller retries), then one more
// Plan to
// read the revision and history the restored ReplicaSet gets. Run from
// State gives the timeline of the rollback.
//
// kubectl itself patches the template instead of setting the annotation;
// the restored template, annotations and the next syncs are the same.
// PreviewUndo fails for a negative toRevision, for a paused Deployment
// (kubectl refuses to roll one back), and where Plan fails. It does not
// modify s.
func PreviewUndo(s rollout.State, toRevision int64) (UndoPreview, error) {
	if toRevision < 0 {
		return UndoPreview{}, fmt.Errorf("sim: toRevision %d: must be 0 (the previous revision) or a revision", toRevision)
	}
	if s.Deployment.Spec.Paused {
		return UndoPreview{}, fmt.Errorf("sim: deployment %q is paused: kubectl refuses to roll back a paused deployment; resume it first", s.Deployment.Name)
	}
	req := rollout.Apply(s, nil) // a deep copy
	if req.Deployment.Annotations == nil {
		req.Deployment.Annotations = map[string]string{}
	}
	req.Deployment.Annotations[rollout.RollbackToAnnotation] = strconv.FormatInt(toRevision, 10)
	actions, err := rollout.Plan(req)
	// A new ReplicaSet whose name is taken fails the sync after its status
	// write raises collisionCount; the controller syncs again, and so does
	// the preview, as often as names are taken (each retry takes a fresh
	// name, so there are at most as many retries as ReplicaSets).
	for retries := 0; err != nil && errors.As(err, new(*rollout.CollisionError)) && retries <= len(req.ReplicaSets); retries++ {
		req = rollout.Apply(req, actions)
		actions, err = rollout.Plan(req)
	}
	if err != nil {
		return UndoPreview{}, err
	}
	after := rollout.Apply(req, actions)
	p := UndoPreview{Deployment: after.Deployment, State: after}

	ctrl := controlledBy(after)
	p.Revision = toRevision
	if toRevision == 0 {
		p.Revision = rollout.LastRevision(ctrl)
	}
	for _, a := range actions {
		switch a.Event.Reason {
		case rollout.RollbackRevisionNotFound:
			p.NotFound = a.Event.Message
		case rollout.RollbackTemplateUnchanged:
			p.NoOp = true
		}
	}
	if p.NotFound != "" {
		return p, nil
	}
	// The ReplicaSet of the revision, found as the rollback finds it: old
	// ones oldest first, then the new one.
	newRS, hasNew := rollout.FindNewReplicaSet(req.Deployment, ctrl)
	_, old := rollout.FindOldReplicaSets(req.Deployment, ctrl)
	order := old
	if hasNew {
		order = append(order, newRS)
	}
	for _, rs := range order {
		if n, err := rollout.Revision(rs); err == nil && n == p.Revision {
			p.Target = rs.Name
			break
		}
	}
	if p.NoOp || p.Target == "" {
		return p, nil
	}
	next, err := rollout.Plan(after)
	if err != nil && !errors.As(err, new(*rollout.CollisionError)) {
		return UndoPreview{}, err
	}
	for _, rs := range rollout.Apply(after, next).ReplicaSets {
		if rs.Name == p.Target && rs.Namespace == after.Deployment.Namespace {
			p.NewRevision, _ = rollout.Revision(rs)
			p.History = rs.Annotations[rollout.RevisionHistoryAnnotation]
		}
	}
	return p, nil
}

// controlledBy returns the ReplicaSets of s's namespace that its
// Deployment controls, in their order.
func controlledBy(s rollout.State) []rollout.ReplicaSet {
	var out []rollout.ReplicaSet
	for _, rs := range s.ReplicaSets {
		if rs.Namespace == s.Deployment.Namespace && rollout.IsControlledBy(&rs.ObjectMeta, &s.Deployment.ObjectMeta) {
			out = append(out, rs)
		}
	}
	return out
}
