package check

// The rules, as a Finding names them.
const (
	RuleMaxPods      = "max-pods"
	RuleMinAvailable = "min-available"
	RuleMaxDuration  = "max-duration"
	RuleNeverFinish  = "never-finishes"
	RuleDeadline     = "progress-deadline"
	RuleOutage       = "full-outage"
	RuleThrottled    = "quota-throttles"
	RulePDBDrain     = "pdb-drain-blocked"
	RulePDBNever     = "pdb-no-disruption"
	RuleHPAReplicas  = "hpa-replicas"
	RuleLimit        = "limit"
)

// Severities: an error breaks a rule, a warning does not (a caller may
// still fail on it), a limit leaves the rules undecided.
const (
	SeverityError   = "error"
	SeverityWarning = "warning"
	SeverityLimit   = "limit"
)

// A Rule describes a rule for reports: ID is the Finding's Rule, Name a
// CamelCase name (SARIF's rule name), Severity its findings' severity,
// Short a sentence of what it keeps and Full how.
type Rule struct {
	ID, Name, Severity string
	Short, Full        string
}

// Rules returns every rule a check applies, in a fixed order (the order
// of the command's help), each with a distinct ID; the caller may modify
// the slice.
func Rules() []Rule {
	return []Rule{
		{RuleMaxPods, "MaxPods", SeverityError, "At most the max-pods limit of pods exist at any time.",
			"The pods of the Deployment, terminating ones included, never exceed the max-pods limit during the rollout."},
		{RuleMinAvailable, "MinAvailable", SeverityError, "At least the min-available limit of pods are available at any time.",
			"The available pods never drop below the min-available limit (a count, or a percent of the replicas of the moment, rounded up)."},
		{RuleMaxDuration, "MaxDuration", SeverityError, "The rollout completes within the max-duration limit.",
			"The rollout completes, under the pod model, within the max-duration limit of its start."},
		{RuleNeverFinish, "NeverFinishes", SeverityError, "The rollout can complete.",
			"The rollout can complete at all: said only where the simulation or admission proves it cannot (a quota with no room for a surge pod and maxUnavailable 0, pods that never become ready, a paused Deployment, a LimitRange or ResourceQuota that refuses every pod, no room for the new ReplicaSet, nodes with no place for a pod the rollout needs)."},
		{RuleDeadline, "ProgressDeadline", SeverityError, "Progressing never turns False with ProgressDeadlineExceeded.",
			"The rollout makes progress within spec.progressDeadlineSeconds at every step."},
		{RuleDeadlineMargin, "ProgressDeadlineMargin", SeverityWarning, "Every wave of the rollout meets the progress deadline with a fifth of it to spare.",
			"The longest wait between two progress updates (the Progressing condition's lastUpdateTime, which the controller moves whenever a sync sees more updated, ready or available replicas or fewer old ones) stays within 80% of spec.progressDeadlineSeconds."},
		{RuleTimeout, "Timeout", SeverityError, "The rollout completes within the CI's timeout.",
			"The rollout is complete, as kubectl rollout status waits for it, within the timeout (kubectl rollout status --timeout, a CI job's), under the pod model; the finding names the slowest wave, says when kubectl rollout status fails at the progress deadline before, and when Helm 3's --wait, which waits for spec.replicas - maxUnavailable ready new pods only, is satisfied."},
		{RuleOutage, "FullOutage", SeverityWarning, "The strategy keeps a pod available.",
			"maxUnavailable (or maxSurge and maxUnavailable both rounding to 0 for one replica) lets every pod go down during a rollout."},
		{RuleThrottled, "QuotaThrottles", SeverityWarning, "The namespace's ResourceQuota has room for the rollout's peak.",
			"The quota refuses some pod creations during the rollout, which then waits for old pods to go; the ReplicaSet controller retries with a backoff of up to 16m40s (kubernetes#98656)."},
		{RulePDBDrain, "PDBDrainBlocked", SeverityWarning, "A node drain during the rollout is not blocked by a PodDisruptionBudget.",
			"During the rollout the ready pods drop so low that a PodDisruptionBudget selecting them refuses evictions that it allows with every replica ready, of a drain of a node holding Config.DrainPods of the pods (1 by default: the ready pods at or below what the budget keeps), so node drains and cluster upgrades wait for the rollout; the eviction API's rules (disruptionsAllowed, unhealthyPodEvictionPolicy) apply."},
		{RulePDBNever, "PDBNoDisruption", SeverityError, "A PodDisruptionBudget allows a disruption when the Deployment is at rest.",
			"With every replica ready the PodDisruptionBudget still allows no eviction, or more than one budget selects the pods (the eviction API then refuses them), so node drains never finish (kube-score, kube-linter's pdb checks)."},
		placementRule,
		{RuleHPAReplicas, "HPAReplicas", SeverityWarning, "A Deployment that an HPA scales leaves spec.replicas out.",
			"spec.replicas is set while a HorizontalPodAutoscaler scales the Deployment: every kubectl apply resets the replicas the autoscaler chose."},
		{RuleInput, "Input", SeverityError, "The input can be read as the API server reads it.",
			"Every document is YAML or JSON that the API server takes on create (an apiVersion and kind it serves, known fields, valid values), and every Deployment can be simulated: a document that is not is left out, and the rest is still checked."},
		{RuleLimit, "SimulationLimit", SeverityLimit, "The simulation reaches the end of the rollout.",
			"The simulation stopped at its limit of work (Config.Sim.MaxWork, rolloutctl --max-work: controller syncs and pod writes taken one by one, and the pods they walk) before the rollout ended: the rollout is not checked."},
	}
}

// A Finding is one broken rule: the Deployment (NAME, or NAMESPACE/NAME
// outside the default namespace) at a replica count, the rule (one of the
// Rule constants), its severity (one of the Severity constants) and At,
// the seconds after the start of the rollout where it happened.
type Finding struct {
	Deployment string  `json:"deployment"`
	Replicas   int32   `json:"replicas"`
	Rule       string  `json:"rule"`
	Severity   string  `json:"severity"`
	At         float64 `json:"atSeconds"`
	// Cause is "input" for what the input holds before the first sync,
	// and "rollout" for what the rollout does.
	Cause   string `json:"cause"`
	Message string `json:"message"`
	// Location is the field to change; Related are the other objects
	// involved (a quota, a budget).
	Location Location   `json:"location"`
	Related  []Location `json:"related,omitempty"`
}
