package apiserver

import (
	"bytes"
	"encoding/json"
	"os"
	"path"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutmath/rolloutmath/hash"
	"github.com/rolloutmath/rolloutmath/internal/field"
	"github.com/rolloutmath/rolloutmath/internal/kubeversion"
	"github.com/rolloutmath/rolloutmath/internal/schema"
	"github.com/rolloutmath/rolloutmath/internal/vectors"
)

// canonical re-encodes JSON with sorted keys and no null members.
func canonical(t *testing.T, b []byte) []byte {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	out, _ := json.Marshal(dropNulls(v))
	return out
}

func dropNulls(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			if e == nil {
				delete(v, k)
			} else {
				v[k] = dropNulls(e)
			}
		}
	case []any:
		for i := range v {
			v[i] = dropNulls(v[i])
		}
	}
	return v
}

// TestVectors replays what the real API server stores and refuses for the
// project's manifests and for random templates, and the real controller's
// pod-template-hash of what it stores, without Kubernetes' code.
func TestVectors(t *testing.T) {
	vs := vectors.Load(t, "../..")
	if len(vs) < 140 {
		t.Fatalf("%d vectors, want the project's manifests and 120 random ones", len(vs))
	}
	for _, v := range vs {
		t.Run(v.Name, func(t *testing.T) {
			d, res := schema.DecodeDeployment(v.Input, schema.DecodeOptions{Version: kubeversion.V1_36}) // the vectors are v1.36.3's
			var got []vectors.Problem
			decodeErr := false
			for _, e := range res.Errs {
				if e.Type == field.Unknown || e.Type == field.DuplicateKey {
					got = append(got, vectors.Problem{Type: string(e.Type), Field: e.Field})
				} else {
					decodeErr = true
				}
			}
			if decodeErr || v.Decode {
				if decodeErr != v.Decode {
					t.Fatalf("decode error: ours %v (%v), upstream %v", decodeErr, res.Errs, v.Decode)
				}
				return
			}
			if len(res.Errs) == 0 {
				if d.Namespace == "" {
					d.Namespace = "default"
				}
				for _, e := range CreateDeployment(d, v136) {
					got = append(got, vectors.Problem{Type: string(e.Type), Field: e.Field})
				}
			}
			key := func(p vectors.Problem) string { return p.Field + " " + p.Type }
			slices.SortFunc(got, func(a, b vectors.Problem) int { return strings.Compare(key(a), key(b)) })
			want := slices.Clone(v.Problems)
			slices.SortFunc(want, func(a, b vectors.Problem) int { return strings.Compare(key(a), key(b)) })
			if !slices.Equal(got, want) {
				t.Errorf("problems:\n ours     %v\n upstream %v", got, want)
			}
			if v.Stored == nil || len(res.Errs) > 0 {
				return
			}
			if ours := canonical(t, schema.AppendDeployment(nil, d, schema.Stored)); !bytes.Equal(ours, canonical(t, v.Stored)) {
				t.Errorf("stored:\n ours     %s\n upstream %s", ours, v.Stored)
			}
			for cc, want := range v.Hash {
				h := schema.SpewPodTemplateSpec(hash.NewFNV32a(), &d.Spec.Template, kubeversion.V1_36)
				if cc != "nil" {
					n, _ := strconv.Atoi(cc)
					h = h.WriteCollisionCount(int32(n))
				}
				if got := hash.Encode(uint32(h)); got != want {
					t.Errorf("hash at collision count %s: ours %s, upstream %s", cc, got, want)
				}
			}
		})
	}
}

// TestVersionVectors replays, for each supported minor, what that minor's
// real create path stores and refuses, with its messages, for the
// project's manifests and those of the rules that differ between minors
// (testdata/apiserver/versions), these also with the gates whose default
// differs between minors set against their default, and the updates of
// testdata/apiserver/version-updates, written by internal/upstream's vectorgen
// built with that minor's module file. Strict decoding follows the
// minor's schema, and the pod-template-hash of what is stored is the
// minor's.
//
// ROLLOUTMATH_EXTRA_VECTORS adds files that vectorgen wrote for other
// manifests (vectorgen DIR OUT): a comma-separated list of MINOR=FILE, as
// 1.35=/tmp/accepted-1.35.json.gz.
func TestVersionVectors(t *testing.T) {
	type file struct {
		minor kubeversion.Version
		path  string
		min   int // the fewest vectors the file must hold
	}
	var files []file
	for _, minor := range kubeversion.Supported() {
		files = append(files, file{minor, "../../" + vectors.VersionFile(minor), 40})
	}
	if extra := os.Getenv("ROLLOUTMATH_EXTRA_VECTORS"); extra != "" {
		for _, e := range strings.Split(extra, ",") {
			m, p, ok := strings.Cut(e, "=")
			minor, err := kubeversion.Parse(m)
			if !ok || err != nil || m == "" {
				t.Fatalf("ROLLOUTMATH_EXTRA_VECTORS: %q is not MINOR=FILE (%v)", e, err)
			}
			files = append(files, file{minor, p, 1})
		}
	}
	for _, f := range files {
		minor := f.minor
		vs, err := vectors.ReadFile(f.path)
		if err != nil {
			t.Fatal(err)
		}
		if len(vs) < f.min {
			t.Fatalf("%s: %d vectors, want at least %d", f.path, len(vs), f.min)
		}
		for _, v := range vs {
			t.Run(minor.String()+"/"+path.Base(f.path)+"/"+v.Name, func(t *testing.T) {
				d, res := schema.DecodeDeployment(v.Input, schema.DecodeOptions{Version: minor})
				if len(res.Errs) > 0 || v.Decode {
					// Strict decoding follows the minor's schema: a field
					// another minor added is unknown here, at the same path.
					if len(res.Errs) == 0 || !v.Decode && len(v.Problems) == 0 {
						t.Fatalf("decoding: ours %v, upstream decode error %v, problems %v", res.Errs, v.Decode, v.Problems)
					}
					if v.Decode {
						return
					}
					var got []vectors.Problem
					for _, e := range res.Errs {
						got = append(got, vectors.Problem{Type: string(e.Type), Field: e.Field})
					}
					key := func(p vectors.Problem) string { return p.Field + " " + p.Type }
					slices.SortFunc(got, func(a, b vectors.Problem) int { return strings.Compare(key(a), key(b)) })
					want := slices.Clone(v.Problems)
					slices.SortFunc(want, func(a, b vectors.Problem) int { return strings.Compare(key(a), key(b)) })
					if diff := cmp.Diff(want, got); diff != "" {
						t.Errorf("strict decoding mismatch (-upstream +ours):\n%s", diff)
					}
					return
				}
				if d.Namespace == "" {
					d.Namespace = "default"
				}
				g := vectorGates(t, minor, v.Gates)
				errs := CreateDeployment
				if v.Old != nil { // an update of the object upstream stored
					o, res := schema.DecodeDeployment(v.Old, schema.DecodeOptions{})
					if len(res.Errs) > 0 {
						t.Fatal(res.Errs)
					}
					if errs := ReadDeployment(o, g); errs != nil {
						t.Fatal(errs)
					}
					errs = func(d *schema.Deployment, g FeatureGates) field.ErrorList { return UpdateDeployment(o, d, g) }
				}
				var got []string
				for _, e := range errs(d, g) {
					got = append(got, e.Error())
				}
				slices.Sort(got)
				if diff := cmp.Diff(v.Messages, got); diff != "" {
					t.Errorf("CreateDeployment() messages mismatch (-upstream +ours):\n%s", diff)
				}
				if v.Stored == nil {
					return
				}
				if ours := canonical(t, schema.AppendDeployment(nil, d, schema.Stored)); !bytes.Equal(ours, canonical(t, v.Stored)) {
					t.Errorf("stored:\n ours     %s\n upstream %s", ours, v.Stored)
				}
				// The ReplicaSet name: the minor's controller.ComputeHash
				// of the template it stored.
				for cc, want := range v.Hash {
					h := schema.SpewPodTemplateSpec(hash.NewFNV32a(), &d.Spec.Template, minor)
					if cc != "nil" {
						n, _ := strconv.Atoi(cc)
						h = h.WriteCollisionCount(int32(n))
					}
					if got := hash.Encode(uint32(h)); got != want {
						t.Errorf("hash at collision count %s: ours %s, upstream %s", cc, got, want)
					}
				}
			})
		}
	}
}

// vectorGates is a v-minor server with the gates of a vector set as it
// records them (upstream's names).
func vectorGates(t *testing.T, v kubeversion.Version, gates map[string]bool) FeatureGates {
	g := FeatureGates{Version: v}
	fields := map[string]*Gate{
		"ClusterTrustBundleProjection":         &g.ClusterTrustBundleProjection,
		"PodCertificateRequest":                &g.PodCertificateRequest,
		"SELinuxMount":                         &g.SELinuxMount,
		"RestartAllContainersOnContainerExits": &g.RestartAllContainersOnContainerExits,
		"StrictIPCIDRValidation":               &g.StrictIPCIDRValidation,
		"GenericWorkload":                      &g.GenericWorkload,
		"EvictionRequestAPI":                   &g.EvictionRequestAPI,
		"VolumeBindMountOptions":               &g.VolumeBindMountOptions,
		"H2CContainerProbe":                    &g.H2CContainerProbe,
		"GRPCContainerProbeTLS":                &g.GRPCContainerProbeTLS,
		"EmptyDirVolumeMode":                   &g.EmptyDirVolumeMode,
		"AtomicWriteVolumeUserFields":          &g.AtomicWriteVolumeUserFields,
	}
	for name, on := range gates {
		f, ok := fields[name]
		if !ok {
			t.Fatalf("a vector sets gate %s, which FeatureGates does not have", name)
		}
		*f = GateOff
		if on {
			*f = GateOn
		}
	}
	return g
}
