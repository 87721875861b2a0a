package difftest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Helpers of the pod-level differential tests (podspec_test.go and
// podspec_rand_test.go): a valid Deployment to start from, its JSON, and
// a comparison of the create path restricted to the pod-level area.

// podBase is a valid Deployment with one container, whose pod spec the
// pod-level tests change.
func podBase() *appsv1.Deployment {
	return &appsv1.Deployment{
		TypeMeta:   metav1.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
		ObjectMeta: metav1.ObjectMeta{Name: "web"},
		Spec: appsv1.DeploymentSpec{
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: v1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web"}},
				Spec:       v1.PodSpec{Containers: []v1.Container{{Name: "app", Image: "nginx:1.29"}}},
			},
		},
	}
}

// podJSON marshals d, then applies patch (when not nil) to the generic
// form of its pod spec, for what the typed structs cannot say (an empty
// list that omitempty would drop).
func podJSON(d *appsv1.Deployment, patch func(spec map[string]any)) []byte {
	b, err := json.Marshal(d)
	if err != nil {
		panic(err)
	}
	if patch == nil {
		return b
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		panic(err)
	}
	patch(m["spec"].(map[string]any)["template"].(map[string]any)["spec"].(map[string]any))
	if b, err = json.Marshal(m); err != nil {
		panic(err)
	}
	return b
}

const (
	specPrefix        = "spec.template.spec."
	annotationsPrefix = "spec.template.annotations"
)

// podSpecFields are the first fields of the pod spec whose problems the
// pod-level area reports (the area's functions and the lead's simple
// pod-level checks in validate.go).
var podSpecFields = []string{
	"securityContext", "affinity", "tolerations", "topologySpreadConstraints", "dnsConfig", "hostAliases",
	"os", "overhead", "resources", "resourceClaims", "schedulingGroup", "hostnameOverride", "hostNetwork",
	"HostPID", "HostIPC", "hostPID", "hostIPC", "hostUsers", "shareProcessNamespace", "restartPolicy",
	"dnsPolicy", "nodeSelector", "imagePullSecrets", "readinessGates", "schedulingGates", "serviceAccountName",
	"nodeName", "activeDeadlineSeconds", "hostname", "subdomain", "priorityClassName", "runtimeClassName",
	"preemptionPolicy",
}

// containerProblem matches the problems the pod-level area reports under
// a container: what a Windows or Linux pod forbids in its security
// context, annotations that disagree with its profiles, host-process
// mismatches, volume devices in a user namespace, files of environment
// variables, and host ports with host networking.
var containerProblem = regexp.MustCompile(`^(initContainers|containers|ephemeralContainers)\[\d+\]\.(` +
	`securityContext\.[A-Za-z]+: Forbidden|` +
	`securityContext\.(seccompProfile|appArmorProfile)\.(type|localhostProfile): Forbidden|` +
	`securityContext\.windowsOptions\.hostProcess: Invalid value|` +
	`volumeDevices: Forbidden|` +
	`env\[\d+\]\.valueFrom\.fileKeyRef\.volumeName: (Not found|Invalid value)|` +
	`ports\[\d+\]\.hostPort: Invalid value)$`)

// inPodArea reports whether a problem belongs to the pod-level area.
func inPodArea(p Problem) bool {
	if p.Field == "spec.template.spec" || strings.HasPrefix(p.Field, annotationsPrefix) {
		return true
	}
	rest, ok := strings.CutPrefix(p.Field, specPrefix)
	if !ok {
		return false
	}
	first := rest
	if i := strings.IndexAny(rest, ".["); i >= 0 {
		first = rest[:i]
	}
	if slices.Contains(podSpecFields, first) {
		return true
	}
	return containerProblem.MatchString(rest + ": " + p.Type)
}

// areaOutcome is what compareCreateIn found.
type areaOutcome struct {
	Real, Ours Outcome
	// OutsideOnly is set when the two sides disagree only on problems
	// outside the area (whose ports are not this area's to fix).
	OutsideOnly bool
}

// compareCreateIn is compareCreate restricted to the problems inArea
// accepts: both sides must agree on a decode error, find the same problems
// in the area, and, when both accept, store the same JSON.
func compareCreateIn(data []byte, inArea func(Problem) bool) (areaOutcome, error) {
	real, _ := RealCreateDeployment(data)
	ours, _ := OursCreateDeployment(data)
	out := areaOutcome{Real: real, Ours: ours}
	if (real.Decode != "") != (ours.Decode != "") {
		return out, fmt.Errorf("decode: real %q, ours %q", real.Decode, ours.Decode)
	}
	if real.Decode != "" {
		return out, nil
	}
	rp, op := filterProblems(real.Problems, inArea), filterProblems(ours.Problems, inArea)
	if !slices.Equal(rp, op) {
		return out, fmt.Errorf("problems in the area differ:\nreal %v\nours %v", rp, op)
	}
	if real.Refused() != ours.Refused() || !slices.Equal(real.Problems, ours.Problems) {
		out.OutsideOnly = true
		return out, nil
	}
	if !real.Refused() && !bytes.Equal(real.Stored, ours.Stored) {
		return out, fmt.Errorf("stored differ:\nreal %s\nours %s", real.Stored, ours.Stored)
	}
	return out, nil
}

func filterProblems(ps []Problem, keep func(Problem) bool) []Problem {
	var out []Problem
	for _, p := range ps {
		if keep(p) {
			out = append(out, p)
		}
	}
	return out
}
