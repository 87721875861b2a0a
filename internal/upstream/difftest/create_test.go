package difftest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"testing"
)

// compareCreate runs one Deployment manifest (JSON) both ways and reports
// any difference: in refusal, in the problems, or in what is stored.
func compareCreate(data []byte) error {
	real, _ := RealCreateDeployment(data)
	ours, _ := OursCreateDeployment(data)
	if real.Refused() != ours.Refused() {
		return fmt.Errorf("refused: real %v (%v %s), ours %v (%v %s)", real.Refused(), real.Problems, real.Decode, ours.Refused(), ours.Problems, ours.Decode)
	}
	if real.Decode != "" || ours.Decode != "" {
		return nil
	}
	if !slices.Equal(real.Problems, ours.Problems) {
		return fmt.Errorf("problems differ:\nreal %v\nours %v", real.Problems, ours.Problems)
	}
	if len(real.Problems) == 0 && !bytes.Equal(real.Stored, ours.Stored) {
		return fmt.Errorf("stored differ:\nreal %s\nours %s", real.Stored, ours.Stored)
	}
	return nil
}

func TestCreateSmoke(t *testing.T) {
	in := `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"replicas":3,"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"app","image":"nginx:1.9","env":[{"name":"A","value":""},{"name":"P","valueFrom":{"fieldRef":{"fieldPath":"metadata.name"}}}],"resources":{"requests":{"cpu":"0.5","memory":"1.5Gi"}},"ports":[{"containerPort":80}],"readinessProbe":{"httpGet":{"port":80}},"volumeMounts":[{"name":"cfg","mountPath":"/etc/cfg"}]}],"volumes":[{"name":"cfg","configMap":{"name":"cfg"}}]}}}}`
	if err := compareCreate([]byte(in)); err != nil {
		t.Fatal(err)
	}
}

// TestStoredRandomTemplates compares what is stored for random templates
// (defaults, conversions, storage's form), whether or not validation
// accepts them, and whether both sides refuse the same ones.
func TestStoredRandomTemplates(t *testing.T) {
	n := 3000
	if testing.Short() {
		n = 300
	}
	refusedBoth := 0
	for seed := range n {
		data, err := json.Marshal(randomDeployment(int64(seed)))
		if err != nil {
			t.Fatal(err)
		}
		real, _ := RealCreateDeployment(data)
		ours, _ := OursCreateDeployment(data)
		if real.Decode != "" || ours.Decode != "" {
			if (real.Decode == "") != (ours.Decode == "") {
				t.Fatalf("seed %d: decode: real %q, ours %q", seed, real.Decode, ours.Decode)
			}
			continue
		}
		if !bytes.Equal(real.Stored, ours.Stored) {
			t.Fatalf("seed %d: stored differ:\nreal %s\nours %s", seed, real.Stored, ours.Stored)
		}
		if real.Refused() != ours.Refused() {
			t.Errorf("seed %d: refused: real %v %v, ours %v %v", seed, real.Refused(), real.Problems, ours.Refused(), ours.Problems)
		}
		if real.Refused() {
			refusedBoth++
		}
	}
	t.Logf("%d random templates, %d refused", n, refusedBoth)
}
