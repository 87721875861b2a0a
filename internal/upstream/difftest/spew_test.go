package difftest

import (
	"encoding/json"
	"os"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/kubernetes/pkg/capabilities"
	"k8s.io/utils/dump"

	"github.com/rolloutmath/rolloutmath/internal/kubeversion"
	"github.com/rolloutmath/rolloutmath/internal/schema"
)

func TestMain(m *testing.M) {
	// The controller's time zone, as in the kube-controller-manager image.
	os.Setenv("TZ", "UTC")
	if time.Local.String() != "UTC" {
		panic("TZ=UTC did not take")
	}
	// The API server's --allow-privileged, which clusters set; without it
	// every privileged container is refused "by cluster policy".
	capabilities.Initialize(capabilities.Capabilities{AllowPrivileged: true})
	os.Exit(m.Run())
}

func TestSpewSmoke(t *testing.T) {
	in := `{"metadata":{"labels":{"app":"web"},"name":"x"},"spec":{"containers":[{"name":"app","image":"nginx:1.9","env":[],"resources":{"requests":{"cpu":"100m","memory":"1.5Gi"},"limits":{"cpu":0.5}},"ports":[{"containerPort":80}],"livenessProbe":{"httpGet":{"port":"http"}}}]}}`
	var up v1.PodTemplateSpec
	if err := json.Unmarshal([]byte(in), &up); err != nil {
		t.Fatal(err)
	}
	want := dump.ForHash(up)
	ours, res := schema.DecodePodTemplateSpec([]byte(in), schema.DecodeOptions{Version: kubeversion.V1_36})
	if len(res.Errs) > 0 {
		t.Fatal(res.Errs)
	}
	got := string(schema.SpewText(nil, ours, kubeversion.V1_36))
	if got != want {
		t.Errorf("rendering differs\n got: %s\nwant: %s", got, want)
	}
}
