package main

// Rules.
const (
	ruleMaxPods      = "max-pods"
	ruleMinAvailable = "min-available"
	ruleMaxDuration  = "max-duration"
	ruleNeverFinish  = "never-finishes"
	ruleDeadline     = "progress-deadline"
	ruleOutage       = "full-outage"
	ruleThrottled    = "quota-throttles"
	rulePDBDrain     = "pdb-drain-blocked"
	rulePDBNever     = "pdb-no-disruption"
	ruleHPAReplicas  = "hpa-replicas"
	ruleLimit        = "limit"
)

// Severities: an error breaks a rule, a warning does not (unless
// --fail-on warning), a limit leaves the rules undecided.
const (
	severityError   = "error"
	severityWarning = "warning"
	severityLimit   = "limit"
)

// A rule is what check's reports say of a rule: SARIF's rule descriptor,
// JUnit's test case.
type rule struct {
	id, name, severity string
	short, full        string
}

// rules lists every rule check applies, in the order of its help.
var rules = []rule{
	{ruleMaxPods, "MaxPods", severityError, "At most --max-pods pods exist at any time.",
		"The pods of the Deployment, terminating ones included, never exceed --max-pods during the rollout."},
	{ruleMinAvailable, "MinAvailable", severityError, "At least --min-available pods are available at any time.",
		"The available pods never drop below --min-available (a count, or a percent of the replicas of the moment, rounded up)."},
	{ruleMaxDuration, "MaxDuration", severityError, "The rollout completes within --max-duration.",
		"The rollout completes, under the pod model, within --max-duration of its start."},
	{ruleNeverFinish, "NeverFinishes", severityError, "The rollout can complete.",
		"The rollout can complete at all: said only where the simulation or admission proves it cannot (a quota with no room for a surge pod and maxUnavailable 0, pods that never become ready, a paused Deployment, a LimitRange or ResourceQuota that refuses every pod, no room for the new ReplicaSet)."},
	{ruleDeadline, "ProgressDeadline", severityError, "Progressing never turns False with ProgressDeadlineExceeded.",
		"The rollout makes progress within spec.progressDeadlineSeconds at every step."},
	{ruleOutage, "FullOutage", severityWarning, "The strategy keeps a pod available.",
		"maxUnavailable (or maxSurge and maxUnavailable both rounding to 0 for one replica) lets every pod go down during a rollout."},
	{ruleThrottled, "QuotaThrottles", severityWarning, "The namespace's ResourceQuota has room for the rollout's peak.",
		"The quota refuses some pod creations during the rollout, which then waits for old pods to go; the ReplicaSet controller retries with a backoff of up to 16m40s (kubernetes#98656)."},
	{rulePDBDrain, "PDBDrainBlocked", severityWarning, "A node drain during the rollout is not blocked by a PodDisruptionBudget.",
		"During the rollout the ready pods drop to or below what a PodDisruptionBudget selecting them keeps, so evictions (node drains, cluster upgrades) are refused until the rollout is done."},
	{rulePDBNever, "PDBNoDisruption", severityError, "A PodDisruptionBudget allows a disruption when the Deployment is at rest.",
		"With every replica ready the PodDisruptionBudget still allows no eviction, so node drains never finish (kube-score, kube-linter's pdb checks)."},
	{ruleHPAReplicas, "HPAReplicas", severityWarning, "A Deployment that an HPA scales leaves spec.replicas out.",
		"spec.replicas is set while a HorizontalPodAutoscaler scales the Deployment: every kubectl apply resets the replicas the autoscaler chose."},
	{ruleLimit, "SimulationLimit", severityLimit, "The simulation reaches the end of the rollout.",
		"The simulation stopped at --max-work syncs computed one by one before the rollout ended: the rollout is not checked."},
}

// violation is one broken rule, in check's output.
type violation struct {
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
	Location place   `json:"location"`
	Related  []place `json:"related,omitempty"`
}
