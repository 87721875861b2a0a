// Package realsim runs the real Kubernetes v1.36.3 Deployment and
// ReplicaSet controllers together, unmodified, over shared informers of an
// in-memory API server, with a kubelet emulator, inside a testing/synctest
// bubble, and measures whole rollouts in virtual time: how long until
// `kubectl rollout status` returns, the last change, the most pods at
// once and the fewest available.
//
// A [Case] is a Deployment and the cluster it runs in; [Run] rolls it out
// once with the old image, changes the image and returns a [Measurement].
// Goroutines runnable at the same virtual instant run in any order, so
// runs of one Case differ: tests run each case several times and keep the
// range.
//
// # What is modelled
//
// Kube-controller-manager's settings: one client per controller, each
// with its own token bucket (--kube-api-qps 20, --kube-api-burst 30 by
// default) that every request it makes waits on (pod creates and
// deletes, ReplicaSet and Deployment writes, events); the informers' list
// and watch go through a client of their own, unlimited, as the shared
// informers' client is; 5 workers per controller; burstReplicas 500.
//
// The in-memory API server (see server.go) keeps what the controllers can
// tell apart from a real one: resourceVersions, 409 Conflict, no-op
// updates that write nothing, the registry strategies' generation and
// subresource rules, generateName, UIDs, timestamps stored to the second,
// graceful pod deletion, the pod quota's 403, and watches that never drop
// or block. Requests it does not implement fail the run.
//
// The kubelet emulator binds a pod and sets it Running the moment it is
// created, turns Ready and ContainersReady True Case.ReadyAfter later,
// and removes a deleted pod Case.Terminating after its deletion.
//
// # What is not
//
// Scheduling delays, image pulls, API server latency and the quota
// controller's recalculation (the quota here counts the pods that exist,
// at once); the garbage collector (no case deletes a ReplicaSet).
package realsim
