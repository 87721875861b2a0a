// Package kube connects package rollout to client-go: it converts apps/v1
// and core/v1 objects into rollout's types and back, turns a plan's actions
// into the objects and patches to send, and runs syncs of a Deployment
// through a clientset ([Syncer]).
//
// It is a module of its own, so that rolloutmath itself depends on no
// Kubernetes module. Conversions go through the objects' JSON: a typed
// object becomes what [rollout.Decode] makes of its JSON (the API server's
// defaults applied to what it leaves unset), and a rollout value becomes
// the apps/v1 object its JSON decodes to. Typed objects from a clientset
// carry no apiVersion and kind; the conversions do not need them.
//
// A controller built on this package runs one [Syncer.Sync] per event, as
// package rollout's documentation describes: the sync reads the Deployment,
// the ReplicaSets and the Pods of its namespace, plans, and carries out the
// plan in order, stopping at the first call that fails.
package kube
