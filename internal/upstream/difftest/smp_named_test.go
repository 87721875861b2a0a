package difftest

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/runtime"

	smp "github.com/rolloutmath/rolloutmath/internal/strategicpatch"
)

// applyCase is one kubectl apply people run: the manifest last applied
// (created: the object was made by kubectl apply; otherwise by kubectl
// create, without a last-applied annotation), what other writers changed
// in the live object, and the new manifest. want checks the real patch
// and result, so that the test fails if upstream's behaviour or ours
// changes.
type applyCase struct {
	name      string
	last      func(doc)
	noApply   bool // the live object was made by kubectl create
	live      func(doc)
	manifest  func(doc)
	conflicts bool // --overwrite=false, expecting a conflict
	want      func(t *testing.T, patch, result doc)
}

func equal(t *testing.T, what string, got, want any) {
	t.Helper()
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}

var applyCases = []applyCase{{
	name:     "image bump",
	manifest: func(d doc) { d.set(app+".image", "nginx:1.26") },
	want: func(t *testing.T, p, r doc) {
		equal(t, "patched image", p.get(app+".image"), "nginx:1.26")
		equal(t, "order", fmt.Sprint(p.get("spec.template.spec.$setElementOrder/containers")), "[map[name:app] map[name:sidecar]]")
		equal(t, "image", r.get(app+".image"), "nginx:1.26")
	},
}, {
	name:     "env var added",
	manifest: func(d doc) { d.set(app+".env", append(d.list(app+".env"), map[string]any{"name": "C", "value": "3"})) },
	want: func(t *testing.T, p, r doc) {
		equal(t, "env", r.names(app+".env"), "A,B,C")
	},
}, {
	name:     "env var removed that the last apply set",
	manifest: func(d doc) { d.set(app+".env", d.list(app + ".env")[1:]) },
	want: func(t *testing.T, p, r doc) {
		equal(t, "env", r.names(app+".env"), "B")
		equal(t, "deletion", p.get("spec.template.spec.containers.0.env.0.$patch"), "delete")
	},
}, {
	name: "env var removed that another writer added stays",
	live: func(d doc) {
		d.set(app+".env", append(d.list(app+".env"), map[string]any{"name": "INJECTED", "value": "x"}))
	},
	manifest: func(d doc) { d.set(app+".image", "nginx:1.26") },
	want: func(t *testing.T, p, r doc) {
		equal(t, "env", r.names(app+".env"), "A,B,INJECTED")
	},
}, {
	name:     "env reordered",
	manifest: func(d doc) { e := d.list(app + ".env"); d.set(app+".env", []any{e[1], e[0]}) },
	want: func(t *testing.T, p, r doc) {
		equal(t, "env", r.names(app+".env"), "B,A")
		equal(t, "patch", len(p.list("spec.template.spec.containers.0.$setElementOrder/env")), 2)
	},
}, {
	name:     "sidecar removed",
	manifest: func(d doc) { d.set("spec.template.spec.containers", d.list("spec.template.spec.containers")[:1]) },
	want: func(t *testing.T, p, r doc) {
		equal(t, "containers", r.names("spec.template.spec.containers"), "app")
	},
}, {
	name: "containers reordered",
	manifest: func(d doc) {
		c := d.list("spec.template.spec.containers")
		d.set("spec.template.spec.containers", []any{c[1], c[0]})
	},
	want: func(t *testing.T, p, r doc) {
		equal(t, "containers", r.names("spec.template.spec.containers"), "sidecar,app")
	},
}, {
	name:     "HPA: replicas dropped from a manifest whose last apply set them",
	live:     func(d doc) { d.set("spec.replicas", 7) },
	manifest: func(d doc) { d.del("spec.replicas") },
	want: func(t *testing.T, p, r doc) {
		equal(t, "patch replicas", fmt.Sprint(p.get("spec")), fmt.Sprint(map[string]any{"replicas": nil}))
		equal(t, "replicas", r.get("spec.replicas"), nil) // the API server defaults it to 1
	},
}, {
	name:     "HPA: replicas absent from the last apply and the manifest",
	last:     func(d doc) { d.del("spec.replicas") },
	live:     func(d doc) { d.set("spec.replicas", 7) },
	manifest: func(d doc) { d.del("spec.replicas") },
	want: func(t *testing.T, p, r doc) {
		equal(t, "patch", string(p.bytes()), "{}")
		equal(t, "replicas", r.get("spec.replicas"), 7)
	},
}, {
	name: "kubectl rollout restart: restartedAt stays",
	live: func(d doc) {
		d.set(tpl+".metadata.annotations", map[string]any{"kubectl.kubernetes.io/restartedAt": "2026-01-02T03:04:05Z"})
	},
	manifest: func(d doc) { d.set(app+".image", "nginx:1.26") },
	want: func(t *testing.T, p, r doc) {
		a, _ := r.get(tpl + ".metadata.annotations").(map[string]any)
		equal(t, "restartedAt", a["kubectl.kubernetes.io/restartedAt"], "2026-01-02T03:04:05Z")
	},
}, {
	name:     "cpu 1000m against a live 1",
	manifest: func(d doc) { d.set(app+".resources.requests.cpu", "1000m") },
	want: func(t *testing.T, p, r doc) {
		equal(t, "cpu", r.get(app+".resources.requests.cpu"), "1000m") // normalized to "1" on decode
	},
}, {
	name:     "selector changed",
	manifest: func(d doc) { d.set("spec.selector.matchLabels.tier", "front") },
	want: func(t *testing.T, p, r doc) {
		equal(t, "selector", fmt.Sprint(r.get("spec.selector.matchLabels")), "map[app:web tier:front]")
	},
}, {
	name:     "strategy switched to Recreate (kubernetes#24198: retainKeys)",
	manifest: func(d doc) { d.set("spec.strategy", map[string]any{"type": "Recreate"}) },
	want: func(t *testing.T, p, r doc) {
		equal(t, "$retainKeys", p.get("spec.strategy.$retainKeys"), []any{"type"})
		equal(t, "strategy", fmt.Sprint(r.get("spec.strategy")), "map[type:Recreate]")
	},
}, {
	name: "two ports with one containerPort (kubernetes#39188: merged by containerPort alone)",
	last: func(d doc) {
		d.set(app+".ports", []any{map[string]any{"containerPort": 53, "protocol": "TCP"}})
	},
	manifest: func(d doc) {
		d.set(app+".ports", []any{
			map[string]any{"containerPort": 53, "protocol": "TCP", "name": "dns-tcp"},
			map[string]any{"containerPort": 53, "protocol": "UDP", "name": "dns-udp"},
		})
	},
	want: func(t *testing.T, p, r doc) {
		// Both manifest ports match the one live port, by containerPort:
		// both are merged into it and one port is left, with the fields
		// of the last one merged.
		equal(t, "ports", fmt.Sprint(r.list(app+".ports")), "[map[containerPort:53 name:dns-tcp protocol:TCP]]")
	},
}, {
	name: "volumes merged by name, a source switched (retainKeys)",
	live: func(d doc) {
		d.set("spec.template.spec.volumes", append(d.list("spec.template.spec.volumes"),
			map[string]any{"name": "injected", "emptyDir": map[string]any{}}))
	},
	manifest: func(d doc) {
		d.set("spec.template.spec.volumes.0", map[string]any{"name": "config", "secret": map[string]any{"secretName": "web"}})
	},
	want: func(t *testing.T, p, r doc) {
		equal(t, "volumes", r.names("spec.template.spec.volumes"), "config,injected")
		equal(t, "configMap", r.get("spec.template.spec.volumes.0.configMap"), nil)
		equal(t, "secret", fmt.Sprint(r.get("spec.template.spec.volumes.0.secret")), "map[secretName:web]")
	},
}, {
	name:     "a field the last apply set, dropped: removed",
	manifest: func(d doc) { d.del("spec.minReadySeconds") },
	want: func(t *testing.T, p, r doc) {
		equal(t, "minReadySeconds", r.get("spec.minReadySeconds"), nil)
	},
}, {
	name:     "a field the last apply did not set (a default), absent: kept",
	manifest: func(d doc) { d.set(app+".image", "nginx:1.26") },
	want: func(t *testing.T, p, r doc) {
		equal(t, "progressDeadlineSeconds", r.get("spec.progressDeadlineSeconds"), 600)
		equal(t, "imagePullPolicy", r.get(app+".imagePullPolicy"), "IfNotPresent")
	},
}, {
	name:     "a field dropped from a manifest first applied after kubectl create: kept",
	noApply:  true,
	manifest: func(d doc) { d.del("spec.minReadySeconds") },
	want: func(t *testing.T, p, r doc) {
		equal(t, "minReadySeconds", r.get("spec.minReadySeconds"), 5)
	},
}, {
	name:     "the same manifest again: no patch",
	manifest: func(d doc) {},
	want: func(t *testing.T, p, r doc) {
		equal(t, "patch", string(p.bytes()), "{}")
	},
}, {
	// The patch carries the sidecar whole (it is missing from the live
	// object) merged with the deletion of B inside it; the API server
	// appends it as it is, directives included, and with kubectl's
	// default --validate=strict refuses the unknown fields.
	name: "a container another writer removed, changed in the manifest: directives left in the object",
	last: func(d doc) {
		d.set("spec.template.spec.containers.1.env", []any{map[string]any{"name": "A", "value": "1"}, map[string]any{"name": "B", "value": "2"}})
	},
	live: func(d doc) { d.set("spec.template.spec.containers", d.list("spec.template.spec.containers")[:1]) },
	manifest: func(d doc) {
		d.set("spec.template.spec.containers.1.env", d.list("spec.template.spec.containers.1.env")[:1])
	},
	want: func(t *testing.T, p, r doc) {
		equal(t, "containers", r.names("spec.template.spec.containers"), "app,sidecar")
		equal(t, "order list left", fmt.Sprint(r.get("spec.template.spec.containers.1.$setElementOrder/env")), "[map[name:A]]")
		equal(t, "env", fmt.Sprint(r.get("spec.template.spec.containers.1.env")), "[map[name:A value:1] map[$patch:delete name:B]]")
		// The patch handler's decoding, with kubectl's --validate=strict.
		err := runtime.DefaultUnstructuredConverter.FromUnstructuredWithValidation(map[string]any(r), &appsv1.Deployment{}, true)
		if err == nil || !strings.Contains(err.Error(), `unknown field "spec.template.spec.containers[1].$setElementOrder/env"`) {
			t.Errorf("strict decoding: %v, want the directive refused as an unknown field", err)
		}
	},
}, {
	name:      "overwrite=false: an image another writer changed conflicts",
	live:      func(d doc) { d.set(app+".image", "nginx:hotfix") },
	manifest:  func(d doc) { d.set(app+".image", "nginx:1.26") },
	conflicts: true,
}}

// TestApplyNamedCases runs kubectl apply's cases people hit through the
// real kubectl and API server code and through ours: the patches must be
// the same value, the patched objects the same bytes, and the real
// outcome what each case expects.
func TestApplyNamedCases(t *testing.T) {
	for _, c := range applyCases {
		t.Run(c.name, func(t *testing.T) {
			last := parseDoc(baseManifest)
			if c.last != nil {
				c.last(last)
			}
			live := liveAfter(t, last, !c.noApply, c.live)
			manifest := last.clone()
			c.manifest(manifest)
			patch, result, err := applyBoth(t, live, manifest.bytes(), !c.conflicts)
			if c.conflicts {
				var conflict *smp.ConflictError
				_, ourErr := smp.Apply(live, manifest.bytes(), "default", ourSchema, false)
				if err == nil || !errors.As(ourErr, &conflict) {
					t.Fatalf("want a conflict; upstream: %v, ours: %v", err, ourErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("patch: %s", patch.bytes())
			c.want(t, patch, result)
		})
	}
}

// mergeCases are patches applied to a live object where upstream's
// in-place list handling shows in the result.
var mergeCases = []struct {
	name, live, patch, want string
}{{
	// The live list has spare capacity (decoded JSON lists grow by
	// doubling); upstream appends the patch's elements into it and
	// deduplicates in place, which rewrites the live order it then
	// sorts by.
	name:  "finalizers with a repeat: the union is ordered by the rewritten live list",
	live:  `{"metadata":{"finalizers":["a","a","b"]}}`,
	patch: `{"metadata":{"finalizers":["c"]}}`,
	want:  `{"metadata":{"finalizers":["a","c","b"]}}`,
}, {
	name:  "$patch: delete elements shift the live list in place",
	live:  `{"spec":{"template":{"spec":{"containers":[{"name":"a"},{"name":"b"},{"name":"c"}]}}}}`,
	patch: `{"spec":{"template":{"spec":{"$setElementOrder/containers":[{"name":"c"},{"name":"b"}],"containers":[{"$patch":"delete","name":"a"},{"name":"c","image":"x"}]}}}}`,
	want:  `{"spec":{"template":{"spec":{"containers":[{"image":"x","name":"c"},{"name":"b"}]}}}}`,
}, {
	name:  "retainKeys clears the strategy's other members",
	live:  `{"spec":{"strategy":{"type":"RollingUpdate","rollingUpdate":{"maxSurge":"25%"}}}}`,
	patch: `{"spec":{"strategy":{"$retainKeys":["type"],"type":"Recreate"}}}`,
	want:  `{"spec":{"strategy":{"type":"Recreate"}}}`,
}, {
	name:  "$deleteFromPrimitiveList removes finalizers",
	live:  `{"metadata":{"finalizers":["a","b","c"]}}`,
	patch: `{"metadata":{"$deleteFromPrimitiveList/finalizers":["b"],"$setElementOrder/finalizers":["c","a"]}}`,
	want:  `{"metadata":{"finalizers":["c","a"]}}`,
}, {
	name:  "$patch: replace on a list",
	live:  `{"spec":{"template":{"spec":{"containers":[{"name":"a"},{"name":"b"}]}}}}`,
	patch: `{"spec":{"template":{"spec":{"containers":[{"name":"z"},{"$patch":"replace"}]}}}}`,
	want:  `{"spec":{"template":{"spec":{"containers":[{"name":"z"}]}}}}`,
}}

// TestMergeNamedCases checks StrategicMergePatch against upstream's on
// patches where upstream's handling of lists shows.
func TestMergeNamedCases(t *testing.T) {
	for _, c := range mergeCases {
		t.Run(c.name, func(t *testing.T) {
			real, err := compareMerge([]byte(c.live), []byte(c.patch))
			if err != nil {
				t.Fatal(err)
			}
			if string(real) != c.want {
				t.Errorf("upstream gives %s, want %s", real, c.want)
			}
		})
	}
}

// TestUnitCases runs the main module's table cases through upstream's
// code: each must agree with ours and give the result the table expects.
func TestUnitCases(t *testing.T) {
	for _, c := range unitThreeWayCases {
		t.Run("three-way/"+c.name, func(t *testing.T) {
			var original []byte
			if c.original != "" {
				original = []byte(c.original)
			}
			real, err := compareThreeWay(original, []byte(c.modified), []byte(c.current), c.overwrite)
			if err != nil {
				t.Fatal(err)
			}
			if c.fails != (real.PatchErr != nil) || (!c.fails && string(real.Patch) != c.want) {
				t.Errorf("upstream gives %s (%v), want %s (fails: %v)", real.Patch, real.PatchErr, c.want, c.fails)
			}
		})
	}
	for _, c := range unitMergeCases {
		t.Run("merge/"+c.name, func(t *testing.T) {
			real, err := compareMerge([]byte(c.original), []byte(c.patch))
			if err != nil {
				t.Fatal(err)
			}
			if c.fails != (real == nil) || (!c.fails && string(real) != c.want) {
				t.Errorf("upstream gives %s, want %s (fails: %v)", real, c.want, c.fails)
			}
		})
	}
}

// kubectlManifests are manifests whose modified configuration and created
// object show kubectl's handling of annotations, namespaces and numbers.
var kubectlManifests = []string{
	`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"replicas":2}}`,
	`{"kind":"Deployment","metadata":{"name":"web","namespace":"prod","annotations":{"owner":"a","kubectl.kubernetes.io/last-applied-configuration":"old"}}}`,
	`{"kind":"Deployment","metadata":{"name":"web","annotations":{"note":"<a&b>\u2028"}}}`,
	`{"kind":"Deployment","metadata":{"annotations":{"note":null}}}`,
	`{"kind":"Deployment","metadata":{"annotations":{"note":"x","n":1}}}`,
	`{"kind":"Deployment","metadata":{"annotations":null,"namespace":""}}`,
	`{"kind":"Deployment","spec":{"replicas":2.0,"minReadySeconds":1e1,"x":12345678901234567890,"y":-0,"z":0.1}}`,
	`{"kind":"Deployment","metadata":{"name":"web","labels":null},"spec":{"replicas":null,"template":{"spec":{"containers":[{"name":"app","args":[null]}]}}}}`,
	`{"kind":"Deployment","metadata":"odd"}`,
}

// TestKubectlConfigurations compares ModifiedConfiguration and
// CreatedObject with kubectl's, byte for byte, with and without a
// default namespace.
func TestKubectlConfigurations(t *testing.T) {
	for _, m := range kubectlManifests {
		for _, ns := range []string{"default", ""} {
			real, rerr := realModified([]byte(m), ns)
			ours, oerr := smp.ModifiedConfiguration([]byte(m), ns)
			if err := differ("modified configuration", outcome{real, rerr}, outcome{ours, oerr}, true); err != nil {
				t.Errorf("%s (namespace %q): %v", m, ns, err)
			}
			real, rerr = realCreated([]byte(m), ns)
			ours, oerr = smp.CreatedObject([]byte(m), ns)
			if err := differ("created object", outcome{real, rerr}, outcome{ours, oerr}, true); err != nil {
				t.Errorf("%s (namespace %q): %v", m, ns, err)
			}
		}
	}
}
