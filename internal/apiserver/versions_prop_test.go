package apiserver

import (
	"bytes"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/internal/kubeversion"
	"github.com/rolloutmath/rolloutmath/internal/schema"
)

// TestVersionProperties: for a random template and minor, setting every
// gate explicitly to the minor's default (GateOn or GateOff) creates the
// same object with the same errors as leaving them at GateDefault; and
// Latest is the newest minor.
func TestVersionProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		v := rapid.SampledFrom(kubeversion.Supported()).Draw(t, "minor")
		d := &schema.Deployment{
			ObjectMeta: schema.ObjectMeta{Name: "web", Namespace: "default"},
			Spec:       schema.DeploymentSpec{Template: *podAreaSpec(t)},
		}
		data := schema.AppendDeployment(nil, d, schema.Stored)
		explicit := FeatureGates{Version: v}
		for id := gate(0); id < numGates; id++ {
			s := GateOff
			if (FeatureGates{Version: v}).enabled(id) {
				s = GateOn
			}
			set(&explicit, id, s)
		}
		create := func(g FeatureGates) ([]string, []byte) {
			c, res := schema.DecodeDeployment(data, schema.DecodeOptions{})
			if len(res.Errs) > 0 {
				t.Fatalf("the encoded template does not decode: %v", res.Errs)
			}
			var msgs []string
			for _, e := range CreateDeployment(c, g) {
				msgs = append(msgs, e.Error())
			}
			return msgs, schema.AppendDeployment(nil, c, schema.Stored)
		}
		dm, ds := create(FeatureGates{Version: v})
		em, es := create(explicit)
		if !slices.Equal(dm, em) || !bytes.Equal(ds, es) {
			t.Fatalf("%s: defaults %q\n%s\nexplicit %q\n%s", v, dm, ds, em, es)
		}
		if v == kubeversion.Newest {
			lm, ls := create(FeatureGates{})
			if !slices.Equal(dm, lm) || !bytes.Equal(ds, ls) {
				t.Fatalf("Latest differs from %s: %q, %q", v, lm, dm)
			}
		}
	})
}

// TestEveryVersionValue: every value of a Version is either Valid, and
// creates without a version error, or refused with exactly one; none
// panics (an exhaustive small domain).
func TestEveryVersionValue(t *testing.T) {
	for i := 0; i <= 255; i++ {
		v := kubeversion.Version(i)
		d := versionDeployment(t, "", `{"containers":[{"name":"c","image":"x"}]}`)
		errs := CreateDeployment(d, FeatureGates{Version: v})
		refused := len(errs) == 1 && errs[0].Field == "kubernetesVersion"
		if v.Valid() == refused || v.Valid() && errs != nil {
			t.Errorf("Version(%d) (valid %v): %v", i, v.Valid(), errs)
		}
	}
}
