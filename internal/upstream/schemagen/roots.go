package schemagen

import (
	"reflect"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/kube-openapi/pkg/common"
	"k8s.io/kube-openapi/pkg/validation/spec"
	"k8s.io/kubernetes/pkg/generated/openapi"
)

// Roots are the API types the schema starts from: the objects the
// Deployment controller reads, the policy objects a rollout is checked
// against, and the Nodes and PersistentVolumeClaims its pods are placed on.
func Roots() []reflect.Type {
	return []reflect.Type{
		reflect.TypeFor[appsv1.Deployment](),
		reflect.TypeFor[appsv1.ReplicaSet](),
		reflect.TypeFor[corev1.Pod](),
		reflect.TypeFor[corev1.ResourceQuota](),
		reflect.TypeFor[corev1.LimitRange](),
		reflect.TypeFor[policyv1.PodDisruptionBudget](),
		reflect.TypeFor[autoscalingv2.HorizontalPodAutoscaler](),
		reflect.TypeFor[corev1.Node](),
		reflect.TypeFor[corev1.PersistentVolumeClaim](),
	}
}

// Upstream builds the model of the roots from k8s.io/api and the OpenAPI
// definitions of k8s.io/kubernetes.
func Upstream() (*Model, error) {
	defs := openapi.GetOpenAPIDefinitions(func(path string) spec.Ref { return spec.MustCreateRef(path) })
	return Build(map[string]common.OpenAPIDefinition(defs), Roots()...)
}
