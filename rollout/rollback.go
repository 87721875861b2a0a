package rollout

import (
	"errors"
	"fmt"

	"github.com/rolloutmath/rolloutmath/revision"
)

// getRollbackTo returns the revision the rollback annotation asks for, and
// false when there is no valid request (R-RB-1).
func (p *planner) getRollbackTo() (int64, bool) {
	v, ok := p.d.Annotations[RollbackToAnnotation]
	if !ok {
		return 0, false
	}
	return revision.ParseRollbackTo(v)
}

// rollback restores the pod template of the requested revision (0: the
// previous one) and clears the request (R-RB-2..4). Nothing is scaled in
// this sync; the next one rolls out the restored template.
func (p *planner) rollback() error {
	newRS, allOldRSs, err := p.getAllReplicaSetsAndSyncRevision(createIfMissing)
	if err != nil {
		return err
	}
	allRSs := appendNew(allOldRSs, newRS)
	to, _ := p.getRollbackTo()
	i, target, err := revision.Rollback(revisions(allRSs), to)
	switch {
	case errors.Is(err, revision.ErrNoPrevious):
		p.event(Event{EventTypeWarning, RollbackRevisionNotFound, "Unable to find last revision."})
		p.updateDeploymentAndClearRollbackTo(Event{})
		return nil
	case err != nil:
		p.event(Event{EventTypeWarning, RollbackRevisionNotFound, "Unable to find the revision to rollback to."})
		p.updateDeploymentAndClearRollbackTo(Event{})
		return nil
	}
	p.rollbackToTemplate(allRSs[i], target)
	return nil
}

// rollbackToTemplate gives the Deployment rs's template and annotations,
// unless its template is already rs's (R-RB-3), and clears the request.
func (p *planner) rollbackToTemplate(rs *ReplicaSet, target int64) {
	if EqualIgnoreHash(p.d.Spec.Template, rs.Spec.Template) {
		p.event(Event{EventTypeWarning, RollbackTemplateUnchanged,
			fmt.Sprintf("The rollback revision contains the same template as current deployment %q", p.d.Name)})
		p.updateDeploymentAndClearRollbackTo(Event{})
		return
	}
	setFromReplicaSetTemplate(&p.d, rs.Spec.Template)
	setDeploymentAnnotationsTo(&p.d, rs)
	p.updateDeploymentAndClearRollbackTo(Event{EventTypeNormal, RollbackDone,
		fmt.Sprintf("Rolled back deployment %q to revision %d", p.d.Name, target)})
}

// setFromReplicaSetTemplate gives d the template t without its
// pod-template-hash label, with labels always present (R-ANN-7).
func setFromReplicaSetTemplate(d *Deployment, t PodTemplate) {
	t = t.clone()
	if t.Labels == nil {
		t.Labels = map[string]string{}
	}
	delete(t.Labels, PodTemplateHashLabel)
	d.Spec.Template = t
}

// setDeploymentAnnotationsTo keeps d's own annotations of the skipped keys
// and takes every other one from rs, dropping the rest (R-ANN-6).
func setDeploymentAnnotationsTo(d *Deployment, rs *ReplicaSet) {
	ann := map[string]string{}
	for k, v := range d.Annotations {
		if skipCopyAnnotation(k) {
			ann[k] = v
		}
	}
	for k, v := range rs.Annotations {
		if !skipCopyAnnotation(k) {
			ann[k] = v
		}
	}
	d.Annotations = ann
}

// updateDeploymentAndClearRollbackTo removes the rollback request and
// writes the Deployment (R-RB-4), recording e with the write.
func (p *planner) updateDeploymentAndClearRollbackTo(e Event) {
	p.ownAnnotations()
	delete(p.d.Annotations, RollbackToAnnotation)
	mark := len(p.actions)
	p.updateDeployment(e)
	if e.Reason == RollbackDone {
		p.explain(mark, "rollback: the template of the requested revision restored, the request cleared")
	} else {
		p.explain(mark, "rollback request cleared: nothing to roll back to")
	}
}
