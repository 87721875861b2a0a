package difftest

import (
	"context"
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	"k8s.io/kubernetes/pkg/apis/apps"
	"k8s.io/kubernetes/pkg/registry/apps/deployment"

	"github.com/rolloutmath/rolloutmath/internal/apiserver"
	ours "github.com/rolloutmath/rolloutmath/internal/schema"
)

// realDetails runs the real create path as RealCreateDeployment does, up
// to validation, and returns each problem as "field: type: detail"; ok is
// false when the input does not decode.
func realDetails(data []byte) (out []string, ok bool) {
	obj := &appsv1.Deployment{}
	gvk := schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}
	if _, _, err := strictSerializer.Decode(data, &gvk, obj); err != nil {
		return nil, false
	}
	if obj.Namespace == "" {
		obj.Namespace = "default"
	}
	legacyscheme.Scheme.Default(obj)
	internal := &apps.Deployment{}
	if err := legacyscheme.Scheme.Convert(obj, internal, nil); err != nil {
		return nil, false
	}
	ctx := genericapirequest.WithNamespace(context.Background(), obj.Namespace)
	deployment.Strategy.PrepareForCreate(ctx, internal)
	for _, e := range deployment.Strategy.Validate(ctx, internal) {
		out = append(out, fmt.Sprintf("%s: %s: %s", e.Field, e.Type, e.Detail))
	}
	return out, true
}

// oursDetails is realDetails for ours.
func oursDetails(data []byte) (out []string, ok bool) {
	d, res := ours.DecodeDeployment(data, ours.DecodeOptions{})
	if len(res.Errs) > 0 {
		return nil, false
	}
	if d.Namespace == "" {
		d.Namespace = "default"
	}
	for _, e := range apiserver.CreateDeployment(d, v136) {
		out = append(out, fmt.Sprintf("%s: %s: %s", e.Field, e.Type, e.Detail))
	}
	return out, true
}

// inAreaDetail keeps the "field: type: detail" lines of the area.
func inAreaDetail(lines []string) []string {
	var out []string
	for _, l := range lines {
		parts := strings.SplitN(l, ": ", 3)
		if inPodArea(Problem{Field: parts[0], Type: parts[1]}) {
			out = append(out, l)
		}
	}
	slices.Sort(out)
	return out
}

// TestPodRandomizedDetails runs the random templates again and compares
// the problems' details (the messages) in the area as well.
func TestPodRandomizedDetails(t *testing.T) {
	n, failures := podRandCases(t)/3, 0
	defer func() { t.Logf("%d cases", n) }()
	for i := range n {
		seed := int64(i)
		tame := i%2 == 0
		g := &podGen{r: rand.New(rand.NewSource(seed)), f: podFiller(seed, tame), tame: tame}
		d := podBase()
		g.template(&d.Spec.Template)
		data := podJSON(d, nil)
		real, ok1 := realDetails(data)
		ours, ok2 := oursDetails(data)
		if !ok1 || !ok2 {
			continue
		}
		r, o := inAreaDetail(real), inAreaDetail(ours)
		onlyReal, onlyOurs := without(r, o), without(o, r)
		if len(onlyReal)+len(onlyOurs) > 0 {
			failures++
			t.Errorf("seed %d: details differ:\nonly real %q\nonly ours %q", seed, onlyReal, onlyOurs)
			if failures >= 5 {
				t.Fatal("stopping after 5 differences")
			}
		}
	}
}

// without returns the lines of a that b lacks (as multisets).
func without(a, b []string) []string {
	rest := slices.Clone(b)
	var out []string
	for _, l := range a {
		if i := slices.Index(rest, l); i >= 0 {
			rest = slices.Delete(rest, i, i+1)
		} else {
			out = append(out, l)
		}
	}
	return out
}
