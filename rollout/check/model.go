package check

import (
	"fmt"
	"strings"

	"github.com/rolloutmath/rolloutmath/internal/words"
	"github.com/rolloutmath/rolloutmath/rollout/sim"
)

// describeModel words the pod model and the controller's pace of a
// configuration; quota says where a pod quota comes from, or, without
// one in cfg, which quotas apply ("" for --quota-pods or none).
func describeModel(cfg sim.Config, quota string) string {
	return describeTimes(cfg, quota, false, false)
}

// describeTimes is describeModel for a check whose pods' ready and
// terminating times may come from each Deployment's template instead
// (readyOwn, terminatingOwn).
func describeTimes(cfg sim.Config, quota string, readyOwn, terminatingOwn bool) string {
	p := cfg.Pods
	var parts []string
	switch {
	case !readyOwn && p.ReadyAfter == 0 && p.ReadyJitter == 0:
		parts = append(parts, "pods ready at once")
	default:
		s := "pods ready " + words.Duration(p.ReadyAfter) + " after they are created"
		if readyOwn {
			s = "pods ready as each template's probes say"
		}
		if p.ReadyJitter > 0 {
			s += fmt.Sprintf(" plus up to %s (seed %d)", words.Duration(p.ReadyJitter), p.Seed)
		}
		parts = append(parts, s)
	}
	if len(p.NeverReady) > 0 {
		parts = append(parts, "never ready: "+strings.Join(p.NeverReady, ", "))
	}
	switch {
	case terminatingOwn:
		parts = append(parts, "deleted pods terminate as each template's preStop sleep and grace period say")
	case p.Terminating > 0:
		parts = append(parts, "deleted pods terminate for "+words.Duration(p.Terminating))
	default:
		parts = append(parts, "deleted pods gone at once")
	}
	switch {
	case p.MaxPods > 0 && quota != "":
		parts = append(parts, fmt.Sprintf("a quota of %s (%s)", words.Plural(int(p.MaxPods), "pod"), quota))
	case p.MaxPods > 0:
		parts = append(parts, "a quota of "+words.Plural(int(p.MaxPods), "pod"))
	case quota != "":
		parts = append(parts, quota)
	default:
		parts = append(parts, "no pod quota")
	}
	switch {
	case cfg.Model == sim.ModelControllers:
		parts = append(parts, "the Deployment and ReplicaSet controllers as they run ("+cfg.Controllers.String()+")")
	case cfg.Interval > 0:
		parts = append(parts, "a sync every "+words.Duration(cfg.Interval))
	default:
		parts = append(parts, "a sync at each change")
	}
	return "pod model: " + strings.Join(parts, ", ")
}
