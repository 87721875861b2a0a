package rollout

import (
	"errors"
	"fmt"

	"github.com/rolloutmath/rolloutmath/revision"
)

// rollbackRequest returns the revision the rollback annotation asks for,
// and false when there is no valid request (R-RB-1).
func (p *planner) rollbackRequest() (int64, bool) {
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
	newRS, old, err := p.replicaSets(createIfMissing)
	if err != nil {
		return err
	}
	all := appendNew(old, newRS)
	to, _ := p.rollbackRequest()
	i, target, err := revision.Rollback(revisions(all), to)
	switch {
	case errors.Is(err, revision.ErrNoPrevious):
		p.event(Event{"Warning", "DeploymentRollbackRevisionNotFound", "Unable to find last revision."})
		p.clearRollback(Event{})
		return nil
	case err != nil:
		p.event(Event{"Warning", "DeploymentRollbackRevisionNotFound", "Unable to find the revision to rollback to."})
		p.clearRollback(Event{})
		return nil
	}
	rs := all[i]
	if EqualIgnoreHash(p.d.Spec.Template, rs.Spec.Template) {
		p.event(Event{"Warning", "DeploymentRollbackTemplateUnchanged",
			fmt.Sprintf("The rollback revision contains the same template as current deployment %q", p.d.Name)})
		p.clearRollback(Event{})
		return nil
	}
	// R-ANN-7: the ReplicaSet's template without its hash label.
	t := rs.Spec.Template.clone()
	if t.Labels == nil {
		t.Labels = map[string]string{}
	}
	delete(t.Labels, PodTemplateHashLabel)
	p.d.Spec.Template = t
	// R-ANN-6: keep the Deployment's own skipped annotations, take the rest
	// from the ReplicaSet.
	ann := map[string]string{}
	for k, v := range p.d.Annotations {
		if skipCopy(k) {
			ann[k] = v
		}
	}
	for k, v := range rs.Annotations {
		if !skipCopy(k) {
			ann[k] = v
		}
	}
	p.d.Annotations = ann
	p.clearRollback(Event{"Normal", "DeploymentRollback", fmt.Sprintf("Rolled back deployment %q to revision %d", p.d.Name, target)})
	return nil
}

// clearRollback removes the rollback request and writes the Deployment
// (R-RB-4), recording e with the write.
func (p *planner) clearRollback(e Event) {
	delete(p.d.Annotations, RollbackToAnnotation)
	mark := len(p.actions)
	p.updateDeployment(e)
	if e.Reason == "DeploymentRollback" {
		p.explain(mark, "rollback: the template of the requested revision restored, the request cleared")
	} else {
		p.explain(mark, "rollback request cleared: nothing to roll back to")
	}
}
