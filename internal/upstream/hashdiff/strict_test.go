package hashdiff

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	sigsjson "sigs.k8s.io/json"

	"github.com/rolloutmath/rolloutmath/internal/field"
	"github.com/rolloutmath/rolloutmath/internal/kubeversion"
	"github.com/rolloutmath/rolloutmath/internal/schema"
)

// TestStrictDecodingOfOtherMinorsTemplates reads the templates of the
// other minors' vectors (written by their types, so holding their fields)
// with this build's strict decoder, as its API server does
// (sigs.k8s.io/json, unknown fields disallowed), and with ours for this
// minor: both find the same unknown fields, at the same paths.
func TestStrictDecodingOfOtherMinorsTemplates(t *testing.T) {
	v := minor(t)
	compared, refused := 0, 0
	for _, other := range kubeversion.Supported() {
		if other == v {
			continue
		}
		for _, vec := range readVectors(t, other) {
			var up corev1.PodTemplateSpec
			strict, err := sigsjson.UnmarshalStrict(vec.Template, &up, sigsjson.DisallowUnknownFields)
			if err != nil {
				t.Fatalf("%s of %s: %v", vec.Name, other, err)
			}
			var want []string
			for _, e := range strict {
				msg := e.Error()
				if p, ok := strings.CutPrefix(msg, `unknown field "`); ok {
					want = append(want, strings.TrimSuffix(p, `"`))
				} else {
					t.Fatalf("%s of %s: upstream's strict error %q", vec.Name, other, msg)
				}
			}
			_, res := schema.DecodePodTemplateSpec(vec.Template, schema.DecodeOptions{Version: v})
			var got []string
			for _, e := range res.Errs {
				if e.Type != field.Unknown {
					t.Fatalf("%s of %s: %v", vec.Name, other, e)
				}
				got = append(got, e.Field)
			}
			slices.Sort(want)
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Errorf("%s of %s read as %s: unknown fields %v, upstream's %v", vec.Name, other, v, got, want)
			}
			compared++
			if len(want) > 0 {
				refused++
			}
		}
	}
	if refused < 40 { // 1.37 lacks only 1.35's workloadRef: 44 templates
		t.Errorf("only %d of %d templates hold fields of another minor", refused, compared)
	}
	t.Logf("Kubernetes %s: %d templates of the other minors, %d with fields it lacks", v, compared, refused)
}

// readVectors reads the main module's hash vectors of minor v.
func readVectors(t *testing.T, v kubeversion.Version) []Vector {
	t.Helper()
	f, err := os.Open(filepath.Join(root, File(v)))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var out []Vector
	sc := bufio.NewScanner(zr)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var vec Vector
		if err := json.Unmarshal(sc.Bytes(), &vec); err != nil {
			t.Fatal(err)
		}
		out = append(out, vec)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
