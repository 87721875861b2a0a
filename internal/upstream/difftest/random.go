package difftest

import (
	"strconv"

	appsv1 "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func itoa(i int) string { return strconv.Itoa(i) }

// randomDeployment is a Deployment with a valid frame (name, selector,
// labels) around a random template from filler(seed).
func randomDeployment(seed int64) *appsv1.Deployment {
	var tpl v1.PodTemplateSpec
	filler(seed).Fill(&tpl)
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
