package apiserver

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutmath/rolloutmath/internal/kubeversion"
	"github.com/rolloutmath/rolloutmath/internal/schema"
)

// v136 is a v1.36.3 API server with its default gates: the server the
// repository's upstream vectors were recorded against.
var v136 = FeatureGates{Version: kubeversion.V1_36}

// versionDeployment is a valid Deployment named web whose template's spec
// is spec and whose metadata has the fields of meta (JSON members, or
// empty).
func versionDeployment(t *testing.T, meta, spec string) *schema.Deployment {
	t.Helper()
	if meta != "" {
		meta = "," + meta
	}
	js := `{"metadata":{"name":"web","namespace":"default"` + meta + `},"spec":{"selector":{"matchLabels":{"app":"web"}},` +
		`"template":{"metadata":{"labels":{"app":"web"}},"spec":` + spec + `}}}`
	d, res := schema.DecodeDeployment([]byte(js), schema.DecodeOptions{})
	if len(res.Errs) > 0 {
		t.Fatalf("decoding %s: %v", js, res.Errs)
	}
	return d
}

// createErrors returns the errors of CreateDeployment, one line each.
func createErrors(d *schema.Deployment, g FeatureGates) []string {
	var got []string
	for _, e := range CreateDeployment(d, g) {
		got = append(got, e.Error())
	}
	return got
}

// TestCreateByVersion: the rules that differ between v1.35.4, v1.36.3 and
// v1.37.2 (VERSIONS.md), each row a manifest and the errors each minor's
// create path reports with its default gates, read from the upstream
// function the row names.
func TestCreateByVersion(t *testing.T) {
	const ctr = `{"name":"c","image":"x"}`
	rule := `{"action":"Restart","exitCodes":{"operator":"In","values":[1]}}`
	tp := "spec.template.spec."
	never136 := []string{
		tp + "containers[0].resizePolicy: Invalid value: \"RestartContainer\": must be 'NotRequired' when pod `restartPolicy` is 'Never'",
		tp + `restartPolicy: Unsupported value: "Never": supported values: "Always"`,
	}
	strictIPs := []string{
		tp + `dnsConfig.nameservers[0]: Invalid value: "::ffff:1.2.3.4": must not be an IPv4-mapped IPv6 address`,
		tp + `hostAliases[0].ip: Invalid value: "010.0.0.1": must not have leading 0s`,
	}
	recursiveOnly := []string{tp + `securityContext.seLinuxChangePolicy: Unsupported value: "MountOption": supported values: "Recursive"`}
	for _, tc := range []struct {
		name       string // VERSIONS.md row and upstream function
		meta, spec string
		v135       []string
		v136       []string
		v137       []string
	}{{
		name: "V1 validateResizePolicy: NotRequired when the pod never restarts",
		spec: `{"restartPolicy":"Never","containers":[{"name":"c","image":"x","resizePolicy":[{"resourceName":"cpu","restartPolicy":"RestartContainer"}]}]}`,
		v135: []string{
			tp + "containers[0].resizePolicy: Invalid value: \"RestartContainer\": must be 'NotRequired' when `restartPolicy` is 'Never'",
			tp + `restartPolicy: Unsupported value: "Never": supported values: "Always"`,
		},
		v136: never136,
		v137: never136,
	}, {
		name: "V2 validateContainerRestartPolicy: at most 20 restart rules",
		spec: `{"containers":[{"name":"c","image":"x","restartPolicy":"Always","restartPolicyRules":[` + strings.Repeat(rule+",", 20) + rule + `]}]}`,
		v135: []string{tp + "containers[0].restartPolicyRules: Too long: may not be more than 20 bytes"},
		v136: []string{tp + "containers[0].restartPolicyRules: Too many: 21: must have at most 20 items"},
		v137: []string{tp + "containers[0].restartPolicyRules: Too many: 21: must have at most 20 items"},
	}, {
		name: "V3 validateContainerRestartPolicy: at most 255 exit codes",
		spec: `{"containers":[{"name":"c","image":"x","restartPolicy":"Always","restartPolicyRules":[{"action":"Restart","exitCodes":{"operator":"In","values":[1` + strings.Repeat(",1", 255) + `]}}]}]}`,
		v135: []string{tp + "containers[0].restartPolicyRules[0].exitCodes.values: Too long: may not be more than 255 bytes"},
		v136: []string{tp + "containers[0].restartPolicyRules[0].exitCodes.values: Too many: 256: must have at most 255 items"},
		v137: []string{tp + "containers[0].restartPolicyRules[0].exitCodes.values: Too many: 256: must have at most 255 items"},
	}, {
		name: "V4, V7 validateContainerRestartPolicy: RestartAllContainers (gate RestartAllContainersOnContainerExits)",
		spec: `{"containers":[{"name":"c","image":"x","restartPolicy":"Never","restartPolicyRules":[` +
			`{"action":"RestartAllContainers","exitCodes":{"operator":"In","values":[1]}},{"action":"Bogus","exitCodes":{"operator":"In","values":[1]}}]}]}`,
		v135: []string{
			tp + `containers[0].restartPolicyRules[0].action: Unsupported value: "RestartAllContainers": supported values: "Restart"`,
			tp + `containers[0].restartPolicyRules[1].action: Unsupported value: "Bogus": supported values: "Restart"`,
		},
		v136: []string{tp + `containers[0].restartPolicyRules[1].action: Unsupported value: "Bogus": supported values: "Restart", "RestartAllContainers"`},
		v137: []string{tp + `containers[0].restartPolicyRules[1].action: Unsupported value: "Bogus": supported values: "Restart", "RestartAllContainers"`},
	}, {
		name: "V7 validateInitContainerRestartPolicy: restart rules on a sidecar",
		spec: `{"initContainers":[{"name":"i","image":"x","restartPolicy":"Always","restartPolicyRules":[` + rule + `]}],"containers":[` + ctr + `]}`,
		v135: []string{tp + "initContainers[0].restartPolicyRules: Forbidden: restartPolicyRules are not allowed for init containers with restart policy Always"},
	}, {
		name: "V5 validateInitContainers: RestartContainer in a non-sidecar init container",
		spec: `{"initContainers":[{"name":"i","image":"x","resizePolicy":[{"resourceName":"cpu","restartPolicy":"RestartContainer"}]}],"containers":[` + ctr + `]}`,
		v136: []string{tp + `initContainers[0].resizePolicy[0].restartPolicy: Invalid value: "RestartContainer": must not be set to 'RestartContainer' for non-sidecar initContainers`},
		v137: []string{tp + `initContainers[0].resizePolicy[0].restartPolicy: Invalid value: "RestartContainer": must not be set to 'RestartContainer' for non-sidecar initContainers`},
	}, {
		name: "V6 IsValidIPForLegacyField: strict IPs (gate StrictIPCIDRValidation)",
		spec: `{"hostAliases":[{"ip":"010.0.0.1","hostnames":["a"]}],"dnsConfig":{"nameservers":["::ffff:1.2.3.4"]},"containers":[` + ctr + `]}`,
		v136: strictIPs,
		v137: strictIPs,
	}, {
		name: "V9 validateImageVolumeSource: an image volume needs a reference",
		spec: `{"volumes":[{"name":"v","image":{}}],"containers":[` + ctr + `]}`,
		v137: []string{tp + "volumes[0].image.reference: Required value"},
	}, {
		name: "V12 useOnlyRecursiveSELinuxChangePolicy (gate SELinuxMount)",
		spec: `{"securityContext":{"seLinuxChangePolicy":"MountOption"},"containers":[` + ctr + `]}`,
		v135: recursiveOnly,
		v136: recursiveOnly,
	}, {
		name: "V10 validateOwnerReference: index, Required, the API version's form",
		meta: `"ownerReferences":[{"apiVersion":"a/b/c","kind":"","name":"","uid":""},{"apiVersion":"","kind":"K","name":"n","uid":"u"},{"apiVersion":"g/","kind":"K","name":"n","uid":"u"}]`,
		spec: `{"containers":[` + ctr + `]}`,
		v135: []string{
			`metadata.ownerReferences.apiVersion: Invalid value: "a/b/c": version must not be empty`,
			`metadata.ownerReferences.kind: Invalid value: "": must not be empty`,
			`metadata.ownerReferences.name: Invalid value: "": must not be empty`,
			`metadata.ownerReferences.uid: Invalid value: "": must not be empty`,
			`metadata.ownerReferences.apiVersion: Invalid value: "": version must not be empty`,
			`metadata.ownerReferences.apiVersion: Invalid value: "g/": version must not be empty`,
		},
		v136: []string{
			`metadata.ownerReferences.apiVersion: Invalid value: "a/b/c": version must not be empty`,
			`metadata.ownerReferences.kind: Invalid value: "": must not be empty`,
			`metadata.ownerReferences.name: Invalid value: "": must not be empty`,
			`metadata.ownerReferences.uid: Invalid value: "": must not be empty`,
			`metadata.ownerReferences.apiVersion: Invalid value: "": version must not be empty`,
			`metadata.ownerReferences.apiVersion: Invalid value: "g/": version must not be empty`,
		},
		v137: []string{
			`metadata.ownerReferences[0].apiVersion: Invalid value: "a/b/c": must be <group>/<version> or <version>`,
			`metadata.ownerReferences[0].kind: Required value: must not be empty`,
			`metadata.ownerReferences[0].name: Required value: must not be empty`,
			`metadata.ownerReferences[0].uid: Required value: must not be empty`,
			`metadata.ownerReferences[1].apiVersion: Required value: must not be empty`,
			`metadata.ownerReferences[2].apiVersion: Invalid value: "g/": must be <group>/<version> or <version>`,
		},
	}, {
		name: "V11 ValidateManagedFields: the operation",
		meta: `"managedFields":[{"operation":"","fieldsType":"FieldsV1"},{"operation":"Bogus","fieldsType":"FieldsV1"}]`,
		spec: `{"containers":[` + ctr + `]}`,
		v135: []string{
			"metadata.managedFields[0].operation: Invalid value: \"\": must be `Apply` or `Update`",
			"metadata.managedFields[1].operation: Invalid value: \"Bogus\": must be `Apply` or `Update`",
		},
		v136: []string{
			"metadata.managedFields[0].operation: Invalid value: \"\": must be `Apply` or `Update`",
			"metadata.managedFields[1].operation: Invalid value: \"Bogus\": must be `Apply` or `Update`",
		},
		v137: []string{
			`metadata.managedFields[0].operation: Required value: must not be empty`,
			`metadata.managedFields[1].operation: Unsupported value: "Bogus": supported values: "Apply", "Update"`,
		},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			// A nil list is no error; each row spells out all three.
			want := map[kubeversion.Version][]string{kubeversion.V1_35: tc.v135, kubeversion.V1_36: tc.v136, kubeversion.V1_37: tc.v137}
			for _, v := range kubeversion.Supported() {
				got := createErrors(versionDeployment(t, tc.meta, tc.spec), FeatureGates{Version: v})
				if diff := cmp.Diff(want[v], got); diff != "" {
					t.Errorf("CreateDeployment() at %s mismatch (-want +got):\n%s", v, diff)
				}
			}
		})
	}
}

// TestCreateByVersionGateOverrides: a gate set On or Off gives another
// minor's rule, and Latest is v1.37.
func TestCreateByVersionGateOverrides(t *testing.T) {
	spec := `{"hostAliases":[{"ip":"010.0.0.1","hostnames":["a"]}],"containers":[{"name":"c","image":"x"}]}`
	strict := []string{`spec.template.spec.hostAliases[0].ip: Invalid value: "010.0.0.1": must not have leading 0s`}
	for _, tc := range []struct {
		name string
		g    FeatureGates
		want []string
	}{
		{"1.35 with StrictIPCIDRValidation on", FeatureGates{Version: kubeversion.V1_35, Gates: Gates{StrictIPCIDRValidation: GateOn}}, strict},
		{"1.36 with StrictIPCIDRValidation off", FeatureGates{Version: kubeversion.V1_36, Gates: Gates{StrictIPCIDRValidation: GateOff}}, nil},
		{"Latest", FeatureGates{}, strict},
	} {
		if diff := cmp.Diff(tc.want, createErrors(versionDeployment(t, "", spec), tc.g)); diff != "" {
			t.Errorf("%s: CreateDeployment() mismatch (-want +got):\n%s", tc.name, diff)
		}
	}
	// 1.35 with RestartAllContainers allowed still lists only Restart
	// (V4: upstream passes supportedContainerRestartRuleActions).
	bogus := `{"containers":[{"name":"c","image":"x","restartPolicy":"Never","restartPolicyRules":[{"action":"Bogus","exitCodes":{"operator":"In","values":[1]}}]}]}`
	got := createErrors(versionDeployment(t, "", bogus), FeatureGates{Version: kubeversion.V1_35, Gates: Gates{RestartAllContainersOnContainerExits: GateOn}})
	want := []string{`spec.template.spec.containers[0].restartPolicyRules[0].action: Unsupported value: "Bogus": supported values: "Restart"`}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("1.35 with RestartAllContainersOnContainerExits on: mismatch (-want +got):\n%s", diff)
	}
}

// TestDropByVersion: the projections of gates that are off by default
// before v1.37 stay an empty source there (dropDisabledClusterTrustBundleProjection,
// dropDisabledPodCertificateProjection) and are stored by v1.37; the
// SidecarContainers gate no longer drops anything in v1.37.
func TestDropByVersion(t *testing.T) {
	projected := `{"volumes":[{"name":"v","projected":{"sources":[{"clusterTrustBundle":{"signerName":"example.com/x","path":"ca.pem"}},` +
		`{"podCertificate":{"signerName":"example.com/y","keyType":"ED25519","credentialBundlePath":"b.pem"}}]}}],"containers":[{"name":"c","image":"x"}]}`
	for _, tc := range []struct {
		v    kubeversion.Version
		kept bool
	}{{kubeversion.V1_35, false}, {kubeversion.V1_36, false}, {kubeversion.V1_37, true}} {
		d := versionDeployment(t, "", projected)
		if errs := createErrors(d, FeatureGates{Version: tc.v}); errs != nil {
			t.Fatalf("%s: %q", tc.v, errs)
		}
		src := d.Spec.Template.Spec.Volumes[0].Projected.Sources
		if got := src[0].ClusterTrustBundle != nil && src[1].PodCertificate != nil; got != tc.kept {
			t.Errorf("%s: projections kept %v, want %v", tc.v, got, tc.kept)
		}
		if n := len(src); n != 2 {
			t.Errorf("%s: %d sources, want 2 (a dropped one stays empty)", tc.v, n)
		}
	}
	sidecar := `{"initContainers":[{"name":"i","image":"x","restartPolicy":"Always"}],"containers":[{"name":"c","image":"x"}]}`
	for _, tc := range []struct {
		v    kubeversion.Version
		kept bool
	}{{kubeversion.V1_36, false}, {kubeversion.V1_37, true}} {
		s := versionDeployment(t, "", sidecar).Spec.Template.Spec
		dropped := DropDisabledTemplateFields(&s, FeatureGates{Version: tc.v, Gates: Gates{SidecarContainers: GateOff}})
		if got := s.InitContainers[0].RestartPolicy != nil; got != tc.kept {
			t.Errorf("%s with SidecarContainers off: restartPolicy kept %v, want %v (dropped %q)", tc.v, got, tc.kept, dropped)
		}
	}
}

// TestReadKeepsInitContainerAnnotationsFrom137: before v1.37 the
// PodTemplateSpec conversion drops the init-container annotations on every
// read; v1.37 drops them only on create and update (VERSIONS.md D1).
func TestReadKeepsInitContainerAnnotationsFrom137(t *testing.T) {
	const key = "pod.beta.kubernetes.io/init-containers"
	for _, tc := range []struct {
		v    kubeversion.Version
		kept bool
	}{{kubeversion.V1_35, false}, {kubeversion.V1_36, false}, {kubeversion.V1_37, true}} {
		d := versionDeployment(t, "", `{"containers":[{"name":"c","image":"x"}]}`)
		d.Spec.Template.Annotations = map[string]string{key: "[]", "keep": "x"}
		if errs := ReadDeployment(d, FeatureGates{Version: tc.v}); errs != nil {
			t.Fatal(errs)
		}
		if _, got := d.Spec.Template.Annotations[key]; got != tc.kept || d.Spec.Template.Annotations["keep"] != "x" {
			t.Errorf("%s: read annotations %v, want the init-container one kept: %v", tc.v, d.Spec.Template.Annotations, tc.kept)
		}
		c := versionDeployment(t, "", `{"containers":[{"name":"c","image":"x"}]}`)
		c.Spec.Template.Annotations = map[string]string{key: "[]"}
		if errs := CreateDeployment(c, FeatureGates{Version: tc.v}); errs != nil {
			t.Fatal(errs)
		}
		if _, got := c.Spec.Template.Annotations[key]; got {
			t.Errorf("%s: create kept %s", tc.v, key)
		}
	}
}

// TestUnsupportedVersion: a Version that is not Valid is refused with an
// error by the functions that return errors, and does not panic the
// others.
func TestUnsupportedVersion(t *testing.T) {
	g := FeatureGates{Version: kubeversion.Version(200)}
	d := versionDeployment(t, "", `{"containers":[{"name":"c","image":"x"}]}`)
	got := createErrors(d, g)
	want := []string{"kubernetesVersion: Internal error: unsupported Kubernetes version Version(200): want Latest or one of 1.35, 1.36, 1.37"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("CreateDeployment() mismatch (-want +got):\n%s", diff)
	}
	for name, errs := range map[string]int{
		"ReadDeployment":   len(ReadDeployment(versionDeployment(t, "", `{}`), g)),
		"UpdateDeployment": len(UpdateDeployment(versionDeployment(t, "", `{}`), versionDeployment(t, "", `{}`), g)),
	} {
		if errs != 1 {
			t.Errorf("%s: %d errors, want 1", name, errs)
		}
	}
	s := d.Spec.Template.Spec
	DropDisabledTemplateFields(&s, g)
	DefaultPodTemplateSpec(&d.Spec.Template, g)
}

// TestGateDefaultsExhaustive: for every gate, minor and setting, a gate is
// on exactly when it is set On, or left at GateDefault and on by default in
// that minor (gateDefaults, VERSIONS.md G1 to G10); Latest reads v1.37's.
func TestGateDefaultsExhaustive(t *testing.T) {
	for id := gate(0); id < numGates; id++ {
		for _, v := range append(kubeversion.Supported(), kubeversion.Latest) {
			for _, s := range []Gate{GateDefault, GateOn, GateOff} {
				g := FeatureGates{Version: v}
				set(&g, id, s)
				if g.setting(id) != s {
					t.Fatalf("gate %d: setting %d, want %d", id, g.setting(id), s)
				}
				want := s == GateOn || s == GateDefault && gateDefaults[id][v.Resolve()-kubeversion.Oldest]
				if got := g.enabled(id); got != want {
					t.Errorf("gate %d at %s set %d: enabled %v, want %v", id, v, s, got, want)
				}
			}
		}
	}
	// The gates whose default differs, as VERSIONS.md lists them.
	for _, tc := range []struct {
		id   gate
		want [minors]bool
	}{
		{gateClusterTrustBundleProjection, [minors]bool{false, false, true}},
		{gatePodCertificateRequest, [minors]bool{false, false, true}},
		{gateSELinuxMount, [minors]bool{false, false, true}},
		{gateRestartAllContainersOnContainerExits, [minors]bool{false, true, true}},
		{gateStrictIPCIDRValidation, [minors]bool{false, true, true}},
		{gateHPAScaleToZero, [minors]bool{false, false, true}},
	} {
		var got [minors]bool
		for i, v := range kubeversion.Supported() {
			got[i] = FeatureGates{Version: v}.enabled(tc.id)
		}
		if got != tc.want {
			t.Errorf("gate %d defaults %v, want %v", tc.id, got, tc.want)
		}
	}
}

// set sets the field of g that id names to s.
func set(g *FeatureGates, id gate, s Gate) {
	fields := map[gate]*Gate{
		gateClusterTrustBundleProjection: &g.ClusterTrustBundleProjection, gatePodCertificateRequest: &g.PodCertificateRequest,
		gateSELinuxMount: &g.SELinuxMount, gateRestartAllContainersOnContainerExits: &g.RestartAllContainersOnContainerExits,
		gateStrictIPCIDRValidation: &g.StrictIPCIDRValidation, gateGenericWorkload: &g.GenericWorkload,
		gateContainerStopSignals: &g.ContainerStopSignals, gateUserNamespacesSupport: &g.UserNamespacesSupport,
		gateSupplementalGroupsPolicy: &g.SupplementalGroupsPolicy, gateInPlacePodVerticalScaling: &g.InPlacePodVerticalScaling,
		gateSidecarContainers: &g.SidecarContainers, gateContainerRestartRules: &g.ContainerRestartRules,
		gateRecursiveReadOnlyMounts: &g.RecursiveReadOnlyMounts, gateHostnameOverride: &g.HostnameOverride,
		gateEnvFiles: &g.EnvFiles, gateImageVolume: &g.ImageVolume,
		gateEvictionRequestAPI: &g.EvictionRequestAPI, gateVolumeBindMountOptions: &g.VolumeBindMountOptions,
		gateH2CContainerProbe: &g.H2CContainerProbe, gateGRPCContainerProbeTLS: &g.GRPCContainerProbeTLS,
		gateEmptyDirVolumeMode: &g.EmptyDirVolumeMode, gateAtomicWriteVolumeUserFields: &g.AtomicWriteVolumeUserFields,
		gateHPAScaleToZero: &g.HPAScaleToZero,
	}
	*fields[id] = s
}

// TestUpdateKeepsWhatTheStoredTemplateHas: an object created by one minor
// and updated through another (an upgrade, or a skewed API server) keeps a
// template value the new minor refuses in a new object, as upstream's
// GetValidationOptionsFromPodSpecAndMeta allows from the stored template
// (hasRestartContainerForNonSidecarInitContainer, hasEmptyImageVolumeReference,
// useOnlyRecursiveSELinuxChangePolicy); a template that did not have it is
// refused.
func TestUpdateKeepsWhatTheStoredTemplateHas(t *testing.T) {
	for _, tc := range []struct {
		name            string
		created, update kubeversion.Version
		spec            string
		refused         string // the error of an update that adds spec to a template without it
	}{
		{
			name: "V5 RestartContainer in a non-sidecar init container, 1.35 to 1.36", created: kubeversion.V1_35, update: kubeversion.V1_36,
			spec:    `{"initContainers":[{"name":"i","image":"x","resizePolicy":[{"resourceName":"cpu","restartPolicy":"RestartContainer"}]}],"containers":[{"name":"c","image":"x"}]}`,
			refused: `spec.template.spec.initContainers[0].resizePolicy[0].restartPolicy: Invalid value: "RestartContainer": must not be set to 'RestartContainer' for non-sidecar initContainers`,
		},
		{
			name: "V9 an image volume without a reference, 1.36 to 1.37", created: kubeversion.V1_36, update: kubeversion.V1_37,
			spec:    `{"volumes":[{"name":"v","image":{}}],"containers":[{"name":"c","image":"x"}]}`,
			refused: `spec.template.spec.volumes[0].image.reference: Required value`,
		},
		{
			name: "V12 seLinuxChangePolicy MountOption, 1.37 to 1.36 (skew)", created: kubeversion.V1_37, update: kubeversion.V1_36,
			spec:    `{"securityContext":{"seLinuxChangePolicy":"MountOption"},"containers":[{"name":"c","image":"x"}]}`,
			refused: `spec.template.spec.securityContext.seLinuxChangePolicy: Unsupported value: "MountOption": supported values: "Recursive"`,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, stored := range []string{tc.spec, `{"containers":[{"name":"c","image":"x"}]}`} {
				old := versionDeployment(t, "", stored)
				if errs := CreateDeployment(old, FeatureGates{Version: tc.created}); errs != nil {
					t.Fatalf("created by %s: %v", tc.created, errs)
				}
				old.ResourceVersion = "1"
				d := versionDeployment(t, `"resourceVersion":"1"`, tc.spec)
				d.Spec.Replicas = ptr[int32](5)
				var got []string
				for _, e := range UpdateDeployment(old, d, FeatureGates{Version: tc.update}) {
					got = append(got, e.Error())
				}
				var want []string
				if stored != tc.spec {
					want = []string{tc.refused}
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("UpdateDeployment() at %s of a template stored as %s mismatch (-want +got):\n%s", tc.update, stored, diff)
				}
			}
		})
	}
}

// TestUpdateSysAdminFrom137: v1.37 lets an update turn privilege escalation
// off for a stored container that adds CAP_SYS_ADMIN without it being on
// (useAllowSysAdminWhenPrivilegeEscalationFalse); v1.36 refuses the update
// as it refuses the create (VERSIONS.md V18).
func TestUpdateSysAdminFrom137(t *testing.T) {
	stored := `{"containers":[{"name":"c","image":"x","securityContext":{"capabilities":{"add":["CAP_SYS_ADMIN"]}}}]}`
	update := `{"containers":[{"name":"c","image":"x","securityContext":{"allowPrivilegeEscalation":false,"capabilities":{"add":["CAP_SYS_ADMIN"]}}}]}`
	// Upstream prints the internal SecurityContext as the value (the
	// update vectors of testdata/apiserver/version-updates hold the text).
	refused := []string{`spec.template.spec.containers[0].securityContext: Invalid value: {"Capabilities":{"Add":["CAP_SYS_ADMIN"],"Drop":null},` +
		`"Privileged":null,"SELinuxOptions":null,"WindowsOptions":null,"RunAsUser":null,"RunAsGroup":null,"RunAsNonRoot":null,` +
		`"ReadOnlyRootFilesystem":null,"AllowPrivilegeEscalation":false,"ProcMount":null,"SeccompProfile":null,"AppArmorProfile":null}: ` +
		"cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN"}
	for _, tc := range []struct {
		v    kubeversion.Version
		want []string
	}{{kubeversion.V1_35, refused}, {kubeversion.V1_36, refused}, {kubeversion.V1_37, nil}} {
		old := versionDeployment(t, "", stored)
		if errs := CreateDeployment(old, FeatureGates{Version: tc.v}); errs != nil {
			t.Fatal(errs)
		}
		old.ResourceVersion = "1"
		var got []string
		for _, e := range UpdateDeployment(old, versionDeployment(t, `"resourceVersion":"1"`, update), FeatureGates{Version: tc.v}) {
			got = append(got, e.Error())
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("UpdateDeployment() at %s mismatch (-want +got):\n%s", tc.v, diff)
		}
		if got := createErrors(versionDeployment(t, "", update), FeatureGates{Version: tc.v}); !cmp.Equal(got, refused) {
			t.Errorf("CreateDeployment() at %s = %q, want %q", tc.v, got, refused)
		}
	}
}
