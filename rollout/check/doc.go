// Package check is the rollout gate as a library: it simulates the
// rollout of every Deployment of an input, at each replica count to check,
// and reports the rules it breaks, each finding with the rule, its
// severity, when in the rollout it happens, a message, and the field to
// change as file, line and path, with the related objects' places.
//
// # Input
//
// An [Input] is built by [Read] from files and directories, or by [Load]
// from manifest documents (package rollout/manifest): Deployments, their
// ReplicaSets and Pods, and the namespaces' ResourceQuotas, LimitRanges,
// PodDisruptionBudgets and HorizontalPodAutoscalers, each read as an API
// server of [LoadOptions.Version] (the newest minor by default) reads it on
// create (apiVersion required, as kubectl requires
// it; [LoadOptions.Namespace] for the objects that name none, as
// 'kubectl apply -n'). A document that cannot be taken is left out and
// becomes a problem ([Input.Problems]); the rest is checked. An object
// given in two directories (or two files of one directory) splits the
// input: each copy is checked with the policy objects of its own part.
//
// A gate over 'kubectl apply' reads the manifests and the live objects as
// two inputs: [ApplyAll] applies each manifest Deployment onto its live
// match (package rollout/apply), and [Applied] makes the input of the
// Deployments as the API server then stores them, with the live
// ReplicaSets and Pods; a refused apply ([ApplyProblem]) is a problem
// there as a bad document is.
//
// # Run and Report
//
// [Run] checks the input under a [Config] (the rules' limits, the replica
// counts, the pod model) on every core, and returns a [Report]: the
// input's problems first, as findings of [RuleInput], then each
// Deployment's findings by time, one [Result] per Deployment in input
// order, and notes on what was not checked. The report does not depend on
// the number of workers. [Rules] describes every rule, for SARIF rule
// descriptors or test cases.
//
// # Race orders
//
// Under [sim.ModelControllers] a rollout runs in three orders of the
// controllers' racing work, and a Result's MinAvailable and PeakPods are
// the worse of the two likelier orders (see the sim package's "Races").
// The rules that judge pods over time judge those same figures:
// [RuleMinAvailable] and [RuleMaxPods] break on them between syncs too,
// and [RulePDBDrain] looks at the syncs of both likelier orders and, when
// minReadySeconds is 0 (available pods are then ready pods), at
// MinAvailable itself: a budget keeping k pods warns exactly when the
// reported min available is at most k (TestPDBDrainFollowsMinAvailable).
//
// # Time budget
//
// The progress deadline times each wave of a rollout, the time between
// two syncs that see progress (the Progressing condition's
// lastUpdateTime, read from the simulated syncs), not the whole rollout:
// [RuleDeadline] names the wave that exceeds it, and
// [RuleDeadlineMargin] warns of a wave above [DeadlineMargin] of it.
// [Config.Timeout], a CI's kubectl rollout status --timeout, times the
// whole rollout ([RuleTimeout]). Their findings are at
// spec.progressDeadlineSeconds, with the strategy and the probes that
// time the waves as related places.
//
// # Drains during a rollout
//
// No PodDisruptionBudget gates a rollout: the controllers scale and
// delete, they do not evict. Budgets gate evictions, and [RulePDBDrain]
// judges a drain of a node holding [Config.DrainPods] of the
// Deployment's pods at each moment of its rollouts, as the eviction API
// decides it (disruptionsAllowed = currentHealthy - desiredHealthy, at
// least 0; pods that are not ready under unhealthyPodEvictionPolicy),
// where it fares worse than at rest. The report's notes say, for each
// Deployment with budgets, that they do not gate its rollout and how few
// ready pods such a drain leaves at the worst moment
// (TestDrainPodsProperties: never more for a larger drain).
package check
