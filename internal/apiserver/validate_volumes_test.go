package apiserver

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rolloutmath/rolloutmath/internal/field"
	"github.com/rolloutmath/rolloutmath/internal/schema"
	"pgregory.net/rapid"
)

// Unit tests of the volume validation: what the differential tests in
// internal/upstream/difftest cannot reach through a Deployment (a pod's
// own metadata and options, sources that defaulting always fills), and
// the properties of validateVolumes.

// problemList renders problems as "field: type", in order.
func problemList(errs field.ErrorList) []string {
	out := []string{}
	for _, e := range errs {
		out = append(out, e.Field+": "+string(e.Type))
	}
	return out
}

func ptrTo[T any](v T) *T { return &v }

// TestValidateVolumesPod covers the rules that only a pod (with its own
// name and options) meets, which a Deployment's template never does.
func TestValidateVolumesPod(t *testing.T) {
	ephemeral := func(name string) schema.Volume {
		return schema.Volume{Name: name, VolumeSource: schema.VolumeSource{Ephemeral: &schema.EphemeralVolumeSource{
			VolumeClaimTemplate: &schema.PersistentVolumeClaimTemplate{Spec: schema.PersistentVolumeClaimSpec{
				AccessModes: []string{"ReadWriteOnce"},
				Resources:   schema.VolumeResourceRequirements{Requests: schema.ResourceList{{Name: "storage", Quantity: schema.MustParseQuantity("1Gi")}}},
			}},
		}}}
	}
	pvc := func(name, claim string) schema.Volume {
		return schema.Volume{Name: name, VolumeSource: schema.VolumeSource{PersistentVolumeClaim: &schema.PersistentVolumeClaimVolumeSource{ClaimName: claim}}}
	}
	for _, c := range []struct {
		name string
		meta *schema.ObjectMeta
		opts podOptions
		vols []schema.Volume
		want []string
	}{
		{name: "ValidateVolumes: a PVC created for an ephemeral volume may not be named",
			meta: &schema.ObjectMeta{Name: "pod"}, vols: []schema.Volume{ephemeral("e"), pvc("p", "pod-e")},
			want: []string{"v[1].persistentVolumeClaim.claimName: Invalid value"}},
		{name: "ValidateVolumes: a template's claims are not known",
			vols: []schema.Volume{ephemeral("e"), pvc("p", "pod-e")}, want: []string{}},
		{name: "validateVolumeSource: the created PVC's name is a DNS subdomain",
			meta: &schema.ObjectMeta{Name: strings.Repeat("p", 252)}, vols: []schema.Volume{ephemeral("e")},
			want: []string{"v[0].name: Invalid value"}},
		{name: "validateVolumeSource: no source at all",
			vols: []schema.Volume{{Name: "a"}}, want: []string{"v[0]: Required value"}},
		{name: "validateImageVolumeSource: a pod's image volume needs a reference",
			opts: podOptions{ResourceIsPod: true}, vols: []schema.Volume{{Name: "i", VolumeSource: schema.VolumeSource{Image: &schema.ImageVolumeSource{PullPolicy: "Always"}}}},
			want: []string{"v[0].image.reference: Required value"}},
		{name: "validatePullPolicy: an image volume's pull policy is required",
			vols: []schema.Volume{{Name: "i", VolumeSource: schema.VolumeSource{Image: &schema.ImageVolumeSource{Reference: "x"}}}},
			want: []string{"v[0].image.pullPolicy: Required value"}},
		{name: "validateHostPathType: an unset type",
			vols: []schema.Volume{{Name: "h", VolumeSource: schema.VolumeSource{HostPath: &schema.HostPathVolumeSource{Path: "/x"}}}}, want: []string{}},
		{name: "validateProjectionSources: an old pod may keep a non-local token path",
			opts: podOptions{AllowNonLocalProjectedTokenPath: true},
			vols: []schema.Volume{{Name: "t", VolumeSource: schema.VolumeSource{Projected: &schema.ProjectedVolumeSource{Sources: []schema.VolumeProjection{
				{ServiceAccountToken: &schema.ServiceAccountTokenProjection{Path: "/abs", ExpirationSeconds: ptrTo[int64](3600)}},
			}}}}},
			want: []string{}},
		{name: "validateProjectionSources: a token with no expiration converts to 0 seconds",
			vols: []schema.Volume{{Name: "t", VolumeSource: schema.VolumeSource{Projected: &schema.ProjectedVolumeSource{Sources: []schema.VolumeProjection{
				{ServiceAccountToken: &schema.ServiceAccountTokenProjection{Path: "t"}},
			}}}}},
			want: []string{"v[0].projected.sources[0].serviceAccountToken.expirationSeconds: Invalid value"}},
		{name: "validateObjectFieldSelector: apiVersion required (defaulting sets v1)",
			vols: []schema.Volume{{Name: "d", VolumeSource: schema.VolumeSource{DownwardAPI: &schema.DownwardAPIVolumeSource{Items: []schema.DownwardAPIVolumeFile{
				{Path: "n", FieldRef: &schema.ObjectFieldSelector{FieldPath: "metadata.name"}},
			}}}}},
			want: []string{"v[0].downwardAPI.fieldRef.apiVersion: Required value"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, errs := validateVolumes(c.vols, c.meta, field.NewPath("v"), c.opts)
			if diff := cmp.Diff(c.want, problemList(errs)); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

// TestHasNonLocalProjectedTokenPath checks the update option's test on
// tokens with local and non-local paths.
func TestHasNonLocalProjectedTokenPath(t *testing.T) {
	spec := func(paths ...string) *schema.PodSpec {
		var srcs []schema.VolumeProjection
		for _, p := range paths {
			srcs = append(srcs, schema.VolumeProjection{ServiceAccountToken: &schema.ServiceAccountTokenProjection{Path: p}})
		}
		srcs = append(srcs, schema.VolumeProjection{Secret: &schema.SecretProjection{Items: []schema.KeyToPath{{Key: "k", Path: "/abs"}}}})
		return &schema.PodSpec{Volumes: []schema.Volume{{Name: "e", VolumeSource: schema.VolumeSource{EmptyDir: &schema.EmptyDirVolumeSource{}}},
			{Name: "p", VolumeSource: schema.VolumeSource{Projected: &schema.ProjectedVolumeSource{Sources: srcs}}}}}
	}
	for _, c := range []struct {
		paths []string
		want  bool
	}{{nil, false}, {[]string{"token"}, false}, {[]string{"token", "/abs"}, true}, {[]string{"..data"}, true}, {[]string{"a/../b"}, true}, {[]string{""}, false}} {
		if got := hasNonLocalProjectedTokenPath(spec(c.paths...)); got != c.want {
			t.Errorf("hasNonLocalProjectedTokenPath(%q) = %v, want %v", c.paths, got, c.want)
		}
	}
}

// TestValidateVolumesMap checks that the map holds the volumes with no
// problem, each pointing at its own source.
func TestValidateVolumesMap(t *testing.T) {
	vols := []schema.Volume{
		{Name: "a", VolumeSource: schema.VolumeSource{EmptyDir: &schema.EmptyDirVolumeSource{}}},
		{Name: "b", VolumeSource: schema.VolumeSource{HostPath: &schema.HostPathVolumeSource{}}},
		{Name: "b", VolumeSource: schema.VolumeSource{PersistentVolumeClaim: &schema.PersistentVolumeClaimVolumeSource{ClaimName: "c"}}},
		{Name: "a", VolumeSource: schema.VolumeSource{EmptyDir: &schema.EmptyDirVolumeSource{}}},
		{Name: "Bad", VolumeSource: schema.VolumeSource{EmptyDir: &schema.EmptyDirVolumeSource{}}},
	}
	got, errs := validateVolumes(vols, nil, field.NewPath("v"), podOptions{})
	want := []string{"v[1].hostPath.path: Required value", "v[3].name: Duplicate value", "v[4].name: Invalid value"}
	if diff := cmp.Diff(want, problemList(errs)); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
	if len(got) != 2 || got["a"] != &vols[0].VolumeSource || got["b"] != &vols[2].VolumeSource {
		t.Errorf("map = %v, want a: &vols[0], b: &vols[2]", got)
	}
}

// TestLocalPaths checks the path helpers on the values at their edges.
func TestLocalPaths(t *testing.T) {
	for _, c := range []struct {
		path                  string
		descending, nonReserv int // problems of validateLocalDescendingPath and validateLocalNonReservedPath
	}{
		{"a/b", 0, 0}, {"", 0, 0}, {"/a", 1, 1}, {"..", 1, 2}, {"../a", 1, 1}, {"a/..", 1, 1},
		{"..a", 0, 1}, {"...", 0, 1}, {"a/..b", 0, 0}, {"/..", 2, 2}, {".", 0, 0}, {`a\..\b`, 0, 0},
	} {
		p := field.NewPath("p")
		if n := len(validateLocalDescendingPath(c.path, p)); n != c.descending {
			t.Errorf("validateLocalDescendingPath(%q): %d problems, want %d", c.path, n, c.descending)
		}
		if n := len(validateLocalNonReservedPath(c.path, p)); n != c.nonReserv {
			t.Errorf("validateLocalNonReservedPath(%q): %d problems, want %d", c.path, n, c.nonReserv)
		}
	}
}

// TestObjectFieldSelectorForEnv checks the selector with the expressions
// the containers' env gives it (more pod fields than a volume file may
// project), and the resource selector without a container name.
func TestObjectFieldSelectorForEnv(t *testing.T) {
	env := []string{"metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName", "spec.serviceAccountName",
		"status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs"}
	p := field.NewPath("f")
	for path, want := range map[string][]string{
		"spec.host":              {}, // converts to spec.nodeName
		"spec.nodeName":          {},
		"metadata.labels":        {"f.fieldPath: Unsupported value"},
		"metadata.labels['a']":   {},
		"metadata.labels['-a']":  {"f: Invalid value"},
		"status.phase":           {"f.fieldPath: Unsupported value"},
		"spec.nodeName['x']":     {"f.fieldPath: Invalid value"},
		"metadata.annotations['": {"f.fieldPath: Invalid value"},
	} {
		got := problemList(validateObjectFieldSelector(&schema.ObjectFieldSelector{APIVersion: "v1", FieldPath: path}, env, p))
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", path, diff)
		}
	}
	sel := &schema.ResourceFieldSelector{Resource: "limits.memory", Divisor: schema.MustParseQuantity("1Mi")}
	if errs := validateContainerResourceFieldSelector(sel, validContainerResourceFieldPathExpressions(), validContainerResourceFieldPathPrefixesWithDownwardAPIHugePages(), p, false); len(errs) != 0 {
		t.Errorf("env resourceFieldRef without a container: %v", problemList(errs))
	}
}

// genVolume draws a volume from small pools: names that repeat, and
// sources that are valid or not.
func genVolume(t *rapid.T) schema.Volume {
	v := schema.Volume{Name: rapid.SampledFrom([]string{"a", "b", "c", "", "B"}).Draw(t, "name")}
	for _, k := range rapid.SliceOfN(rapid.IntRange(0, 4), 0, 3).Draw(t, "kinds") {
		switch k {
		case 0:
			v.EmptyDir = &schema.EmptyDirVolumeSource{}
		case 1:
			v.HostPath = &schema.HostPathVolumeSource{Path: rapid.SampledFrom([]string{"/x", "", "/a/.."}).Draw(t, "path")}
		case 2:
			v.Secret = &schema.SecretVolumeSource{SecretName: rapid.SampledFrom([]string{"s", ""}).Draw(t, "secret")}
		case 3:
			v.FlexVolume = &schema.FlexVolumeSource{Driver: "d", Options: map[string]string{"a": "1", "kubernetes.io/b": "2", "c.k8s.io": "3"}}
		case 4:
			v.PersistentVolumeClaim = &schema.PersistentVolumeClaimVolumeSource{ClaimName: "c"}
		}
	}
	return v
}

// TestValidateVolumesProperties checks validateVolumes's guarantees: the
// map holds exactly the volumes with no problem under their own index,
// each the first of its name; a volume with n > 1 sources has n-1 of them
// forbidden; the problems are the same on every call (no map order); and
// the volumes are not changed.
func TestValidateVolumesProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		vols := rapid.SliceOfN(rapid.Custom(genVolume), 0, 6).Draw(t, "volumes")
		before := slices.Clone(vols)
		p := field.NewPath("v")
		got, errs := validateVolumes(vols, nil, p, podOptions{})
		again, errs2 := validateVolumes(vols, nil, p, podOptions{})
		if diff := cmp.Diff(problemList(errs), problemList(errs2)); diff != "" || len(got) != len(again) {
			t.Fatalf("a second call differs:\n%s", diff)
		}
		if !slices.EqualFunc(before, vols, func(a, b schema.Volume) bool { return a.Name == b.Name && a.VolumeSource == b.VolumeSource }) {
			t.Fatalf("volumes changed")
		}
		want := map[string]*schema.VolumeSource{}
		for i := range vols {
			prefix := p.Index(i).String()
			bad := slices.ContainsFunc(errs, func(e *field.Error) bool {
				return e.Field == prefix || strings.HasPrefix(e.Field, prefix+".")
			})
			forbidden := 0
			for _, e := range errs {
				if strings.HasPrefix(e.Field, prefix+".") && e.Detail == "may not specify more than 1 volume type" {
					forbidden++
				}
			}
			if n := sourceCount(&vols[i].VolumeSource); n > 1 && forbidden != n-1 {
				t.Fatalf("volume %d has %d sources and %d forbidden", i, n, forbidden)
			}
			if _, dup := want[vols[i].Name]; !bad && !dup {
				want[vols[i].Name] = &vols[i].VolumeSource
			}
		}
		if len(got) != len(want) {
			t.Fatalf("map has %d volumes, want %d", len(got), len(want))
		}
		for k, v := range want {
			if got[k] != v {
				t.Fatalf("map[%q] is not the first volume of that name with no problem", k)
			}
		}
	})
}

// sourceCount is how many sources a volume has (of the kinds genVolume
// draws).
func sourceCount(s *schema.VolumeSource) int {
	n := 0
	for _, set := range []bool{s.EmptyDir != nil, s.HostPath != nil, s.Secret != nil, s.FlexVolume != nil, s.PersistentVolumeClaim != nil} {
		if set {
			n++
		}
	}
	return n
}
