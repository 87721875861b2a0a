package schema

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rolloutmath/rolloutmath/hash"
	"github.com/rolloutmath/rolloutmath/internal/kubeversion"
)

// hashVector is a record of testdata/hash/v1.N.jsonl.gz, which
// internal/upstream/cmd/hashvectors writes with each minor's real
// controller.ComputeHash (see package internal/upstream/hashdiff).
type hashVector struct {
	Name     string
	Template json.RawMessage
	Hash     map[string]string
}

func loadHashVectors(t *testing.T, v kubeversion.Version) []hashVector {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", "testdata", "hash", "v"+v.String()+".jsonl.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var out []hashVector
	sc := bufio.NewScanner(zr)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var hv hashVector
		if err := json.Unmarshal(sc.Bytes(), &hv); err != nil {
			t.Fatal(err)
		}
		out = append(out, hv)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestHashOfEveryMinor replays the real pod-template-hash of every
// supported minor (v1.35.4, v1.36.3, v1.37.2) on the project's manifests,
// as written and defaulted, and on random templates that set fields of
// every kind: each template, written by that minor's types, decodes
// strictly as that minor and hashes, at each collision count, to what
// the minor's controller.ComputeHash gives.
func TestHashOfEveryMinor(t *testing.T) {
	for _, v := range kubeversion.Supported() {
		t.Run(v.String(), func(t *testing.T) {
			vs := loadHashVectors(t, v)
			if len(vs) < 150 {
				t.Fatalf("only %d vectors", len(vs))
			}
			for _, hv := range vs {
				x, res := DecodePodTemplateSpec(hv.Template, DecodeOptions{Version: v})
				if len(res.Errs) > 0 {
					t.Errorf("%s: %v", hv.Name, res.Errs)
					continue
				}
				for cc, want := range hv.Hash {
					h := SpewPodTemplateSpec(hash.NewFNV32a(), x, v)
					if cc != "nil" {
						var n int32
						if err := json.Unmarshal([]byte(cc), &n); err != nil {
							t.Fatal(err)
						}
						h = h.WriteCollisionCount(n)
					}
					if got := hash.Encode(uint32(h)); got != want {
						t.Errorf("%s, collision count %s: %s, upstream's %s", hv.Name, cc, got, want)
					}
				}
			}
		})
	}
}

// TestEveryMinorHashesApart: the minors' renderings of one template
// differ (each prints the fields of its own types), and Latest renders as
// the newest minor.
func TestEveryMinorHashesApart(t *testing.T) {
	x := decodeTemplate(t, `{"spec":{"containers":[{"name":"nginx","image":"nginx"}]}}`)
	seen := map[hash.FNV32a]kubeversion.Version{}
	for _, v := range kubeversion.Supported() {
		h := SpewPodTemplateSpec(hash.NewFNV32a(), x, v)
		if prev, ok := seen[h]; ok {
			t.Errorf("%s and %s hash alike", prev, v)
		}
		seen[h] = v
	}
	if SpewPodTemplateSpec(hash.NewFNV32a(), x, kubeversion.Latest) != SpewPodTemplateSpec(hash.NewFNV32a(), x, kubeversion.Newest) {
		t.Error("Latest does not hash as the newest minor")
	}
}

// TestDecodeRefusesOtherMinorsFields: a field that only some minors have
// is an unknown field, named as any other, for the others; the minors
// that have it read it. Upstream: the strict decoder of each minor's API
// server (issue 24: evictionResponders is 1.37's, workloadRef 1.35's).
func TestDecodeRefusesOtherMinorsFields(t *testing.T) {
	tests := []struct {
		name  string
		doc   string
		path  string // the unknown field's path
		have  []kubeversion.Version
		every bool
	}{
		{"PodSpec.evictionResponders", `{"spec":{"evictionResponders":[{"name":"r"}]}}`, "spec.evictionResponders", []kubeversion.Version{kubeversion.V1_37}, false},
		{"PodSpec.workloadRef", `{"spec":{"workloadRef":{"name":"w","podGroup":"g"}}}`, "spec.workloadRef", []kubeversion.Version{kubeversion.V1_35}, false},
		{"PodSpec.schedulingGroup", `{"spec":{"schedulingGroup":{"podGroupName":"g"}}}`, "spec.schedulingGroup", []kubeversion.Version{kubeversion.V1_36, kubeversion.V1_37}, false},
		{"VolumeMount.bindMountOptions", `{"spec":{"containers":[{"name":"a","volumeMounts":[{"name":"v","mountPath":"/m","bindMountOptions":["x"]}]}]}}`, "spec.containers[0].volumeMounts[0].bindMountOptions", []kubeversion.Version{kubeversion.V1_37}, false},
		// A member of an inline field (ProbeHandler in Probe).
		{"HTTPGetAction.protocol", `{"spec":{"containers":[{"name":"a","livenessProbe":{"httpGet":{"port":1,"protocol":"HTTP"}}}]}}`, "spec.containers[0].livenessProbe.httpGet.protocol", []kubeversion.Version{kubeversion.V1_37}, false},
		// Indented JSON takes the matchers' slow path (readKeyIn).
		{"indented evictionResponders", "{\n  \"spec\": {\n    \"evictionResponders\" : []\n  }\n}", "spec.evictionResponders", []kubeversion.Version{kubeversion.V1_37}, false},
		{"escaped key", `{"spec":{"eviction\u0052esponders":[]}}`, "spec.evictionResponders", []kubeversion.Version{kubeversion.V1_37}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, v := range append(kubeversion.Supported(), kubeversion.Latest) {
				_, res := DecodePodTemplateSpec([]byte(tt.doc), DecodeOptions{Version: v})
				want := false
				for _, h := range tt.have {
					want = want || h == v.Resolve()
				}
				if want {
					if len(res.Errs) > 0 {
						t.Errorf("%s refuses it: %v", v, res.Errs)
					}
					continue
				}
				if len(res.Errs) != 1 || res.Errs[0].Field != tt.path || !strings.Contains(res.Errs[0].Error(), "unknown field") {
					t.Errorf("%s: errors %v, want one unknown field %s", v, res.Errs, tt.path)
				}
				if _, res := DecodePodTemplateSpec([]byte(tt.doc), DecodeOptions{Version: v, EveryMinor: true}); len(res.Errs) > 0 {
					t.Errorf("%s with EveryMinor refuses it: %v", v, res.Errs)
				}
				if _, res := DecodePodTemplateSpec([]byte(tt.doc), DecodeOptions{Version: v, Lenient: true}); len(res.Errs) > 0 || len(res.Warnings) != 1 {
					t.Errorf("%s, lenient: errors %v, warnings %v; want one warning", v, res.Errs, res.Warnings)
				}
			}
		})
	}
}

// TestDidYouMeanOnlyOffersTheMinorsFields: the hint for a field in
// another case names only fields that the minor has.
func TestDidYouMeanOnlyOffersTheMinorsFields(t *testing.T) {
	doc := `{"spec":{"EvictionResponders":[]}}`
	_, res := DecodePodTemplateSpec([]byte(doc), DecodeOptions{Version: kubeversion.V1_37})
	if len(res.Errs) != 1 || !strings.Contains(res.Errs[0].Error(), `did you mean "evictionResponders"`) {
		t.Errorf("1.37: %v", res.Errs)
	}
	_, res = DecodePodTemplateSpec([]byte(doc), DecodeOptions{Version: kubeversion.V1_36})
	if len(res.Errs) != 1 || strings.Contains(res.Errs[0].Error(), "did you mean") {
		t.Errorf("1.36: %v", res.Errs)
	}
}

// TestGatesIn: the feature gates of a field are those of its markers in
// the minor asked for (issue 24: evictionResponders is EvictionRequestAPI's
// in 1.37; the image volume source is ImageVolume's in 1.35 only, GA
// since).
func TestGatesIn(t *testing.T) {
	member := func(s int, name string) FieldInfo {
		f, ok := Structs[s].Member(name)
		if !ok {
			t.Fatalf("%s has no %s", Structs[s].Name, name)
		}
		return f
	}
	tests := []struct {
		name string
		f    FieldInfo
		v    kubeversion.Version
		want []string
	}{
		{"evictionResponders in 1.37", member(IndexPodSpec, "evictionResponders"), kubeversion.V1_37, []string{"EvictionRequestAPI"}},
		{"evictionResponders in 1.36, which lacks it", member(IndexPodSpec, "evictionResponders"), kubeversion.V1_36, nil},
		{"evictionResponders in Latest", member(IndexPodSpec, "evictionResponders"), kubeversion.Latest, []string{"EvictionRequestAPI"}},
		{"image volume in 1.35", member(IndexVolumeSource, "image"), kubeversion.V1_35, []string{"ImageVolume"}},
		{"image volume in 1.36", member(IndexVolumeSource, "image"), kubeversion.V1_36, nil},
		{"containers", member(IndexPodSpec, "containers"), kubeversion.V1_36, nil},
	}
	for _, tt := range tests {
		if got := tt.f.GatesIn(tt.v); !slices.Equal(got, tt.want) {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestMinorsHoldEveryMinor: a Minors set has a bit for every supported
// minor (bit v for Version v, Latest's bit unused), AllMinors is exactly
// the supported ones, and MinorsOf resolves Latest and refuses what is not
// Valid.
func TestMinorsHoldEveryMinor(t *testing.T) {
	var all Minors
	for _, v := range kubeversion.Supported() {
		m := MinorsOf(v)
		if m == 0 || m&all != 0 {
			t.Fatalf("%s: bit %08b, the others %08b", v, m, all)
		}
		all |= m
	}
	if all != AllMinors {
		t.Errorf("AllMinors = %08b, the supported minors %08b", AllMinors, all)
	}
	if MinorsOf(kubeversion.Latest) != MinorsOf(kubeversion.Newest) {
		t.Error("MinorsOf(Latest) is not the newest minor's")
	}
	if MinorsOf(kubeversion.Version(200)) != 0 {
		t.Error("MinorsOf of an invalid Version is not empty")
	}
}
