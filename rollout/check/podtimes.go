package check

import (
	"fmt"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/sim"
)

// PodTimes returns pods with the times a pod of d's template takes to
// become ready and to go away once deleted, as its probes and hooks say
// ([sim.TimingOf]), and the reasons in words for a report's header, one
// per time read. A time whose fixed flag is set is pods' own, and has no
// reason. The template is d's: that of the pods a rollout of d creates,
// taken for the pods it deletes too.
func PodTimes(d rollout.Deployment, pods sim.PodModel, readyFixed, terminatingFixed bool) (sim.PodModel, []string, error) {
	if readyFixed && terminatingFixed {
		return pods, nil, nil
	}
	t, err := sim.TimingOf(d.Spec.Template.Spec)
	if err != nil {
		return pods, nil, fmt.Errorf("the pod template of Deployment %s: %w", Qualified(d), err)
	}
	var why []string
	if !readyFixed {
		pods.ReadyAfter = t.ReadyAfter
		why = append(why, "ready "+t.ReadyReason)
	}
	if !terminatingFixed {
		pods.Terminating = t.Terminating
		why = append(why, "terminating "+t.TerminatingReason)
	}
	return pods, why, nil
}
