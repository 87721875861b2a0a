// Package placediff holds the differential test of rolloutmath's
// placement model (package rollout/check, "Placement") against the
// Kubernetes v1.36.3 scheduler's filter plugins: on random small
// clusters, whether the nodes have a place for a rollout's surge pod.
package placediff
