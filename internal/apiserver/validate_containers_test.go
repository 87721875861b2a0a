package apiserver

import (
	"slices"
	"strings"
	"testing"

	"github.com/rolloutmath/rolloutmath/internal/field"
	"github.com/rolloutmath/rolloutmath/internal/schema"
)

// containerProblems creates a Deployment whose template's spec is spec
// (JSON, with the volumes cfg (configMap) and data (persistentVolumeClaim)
// and the resource claim gpu added) and returns the problems found under
// its containers, as "field: type" with the field relative to the pod spec.
func containerProblems(t *testing.T, spec string) []string {
	t.Helper()
	doc := `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","namespace":"default"},"spec":{` +
		`"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{` +
		`"volumes":[{"name":"cfg","configMap":{"name":"cfg"}},{"name":"data","persistentVolumeClaim":{"claimName":"data"}}],` +
		`"resourceClaims":[{"name":"gpu","resourceClaimName":"gpu"}],` + spec + `}}}}`
	d, res := schema.DecodeDeployment([]byte(doc), schema.DecodeOptions{})
	if len(res.Errs) > 0 {
		t.Fatalf("decode: %v", res.Errs)
	}
	var out []string
	for _, e := range CreateDeployment(d, v136) {
		f := strings.TrimPrefix(e.Field, "spec.template.spec.")
		if strings.HasPrefix(f, "containers") || strings.HasPrefix(f, "initContainers") || strings.HasPrefix(f, "ephemeralContainers") {
			out = append(out, f+": "+string(e.Type))
		}
	}
	slices.Sort(out)
	return out
}

// TestContainerValidation checks one rule of each family of the
// containers' rules, with the problems upstream reports (the differential
// tests of internal/upstream/difftest check every rule against the real
// server).
func TestContainerValidation(t *testing.T) {
	tests := []struct {
		name string
		spec string
		want []string
	}{
		{"valid", `"containers":[{"name":"app","image":"nginx","ports":[{"containerPort":80,"hostPort":80}],"env":[{"name":"A","valueFrom":{"fieldRef":{"fieldPath":"metadata.labels['app']"}}}],"volumeMounts":[{"name":"cfg","mountPath":"/cfg"}],"volumeDevices":[{"name":"data","devicePath":"/dev/a"}],"livenessProbe":{"httpGet":{"port":"http"}},"resources":{"limits":{"cpu":"1","example.com/gpu":"2"},"requests":{"example.com/gpu":"2"},"claims":[{"name":"gpu"}]}}]`, nil},
		{"no containers", `"containers":[]`, []string{"containers: Required value"}},
		{"name and image", `"containers":[{"name":"App"},{"name":"App","image":"x"}]`, []string{
			"containers[0].image: Required value", "containers[0].name: Invalid value", "containers[1].name: Duplicate value", "containers[1].name: Invalid value"}},
		{"init name clashes with a container", `"containers":[{"name":"app","image":"x"}],"initContainers":[{"name":"app","image":"x"}]`, []string{"initContainers[0].name: Duplicate value"}},
		{"host port conflict", `"containers":[{"name":"a","image":"x","ports":[{"containerPort":80,"hostPort":80}]},{"name":"b","image":"x","ports":[{"containerPort":80,"hostPort":80}]}]`,
			[]string{"containers[1].ports[0].hostPort: Duplicate value"}},
		{"init host ports at index 0", `"containers":[{"name":"a","image":"x"}],"initContainers":[{"name":"i","image":"x"},{"name":"j","image":"x","ports":[{"containerPort":1,"hostPort":80},{"containerPort":2,"hostPort":80}]}]`,
			[]string{"initContainers[0].ports[1].hostPort: Duplicate value"}},
		{"env value and source", `"containers":[{"name":"a","image":"x","env":[{"name":"a=b","value":"v","valueFrom":{"secretKeyRef":{"name":"s","key":"k"}}}]}]`,
			[]string{"containers[0].env[0].name: Invalid value", "containers[0].env[0].valueFrom: Invalid value"}},
		{"env field path", `"containers":[{"name":"a","image":"x","env":[{"name":"A","valueFrom":{"fieldRef":{"fieldPath":"status.phase"}}}]}]`,
			[]string{"containers[0].env[0].valueFrom.fieldRef.fieldPath: Unsupported value"}},
		{"env divisor", `"containers":[{"name":"a","image":"x","env":[{"name":"A","valueFrom":{"resourceFieldRef":{"resource":"limits.cpu","divisor":"2"}}}]}]`,
			[]string{"containers[0].env[0].valueFrom.resourceFieldRef.divisor: Invalid value"}},
		{"envFrom without a source", `"containers":[{"name":"a","image":"x","envFrom":[{"prefix":"P"}]}]`, []string{"containers[0].envFrom: Invalid value"}},
		{"requests above limits", `"containers":[{"name":"a","image":"x","resources":{"limits":{"cpu":"1"},"requests":{"cpu":"2","example.com/gpu":"1"}}}]`,
			[]string{"containers[0].resources.limits: Required value", "containers[0].resources.requests: Invalid value"}},
		{"huge pages alone", `"containers":[{"name":"a","image":"x","resources":{"limits":{"hugepages-2Mi":"3Mi"}}}]`,
			[]string{"containers[0].resources: Forbidden", "containers[0].resources.limits[hugepages-2Mi]: Invalid value"}},
		{"unknown claim", `"containers":[{"name":"a","image":"x","resources":{"claims":[{"name":"tpu"}]}}]`, []string{"containers[0].resources.claims[0]: Not found"}},
		{"mounts", `"containers":[{"name":"a","image":"x","volumeMounts":[{"name":"nope","mountPath":"/a","subPath":"../x"},{"name":"cfg","mountPath":"/a","mountPropagation":"Bidirectional"}]}]`, []string{
			"containers[0].volumeMounts.mountPropagation: Forbidden", "containers[0].volumeMounts.subPath: Invalid value",
			"containers[0].volumeMounts[0].name: Not found", "containers[0].volumeMounts[1].mountPath: Invalid value"}},
		{"devices", `"containers":[{"name":"a","image":"x","volumeDevices":[{"name":"cfg","devicePath":"/dev/../a"}]}]`,
			[]string{"containers[0].volumeDevices[0].devicePath: Invalid value", "containers[0].volumeDevices[0].name: Invalid value"}},
		{"probe handlers", `"containers":[{"name":"a","image":"x","livenessProbe":{"successThreshold":2},"readinessProbe":{"exec":{"command":["x"]},"grpc":{"port":9}}}]`, []string{
			"containers[0].livenessProbe: Required value", "containers[0].livenessProbe.successThreshold: Invalid value", "containers[0].readinessProbe.grpc: Forbidden"}},
		{"sleep past the grace period", `"terminationGracePeriodSeconds":5,"containers":[{"name":"a","image":"x","lifecycle":{"preStop":{"sleep":{"seconds":6}}}}]`,
			[]string{"containers[0].lifecycle.preStop.sleep: Invalid value"}},
		{"init container probes", `"containers":[{"name":"a","image":"x"}],"initContainers":[{"name":"i","image":"x","readinessProbe":{"tcpSocket":{"port":1}}},{"name":"s","image":"x","restartPolicy":"Always","readinessProbe":{"tcpSocket":{"port":1}}}]`,
			[]string{"initContainers[0].readinessProbe: Forbidden"}},
		{"restart rules", `"containers":[{"name":"a","image":"x","restartPolicyRules":[{"action":"Restart"}]}]`,
			[]string{"containers[0].restartPolicy: Required value", "containers[0].restartPolicyRules[0].exitCodes: Required value"}},
		{"resize policy", `"containers":[{"name":"a","image":"x","resizePolicy":[{"resourceName":"gpu","restartPolicy":"NotRequired"},{"resourceName":"gpu","restartPolicy":"NotRequired"}]}]`,
			[]string{"containers[0].resizePolicy: Unsupported value", "containers[0].resizePolicy: Unsupported value", "containers[0].resizePolicy[1]: Duplicate value"}},
		{"security context", `"containers":[{"name":"a","image":"x","securityContext":{"privileged":true,"allowPrivilegeEscalation":false,"runAsUser":-1,"procMount":"Unmasked","seccompProfile":{"type":"Localhost"},"appArmorProfile":{"type":"RuntimeDefault","localhostProfile":"p"},"windowsOptions":{"runAsUserName":"a\\b\\c"}}}]`, []string{
			"containers[0].securityContext: Invalid value", "containers[0].securityContext.appArmorProfile.localhostProfile: Invalid value",
			"containers[0].securityContext.procMount: Invalid value", "containers[0].securityContext.runAsUser: Invalid value",
			"containers[0].securityContext.seccompProfile.localhostProfile: Required value", "containers[0].securityContext.windowsOptions.runAsUserName: Invalid value"}},
		{"ephemeral container", `"containers":[{"name":"a","image":"x"}],"ephemeralContainers":[{"name":"a","image":" x","targetContainerName":"b","ports":[]}]`, []string{
			"ephemeralContainers: Forbidden", "ephemeralContainers[0].image: Invalid value", "ephemeralContainers[0].name: Duplicate value",
			"ephemeralContainers[0].ports: Forbidden", "ephemeralContainers[0].targetContainerName: Not found"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := slices.Clone(tt.want)
			slices.Sort(want)
			if got := containerProblems(t, tt.spec); !slices.Equal(got, want) {
				t.Errorf("got  %q\nwant %q", got, want)
			}
		})
	}
}

// TestSignalListsSorted checks that the stop signal lists are sorted and
// without repeats, since upstream lists the supported values of a set in
// sorted order.
func TestSignalListsSorted(t *testing.T) {
	for _, l := range [][]string{linuxStopSignals, windowsStopSignals, validEnvDownwardAPIFieldPathExpressions, validContainerResourceFieldPathExpressions()} {
		if !slices.IsSorted(l) || len(slices.Compact(slices.Clone(l))) != len(l) {
			t.Errorf("not sorted or has repeats: %q", l)
		}
	}
	if len(linuxStopSignals) != 65 {
		t.Errorf("%d Linux stop signals, want 65 (SIGRTMIN..SIGRTMAX and the 34 named ones)", len(linuxStopSignals))
	}
}

// TestErrorsNameTheirValue checks that problems with a value print it:
// the renderings upstream gives the values of a few rules.
func TestErrorsNameTheirValue(t *testing.T) {
	p := field.NewPath("c")
	tests := []struct {
		got  *field.Error
		want string
	}{
		{validateContainerRestartPolicy(nil, make([]schema.ContainerRestartRule, 21), p, podOptions{})[1],
			"c.restartPolicyRules: Too many: 21: must have at most 20 items"},
		{checkHostPortConflicts([]schema.Container{{Ports: []schema.ContainerPort{{HostPort: 80, Protocol: "TCP"}, {HostPort: 80, Protocol: "TCP"}}}}, p)[0],
			`c[0].ports[1].hostPort: Duplicate value: "TCP//80"`},
		{validateResourceClaimNames([]schema.ResourceClaim{{Name: "x"}}, map[string]bool{"b": true, "a": true}, p)[0],
			`c[0]: Not found: "x": must be one of the names in pod.spec.resourceClaims: a, b`},
		{validateEnvVarValueFrom(&schema.EnvVar{ValueFrom: &schema.EnvVarSource{}}, p, podOptions{AllowEnvFilesValidation: true})[0],
			"c: Invalid value: \"\": must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef`, `secretKeyRef` or `fileKeyRef`"},
		{validateObjectFieldSelector(&schema.ObjectFieldSelector{APIVersion: "v1", FieldPath: "spec.bogus"}, validEnvDownwardAPIFieldPathExpressions, p)[0],
			`c.fieldPath: Invalid value: "spec.bogus": error converting fieldPath: field label not supported: spec.bogus`},
	}
	for _, tt := range tests {
		if got := tt.got.Error(); got != tt.want {
			t.Errorf("got  %s\nwant %s", got, tt.want)
		}
	}
}

// TestContainerOptions checks the branches that only options other than
// a create's defaults reach (older objects on update, or gates turned
// off), which the differential tests cannot: the problems' fields and
// types, as upstream reports them.
func TestContainerOptions(t *testing.T) {
	p := field.NewPath("c")
	always, never := ptr("Always"), ptr("Never")
	rules := []schema.ContainerRestartRule{{Action: "RestartAllContainers", ExitCodes: &schema.ContainerRestartRuleOnExitCodes{Operator: "In"}}}
	grace := ptr[int64](30)
	tests := []struct {
		name string
		errs field.ErrorList
		want []string
	}{
		{"restart rules off: only Always for init containers",
			validateInitContainerRestartPolicy(never, nil, p, podOptions{}), []string{"c.restartPolicy: Unsupported value"}},
		{"restart rules off: Always with rules passes",
			validateInitContainerRestartPolicy(always, rules, p, podOptions{}), nil},
		{"restart rules on, RestartAllContainers off: no rules for sidecars",
			validateInitContainerRestartPolicy(always, rules, p, podOptions{AllowContainerRestartPolicyRules: true}), []string{"c.restartPolicyRules: Forbidden"}},
		{"RestartAllContainers off: the action is unsupported",
			validateContainerRestartPolicy(never, rules, p, podOptions{}), []string{"c.restartPolicyRules[0].action: Unsupported value"}},
		{"restart rules off: no restartPolicy for regular containers",
			validateContainers([]schema.Container{{Name: "a", Image: "x", TerminationMessagePolicy: "File", ImagePullPolicy: "Always", RestartPolicy: never}}, nil, nil, nil, grace, p, podOptions{}, "Always", true),
			[]string{"c[0].restartPolicy: Forbidden"}},
		{"sidecar resize off: no resize policy for init containers",
			validateInitContainers([]schema.Container{{Name: "i", Image: "x", TerminationMessagePolicy: "File", ImagePullPolicy: "Always", RestartPolicy: always,
				ResizePolicy: []schema.ContainerResizePolicy{{ResourceName: "cpu", RestartPolicy: "NotRequired"}}}}, nil, nil, nil, nil, grace, p, podOptions{}, "Always", true),
			[]string{"c[0].resizePolicy: Invalid value"}},
		{"existing RestartContainer kept for non-sidecar init containers",
			validateInitContainers([]schema.Container{{Name: "i", Image: "x", TerminationMessagePolicy: "File", ImagePullPolicy: "Always",
				ResizePolicy: []schema.ContainerResizePolicy{{ResourceName: "cpu", RestartPolicy: "RestartContainer"}}}}, nil, nil, nil, nil, grace, p,
				podOptions{AllowSidecarResizePolicy: true, AllowExistingRestartForNonSidecarInit: true}, "Always", true), nil},
		{"env files off: the older message, same problem",
			validateEnvVarValueFrom(&schema.EnvVar{ValueFrom: &schema.EnvVarSource{}}, p, podOptions{}), []string{"c: Invalid value"}},
		{"strict env names: no leading digit",
			validateEnv([]schema.EnvVar{{Name: "1A"}, {Name: "A.b-c"}}, p, podOptions{}), []string{"c[0].name: Invalid value"}},
		{"zero sleep off: zero refused",
			validateSleepAction(&schema.SleepAction{}, grace, p, podOptions{}), []string{"c: Invalid value"}},
		{"no grace period: sleep not checked",
			validateSleepAction(&schema.SleepAction{Seconds: -1}, nil, p, podOptions{}), nil},
		{"indivisible huge pages allowed for old objects",
			validateContainerResourceRequirements(&schema.ResourceRequirements{Limits: schema.ResourceList{{Name: "cpu", Quantity: schema.MustParseQuantity("1")}, {Name: "hugepages-2Mi", Quantity: schema.MustParseQuantity("3Mi")}}},
				nil, p, podOptions{AllowIndivisibleHugePagesValues: true}), nil},
		{"stop signal without an OS",
			validateStopSignal("SIGTERM", p, nil), []string{"c: Forbidden"}},
		{"mount propagation before the container is known",
			validateMountPropagation("Bidirectional", nil, p), nil},
	}
	for _, tt := range tests {
		var got []string
		for _, e := range tt.errs {
			got = append(got, e.Field+": "+string(e.Type))
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: got %q, want %q", tt.name, got, tt.want)
		}
	}
	if msg := validateEnvVarValueFrom(&schema.EnvVar{ValueFrom: &schema.EnvVarSource{}}, p, podOptions{})[0].Detail; strings.Contains(msg, "fileKeyRef") {
		t.Errorf("without env files the message names fileKeyRef: %s", msg)
	}
}
