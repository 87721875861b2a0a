// Package examples tells, in runnable examples, how a Kubernetes
// Deployment rolls out, as computed by packages rollout and rollout/sim.
// It has no API: read example_test.go, or its examples in the package
// documentation.
//
// Each example starts from a Deployment fully rolled out on app:v1
// (sim.FromDeployment), changes something (sim.WithImage, a replica
// change, a rollback), simulates the controller with sim.Run, and prints
// one line per sync that changed something:
//
//	time  old  new  available
//
// where old and new are the sizes of the old and new ReplicaSets after the
// sync and available counts the pods that are available then. The stories:
//
//   - Example_rollingUpdate: a RollingUpdate, maxSurge 25% and
//     maxUnavailable 25%, pods ready 30 seconds after they start.
//   - Example_proportionalScaling: an autoscaler adds replicas in the middle
//     of a rollout; the controller spreads them over both ReplicaSets.
//   - Example_recreate: every old pod stops before a new one starts.
//   - Example_rollback: a rollout to a crash-looping image, undone.
//   - Example_progressDeadline: a crash-looping image with a progress
//     deadline of 60 seconds: the rollout is declared failed.
//   - Example_quotaBlocksSurge: a pod quota equal to the replicas leaves no
//     room to surge; only maxUnavailable can make room.
package examples
