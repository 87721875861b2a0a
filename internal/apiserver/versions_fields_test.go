package apiserver

import (
	"slices"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutmath/rolloutmath/internal/field"
	"github.com/rolloutmath/rolloutmath/internal/kubeversion"
	"github.com/rolloutmath/rolloutmath/internal/schema"
)

// minorDeployment is versionDeployment decoded as minor v's server does.
func minorDeployment(t *testing.T, v kubeversion.Version, spec string) *schema.Deployment {
	t.Helper()
	js := `{"metadata":{"name":"web","namespace":"default"},"spec":{"selector":{"matchLabels":{"app":"web"}},` +
		`"template":{"metadata":{"labels":{"app":"web"}},"spec":` + spec + `}}}`
	d, res := schema.DecodeDeployment([]byte(js), schema.DecodeOptions{Version: v})
	if len(res.Errs) > 0 {
		t.Fatalf("decoding %s as %s: %v", js, v, res.Errs)
	}
	return d
}

// oneMinorFields are the template fields that one minor alone has, each
// behind a gate that is off by default (VERSIONS.md G6, G14, D5), with a
// template that uses the field and a test of whether a spec still has it.
var oneMinorFields = []struct {
	gate  string // upstream's name, as DropDisabledTemplateFields reports it
	id    gate
	minor kubeversion.Version
	spec  string
	has   func(*schema.PodSpec) bool
}{
	{ // Upstream: v1.37.2 pkg/api/pod dropDisabledEvictionResponders
		"EvictionRequestAPI", gateEvictionRequestAPI, kubeversion.V1_37,
		`{"evictionResponders":[{"name":"example.com/drainer","priority":10000}],"containers":[{"name":"c","image":"x"}]}`,
		func(s *schema.PodSpec) bool { return len(s.EvictionResponders) == 1 },
	},
	{ // Upstream: v1.37.2 dropDisabledPodFields, VolumeBindMountOptions
		"VolumeBindMountOptions", gateVolumeBindMountOptions, kubeversion.V1_37,
		`{"volumes":[{"name":"v","emptyDir":{}}],"containers":[{"name":"c","image":"x","volumeMounts":[{"name":"v","mountPath":"/v","bindMountOptions":["noexec"]}]}]}`,
		func(s *schema.PodSpec) bool { return len(s.Containers[0].VolumeMounts[0].BindMountOptions) == 1 },
	},
	{ // Upstream: v1.37.2 dropHTTPProbeProtocol (probes and lifecycle handlers)
		"H2CContainerProbe", gateH2CContainerProbe, kubeversion.V1_37,
		`{"containers":[{"name":"c","image":"x","lifecycle":{"preStop":{"httpGet":{"port":80,"protocol":"HTTP1"}}}}]}`,
		func(s *schema.PodSpec) bool { return s.Containers[0].Lifecycle.PreStop.HTTPGet.Protocol != nil },
	},
	{ // Upstream: v1.37.2 dropDisabledGRPCContainerProbeTLS
		"GRPCContainerProbeTLS", gateGRPCContainerProbeTLS, kubeversion.V1_37,
		`{"containers":[{"name":"c","image":"x","readinessProbe":{"grpc":{"port":9000,"mode":"Plaintext"}}}]}`,
		func(s *schema.PodSpec) bool { return s.Containers[0].ReadinessProbe.GRPC.Mode != nil },
	},
	{ // Upstream: v1.37.2 dropDisabledPodFields, EmptyDirVolumeMode
		"EmptyDirVolumeMode", gateEmptyDirVolumeMode, kubeversion.V1_37,
		`{"volumes":[{"name":"v","emptyDir":{"mode":448}}],"containers":[{"name":"c","image":"x"}]}`,
		func(s *schema.PodSpec) bool { return s.Volumes[0].EmptyDir.Mode != nil },
	},
	{ // Upstream: v1.37.2 dropDisabledAtomicWriteVolumeUserFields (a projection's token)
		"AtomicWriteVolumeUserFields", gateAtomicWriteVolumeUserFields, kubeversion.V1_37,
		`{"volumes":[{"name":"v","projected":{"sources":[{"serviceAccountToken":{"path":"t","user":1000}}]}}],"containers":[{"name":"c","image":"x"}]}`,
		func(s *schema.PodSpec) bool { return s.Volumes[0].Projected.Sources[0].ServiceAccountToken.User != nil },
	},
	{ // Upstream: v1.35.4 dropDisabledWorkloadRef
		"GenericWorkload", gateGenericWorkload, kubeversion.V1_35,
		`{"workloadRef":{"name":"training","podGroup":"workers"},"containers":[{"name":"c","image":"x"}]}`,
		func(s *schema.PodSpec) bool { return s.WorkloadRef != nil },
	},
}

// TestDropOneMinorFields: a field that only one minor has is dropped by
// that minor's create path with its default gates (and the gate reported),
// kept with its gate on, and kept on update, gate off, when the stored
// template already uses it, as each upstream dropDisabled* function does.
func TestDropOneMinorFields(t *testing.T) {
	for _, tc := range oneMinorFields {
		t.Run(tc.gate, func(t *testing.T) {
			g := FeatureGates{Version: tc.minor}
			if g.enabled(tc.id) {
				t.Fatalf("%s is on by default in %s", tc.gate, tc.minor)
			}
			s := minorDeployment(t, tc.minor, tc.spec).Spec.Template.Spec
			if dropped := DropDisabledTemplateFields(&s, g); !slices.Equal(dropped, []string{tc.gate}) || tc.has(&s) {
				t.Errorf("default gates: dropped %q, field kept %v; want [%s] and the field gone", dropped, tc.has(&s), tc.gate)
			}

			d := minorDeployment(t, tc.minor, tc.spec)
			if errs := createErrors(d, g); errs != nil {
				t.Fatalf("create: %q", errs)
			}
			if tc.has(&d.Spec.Template.Spec) {
				t.Errorf("CreateDeployment kept the field with %s off", tc.gate)
			}

			on := g
			set(&on, tc.id, GateOn)
			d = minorDeployment(t, tc.minor, tc.spec)
			if errs := createErrors(d, on); errs != nil {
				t.Fatalf("create with %s on: %q", tc.gate, errs)
			}
			if !tc.has(&d.Spec.Template.Spec) {
				t.Errorf("CreateDeployment dropped the field with %s on", tc.gate)
			}

			s = minorDeployment(t, tc.minor, tc.spec).Spec.Template.Spec
			old := minorDeployment(t, tc.minor, tc.spec).Spec.Template.Spec
			if dropped := dropDisabledFields(&s, &old, g); dropped != nil || !tc.has(&s) {
				t.Errorf("update of a template that has it: dropped %q, kept %v; want it kept", dropped, tc.has(&s))
			}
		})
	}
}

// TestOneMinorGatesAbsentElsewhere: the alpha gates of v1.37's new fields
// do not exist before v1.37 and are off there; GenericWorkload is off in
// every minor (VERSIONS.md G6, G14).
func TestOneMinorGatesAbsentElsewhere(t *testing.T) {
	for _, tc := range oneMinorFields {
		for _, v := range kubeversion.Supported() {
			if (FeatureGates{Version: v}).enabled(tc.id) {
				t.Errorf("%s on by default in %s", tc.gate, v)
			}
		}
	}
}

// TestWorkloadRefValidation135: with GenericWorkload on, v1.35 validates
// spec.workloadRef (validateWorkloadReference): name a DNS subdomain,
// podGroup a DNS label, podGroupReplicaKey a DNS label when set.
func TestWorkloadRefValidation135(t *testing.T) {
	g := FeatureGates{Version: kubeversion.V1_35, Gates: Gates{GenericWorkload: GateOn}}
	for _, tc := range []struct {
		name, ref string
		want      []string
	}{
		{"valid", `{"name":"training.example","podGroup":"workers","podGroupReplicaKey":"r0"}`, nil},
		{"no replica key", `{"name":"training","podGroup":"workers"}`, nil},
		{"bad name", `{"name":"Training","podGroup":"workers"}`, []string{
			`spec.template.spec.workloadRef.name: Invalid value: "Training": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
		}},
		{"dotted pod group", `{"name":"t","podGroup":"a.b"}`, []string{
			`spec.template.spec.workloadRef.podGroup: Invalid value: "a.b": must not contain dots`,
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := minorDeployment(t, kubeversion.V1_35, `{"workloadRef":`+tc.ref+`,"containers":[{"name":"c","image":"x"}]}`)
			if diff := cmp.Diff(tc.want, createErrors(d, g)); diff != "" {
				t.Errorf("CreateDeployment() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestEvictionRespondersUpdate: v1.37 validates spec.evictionResponders
// declaratively, and declarative validation does not check again on update
// what the stored template already had: an unchanged list, an entry equal
// to the stored entry of its name, an unchanged field of such an entry
// (k8s.io/kubernetes v1.37.2 pkg/apis/core/v1 Validate_PodSpec,
// Validate_EvictionResponder; apimachinery EachValSliceVal). maxItems is
// checked on any change. Read from the generated code; the update vectors
// cannot reach it, since a stored template keeps evictionResponders only
// when the gate was on at its create.
func TestEvictionRespondersUpdate(t *testing.T) {
	r := func(name string, prio int32) schema.EvictionResponder {
		return schema.EvictionResponder{Name: name, Priority: &prio}
	}
	reserved := "priorities 0-999 are reserved for responders with *.k8s.io suffix"
	many := func(n int) []schema.EvictionResponder {
		var out []schema.EvictionResponder
		for i := range n {
			out = append(out, r("example.com/r"+strconv.Itoa(i), 5000))
		}
		return out
	}
	for _, tc := range []struct {
		name     string
		old, new []schema.EvictionResponder
		update   bool
		want     []string
	}{
		{"create checks every entry", nil, []schema.EvictionResponder{r("example.com/a", 500)}, false,
			[]string{"e[0].priority: Invalid value: 500: " + reserved}},
		{"an unchanged list is not checked", []schema.EvictionResponder{r("example.com/a", 500)}, []schema.EvictionResponder{r("example.com/a", 500)}, true, nil},
		{"an unchanged entry is not checked", []schema.EvictionResponder{r("example.com/a", 500)},
			[]schema.EvictionResponder{r("example.com/b", 50), r("example.com/a", 500)}, true,
			[]string{"e[0].priority: Invalid value: 50: " + reserved}},
		{"a changed priority is", []schema.EvictionResponder{r("example.com/a", 500)}, []schema.EvictionResponder{r("example.com/a", 600)}, true,
			[]string{"e[0].priority: Invalid value: 600: " + reserved}},
		{"a matched name is not checked again", []schema.EvictionResponder{r("drainer", 500)}, []schema.EvictionResponder{r("drainer", 5000)}, true, nil},
		{"maxItems on any change", many(11), append(many(11), r("example.com/x", 5000)), true,
			[]string{"e: Too many: 12: must have at most 10 items"}},
		{"an unchanged long list passes", many(11), many(11), true, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, e := range validateEvictionResponders(tc.new, tc.old, tc.update, field.NewPath("e")) {
				got = append(got, e.Error())
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("validateEvictionResponders() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestProjectionUsers137: v1.37 validates the user of a projected
// clusterTrustBundle and podCertificate (validateProjectionSources,
// validateUserField) when AtomicWriteVolumeUserFields keeps it. The
// vectors cannot reach these two: their gate-flipped runs turn the
// projections' own gates (on by default in v1.37) off, which drops them.
func TestProjectionUsers137(t *testing.T) {
	g := FeatureGates{Version: kubeversion.V1_37, Gates: Gates{AtomicWriteVolumeUserFields: GateOn}}
	d := minorDeployment(t, kubeversion.V1_37, `{"volumes":[{"name":"v","projected":{"sources":[`+
		`{"clusterTrustBundle":{"signerName":"example.com/x","path":"ca.pem","user":-1}},`+
		`{"podCertificate":{"signerName":"example.com/y","keyType":"ED25519","credentialBundlePath":"b.pem","user":2147483648}}]}}],`+
		`"containers":[{"name":"c","image":"x"}]}`)
	want := []string{
		"spec.template.spec.volumes[0].projected.sources[0].clusterTrustBundle.user: Invalid value: -1: must be between 0 and 2147483647, inclusive",
		"spec.template.spec.volumes[0].projected.sources[1].podCertificate.user: Invalid value: 2147483648: must be between 0 and 2147483647, inclusive",
	}
	if diff := cmp.Diff(want, createErrors(d, g)); diff != "" {
		t.Errorf("CreateDeployment() mismatch (-want +got):\n%s", diff)
	}
	d = minorDeployment(t, kubeversion.V1_37, `{"volumes":[{"name":"v","projected":{"sources":[`+
		`{"clusterTrustBundle":{"signerName":"example.com/x","path":"ca.pem","user":-1}}]}}],"containers":[{"name":"c","image":"x"}]}`)
	if errs := createErrors(d, FeatureGates{Version: kubeversion.V1_37}); errs != nil {
		t.Errorf("with the gate off the user is dropped, not refused: %q", errs)
	}
}
