package apiserver_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rolloutmath/rolloutmath/internal/apiserver"
)

func TestDecodeNode(t *testing.T) {
	good := `{"apiVersion":"v1","kind":"Node","metadata":{"name":"n1","labels":{"kubernetes.io/hostname":"n1"}},
		"spec":{"unschedulable":true,"taints":[{"key":"k","value":"v","effect":"NoSchedule"}]},
		"status":{"allocatable":{"cpu":"4","memory":"16Gi","pods":"110"}}}`
	n, res := apiserver.DecodeNode([]byte(good), apiserver.SequenceOptions{})
	if len(res.Errs) > 0 {
		t.Fatalf("DecodeNode(good) errors: %v", res.Errs)
	}
	if n.Name != "n1" || n.Namespace != "" || !n.Spec.Unschedulable || len(n.Spec.Taints) != 1 {
		t.Errorf("DecodeNode(good) = %+v", n)
	}
	if cpu, _ := n.Status.Allocatable.Get("cpu"); cpu.String() != "4" {
		t.Errorf("allocatable cpu = %s, want 4", cpu.String())
	}
	for _, tc := range []struct{ name, doc, want string }{
		{"unknown field", `{"apiVersion":"v1","kind":"Node","metadata":{"name":"n1"},"spec":{"unschedulabel":true}}`, "unschedulabel"},
		{"wrong kind", `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"n1"}}`, "Node"},
		{"wrong version", `{"apiVersion":"apps/v1","kind":"Node","metadata":{"name":"n1"}}`, "apiVersion"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, res := apiserver.DecodeNode([]byte(tc.doc), apiserver.SequenceOptions{})
			if len(res.Errs) == 0 || !strings.Contains(fmt.Sprint(res.Errs), tc.want) {
				t.Errorf("DecodeNode errors = %v, want one naming %q", res.Errs, tc.want)
			}
		})
	}
}

func TestDecodePersistentVolumeClaim(t *testing.T) {
	good := `{"apiVersion":"v1","kind":"PersistentVolumeClaim","metadata":{"name":"data","namespace":"shop"},
		"spec":{"accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"1Gi"}}}}`
	c, res := apiserver.DecodePersistentVolumeClaim([]byte(good), apiserver.SequenceOptions{})
	if len(res.Errs) > 0 {
		t.Fatalf("DecodePersistentVolumeClaim(good) errors: %v", res.Errs)
	}
	if c.Namespace != "shop" || len(c.Spec.AccessModes) != 1 || c.Spec.AccessModes[0] != "ReadWriteOnce" {
		t.Errorf("DecodePersistentVolumeClaim(good) = %+v", c)
	}
	_, res = apiserver.DecodePersistentVolumeClaim([]byte(`{"apiVersion":"v1","kind":"PersistentVolumeClaim","metadata":{"name":"d"},"spec":{"accesModes":[]}}`), apiserver.SequenceOptions{})
	if len(res.Errs) == 0 || !strings.Contains(fmt.Sprint(res.Errs), "accesModes") {
		t.Errorf("unknown field: errors = %v, want one naming accesModes", res.Errs)
	}
}
