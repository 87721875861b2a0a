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
// # One rollout
//
// [Simulate] runs one rollout of a Deployment of an input under a
// [Change] (images, replicas, maxSurge, maxUnavailable, a pod quota, the
// pod model) and the policy objects of its namespace, as `rolloutctl
// simulate` does for its flags, and returns the [Simulation] with its
// title, notes and pod model in words (package rollout/sim/render prints
// it).
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
package check
