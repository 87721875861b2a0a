// Package check is the rollout gate as a library: it simulates the
// rollout of every Deployment of an input, at each replica count to check,
// and reports the rules it breaks, each finding with the rule, its
// severity, when in the rollout it happens, a message, and the field to
// change as file, line and path, with the related objects' places.
//
// An [Input] is built by [Load] from manifest documents (package
// rollout/manifest): Deployments, their ReplicaSets and Pods, and the
// namespaces' ResourceQuotas, LimitRanges, PodDisruptionBudgets and
// HorizontalPodAutoscalers, each read as a v1.36 API server reads it.
// [Run] checks it under a [Config] (the rules' limits and the pod model)
// on every core, and returns a [Report] whose order does not depend on
// the number of workers.
package check
