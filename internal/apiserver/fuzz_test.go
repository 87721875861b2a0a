package apiserver

import (
	"bytes"
	"strconv"
	"testing"

	"github.com/rolloutmath/rolloutmath/internal/schema"
)

// FuzzCreateDeployment: decoding and creating any input never panics, and
// what is stored is a fixed point: reading it back, or creating it again,
// stores the same bytes. An object of another apiVersion or kind is
// refused before anything is done to it, and so is not stored at all;
// so is one whose rollback annotation is not a number, which the server
// cannot convert (CreateDeployment must refuse it).
func FuzzCreateDeployment(f *testing.F) {
	for _, s := range []string{
		`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"app","image":"nginx"}]}}}}`,
		`{"spec":{"replicas":3,"strategy":{"type":"Recreate"},"template":{"spec":{"containers":[{"name":"a","image":"x:latest","resources":{"limits":{"cpu":0.5,"memory":"1.5Gi"}},"readinessProbe":{"httpGet":{"port":"http"}},"env":[{"name":"A","valueFrom":{"fieldRef":{"fieldPath":"metadata.name"}}}]}],"volumes":[{"name":"v"},{"name":"c","configMap":{"name":"c"}},{"name":"p","projected":{"sources":[{"serviceAccountToken":{"path":"t"}}]}}]}}}}`,
		`{"metadata":{"annotations":{"deprecated.deployment.rollback.to":"007"}},"spec":{"template":{"spec":{"serviceAccount":"sa","initContainers":[{"name":"i","image":"<REGISTRY>/x:latest"}]}}}}`,
		`{}`, `null`, `[]`, `{"spec":{"replicas":"3"}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d, res := schema.DecodeDeployment(data, schema.DecodeOptions{})
		if len(res.Errs) > 0 {
			return
		}
		if d.Namespace == "" {
			d.Namespace = "default"
		}
		if checkTypeMeta(d.TypeMeta, "apps/v1", "Deployment") != nil {
			return
		}
		if v := d.Annotations[rollbackToAnnotation]; v != "" {
			if _, err := strconv.ParseInt(v, 10, 64); err != nil {
				// The server cannot convert it: CreateDeployment refuses
				// it before it has a stored form, and nothing is stored.
				if errs := CreateDeployment(d, v136); len(errs) == 0 {
					t.Fatalf("a rollback annotation %q is created", v)
				}
				return
			}
		}
		CreateDeployment(d, v136)
		stored := schema.AppendDeployment(nil, d, schema.Stored)
		back, res := schema.DecodeDeployment(stored, schema.DecodeOptions{})
		if len(res.Errs) > 0 {
			t.Fatalf("the stored form does not decode: %v\n%s", res.Errs, stored)
		}
		if errs := ReadDeployment(back, v136); len(errs) > 0 {
			t.Fatalf("the stored form does not read: %v", errs)
		}
		if again := schema.AppendDeployment(nil, back, schema.Stored); !bytes.Equal(again, stored) {
			t.Fatalf("reading the stored form changes it:\n%s\n%s", stored, again)
		}
	})
}
