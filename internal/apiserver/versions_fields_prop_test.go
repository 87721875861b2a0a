package apiserver

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/internal/kubeversion"
	"github.com/rolloutmath/rolloutmath/internal/schema"
)

// TestDrop137FieldsProperties: for a random v1.37 template that uses a
// random subset of the fields of G14, placed in random containers (init,
// regular or ephemeral) and volumes:
//   - with the default gates, the gates reported are exactly those whose
//     fields the template used, in upstream's order of the drops, none of
//     the fields is left, and dropping again reports nothing;
//   - with every gate on, nothing is dropped and the spec is unchanged;
//   - on update, a stored template that has the same fields keeps them.
func TestDrop137FieldsProperties(t *testing.T) {
	order := []string{"AtomicWriteVolumeUserFields", "GRPCContainerProbeTLS", "EvictionRequestAPI", "EmptyDirVolumeMode", "VolumeBindMountOptions", "H2CContainerProbe"}
	rapid.Check(t, func(t *rapid.T) {
		kinds := []string{"initContainers", "containers", "ephemeralContainers"}
		containers := map[string][]string{}
		place := func(label, body string) {
			k := rapid.SampledFrom(kinds).Draw(t, label)
			containers[k] = append(containers[k], body)
		}
		var want []string
		var volumes []string
		use := map[string]bool{}
		for _, g := range order {
			use[g] = rapid.Bool().Draw(t, g)
		}
		if use["AtomicWriteVolumeUserFields"] {
			want = append(want, "AtomicWriteVolumeUserFields")
			volumes = append(volumes, rapid.SampledFrom([]string{
				`{"name":"u","secret":{"secretName":"s","defaultUser":1}}`,
				`{"name":"u","configMap":{"name":"c","items":[{"key":"k","path":"p","user":2}]}}`,
				`{"name":"u","downwardAPI":{"items":[{"path":"p","fieldRef":{"fieldPath":"metadata.name"},"user":3}]}}`,
				`{"name":"u","projected":{"defaultUser":4,"sources":[]}}`,
				`{"name":"u","projected":{"sources":[{"serviceAccountToken":{"path":"t","user":5}}]}}`,
			}).Draw(t, "user field"))
		}
		if use["GRPCContainerProbeTLS"] {
			want = append(want, "GRPCContainerProbeTLS")
			probe := rapid.SampledFrom([]string{"livenessProbe", "readinessProbe", "startupProbe"}).Draw(t, "grpc probe")
			place("grpc container", `{"name":"g","image":"x","`+probe+`":{"grpc":{"port":9000,"mode":"TLS"}}}`)
		}
		evictions := ""
		if use["EvictionRequestAPI"] {
			want = append(want, "EvictionRequestAPI")
			evictions = `"evictionResponders":[{"name":"example.com/d","priority":5000}],`
		}
		if use["EmptyDirVolumeMode"] {
			want = append(want, "EmptyDirVolumeMode")
			volumes = append(volumes, `{"name":"e","emptyDir":{"mode":448}}`)
		}
		if use["VolumeBindMountOptions"] {
			want = append(want, "VolumeBindMountOptions")
			volumes = append(volumes, `{"name":"b","emptyDir":{}}`)
			place("mount container", `{"name":"m","image":"x","volumeMounts":[{"name":"b","mountPath":"/b","bindMountOptions":["noexec"]}]}`)
		}
		if use["H2CContainerProbe"] {
			want = append(want, "H2CContainerProbe")
			where := rapid.SampledFrom([]string{`"livenessProbe":{"httpGet":`, `"lifecycle":{"preStop":{"httpGet":`}).Draw(t, "http action")
			closing := "}"
			if strings.HasPrefix(where, `"lifecycle"`) {
				closing = "}}"
			}
			place("http container", `{"name":"h","image":"x",`+where+`{"port":80,"protocol":"HTTP2"}`+closing+`}`)
		}
		containers["containers"] = append(containers["containers"], `{"name":"c","image":"x"}`)
		spec := `{` + evictions + `"volumes":[` + strings.Join(volumes, ",") + `]`
		for _, k := range kinds {
			if len(containers[k]) > 0 {
				spec += `,"` + k + `":[` + strings.Join(containers[k], ",") + `]`
			}
		}
		spec += `}`
		decode := func() schema.PodSpec {
			js := `{"metadata":{"name":"web"},"spec":{"template":{"spec":` + spec + `}}}`
			d, res := schema.DecodeDeployment([]byte(js), schema.DecodeOptions{Version: kubeversion.V1_37})
			if len(res.Errs) > 0 {
				t.Fatalf("%s: %v", js, res.Errs)
			}
			return d.Spec.Template.Spec
		}
		encode := func(s schema.PodSpec) []byte {
			return schema.AppendDeployment(nil, &schema.Deployment{Spec: schema.DeploymentSpec{Template: schema.PodTemplateSpec{Spec: s}}}, schema.Stored)
		}

		s := decode()
		if got := dropDisabledFields(&s, nil, FeatureGates{Version: kubeversion.V1_37}); !slices.Equal(got, want) {
			t.Fatalf("default gates: dropped %q, want %q (%s)", got, want, spec)
		}
		if volumeUsersInUse(&s) || grpcModeInUse(&s) || httpProtocolInUse(&s) || len(s.EvictionResponders) > 0 ||
			bytes.Contains(encode(s), []byte(`"mode":448`)) || bytes.Contains(encode(s), []byte("bindMountOptions")) {
			t.Fatalf("a field is left after the drop: %s", encode(s))
		}
		if again := dropDisabledFields(&s, nil, FeatureGates{Version: kubeversion.V1_37}); again != nil {
			t.Fatalf("a second drop reported %q", again)
		}

		on := FeatureGates{Version: kubeversion.V1_37, Gates: Gates{EvictionRequestAPI: GateOn, VolumeBindMountOptions: GateOn,
			H2CContainerProbe: GateOn, GRPCContainerProbeTLS: GateOn, EmptyDirVolumeMode: GateOn, AtomicWriteVolumeUserFields: GateOn}}
		s = decode()
		before := encode(s)
		if got := dropDisabledFields(&s, nil, on); got != nil || !bytes.Equal(encode(s), before) {
			t.Fatalf("every gate on: dropped %q\n%s\nwas\n%s", got, encode(s), before)
		}

		s, old := decode(), decode()
		if got := dropDisabledFields(&s, &old, FeatureGates{Version: kubeversion.V1_37}); got != nil || !bytes.Equal(encode(s), before) {
			t.Fatalf("update of a template that has the fields: dropped %q", got)
		}
	})
}
