package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/yaml"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/apply"
	"github.com/rolloutmath/rolloutmath/rollout/check"
	"github.com/rolloutmath/rolloutmath/rollout/manifest"
	"github.com/rolloutmath/rolloutmath/rollout/sim"
)

// liveDir holds the live tests' inputs: applied/ the manifests last
// applied, cluster/ the live objects made from them here, next/ the
// manifests about to be applied.
const liveDir = "testdata/live"

// A liveFixture is a file of testdata/live/cluster: what `kubectl get
// deploy,rs,pods -o yaml` prints after `kubectl apply -f` of a manifest of
// applied/ (a first apply, apply.Create), the controller's rollout of it
// (sim.FromDeployment) and what another writer did since, which the
// controller then rolled out too (sim.Run).
type liveFixture struct {
	file, comment string
	applied       string // in applied/
	namespace     string // kubectl apply -n; "" for none
	// then is what another writer does to the rolled out state at its
	// Now; nil for nothing.
	then func(rollout.State) (rollout.State, error)
}

// liveCreated is when the fixtures' Deployments were created.
func liveCreated() time.Time { return time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC) }

func liveFixtures() []liveFixture {
	return []liveFixture{
		{file: "web.yaml", applied: "web.yaml", comment: "web after `kubectl apply -f applied/web.yaml`, rolled out: 3 pods."},
		{file: "web-hpa-scaled.yaml", applied: "web.yaml", then: scaleTo(7), comment: "web after `kubectl apply -f applied/web.yaml` (which sets replicas: 3),\n" +
			"then scaled to 7 by a HorizontalPodAutoscaler; the last-applied\nconfiguration still says 3."},
		{file: "web-hpa-managed.yaml", applied: "web-hpa.yaml", then: scaleTo(7), comment: "web after `kubectl apply -f applied/web-hpa.yaml` (no replicas: the\n" +
			"API server defaulted them to 1), then scaled to 7 by a\nHorizontalPodAutoscaler."},
		{file: "web-restarted.yaml", applied: "web.yaml", then: restart, comment: "web after `kubectl apply -f applied/web.yaml`, then `kubectl rollout\n" +
			"restart deployment/web`: the template has kubectl's restartedAt\nannotation, and the controller rolled it out (revision 2)."},
		{file: "shop.yaml", applied: "shop.yaml", namespace: "shop", comment: "The shop namespace after `kubectl apply -n shop -f applied/shop.yaml`:\n" +
			"cart and checkout, rolled out."},
	}
}

// scaleTo is an autoscaler's write: spec.replicas through the scale
// subresource, which bumps the generation as any change of the spec does.
func scaleTo(n int32) func(rollout.State) (rollout.State, error) {
	return func(s rollout.State) (rollout.State, error) {
		s.Deployment.Spec.Replicas = n
		s.Deployment.Generation++
		return s, nil
	}
}

// restart is `kubectl rollout restart`: the restartedAt annotation in the
// pod template, at the time of the restart.
func restart(s rollout.State) (rollout.State, error) {
	return sim.WithTemplateChange(s, func(t *rollout.PodTemplate) error {
		t.Annotations = maps.Clone(t.Annotations)
		t.Annotations[check.RestartAnnotation] = s.Now.UTC().Format(time.RFC3339)
		return nil
	})
}

// TestLiveFixtures keeps testdata/live/cluster what the fixtures say it
// is: each file is regenerated from its applied manifest and compared
// byte for byte (go test -run TestLiveFixtures -update rewrites them).
func TestLiveFixtures(t *testing.T) {
	for _, f := range liveFixtures() {
		t.Run(f.file, func(t *testing.T) {
			got, err := f.generate()
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(liveDir, "cluster", f.file)
			if *update {
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(want), string(got)); diff != "" {
				t.Errorf("%s is not what its fixture generates (go test -run TestLiveFixtures -update); -file +generated:\n%s", path, diff)
			}
		})
	}
}

// generate returns the fixture's file.
func (f liveFixture) generate() ([]byte, error) {
	docs, err := manifest.Read(manifest.Options{}, filepath.Join(liveDir, "applied", f.applied))
	if err != nil {
		return nil, err
	}
	var items []any
	rv := 48210 // resourceVersions, in creation order
	next := func() string { rv++; return fmt.Sprint(rv) }
	for _, doc := range docs {
		// The fixtures are a v1.36 cluster: its API and its controller's names.
		created, err := apply.Create(doc.JSON, apply.Options{Namespace: f.namespace, Version: rollout.V1_36})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", doc, err)
		}
		if err := sameJSON(created.After, created.Stored); err != nil {
			return nil, fmt.Errorf("%s: the stored Deployment does not encode back: %w", doc, err)
		}
		d := created.After
		d.UID, d.CreationTimestamp = fixtureUID("Deployment", d.Namespace, d.Name), liveCreated()
		s := sim.FromDeploymentWith(d, liveCreated().Add(time.Hour), rollout.Options{Version: rollout.V1_36})
		if f.then != nil {
			if s, err = f.then(s); err != nil {
				return nil, err
			}
			res, err := sim.Run(s, sim.Config{Model: sim.ModelSimple, Interval: 30 * time.Second}) // as the fixtures were made
			if err != nil {
				return nil, err
			}
			if res.Summary.Outcome != sim.OutcomeComplete {
				return nil, fmt.Errorf("%s: the controller's run after the edit ends %s", doc, res.Summary.Outcome)
			}
			s = res.Final
		}
		obj, err := withResourceVersion(s.Deployment, next())
		if err != nil {
			return nil, err
		}
		items = append(items, obj)
		for _, rs := range s.ReplicaSets {
			rs.UID = fixtureUID("ReplicaSet", rs.Namespace, rs.Name)
			obj, err := withResourceVersion(rs, next())
			if err != nil {
				return nil, err
			}
			items = append(items, obj)
			for i := range rs.Status.Replicas {
				items = append(items, fixturePod(rs, int(i), next()))
			}
		}
	}
	list, err := json.Marshal(map[string]any{"apiVersion": "v1", "kind": "List", "items": items, "metadata": map[string]any{"resourceVersion": ""}})
	if err != nil {
		return nil, err
	}
	y, err := yaml.JSONToYAML(list)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "# Generated by TestLiveFixtures (livefixtures_test.go); do not edit.\n")
	for _, line := range bytes.Split([]byte(f.comment), []byte("\n")) {
		fmt.Fprintf(&b, "# %s\n", line)
	}
	b.Write(y)
	return b.Bytes(), nil
}

// sameJSON checks that v encodes to the object stored holds.
func sameJSON(v any, stored []byte) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	var a, c any
	if err := json.Unmarshal(b, &a); err != nil {
		return err
	}
	if err := json.Unmarshal(stored, &c); err != nil {
		return err
	}
	if diff := cmp.Diff(c, a); diff != "" {
		return fmt.Errorf("-stored +encoded:\n%s", diff)
	}
	return nil
}

// withResourceVersion encodes obj with metadata.resourceVersion, which
// every object the API server serves has and rollout's types do not keep.
func withResourceVersion(obj any, rv string) (map[string]any, error) {
	b, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	m["metadata"].(map[string]any)["resourceVersion"] = rv
	return m, nil
}

// fixturePod is the i-th pod of rs, running and ready, as kubectl get
// prints it: named by the ReplicaSet and five characters, with the
// template's labels and spec.
func fixturePod(rs rollout.ReplicaSet, i int, rv string) map[string]any {
	const alphabet = "bcdfghjklmnpqrstvwxz2456789" // the API server's generateName letters
	sum := sha256.Sum256(fmt.Appendf(nil, "%s/%s/%d", rs.Namespace, rs.Name, i))
	suffix := make([]byte, 5)
	for k := range suffix {
		suffix[k] = alphabet[int(sum[k])%len(alphabet)]
	}
	name := rs.Name + "-" + string(suffix)
	at := rs.CreationTimestamp.UTC().Format(time.RFC3339)
	var spec any
	if err := json.Unmarshal(rs.Spec.Template.Spec.JSON(), &spec); err != nil {
		panic(err) // a stored spec is JSON
	}
	return map[string]any{
		"apiVersion": "v1", "kind": "Pod",
		"metadata": map[string]any{
			"name": name, "generateName": rs.Name + "-", "namespace": rs.Namespace,
			"labels": rs.Spec.Template.Labels, "creationTimestamp": at,
			"ownerReferences": []rollout.OwnerReference{rollout.NewControllerRef(rs.ObjectMeta, "apps/v1", "ReplicaSet")},
			"uid":             fixtureUID("Pod", rs.Namespace, name), "resourceVersion": rv,
		},
		"spec": spec,
		"status": map[string]any{
			"phase":      "Running",
			"conditions": []any{map[string]any{"type": "Ready", "status": "True", "lastTransitionTime": at}},
		},
	}
}

// fixtureUID is a UID as the API server makes them (a random UUID),
// derived from the object's kind, namespace and name so that the
// fixtures do not change when regenerated.
func fixtureUID(kind, namespace, name string) string {
	sum := sha256.Sum256([]byte(kind + "/" + namespace + "/" + name))
	h := hex.EncodeToString(sum[:16])
	return h[:8] + "-" + h[8:12] + "-4" + h[13:16] + "-a" + h[17:20] + "-" + h[20:32]
}
