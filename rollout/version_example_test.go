package rollout_test

import (
	"fmt"

	"github.com/rolloutmath/rolloutmath/rollout"
)

// Every minor names the ReplicaSet of one Deployment differently: the
// text hashed into the pod-template-hash holds every field of the minor's
// pod template, unset ones included. The names below are those of the
// real controllers (k8s.io/kubernetes v1.35.4, v1.36.3 and v1.37.2) for
// this manifest as their API servers store it.
func ExamplePodTemplateHashFor() {
	manifest := `{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"},
		"spec": {"selector": {"matchLabels": {"app": "web"}},
			"template": {"metadata": {"labels": {"app": "web"}},
				"spec": {"containers": [{"name": "nginx", "image": "nginx:1.27", "ports": [{"containerPort": 80}]}]}}}}`
	objs, err := rollout.Decode([]byte(manifest))
	if err != nil {
		fmt.Println(err)
		return
	}
	d := objs.Deployments[0]
	for _, v := range rollout.SupportedVersions() {
		fmt.Printf("Kubernetes %s: %s-%s\n", v, d.Name, rollout.PodTemplateHashFor(d, v))
	}
	fmt.Println("zero Version:", rollout.NewReplicaSetName(d))
	// Output:
	// Kubernetes 1.35: web-7fc7749b56
	// Kubernetes 1.36: web-cc544bdcc
	// Kubernetes 1.37: web-557577df75
	// zero Version: web-557577df75
}

// ParseVersion reads the minors as kubectl version prints them, and
// refuses the ones that are not supported.
func ExampleParseVersion() {
	for _, s := range []string{"1.36", "v1.35.4", "", "1.34"} {
		v, err := rollout.ParseVersion(s)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%q: %s (%s)\n", s, v, v.Patch())
	}
	// Output:
	// "1.36": 1.36 (v1.36.3)
	// "v1.35.4": 1.35 (v1.35.4)
	// "": 1.37 (v1.37.2)
	// kubernetes version "1.34": want one of 1.35, 1.36, 1.37
}
