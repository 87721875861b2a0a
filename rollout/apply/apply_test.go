package apply_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/apply"
)

// base is the manifest the cases start from: it sets replicas, as most
// manifests do.
const base = `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},
"spec":{"replicas":3,"selector":{"matchLabels":{"app":"web"}},
"template":{"metadata":{"labels":{"app":"web"}},"spec":{
"containers":[
 {"name":"app","image":"web:1","ports":[{"containerPort":8080}],
  "env":[{"name":"A","value":"1"},{"name":"B","value":"2"}],
  "resources":{"requests":{"cpu":"1","memory":"128Mi"}}},
 {"name":"proxy","image":"envoy:1"}]}}}}`

// doc is a manifest or live object being edited.
type doc map[string]any

func parse(t *testing.T, s string) doc {
	t.Helper()
	var d doc
	if err := json.Unmarshal([]byte(s), &d); err != nil {
		t.Fatal(err)
	}
	return d
}

func (d doc) bytes(t *testing.T) []byte {
	t.Helper()
	b, err := json.Marshal(map[string]any(d))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// at returns the object at a dotted path of object members and list
// indexes ("spec.template.spec.containers.0").
func (d doc) at(path string) map[string]any {
	var cur any = map[string]any(d)
	for _, p := range strings.Split(path, ".") {
		switch c := cur.(type) {
		case map[string]any:
			next, ok := c[p]
			if !ok {
				next = map[string]any{}
				c[p] = next
			}
			cur = next
		case []any:
			i := int(p[0] - '0')
			cur = c[i]
		}
	}
	return cur.(map[string]any)
}

// containers is the template's container list.
func (d doc) containers() []any {
	return d.at("spec.template.spec")["containers"].([]any)
}

// create is a first kubectl apply of manifest; it returns the stored
// object, the live object of the next apply.
func create(t *testing.T, manifest doc) doc {
	t.Helper()
	r, err := apply.Create(manifest.bytes(t), apply.Options{})
	if err != nil {
		t.Fatal(err)
	}
	live := parse(t, string(r.Stored))
	meta := live.at("metadata")
	meta["uid"], meta["resourceVersion"], meta["creationTimestamp"] = "0b9c4c2e", "1000", "2026-11-23T05:00:00Z"
	return live
}

// run applies manifest onto live and fails the test on an error.
func run(t *testing.T, live, manifest doc) apply.Result {
	t.Helper()
	r, err := apply.Apply(live.bytes(t), manifest.bytes(t), apply.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestHPAManagedReplicasLastAppliedWithout: an autoscaler scaled the
// Deployment to 7; the manifests never set replicas. kubectl's patch
// leaves spec.replicas alone, and the count the autoscaler set stays.
func TestHPAManagedReplicasLastAppliedWithout(t *testing.T) {
	m := parse(t, base)
	delete(m.at("spec"), "replicas")
	live := create(t, m)
	live.at("spec")["replicas"] = 7 // the HPA's scale
	next := parse(t, string(m.bytes(t)))
	next.containers()[0].(map[string]any)["image"] = "web:2"
	r := run(t, live, next)
	if r.After.Spec.Replicas != 7 {
		t.Errorf("replicas %d, want the autoscaler's 7", r.After.Spec.Replicas)
	}
	if !r.Rollout() {
		t.Error("an image bump starts no rollout")
	}
}

// TestHPAManagedReplicasLastAppliedWith is the pitfall of the HPA
// documentation: the last apply set replicas, the autoscaler scaled to 7,
// and the new manifest drops replicas for the autoscaler. The three-way
// patch deletes spec.replicas, the API server defaults it to 1, and the
// Deployment scales down to one pod.
func TestHPAManagedReplicasLastAppliedWith(t *testing.T) {
	m := parse(t, base)
	live := create(t, m)
	live.at("spec")["replicas"] = 7
	next := parse(t, base)
	delete(next.at("spec"), "replicas")
	r := run(t, live, next)
	if r.After.Spec.Replicas != 1 {
		t.Errorf("replicas %d, want 1: the patch deletes the field and the server defaults it", r.After.Spec.Replicas)
	}
	if !strings.Contains(string(r.Patch), `"replicas":null`) {
		t.Errorf("patch %s, want replicas deleted", r.Patch)
	}
	if r.Rollout() {
		t.Error("a scale is not a rollout")
	}
	if want := "no rollout: the template is unchanged once defaulted; spec.replicas changed: 7 -> 1"; r.Summary() != want {
		t.Errorf("Summary() = %q, want %q", r.Summary(), want)
	}
}

// TestAfterRolloutRestart: kubectl rollout restart put its restartedAt
// annotation in the template. Applying the same manifest again keeps it:
// the last apply did not set it, so the patch does not remove it, and
// nothing rolls.
func TestAfterRolloutRestart(t *testing.T) {
	m := parse(t, base)
	live := create(t, m)
	live.at("spec.template.metadata")["annotations"] = map[string]any{"kubectl.kubernetes.io/restartedAt": "2026-11-23T05:00:00Z"}
	r := run(t, live, m)
	if got := r.After.Spec.Template.Annotations["kubectl.kubernetes.io/restartedAt"]; got != "2026-11-23T05:00:00Z" {
		t.Errorf("restartedAt %q, want it kept", got)
	}
	if string(r.Patch) != "{}" || r.Rollout() || len(r.Changes) != 0 {
		t.Errorf("patch %s, rollout %v, changes %v; want nothing sent", r.Patch, r.Rollout(), r.Changes)
	}
	if r.Summary() != "no change: kubectl sends no patch" {
		t.Errorf("Summary() = %q", r.Summary())
	}
}

// TestReorderOnlyContainers: a manifest that only swaps the two
// containers. The patch carries the new order ($setElementOrder), the
// stored template's list is reordered, and a reordered template is
// another template to the controller: a rollout starts.
func TestReorderOnlyContainers(t *testing.T) {
	m := parse(t, base)
	live := create(t, m)
	next := parse(t, base)
	cs := next.containers()
	cs[0], cs[1] = cs[1], cs[0]
	r := run(t, live, next)
	if !strings.Contains(string(r.Patch), "$setElementOrder/containers") {
		t.Errorf("patch %s, want a $setElementOrder list", r.Patch)
	}
	if got := r.After.Spec.Template.Spec.Images(); got[0].Image != "envoy:1" {
		t.Errorf("images %v, want the proxy first", got)
	}
	if !r.Rollout() {
		t.Error("reordered containers start no rollout")
	}
	if want := "rollout: spec.template.spec.containers (order) changed"; r.Summary() != want {
		t.Errorf("Summary() = %q, want %q", r.Summary(), want)
	}
}

// TestReorderOnlyEnv: the same for two env vars of one container.
func TestReorderOnlyEnv(t *testing.T) {
	m := parse(t, base)
	live := create(t, m)
	next := parse(t, base)
	env := next.containers()[0].(map[string]any)["env"].([]any)
	env[0], env[1] = env[1], env[0]
	r := run(t, live, next)
	if !r.Rollout() {
		t.Error("reordered env starts no rollout")
	}
	if want := "rollout: spec.template.spec.containers[name=app].env (order) changed"; r.Summary() != want {
		t.Errorf("Summary() = %q, want %q", r.Summary(), want)
	}
}

// TestCPUInAnotherUnit: the last apply wrote cpu "1"; the manifest writes
// 1000m. kubectl sees different text and sends a patch, but the API
// server parses 1000m to the same quantity, stored as "1": the template
// is unchanged and nothing rolls. The last-applied annotation changes, and
// a changed annotation bumps the generation, as upstream's strategy does.
func TestCPUInAnotherUnit(t *testing.T) {
	m := parse(t, base)
	live := create(t, m)
	next := parse(t, base)
	next.containers()[0].(map[string]any)["resources"] = map[string]any{"requests": map[string]any{"cpu": "1000m", "memory": "128Mi"}}
	r := run(t, live, next)
	if !strings.Contains(string(r.Patch), `"cpu":"1000m"`) {
		t.Errorf("patch %s, want the new text of cpu", r.Patch)
	}
	if r.Rollout() || len(r.Changes) != 0 {
		t.Errorf("rollout %v, changes %v; want none", r.Rollout(), r.Changes)
	}
	if want := "no rollout: the template is unchanged once defaulted"; r.Summary() != want {
		t.Errorf("Summary() = %q, want %q", r.Summary(), want)
	}
	if r.Before.Generation+1 != r.After.Generation {
		t.Errorf("generation %d -> %d, want a bump for the changed annotation", r.Before.Generation, r.After.Generation)
	}
}

// TestRemovedContainer: the sidecar the last apply set is gone from the
// manifest; the patch deletes it by its name ($patch: delete) and the
// template changes.
func TestRemovedContainer(t *testing.T) {
	m := parse(t, base)
	live := create(t, m)
	next := parse(t, base)
	next.at("spec.template.spec")["containers"] = next.containers()[:1]
	r := run(t, live, next)
	if !strings.Contains(string(r.Patch), `"$patch":"delete"`) {
		t.Errorf("patch %s, want the container deleted", r.Patch)
	}
	if got := r.After.Spec.Template.Spec.Images(); len(got) != 1 {
		t.Errorf("images %v, want the app alone", got)
	}
	if want := "rollout: spec.template.spec.containers[name=proxy] changed"; r.Summary() != want {
		t.Errorf("Summary() = %q, want %q", r.Summary(), want)
	}
}

// TestChangedSelector: apps/v1 selectors are immutable; the API server
// refuses the update and names the field.
func TestChangedSelector(t *testing.T) {
	m := parse(t, base)
	live := create(t, m)
	next := parse(t, base)
	next.at("spec.selector")["matchLabels"] = map[string]any{"app": "web", "tier": "front"}
	next.at("spec.template.metadata")["labels"] = map[string]any{"app": "web", "tier": "front"}
	_, err := apply.Apply(live.bytes(t), next.bytes(t), apply.Options{})
	if err == nil || !strings.Contains(err.Error(), "spec.selector: Invalid value") || !strings.Contains(err.Error(), "field is immutable") {
		t.Errorf("Apply() error = %v, want spec.selector immutable", err)
	}
}

// TestPortsMergeByContainerPortAlone is kubernetes#39188, reproduced:
// ports merge by containerPort alone, so a UDP port added next to the TCP
// port of the same number is taken for the same element: the stored
// template has one port 8080, now UDP, and the TCP port is gone.
func TestPortsMergeByContainerPortAlone(t *testing.T) {
	m := parse(t, base)
	live := create(t, m)
	next := parse(t, base)
	next.containers()[0].(map[string]any)["ports"] = []any{
		map[string]any{"containerPort": 8080},
		map[string]any{"containerPort": 8080, "protocol": "UDP"},
	}
	r := run(t, live, next)
	ports := parse(t, string(r.Stored)).containers()[0].(map[string]any)["ports"]
	if got, _ := json.Marshal(ports); string(got) != `[{"containerPort":8080,"protocol":"UDP"}]` {
		t.Errorf("stored ports %s, want the one port 8080, UDP", got)
	}
	if want := "rollout: spec.template.spec.containers[name=app].ports[containerPort=8080].protocol changed"; r.Summary() != want {
		t.Errorf("Summary() = %q, want %q", r.Summary(), want)
	}
}

// TestRecreateRetainsKeys is kubernetes#24198, as fixed upstream with
// retainKeys: switching the strategy to Recreate with a manifest that no
// longer sets rollingUpdate clears the live rollingUpdate (the server's
// default), which the validation of Recreate would otherwise refuse.
func TestRecreateRetainsKeys(t *testing.T) {
	m := parse(t, base)
	live := create(t, m)
	next := parse(t, base)
	next.at("spec")["strategy"] = map[string]any{"type": "Recreate"}
	r := run(t, live, next)
	if !strings.Contains(string(r.Patch), `"$retainKeys":["type"]`) {
		t.Errorf("patch %s, want $retainKeys", r.Patch)
	}
	if r.After.Spec.Strategy.Type != rollout.RecreateStrategy || strings.Contains(string(r.Stored), "rollingUpdate") {
		t.Errorf("strategy %+v, stored %s; want Recreate alone", r.After.Spec.Strategy, r.Stored)
	}
	if want := `no rollout: the template is unchanged once defaulted; spec.strategy.rollingUpdate removed: {"maxSurge":"25%","maxUnavailable":"25%"}, spec.strategy.type changed: "RollingUpdate" -> "Recreate"`; r.Summary() != want {
		t.Errorf("Summary() = %q, want %q", r.Summary(), want)
	}
}

// TestImageBump is the common case: one image changed, a rollout, the
// path named by the container's name, the generation bumped.
func TestImageBump(t *testing.T) {
	m := parse(t, base)
	live := create(t, m)
	next := parse(t, base)
	next.containers()[0].(map[string]any)["image"] = "web:2"
	r := run(t, live, next)
	if want := "rollout: spec.template.spec.containers[name=app].image changed"; r.Summary() != want {
		t.Errorf("Summary() = %q, want %q", r.Summary(), want)
	}
	if len(r.Changes) != 1 || r.Changes[0].String() != `spec.template.spec.containers[name=app].image changed: "web:1" -> "web:2"` {
		t.Errorf("changes %v", r.Changes)
	}
	if r.After.Generation != r.Before.Generation+1 {
		t.Errorf("generation %d -> %d", r.Before.Generation, r.After.Generation)
	}
}

// TestApplyRefuses: what kubectl or the API server refuses is an error
// naming the field.
func TestApplyRefuses(t *testing.T) {
	live := create(t, parse(t, base))
	for _, tc := range []struct{ name, manifest, want string }{
		{"a misspelled field", strings.Replace(base, `"replicas":3`, `"replica":3`, 1), "spec.replica: unknown field"},
		{"another Deployment", strings.Replace(base, `"name":"web"`, `"name":"api"`, 1), "the manifest is Deployment default/api, the live object default/web"},
		{"another kind", strings.Replace(base, `"kind":"Deployment"`, `"kind":"StatefulSet"`, 1), "apply handles apps/v1 Deployments"},
		{"an invalid result", strings.Replace(base, `"replicas":3`, `"replicas":-1`, 1), "spec.replicas: Invalid value: -1"},
	} {
		_, err := apply.Apply(live.bytes(t), []byte(tc.manifest), apply.Options{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Apply() error = %v, want %q", tc.name, err, tc.want)
		}
	}
	for _, tc := range []struct{ live, want string }{
		{`{"kind":"Deployment","metadata":{"name":"web"},"spec":{"replica":1}}`, "the live object: spec.replica: unknown field"},
		{strings.Replace(string(live.bytes(t)), `"resourceVersion":"1000",`, "", 1), "the live object: metadata.resourceVersion: Required value"},
	} {
		if _, err := apply.Apply([]byte(tc.live), []byte(base), apply.Options{}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("a bad live object: %v, want %q", err, tc.want)
		}
	}
}

// TestNoOverwriteConflict: with --overwrite=false, a field the manifest
// changes that another writer changed since the last apply is a conflict.
func TestNoOverwriteConflict(t *testing.T) {
	live := create(t, parse(t, base))
	live.at("spec")["replicas"] = 7
	next := parse(t, strings.Replace(base, `"replicas":3`, `"replicas":5`, 1))
	if _, err := apply.Apply(live.bytes(t), next.bytes(t), apply.Options{NoOverwrite: true}); err == nil || !strings.Contains(err.Error(), "conflict") {
		t.Errorf("Apply(NoOverwrite) error = %v, want a conflict", err)
	}
	r := run(t, live, next)
	if r.After.Spec.Replicas != 5 {
		t.Errorf("replicas %d, want the manifest's 5 with overwrite", r.After.Spec.Replicas)
	}
}

// TestReplaceDropsWhatTheManifestOmits: kubectl replace is not a merge:
// the restartedAt annotation another writer set is gone, and replicas the
// manifest omits default to 1.
func TestReplaceDropsWhatTheManifestOmits(t *testing.T) {
	m := parse(t, base)
	live := create(t, m)
	live.at("spec")["replicas"] = 7
	live.at("spec.template.metadata")["annotations"] = map[string]any{"kubectl.kubernetes.io/restartedAt": "2026-11-23T05:00:00Z"}
	next := parse(t, base)
	delete(next.at("spec"), "replicas")
	r, err := apply.Replace(live.bytes(t), next.bytes(t), apply.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.After.Spec.Replicas != 1 || !r.Rollout() {
		t.Errorf("replicas %d, rollout %v; want 1 and a rollout (the restart annotation is gone)", r.After.Spec.Replicas, r.Rollout())
	}
	if _, ok := r.After.Annotations["kubectl.kubernetes.io/last-applied-configuration"]; ok {
		t.Error("replace kept the last-applied annotation the manifest does not have")
	}
}

// TestCreateRecordsLastApplied: a first apply stores the manifest as
// kubectl's last-applied configuration, which the next apply reads.
func TestCreateRecordsLastApplied(t *testing.T) {
	r, err := apply.Create([]byte(base), apply.Options{})
	if err != nil {
		t.Fatal(err)
	}
	last := r.After.Annotations["kubectl.kubernetes.io/last-applied-configuration"]
	if !strings.HasPrefix(last, `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"annotations":{},"name":"web","namespace":"default"}`) {
		t.Errorf("last-applied %q", last)
	}
	if !r.Rollout() || r.Summary() != "rollout: a new Deployment" || r.After.Generation != 1 {
		t.Errorf("rollout %v, summary %q, generation %d", r.Rollout(), r.Summary(), r.After.Generation)
	}
}

// TestChangesPairRepeatedKeys: a DNS server's two ports share
// containerPort 53 (TCP and UDP). Applying the manifest again with a new
// image changes the image alone; the ports pair in their order, the n-th
// of a key with the n-th, so no port change is reported.
func TestChangesPairRepeatedKeys(t *testing.T) {
	dns := strings.Replace(base, `"ports":[{"containerPort":8080}]`,
		`"ports":[{"name":"dns","containerPort":53,"protocol":"UDP"},{"name":"dns-tcp","containerPort":53,"protocol":"TCP"}]`, 1)
	live := create(t, parse(t, dns))
	next := parse(t, strings.Replace(dns, `"web:1"`, `"web:2"`, 1))
	r := run(t, live, next)
	var got []string
	for _, c := range r.Changes {
		got = append(got, c.String())
	}
	if want := []string{`spec.template.spec.containers[name=app].image changed: "web:1" -> "web:2"`}; !slices.Equal(got, want) {
		t.Errorf("changes %q, want %q", got, want)
	}
	if strings.Count(string(r.Stored), `"containerPort":53`) != 2 {
		t.Errorf("stored %s: want both ports", r.Stored)
	}
}

// TestNamespaceAsKubectl: kubectl apply -n shop creates a manifest without
// a namespace in shop, and refuses one that names another namespace.
func TestNamespaceAsKubectl(t *testing.T) {
	r, err := apply.Create([]byte(base), apply.Options{Namespace: "shop"})
	if err != nil || r.After.Namespace != "shop" {
		t.Fatalf("Create(-n shop) = %q, %v", r.After.Namespace, err)
	}
	other := strings.Replace(base, `"name":"web"`, `"name":"web","namespace":"staging"`, 1)
	if _, err := apply.Create([]byte(other), apply.Options{Namespace: "shop"}); err == nil || !strings.Contains(err.Error(), `the namespace from the provided object "staging" does not match the namespace "shop"`) {
		t.Errorf("Create of a staging manifest with -n shop: %v", err)
	}
	live := create(t, parse(t, base))
	if _, err := apply.Apply(live.bytes(t), []byte(base), apply.Options{Namespace: "shop"}); err == nil || !strings.Contains(err.Error(), "the manifest is Deployment shop/web, the live object default/web") {
		t.Errorf("Apply -n shop onto default/web: %v", err)
	}
}

// TestLiveWithoutLastApplied: a Deployment made by kubectl create has no
// last-applied annotation. kubectl apply warns, and a partial manifest
// (only the container's image) removes nothing: the selector, the labels
// and the other container stay, the image changes, and the annotation is
// added.
func TestLiveWithoutLastApplied(t *testing.T) {
	live := create(t, parse(t, base))
	delete(live.at("metadata.annotations"), rollout.LastAppliedAnnotation)
	partial := parse(t, `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},
"spec":{"template":{"spec":{"containers":[{"name":"app","image":"web:2"}]}}}}`)
	r := run(t, live, partial)
	if !slices.ContainsFunc(r.Warnings, func(w string) bool { return strings.Contains(w, "has no "+rollout.LastAppliedAnnotation) }) {
		t.Errorf("warnings %q, want kubectl's missing-annotation warning", r.Warnings)
	}
	want := []rollout.ContainerImage{{Name: "app", Image: "web:2"}, {Name: "proxy", Image: "envoy:1"}}
	if got := r.After.Spec.Template.Spec.Images(); !slices.Equal(got, want) {
		t.Errorf("containers %+v, want app at web:2 and proxy kept", got)
	}
	if r.After.Spec.Selector.MatchLabels["app"] != "web" || r.After.Spec.Replicas != 3 {
		t.Errorf("selector %v replicas %d, want both kept", r.After.Spec.Selector, r.After.Spec.Replicas)
	}
	if _, ok := r.After.Annotations[rollout.LastAppliedAnnotation]; !ok {
		t.Error("the last-applied annotation is not added")
	}
	if !r.Rollout() {
		t.Error("an image change starts no rollout")
	}
	if w := run(t, create(t, parse(t, base)), parse(t, base)).Warnings; len(w) != 0 {
		t.Errorf("warnings %q for a live object kubectl applied", w)
	}
}
