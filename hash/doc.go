// Package hash holds the parts of the Deployment controller's
// pod-template-hash that do not depend on the API types: the hash function,
// the rendering of a sum, and the names of ReplicaSets.
//
// Upstream's hash (controller.ComputeHash, k8s.io/kubernetes v1.36.3) is
// the 32-bit FNV-1a ([FNV32a]) of the go-spew rendering of the template's
// Go value, a v1.PodTemplateSpec as the controller reads it from the API
// server; then, when the Deployment has a collision count, the count as a
// little-endian uint32 and four zero bytes
// ([FNV32a.WriteCollisionCount]); rendered by [Encode]. The controller
// labels each ReplicaSet it creates with [Label] and names it
// [Name](deployment, hash). It finds the ReplicaSet of the current template
// by template equality, not by hash, because the hash changes whenever a
// Kubernetes release adds a field to the pod spec.
//
// The rendering depends on the Go layout of the API types (field order,
// type names, nil versus empty), so it lives with the types in the
// generated code of rolloutmath's internal/schema; rollout.PodTemplateHash
// computes the whole hash, equal to upstream's for every template the
// decoder accepts.
package hash
