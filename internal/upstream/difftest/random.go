package difftest

import (
	"strconv"

	appsv1 "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func itoa(i int) string { return strconv.Itoa(i) }

// randomVersionDeployment is randomDeployment with a sparser filler
// (more nil fields, fewer elements, shallower), so that a few hundred of
// them keep each minor's vector file small.
func randomVersionDeployment(seed int64) *appsv1.Deployment {
	var tpl v1.PodTemplateSpec
	filler(seed).NilChance(0.7).NumElements(0, 2).MaxDepth(8).Fill(&tpl)
	return deploymentAround(tpl)
}

// randomDeployment is a Deployment with a valid frame (name, selector,
// labels) around a random template from filler(seed).
func randomDeployment(seed int64) *appsv1.Deployment {
	var tpl v1.PodTemplateSpec
	filler(seed).Fill(&tpl)
	return deploymentAround(tpl)
}

// deploymentAround is the valid frame (name, selector, labels) around tpl.
func deploymentAround(tpl v1.PodTemplateSpec) *appsv1.Deployment {
	if tpl.Labels == nil {
		tpl.Labels = map[string]string{}
	}
	tpl.Labels["app"] = "web"
	return &appsv1.Deployment{
		TypeMeta:   metav1.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default"},
		Spec: appsv1.DeploymentSpec{
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: tpl,
		},
	}
}
