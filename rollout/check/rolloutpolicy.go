package check

import (
	"fmt"
	"time"

	"github.com/rolloutmath/rolloutmath/internal/schema"
	"github.com/rolloutmath/rolloutmath/internal/words"
	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/sim"
)

// rolloutPolicy is what the input's policy objects, and the flags that
// override them, say about the rollouts of one Deployment.
type rolloutPolicy struct {
	// lo..hi are the replica counts to check: --replicas, else the range
	// of the HorizontalPodAutoscaler that scales the Deployment, else
	// spec.replicas.
	lo, hi int32
	hpa    *policyObject[*schema.HorizontalPodAutoscaler]
	// cap is how many of its pods the namespace's quotas hold (pods -1:
	// none, or --quota-pods decides).
	cap quotaCap
	// static are the findings that need no simulation: admission that
	// refuses every pod (refused is then true, and nothing is simulated),
	// an HPA with spec.replicas set, budgets that allow no disruption.
	static  []Finding
	refused bool
	budgets []budget
	quotas  bool // the namespace has ResourceQuotas
	// rules are the rules applied, for the reports that list passes.
	rules []string
	// pods are the pod model of its rollouts, with the times its template
	// gives (see PodTimes).
	pods sim.PodModel
	// place is what the nodes leave its pods (see placement).
	place placement
	err   error // why the policy could not be read
}

// policyFor reads the policy of d's rollouts for check: readPolicy, and
// the rules that apply.
func (f *checker) policyFor(in *Input, d rollout.Deployment) (rolloutPolicy, error) {
	p, err := readPolicy(in, d, f.replicas, f.quotaPods, f.maxRollouts)
	if err == nil {
		p.pods, _, err = PodTimes(d, f.sim.Pods, f.readyFixed, f.termFixed)
	}
	if err == nil {
		p.place, err = f.placementOf(in, d)
	}
	p.rules = append(p.rules, RuleNeverFinish, RuleDeadline)
	if rollout.HasProgressDeadline(d) {
		p.rules = append(p.rules, RuleDeadlineMargin)
	}
	p.rules = append(p.rules, RuleOutage)
	for _, r := range []struct {
		on   bool
		rule string
	}{{f.maxPods > 0, RuleMaxPods}, {f.minAvailable.set, RuleMinAvailable}, {f.maxDuration > 0, RuleMaxDuration}, {f.timeout > 0, RuleTimeout},
		{p.quotas, RuleThrottled}, {p.hpa != nil, RuleHPAReplicas}, {len(p.budgets) > 0, RulePDBDrain}, {len(p.budgets) > 0, RulePDBNever}} {
		if r.on {
			p.rules = append(p.rules, r.rule)
		}
	}
	p.rules = append(p.rules, placementRules(p.place)...)
	return p, err
}

// readPolicy reads what the policy objects of d's namespace say about its
// rollouts; replicas and quotaPods are the flags that override them, and
// the quotas hold rollouts at once.
func readPolicy(in *Input, d rollout.Deployment, replicas replicaRange, quotaPods, rollouts int) (rolloutPolicy, error) {
	p := rolloutPolicy{lo: d.Spec.Replicas, hi: d.Spec.Replicas, cap: quotaCap{pods: -1}}
	if h, ok := in.hpaFor(d); ok {
		p.hpa = &h
		p.lo, p.hi = *h.obj.Spec.MinReplicas, h.obj.Spec.MaxReplicas
		if where := in.deploymentPlace(d, "spec.replicas"); where.Written && !isLive(d) {
			p.static = append(p.static, Finding{Deployment: Qualified(d), Replicas: d.Spec.Replicas, Rule: RuleHPAReplicas, Severity: SeverityWarning,
				Cause: CauseInput, Location: where, Related: []Location{fieldPlace(h.doc, "HorizontalPodAutoscaler", h.obj.Namespace, h.obj.Name, "spec.scaleTargetRef")},
				Message: fmt.Sprintf("spec.replicas is %d while HorizontalPodAutoscaler %s scales this Deployment (%d..%d): every kubectl apply resets the replicas it chose; leave spec.replicas out",
					d.Spec.Replicas, h.obj.Name, p.lo, p.hi)})
		}
	}
	if replicas.set {
		p.lo, p.hi = replicas.min, replicas.max
	}
	if ns := in.policy[d.Namespace]; ns != nil && len(ns.quotas)+len(ns.ranges) > 0 {
		in.quotaViews()
		v := in.quotas[d.Namespace]
		k := v.at[d.Name]
		if err := v.errs[k]; err != nil {
			return p, err
		}
		p.quotas = len(ns.quotas) > 0
		if p.quotas && quotaPods == 0 {
			p.cap = v.capFor(k, rollouts)
		}
		blocked := v.admission(in, k, rollouts, p.cap)
		p.static = append(p.static, blocked...)
		p.refused = len(blocked) > 0 && d.Spec.Replicas > 0
	}
	p.budgets = in.budgetsFor(d)
	if len(p.budgets) > 1 {
		// The eviction API refuses, with a 500, to evict a pod that more
		// than one budget selects: every drain of a node with one fails.
		b := p.budgets[1]
		f := Finding{Deployment: Qualified(d), Replicas: p.lo, Rule: RulePDBNever, Severity: SeverityError, Cause: CauseInput,
			Location: fieldPlace(b.pdb.doc, "PodDisruptionBudget", b.pdb.obj.Namespace, b.pdb.obj.Name, "spec.selector"),
			Message: fmt.Sprintf("%d PodDisruptionBudgets select the pods of Deployment %s: the eviction API refuses to evict a pod with more than one budget, so every node drain with one of its pods fails; keep one budget",
				len(p.budgets), Qualified(d))}
		for _, o := range p.budgets {
			if o.pdb.obj.Name != b.pdb.obj.Name {
				f.Related = append(f.Related, fieldPlace(o.pdb.doc, "PodDisruptionBudget", o.pdb.obj.Namespace, o.pdb.obj.Name, "spec.selector"))
			}
		}
		p.static = append(p.static, f)
	}
	for _, b := range p.budgets {
		var counts []int32
		for r := int64(p.lo); r <= int64(p.hi); r++ {
			if total := r + b.others; total > 0 && total <= b.keep(int32(r)) {
				counts = append(counts, int32(r))
			}
		}
		if len(counts) == 0 {
			continue
		}
		p.static = append(p.static, Finding{Deployment: Qualified(d), Replicas: counts[0], Rule: RulePDBNever, Severity: SeverityError,
			Cause: CauseInput, Location: fieldPlace(b.pdb.doc, "PodDisruptionBudget", b.pdb.obj.Namespace, b.pdb.obj.Name, b.field),
			Related: []Location{in.deploymentPlace(d, "spec.replicas")},
			Message: fmt.Sprintf("%s with every replica ready, at replicas %s: it allows no eviction, so node drains and cluster upgrades wait for ever",
				b.describe(counts[0]), words.Counts(counts))})
	}
	return p, nil
}

// drainViolations sums up the drain blocks of a Deployment's rollouts:
// one warning per budget, naming the replica counts where a rollout
// blocks node drains and when.
func drainViolations(in *Input, d rollout.Deployment, budgets []budget, blocks []drainBlock) []Finding {
	var out []Finding
	for i, b := range budgets {
		var counts []int32
		var first *drainBlock
		for k := range blocks {
			if blk := &blocks[k]; blk.budget == i && !blk.throughEnd {
				if first == nil {
					first = blk
				}
				if len(counts) == 0 || counts[len(counts)-1] != blk.replicas {
					counts = append(counts, blk.replicas)
				}
			}
		}
		if first == nil {
			continue
		}
		strategy := "spec.strategy.rollingUpdate.maxUnavailable"
		if d.Spec.Strategy.Type == rollout.RecreateStrategy {
			strategy = "spec.strategy.type"
		}
		out = append(out, Finding{Deployment: Qualified(d), Replicas: first.replicas, Rule: RulePDBDrain, Severity: SeverityWarning,
			At: first.from.Seconds(), Cause: CauseRollout, Location: in.deploymentPlace(d, strategy),
			Related: []Location{fieldPlace(b.pdb.doc, "PodDisruptionBudget", b.pdb.obj.Namespace, b.pdb.obj.Name, b.field)},
			Message: drainWords(b, *first, words.Counts(counts))})
	}
	return out
}

// span words a time or a time range after the start: "at +1m", "from +30s
// to +2m".
func span(from, to time.Duration) string {
	if from == to {
		return "at +" + words.Duration(from)
	}
	return fmt.Sprintf("from +%s to +%s", words.Duration(from), words.Duration(to))
}
