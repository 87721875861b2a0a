package strategicpatch

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"
)

// lastApplied returns the last-applied annotation of a document.
func lastApplied(t *testing.T, doc []byte) string {
	t.Helper()
	var d struct {
		Metadata struct {
			Annotations map[string]string `json:"annotations"`
		} `json:"metadata"`
	}
	if err := json.Unmarshal(doc, &d); err != nil {
		t.Fatal(err)
	}
	return d.Metadata.Annotations[LastAppliedAnnotation]
}

// TestModifiedConfiguration checks kubectl's modified configuration byte
// for byte (the annotation becomes part of the stored object): the
// annotation's value is the manifest without it, with "annotations":{}
// when there are no others, the namespace kubectl defaults, escapes as
// encoding/json writes them and a final newline.
func TestModifiedConfiguration(t *testing.T) {
	cases := []struct {
		name, manifest, namespace, wantAnnotation string
	}{{
		name:           "a bare manifest",
		manifest:       `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"replicas":2}}`,
		namespace:      "default",
		wantAnnotation: `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"annotations":{},"name":"web","namespace":"default"},"spec":{"replicas":2}}` + "\n",
	}, {
		name:           "a stale last-applied annotation in the manifest is replaced; others stay",
		manifest:       `{"metadata":{"name":"web","namespace":"prod","annotations":{"owner":"a","kubectl.kubernetes.io/last-applied-configuration":"old"}}}`,
		namespace:      "default",
		wantAnnotation: `{"metadata":{"annotations":{"owner":"a"},"name":"web","namespace":"prod"}}` + "\n",
	}, {
		name:           "HTML characters are escaped",
		manifest:       `{"metadata":{"name":"web","annotations":{"note":"<a&b>"}}}`,
		wantAnnotation: `{"metadata":{"annotations":{"note":"\u003ca\u0026b\u003e"},"name":"web"}}` + "\n",
	}, {
		name:           "a null annotation becomes empty",
		manifest:       `{"metadata":{"annotations":{"note":null}}}`,
		wantAnnotation: `{"metadata":{"annotations":{"note":""}}}` + "\n",
	}, {
		name:           "annotations that are not all strings are dropped",
		manifest:       `{"metadata":{"annotations":{"note":"x","n":1}}}`,
		wantAnnotation: `{"metadata":{"annotations":{}}}` + "\n",
	}, {
		name:           "numbers are written as upstream writes them",
		manifest:       `{"spec":{"replicas":2.0,"minReadySeconds":1e1}}`,
		wantAnnotation: `{"metadata":{"annotations":{}},"spec":{"minReadySeconds":10,"replicas":2}}` + "\n",
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := ModifiedConfiguration([]byte(c.manifest), c.namespace)
			if err != nil {
				t.Fatal(err)
			}
			if a := lastApplied(t, got); a != c.wantAnnotation {
				t.Errorf("annotation\n%q\nwant\n%q", a, c.wantAnnotation)
			}
			// The document is the annotation's value with the annotation
			// added, and ends with a newline.
			inner := []byte(c.wantAnnotation)
			var m map[string]any
			if err := json.Unmarshal(inner, &m); err != nil {
				t.Fatal(err)
			}
			m["metadata"].(map[string]any)["annotations"].(map[string]any)[LastAppliedAnnotation] = c.wantAnnotation
			want, _ := json.Marshal(m)
			if !bytes.Equal(got, append(want, '\n')) {
				t.Errorf("modified\n%s\nwant\n%s", got, want)
			}
		})
	}
}

// TestModifiedConfigurationErrors checks that a manifest that is not a
// JSON object is refused.
func TestModifiedConfigurationErrors(t *testing.T) {
	for _, m := range []string{``, `null`, `[]`, `{"a":`, `{} {}`} {
		if _, err := ModifiedConfiguration([]byte(m), "default"); !errors.Is(err, ErrBadJSONDoc) {
			t.Errorf("%q: error %v, want ErrBadJSONDoc", m, err)
		}
	}
}

// TestOriginalConfiguration checks kubectl's reading of the last-applied
// annotation.
func TestOriginalConfiguration(t *testing.T) {
	cases := []struct {
		name, live string
		want       []byte
	}{
		{"present", `{"metadata":{"annotations":{"kubectl.kubernetes.io/last-applied-configuration":"{}\n"}}}`, []byte("{}\n")},
		{"absent", `{"metadata":{"annotations":{"a":"b"}}}`, nil},
		{"no annotations", `{"metadata":{}}`, nil},
		{"null: empty", `{"metadata":{"annotations":{"kubectl.kubernetes.io/last-applied-configuration":null}}}`, []byte{}},
		{"annotations not all strings: none", `{"metadata":{"annotations":{"kubectl.kubernetes.io/last-applied-configuration":"{}","n":1}}}`, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := OriginalConfiguration([]byte(c.live))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, c.want) || (got == nil) != (c.want == nil) {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

// TestCreatedObject checks the object kubectl apply creates: the manifest
// with its last-applied annotation (the same value an update would
// store) and without null members.
func TestCreatedObject(t *testing.T) {
	manifest := []byte(`{"kind":"Deployment","metadata":{"name":"web","labels":null},"spec":{"replicas":null,"template":{"spec":{"containers":[{"name":"app","args":[null]}]}}}}`)
	got, err := CreatedObject(manifest, "default")
	if err != nil {
		t.Fatal(err)
	}
	modified, err := ModifiedConfiguration(manifest, "default")
	if err != nil {
		t.Fatal(err)
	}
	if a, b := lastApplied(t, got), lastApplied(t, modified); a != b {
		t.Errorf("annotation %q, an update would store %q", a, b)
	}
	want := `{"kind":"Deployment","metadata":{"annotations":{"kubectl.kubernetes.io/last-applied-configuration":` +
		`"{\"kind\":\"Deployment\",\"metadata\":{\"annotations\":{},\"labels\":null,\"name\":\"web\",\"namespace\":\"default\"},` +
		`\"spec\":{\"replicas\":null,\"template\":{\"spec\":{\"containers\":[{\"args\":[null],\"name\":\"app\"}]}}}}\n"},` +
		`"name":"web","namespace":"default"},"spec":{"template":{"spec":{"containers":[{"args":[null],"name":"app"}]}}}}`
	if string(got) != want {
		t.Errorf("created\n%s\nwant\n%s", got, want)
	}
}

// TestApply checks kubectl apply end to end on the HPA pitfall: a
// manifest that drops replicas, last applied with replicas, deletes the
// count the autoscaler set; the same manifest applied again sends no
// patch.
func TestApply(t *testing.T) {
	s := deploymentSchema(t)
	first := []byte(`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"replicas":3}}`)
	created, err := CreatedObject(first, "default")
	if err != nil {
		t.Fatal(err)
	}
	live, err := StrategicMergePatch(created, []byte(`{"spec":{"replicas":7}}`), s) // the autoscaler
	if err != nil {
		t.Fatal(err)
	}
	manifest := []byte(`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{}}`)
	got, err := Apply(live, manifest, "default", s, true)
	if err != nil {
		t.Fatal(err)
	}
	var patch struct{ Spec map[string]any }
	if err := json.Unmarshal(got.Patch, &patch); err != nil {
		t.Fatal(err)
	}
	if v, ok := patch.Spec["replicas"]; !ok || v != nil {
		t.Errorf("patch %s does not delete replicas", got.Patch)
	}
	if bytes.Contains(got.Object, []byte(`"replicas"`)) {
		t.Errorf("applied object still has replicas: %s", got.Object)
	}
	again, err := Apply(got.Object, manifest, "default", s, true)
	if err != nil {
		t.Fatal(err)
	}
	if string(again.Patch) != "{}" || !bytes.Equal(again.Object, got.Object) {
		t.Errorf("a second apply sends %s and gives %s", again.Patch, again.Object)
	}
}
