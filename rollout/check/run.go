package check

import (
	"fmt"
	"slices"

	"github.com/rolloutmath/rolloutmath/internal/workers"
	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/sim"
)

// MarkerImage is the image a check rolls out to when Config.NeverReady is
// set: the first container's image becomes it.
const MarkerImage = "rolloutctl/next"

// RestartAnnotation is the pod template annotation `kubectl rollout
// restart` sets to the time, which a check sets to start a rollout when
// Config.NeverReady is empty and the input holds no rollout in progress.
const RestartAnnotation = "kubectl.kubernetes.io/restartedAt"

// A Result is the outcome for one Deployment over its replica range
// MinReplicas..MaxReplicas: the rollouts simulated, whether none broke a
// rule of severity error, the most pods and the fewest available pods
// seen, how many rollouts completed and the longest of them in seconds,
// the rules applied and where the Deployment is.
type Result struct {
	Deployment   string `json:"deployment"`
	MinReplicas  int32  `json:"minReplicas"`
	MaxReplicas  int32  `json:"maxReplicas"`
	Rollouts     int64  `json:"rollouts"`
	OK           bool   `json:"ok"`
	PeakPods     int64  `json:"peakPods"`
	MinAvailable int64  `json:"minAvailable"`
	// Longest is the longest of the rollouts that completed, in seconds:
	// 0 both when none completed and when those that did completed at
	// once, which Completed tells apart.
	Longest float64 `json:"longestSeconds"`
	// Completed counts the rollouts that completed (after their progress
	// deadline too, as the controllers go on): 0 when none did, and then
	// Longest is 0 too.
	Completed int64 `json:"completed"`
	// Undecided counts the rollouts whose simulation stopped at its limit.
	Undecided int64 `json:"undecided"`
	// Projected are the replica counts, in increasing order, whose
	// simulation stopped at its work limit (a finding of rule limit
	// each, with the projection) or at the syncs a run may make (see
	// Config.Sim): the counts of the range checked and
	// not among them were computed to the end. A range's counts share
	// one work budget (see Config.Sim).
	Projected []int32 `json:"projected,omitempty"`
	// Rules are the rules applied; Location is the Deployment.
	Rules    []string `json:"rules"`
	Location Location `json:"location"`
}

// A Report is the outcome of a check: OK when no finding has severity
// error, the pod model the durations assume, one Result per Deployment in
// input order, and the findings, grouped by Deployment in input order and
// by time within a replica count.
type Report struct {
	OK bool `json:"ok"`
	// Kubernetes names the minors modelled (see [Kubernetes]): the API
	// server's that read the input, and the controller-manager's,
	// Config.Options.Version.
	Kubernetes  string   `json:"kubernetes"`
	PodModel    string   `json:"podModel"`
	Deployments []Result `json:"deployments"`
	// Notes say what the input holds that was not checked: kinds other
	// than Deployments (by kind, alphabetically), or that it holds no
	// Deployment; then, for each Deployment that PodDisruptionBudgets
	// select, in input order, that they do not gate its rollout, and the
	// fewest ready pods a node drain leaves at its worst moment.
	Notes    []string  `json:"notes,omitempty"`
	Findings []Finding `json:"violations"`
}

// Run checks the rollout of every Deployment of in, at each replica count
// to check, against the rules of c and the policy objects of its
// namespace, simulating Workers rollouts at once. The report starts with
// the input's Problems; a Deployment that cannot be simulated (its pod
// template refused, or with Options.SkipValidation one the simulator
// refuses) is a finding of rule RuleInput too, and the others are checked
// all the same. The report is the same whatever the number of workers.
func Run(in *Input, c Config) Report {
	r, _ := newChecker(c).run(in)
	return r
}

// BadInput reports whether r holds a finding of rule RuleInput: the
// input, or part of it, could not be checked.
func (r Report) BadInput() bool {
	return slices.ContainsFunc(r.Findings, func(f Finding) bool { return f.Rule == RuleInput })
}

// Limited reports whether a simulation of r stopped at its limit before
// its rollout ended: a finding of severity limit.
func (r Report) Limited() bool {
	return slices.ContainsFunc(r.Findings, func(f Finding) bool { return f.Severity == SeverityLimit })
}

// run checks every Deployment of in, at each of its replica counts, and
// reports whether a simulation hit its limit.
func (f *checker) run(in *Input) (Report, bool) {
	// The Deployments of every part, in input order, each with its part.
	var (
		deps  []rollout.Deployment
		parts []*Input
	)
	for _, p := range in.leaves() {
		p.quotaViews()
		for _, d := range p.objs.Deployments {
			deps, parts = append(deps, d), append(parts, p)
		}
	}
	// With the namespaces worked out, each Deployment's policy reads them
	// only: several at once. One that cannot be read is a finding, and
	// its rollouts are not simulated.
	policies := make([]rolloutPolicy, 0, len(deps))
	workers.InOrder(int64(len(deps)), f.workers, func(k int64) rolloutPolicy {
		p, err := f.policyFor(parts[k], deps[k])
		if err != nil {
			p.err = err
			p.refused = true
			p.static = []Finding{f.failed(parts[k], deps[k], deps[k].Spec.Replicas, err)}
		}
		return p
	}, func(_ int64, p rolloutPolicy) bool {
		policies = append(policies, p)
		return true
	})
	// One job per Deployment and replica count, numbered in input order:
	// job i is Deployment k at replicas counts[k][i - first[k]]; a
	// Deployment whose pods admission refuses has one job, which
	// simulates nothing.
	first := make([]int64, len(deps)+1)
	counts := make([][]int32, len(deps))
	most := sampleCountsFast
	if f.sim.Model == sim.ModelControllers {
		most = sampleCounts
	}
	for k, p := range policies {
		counts[k] = replicaCounts(p.lo, p.hi, most)
		n := int64(len(counts[k]))
		if p.refused {
			n = 1
		}
		first[k+1] = first[k] + n
	}
	total := first[len(deps)]
	if f.memo != nil {
		f.memo.keepShared(f.sharedShapes(deps, parts, policies, counts))
	}
	quotas := ""
	if f.quotaPods == 0 && slices.ContainsFunc(policies, func(p rolloutPolicy) bool { return p.quotas }) {
		quotas = "pod quotas from the namespaces' ResourceQuotas"
	}
	var (
		out     = Report{OK: len(in.problems) == 0, Kubernetes: Kubernetes(in.version, f.options.Version), PodModel: describeTimes(f.config(), quotas, !f.readyFixed, !f.termFixed), Deployments: []Result{}, Findings: append([]Finding{}, in.problems...)}
		limited bool
		done    int64
		c       Result
		drains  []drainBlock
		lows    []drainLow
	)
	job := func(i int64) (int, int32) {
		k, _ := slices.BinarySearch(first, i+1)
		k--
		return k, counts[k][i-first[k]]
	}
	out.Notes = append(in.notes(), placementNotes(deps, policies)...)
	if w := f.placementWords(in); w != "" {
		out.PodModel += ", " + w
	}
	record := func(v Finding) {
		if v.Rule == RuleInput && !slices.Contains(c.Rules, RuleInput) {
			c.Rules = append(slices.Clip(c.Rules), RuleInput)
		}
		switch v.Severity {
		case SeverityError:
			c.OK, out.OK = false, false
		case SeverityLimit:
			c.Undecided++
			limited = true
		}
		out.Findings = append(out.Findings, v)
	}
	// take records the check of job i, in job order.
	take := func(i int64, r rolloutCheck) {
		k, replicas := job(i)
		d, pol, in := deps[k], &policies[k], parts[k]
		if i == first[k] {
			c = Result{Deployment: Qualified(d), MinReplicas: pol.lo, MaxReplicas: pol.hi, OK: true, MinAvailable: -1,
				Rules: pol.rules, Location: in.deploymentPlace(d, "metadata.name")}
			drains, lows = drains[:0], nil
			for _, v := range pol.static {
				record(v)
			}
		}
		if !pol.refused {
			c.Rollouts++
			c.PeakPods = max(c.PeakPods, r.sum.PeakPods)
			if c.MinAvailable < 0 || r.sum.MinAvailable < c.MinAvailable {
				c.MinAvailable = r.sum.MinAvailable
			}
			if r.end.Outcome == sim.OutcomeComplete {
				// Past the progress deadline too: the controllers go on.
				c.Longest = max(c.Longest, r.end.Duration.Seconds())
				c.Completed++
			}
		}
		if r.err != nil {
			record(f.failed(in, d, replicas, r.err))
		}
		for _, v := range r.violations {
			record(v)
			if v.Rule == RuleLimit {
				c.Projected = append(c.Projected, replicas)
			}
		}
		drains = append(drains, r.drains...)
		lows = lowerDrains(lows, r.lows)
		if i == first[k+1]-1 {
			if len(pol.budgets) == 1 {
				// With more, no pod of d can be evicted at all
				// (RulePDBNever): no drain is judged.
				for _, v := range drainViolations(in, d, pol.budgets, drains) {
					record(v)
				}
			}
			if len(pol.budgets) > 0 && !pol.refused {
				out.Notes = append(out.Notes, drainNote(d, pol.budgets, lows))
			}
			c.MinAvailable = max(c.MinAvailable, 0)
			out.Deployments = append(out.Deployments, c)
		}
	}
	// A Deployment's runs share f.maxWork (see workbudget.go): each count
	// first has its share, then the counts whose runs stopped at it run
	// again with what the others left, one after the other. So the
	// results of a Deployment wait in pend until its last count's.
	var pend []rolloutCheck
	share := make([][]int, len(deps))
	for k := range deps {
		share[k] = shares(counts[k], f.maxWork)
	}
	workers.InOrder(total, f.workers, func(i int64) rolloutCheck {
		k, r := job(i)
		if policies[k].refused {
			return rolloutCheck{}
		}
		return f.checkOne(parts[k], &policies[k], deps[k], r, share[k][i-first[k]])
	}, func(i int64, r rolloutCheck) bool {
		k, _ := job(i)
		pend = append(pend, r)
		if i == first[k+1]-1 {
			pol := &policies[k]
			if !pol.refused {
				rerunLimited(share[k], pend, func(j, budget int) rolloutCheck {
					return f.checkOne(parts[k], pol, deps[k], counts[k][j], budget)
				})
			}
			for j, r := range pend {
				take(first[k]+int64(j), r)
			}
			clear(pend) // let go of the findings and summaries taken
			pend = pend[:0]
		}
		if done++; f.progress != nil {
			f.progress(done, total)
		}
		return true
	})
	return out, limited
}

// failed is the finding of a Deployment that could not be checked at
// replicas.
func (f *checker) failed(in *Input, d rollout.Deployment, replicas int32, err error) Finding {
	return Finding{Deployment: Qualified(d), Replicas: replicas, Rule: RuleInput, Severity: SeverityError, Cause: CauseInput,
		Message:  fmt.Sprintf("Deployment %s at %d replicas cannot be checked: %v", Qualified(d), replicas, err),
		Location: in.deploymentPlace(d, "metadata.name")}
}

// The replica counts a check simulates: every count of a range of up to
// sampleCounts under the controllers model, whose runs are not
// fast-forwarded, and of up to sampleCountsFast under the others; of a
// longer one, the first sampleHead counts and the rest spread evenly up
// to the last, which is always among them.
const (
	sampleCounts     = 128
	sampleCountsFast = 10_000
	sampleHead       = 32
)

// replicaCounts returns the replica counts to check in lo..hi (lo <= hi),
// in increasing order: every one when there are at most most, else
// sampled as sampleCounts says, most of them (most > sampleHead).
func replicaCounts(lo, hi int32, most int) []int32 {
	n := int64(hi) - int64(lo) + 1
	if n <= int64(most) {
		out := make([]int32, 0, n)
		for r := int64(lo); r <= int64(hi); r++ {
			out = append(out, int32(r))
		}
		return out
	}
	out := make([]int32, 0, most)
	for r := int64(lo); r < int64(lo)+sampleHead; r++ {
		out = append(out, int32(r))
	}
	// The rest: most-sampleHead counts from lo+sampleHead to hi, evenly
	// spread, in int64 so that no step overflows.
	from, span, k := int64(lo)+sampleHead, int64(hi)-int64(lo)-sampleHead, int64(most-sampleHead)
	for i := int64(1); i <= k; i++ {
		r := from + span*i/k
		if r > int64(out[len(out)-1]) {
			out = append(out, int32(r))
		}
	}
	return out
}
