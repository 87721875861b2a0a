package apiserver

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"

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
				for _, e := range CreateDeployment(d, FeatureGates{}) {
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
