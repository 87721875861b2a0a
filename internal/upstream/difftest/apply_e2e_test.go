package difftest

import (
	"bytes"
	"encoding/json"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/kubernetes/pkg/controller"
	"sigs.k8s.io/yaml"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/apply"
)

// The whole of kubectl apply onto a live Deployment, end to end: kubectl's
// three-way patch, the API server's patch handler, decoding, defaulting,
// the update strategy and validation, storage; then the name of the new
// ReplicaSet. Upstream's side is the real code (realApply, then
// RealUpdateDeployment on the patched object); ours is apply.Apply alone.

// realLive is a manifest created by kubectl apply on the real create path
// and given what the server assigns; ok is false when the server refuses
// the manifest.
func realLive(t *testing.T, manifest []byte) (live *appsv1.Deployment, ok bool) {
	t.Helper()
	created, err := realCreated(manifest, "default")
	if err != nil {
		return nil, false
	}
	out, d := RealCreateDeployment(created)
	if out.Refused() {
		return nil, false
	}
	Stamp(d)
	d.Status.ObservedGeneration = 1
	d.Status.Replicas = 3
	return d, true
}

// marshal is a stored object's JSON, as kubectl get -o json prints it.
func marshal(t *testing.T, d *appsv1.Deployment) []byte {
	t.Helper()
	b, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// realWrite is another writer's update of live (an autoscaler, kubectl
// rollout restart, a sidecar injector): the edited object through the real
// update path; ok is false when the server refuses it.
func realWrite(t *testing.T, live *appsv1.Deployment, edited []byte) (*appsv1.Deployment, bool) {
	out, d := RealUpdateDeployment(live, edited)
	if out.Refused() {
		return nil, false
	}
	d.ResourceVersion = "1001"
	return d, true
}

// realApplyStored is upstream's kubectl apply of manifest onto live: the
// stored object, or the refusal.
func realApplyStored(t *testing.T, live *appsv1.Deployment, manifest []byte) (Outcome, *appsv1.Deployment) {
	liveJSON := marshal(t, live)
	patch, result, err := realApply(liveJSON, manifest, true)
	if err != nil {
		return Outcome{Decode: err.Error()}, nil
	}
	if string(patch) == "{}" {
		return Outcome{Stored: Canonical(liveJSON)}, live
	}
	return RealUpdateDeployment(live, result)
}

// compareApplyE2E applies manifest onto live on both sides and reports a
// difference: in refusing, in the stored object, in the new ReplicaSet's
// name.
func compareApplyE2E(t *testing.T, live *appsv1.Deployment, manifest []byte) (refused bool, msg string) {
	t.Helper()
	real, stored := realApplyStored(t, live, manifest)
	ours, err := apply.Apply(marshal(t, live), manifest, apply.Options{Version: rollout.V1_36})
	if msg := sameOutcome("apply", real, ours, err); msg != "" || err != nil {
		return err != nil, msg
	}
	want := controller.ComputeHash(&stored.Spec.Template, stored.Status.CollisionCount)
	if got := rollout.PodTemplateHashFor(ours.After, rollout.V1_36); got != want {
		return false, "pod-template-hash: ours " + got + ", upstream " + want
	}
	return false, ""
}

func problemList(ps []Problem) string {
	var s []string
	for _, p := range ps {
		s = append(s, p.String())
	}
	return strings.Join(s, "; ")
}

func errString(err error) string {
	if err == nil {
		return "accepted"
	}
	return err.Error()
}

// TestApplyEndToEndRandom applies random realistic manifests, edited as
// people edit them (image bumps, env added, sidecars removed, replicas
// dropped for an autoscaler, resources in other units, containers
// reordered; a fifth cut down to the containers' images), onto live
// objects that other writers changed through the real update path (a
// fifth without kubectl's last-applied annotation, as kubectl create
// leaves them). The stored Deployment and the new ReplicaSet's name
// must be upstream's, and so must every refusal. APPLY_CASES sets the
// number of cases.
func TestApplyEndToEndRandom(t *testing.T) {
	n := smpCount("APPLY_CASES", 400)
	g := &mgen{r: rand.New(rand.NewSource(20261123))}
	var compared, refused, rollouts, tries, created, partial int
	for i := 0; compared < n; i++ {
		if tries++; tries > 10*n {
			t.Fatalf("%d of %d random manifests are stored", compared, tries)
		}
		last := g.deployment()
		live, ok := realLive(t, last.bytes())
		if !ok {
			continue
		}
		for range g.r.Intn(3) {
			edited := parseDoc(string(marshal(t, live)))
			g.liveEdit(edited)
			if next, ok := realWrite(t, live, edited.bytes()); ok {
				live = next
			}
		}
		if g.r.Intn(5) == 0 { // made by kubectl create: no last-applied annotation
			edited := parseDoc(string(marshal(t, live)))
			if a, ok := edited.get("metadata.annotations").(map[string]any); ok {
				delete(a, "kubectl.kubernetes.io/last-applied-configuration")
			}
			if next, ok := realWrite(t, live, edited.bytes()); ok {
				live = next
				created++
			}
		}
		manifest := last.clone()
		for range 1 + g.r.Intn(3) {
			g.edit(manifest)
		}
		if g.r.Intn(5) == 0 {
			manifest = partialManifest(manifest)
			partial++
		}
		r, msg := compareApplyE2E(t, live, manifest.bytes())
		if msg != "" {
			t.Fatalf("case %d: %s\nlive     %s\nmanifest %s", i, msg, marshal(t, live), manifest.bytes())
		}
		if msg := compareCreateReplace(t, live, manifest.bytes()); msg != "" {
			t.Fatalf("case %d: %s\nlive     %s\nmanifest %s", i, msg, marshal(t, live), manifest.bytes())
		}
		compared++
		if r {
			refused++
		} else if res, err := apply.Apply(marshal(t, live), manifest.bytes(), apply.Options{Version: rollout.V1_36}); err == nil && res.Rollout() {
			rollouts++
		}
	}
	t.Logf("%d applies compared: %d refused by both, %d rollouts; %d onto objects without the last-applied annotation, %d partial manifests",
		compared, refused, rollouts, created, partial)
	if rollouts < compared/4 || compared-refused < compared/2 || created < compared/10 || partial < compared/10 {
		t.Errorf("%d compared, %d refused, %d rollouts, %d without last-applied, %d partial: the generator is too tame",
			compared, refused, rollouts, created, partial)
	}
}

// partialManifest keeps only what a manifest that sets an image needs:
// the type, the name (and namespace), and the containers' names and
// images. kubectl apply merges it onto what the live object holds.
func partialManifest(m doc) doc {
	p := doc{"apiVersion": m.get("apiVersion"), "kind": m.get("kind")}
	p.set("metadata.name", m.get("metadata.name"))
	if ns := m.get("metadata.namespace"); ns != nil {
		p.set("metadata.namespace", ns)
	}
	var cs []any
	for _, c := range m.list("spec.template.spec.containers") {
		c := c.(map[string]any)
		cs = append(cs, map[string]any{"name": c["name"], "image": c["image"]})
	}
	p.set("spec.template.spec.containers", cs)
	return p
}

// TestApplyEndToEndManifests does the same over the project's accepted
// manifests (testdata/apiserver/manifests) and, when present, the real
// ones of ../shared/manifests: each created, then applied again with the
// edits people make.
func TestApplyEndToEndManifests(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "..", "testdata", "apiserver", "manifests", "accepted-*.yaml"))
	docs := map[string][]byte{}
	for _, f := range files {
		y, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		b, err := yaml.YAMLToJSON(y)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		docs[filepath.Base(f)] = b
	}
	if len(docs) == 0 {
		t.Fatal("no manifests in testdata/apiserver/manifests")
	}
	if sharedPresent() {
		for f, b := range sharedManifests(t) {
			if strings.Contains(string(b), `"kind":"Deployment"`) {
				docs[filepath.Base(filepath.Dir(f))+"/"+filepath.Base(f)] = b
			}
		}
	}
	names := make([]string, 0, len(docs))
	for n := range docs {
		names = append(names, n)
	}
	sort.Strings(names)
	g := &mgen{r: rand.New(rand.NewSource(7))}
	perManifest := smpCount("APPLY_EDITS", 3)
	var compared, refused int
	for _, name := range names {
		live, ok := realLive(t, docs[name])
		if !ok {
			continue
		}
		for range perManifest {
			manifest := parseDoc(string(docs[name]))
			for range 1 + g.r.Intn(3) {
				g.edit(manifest)
			}
			r, msg := compareApplyE2E(t, live, manifest.bytes())
			if msg != "" {
				t.Fatalf("%s: %s\nmanifest %s", name, msg, manifest.bytes())
			}
			compared++
			if r {
				refused++
			}
		}
	}
	t.Logf("%d manifests, %d applies compared, %d refused by both", len(names), compared, refused)
	if refused > compared/2 {
		t.Errorf("%d of %d applies refused: the edits are too wild", refused, compared)
	}
}

// sharedPresent reports whether ../shared/manifests is there.
func sharedPresent() bool {
	_, err := os.Stat(filepath.Join("..", "..", "..", "..", "shared", "manifests"))
	return err == nil
}

// applyBase is the manifest of rollout/apply's named tests.
const applyBase = `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},
"spec":{"replicas":3,"selector":{"matchLabels":{"app":"web"}},
"template":{"metadata":{"labels":{"app":"web"}},"spec":{
"containers":[
 {"name":"app","image":"web:1","ports":[{"containerPort":8080}],
  "env":[{"name":"A","value":"1"},{"name":"B","value":"2"}],
  "resources":{"requests":{"cpu":"1","memory":"128Mi"}}},
 {"name":"proxy","image":"envoy:1"}]}}}}`

// TestApplyEndToEndNamed runs the cases of rollout/apply's named tests
// (the ones users hit) on both sides: what those tests assert is
// upstream's behaviour.
func TestApplyEndToEndNamed(t *testing.T) {
	swap := func(path string) func(doc) {
		return func(d doc) {
			l := d.get(path).([]any)
			l[0], l[1] = l[1], l[0]
		}
	}
	cases := []struct {
		name                 string
		last, other, next    func(doc)
		wantRefused, rollout bool
	}{
		{name: "HPA, last applied without replicas", last: func(d doc) { d.del("spec.replicas") },
			other: func(d doc) { d.set("spec.replicas", 7) },
			next:  func(d doc) { d.del("spec.replicas"); d.set("spec.template.spec.containers.0.image", "web:2") }, rollout: true},
		{name: "HPA, last applied with replicas", other: func(d doc) { d.set("spec.replicas", 7) },
			next: func(d doc) { d.del("spec.replicas") }},
		{name: "after kubectl rollout restart",
			other: func(d doc) {
				d.set("spec.template.metadata.annotations", map[string]any{"kubectl.kubernetes.io/restartedAt": "2026-11-23T05:00:00Z"})
			},
			next: func(doc) {}},
		{name: "containers reordered", next: swap("spec.template.spec.containers"), rollout: true},
		{name: "env reordered", next: swap("spec.template.spec.containers.0.env"), rollout: true},
		{name: "cpu 1000m against 1", next: func(d doc) { d.set("spec.template.spec.containers.0.resources.requests.cpu", "1000m") }},
		{name: "a container removed", next: func(d doc) {
			d.set("spec.template.spec.containers", d.get("spec.template.spec.containers").([]any)[:1])
		}, rollout: true},
		{name: "selector changed", next: func(d doc) {
			d.set("spec.selector.matchLabels.tier", "front")
			d.set("spec.template.metadata.labels.tier", "front")
		}, wantRefused: true},
		{name: "a UDP port of the same number (kubernetes#39188)", next: func(d doc) {
			d.set("spec.template.spec.containers.0.ports", []any{
				map[string]any{"containerPort": 8080},
				map[string]any{"containerPort": 8080, "protocol": "UDP"},
			})
		}, rollout: true},
		{name: "RollingUpdate to Recreate (kubernetes#24198)", next: func(d doc) {
			d.set("spec.strategy", map[string]any{"type": "Recreate"})
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			last := parseDoc(applyBase)
			if c.last != nil {
				c.last(last)
			}
			live, ok := realLive(t, last.bytes())
			if !ok {
				t.Fatal("the last manifest is refused")
			}
			if c.other != nil {
				edited := parseDoc(string(marshal(t, live)))
				c.other(edited)
				if live, ok = realWrite(t, live, edited.bytes()); !ok {
					t.Fatal("the other writer's update is refused")
				}
			}
			next := last.clone()
			c.next(next)
			refused, msg := compareApplyE2E(t, live, next.bytes())
			if msg != "" {
				t.Fatal(msg)
			}
			if refused != c.wantRefused {
				t.Fatalf("refused %v, want %v", refused, c.wantRefused)
			}
			if refused {
				return
			}
			r, err := apply.Apply(marshal(t, live), next.bytes(), apply.Options{Version: rollout.V1_36})
			if err != nil || r.Rollout() != c.rollout {
				t.Errorf("Apply() = rollout %v, %v; want rollout %v", r.Rollout(), err, c.rollout)
			}
			t.Logf("%s; stored ports %v", r.Summary(), parseDoc(string(r.Stored)).get("spec.template.spec.containers.0.ports"))
		})
	}
}

// compareCreateReplace compares apply.Create (a first kubectl apply) and
// apply.Replace (kubectl replace of live) with the real create and update
// paths.
func compareCreateReplace(t *testing.T, live *appsv1.Deployment, manifest []byte) string {
	created, err := realCreated(manifest, "default")
	if err != nil {
		return "kubectl's created object: " + err.Error()
	}
	real, _ := RealCreateDeployment(created)
	ours, err := apply.Create(manifest, apply.Options{Version: rollout.V1_36})
	if msg := sameOutcome("create", real, ours, err); msg != "" {
		return msg
	}
	// The registry's unconditional update gives an object without a
	// resourceVersion the stored one before it validates.
	m := parseDoc(string(manifest))
	if m.get("metadata.resourceVersion") == nil {
		m.set("metadata.resourceVersion", live.ResourceVersion)
	}
	real, _ = RealUpdateDeployment(live, m.bytes())
	ours, err = apply.Replace(marshal(t, live), manifest, apply.Options{Version: rollout.V1_36})
	return sameOutcome("replace", real, ours, err)
}

// sameOutcome describes how our result differs from upstream's outcome.
func sameOutcome(what string, real Outcome, ours apply.Result, err error) string {
	if real.Refused() != (err != nil) {
		return what + ": refused: upstream " + strings.TrimSpace(real.Decode+" "+problemList(real.Problems)) + "; ours " + errString(err)
	}
	if err != nil {
		for _, p := range real.Problems {
			if !strings.Contains(err.Error(), p.Field+": "+p.Type) {
				return what + ": upstream reports " + p.String() + "; ours " + err.Error()
			}
		}
		return ""
	}
	if got := Canonical(ours.Stored); !bytes.Equal(got, real.Stored) {
		return what + ": stored:\n ours     " + string(got) + "\n upstream " + string(real.Stored)
	}
	return ""
}
