package kube_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/record"

	"github.com/rolloutmath/rolloutmath/internal/golden"
	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/kube"
)

const goldenDir = "../../testdata/golden"

// typedObjects decodes a golden state, a kind: List, into apps/v1 and
// core/v1 objects, as a clientset would hold them. An object without a
// namespace is in "default", as the API server puts it.
func typedObjects(t *testing.T, state []byte) (d *appsv1.Deployment, objs []runtime.Object) {
	t.Helper()
	var list struct{ Items []json.RawMessage }
	if err := json.Unmarshal(state, &list); err != nil {
		t.Fatal(err)
	}
	for _, item := range list.Items {
		var meta struct{ Kind string }
		if err := json.Unmarshal(item, &meta); err != nil {
			t.Fatal(err)
		}
		var obj interface {
			runtime.Object
			GetNamespace() string
			SetNamespace(string)
		}
		switch meta.Kind {
		case "Deployment":
			d = new(appsv1.Deployment)
			obj = d
		case "ReplicaSet":
			obj = new(appsv1.ReplicaSet)
		case "Pod":
			obj = new(corev1.Pod)
		default:
			t.Fatalf("unexpected kind %q", meta.Kind)
		}
		if err := json.Unmarshal(item, obj); err != nil {
			t.Fatal(err)
		}
		if obj.GetNamespace() == "" {
			obj.SetNamespace("default")
		}
		objs = append(objs, obj)
	}
	if d == nil {
		t.Fatal("no Deployment in the state")
	}
	return d, objs
}

// TestSyncerGolden runs Syncer.Sync over a fake clientset holding each
// golden state and checks that the calls it makes and the events it
// records are the real controller's plan, in the plan contract: every
// object sent went through ReplicaSetFor, DeploymentFor or OwnerPatch and
// is read back with FromReplicaSet or FromDeployment. The cases where
// rollout.Plan itself differs from upstream on purpose (upstream's int32
// arithmetic wraps; package rollout's replay checks them) are counted and
// skipped. Validation is skipped, as upstream's controller does not
// validate.
func TestSyncerGolden(t *testing.T) {
	cases, err := golden.Load(goldenDir)
	if err != nil {
		t.Fatal(err)
	}
	var compared, differ int
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			want := normalize(t, c.Plan)
			// The recordings are of v1.36.3's API server and controller.
			objs, err := rollout.DecodeOptions{Version: rollout.V1_36}.Decode(c.State)
			if err != nil {
				t.Fatal(err)
			}
			s := objs.State(objs.Deployments[0], c.Now)
			s.Options.SkipValidation = true
			s.Options.Version = rollout.V1_36
			actions, planErr := rollout.Plan(s)
			if diff := cmp.Diff(want, normalize(t, report(t, rollout.NewReport(c.Now, actions, planErr)))); diff != "" {
				differ++ // upstream wraps here: not ours to compare
				return
			}

			d, typed := typedObjects(t, c.State)
			client := fake.NewClientset(typed...)
			client.ClearActions()
			events := record.NewFakeRecorder(100)
			syncer := kube.Syncer{Client: client, Recorder: events, Options: rollout.Options{SkipValidation: true, Version: rollout.V1_36}} // the recordings are v1.36.3's
			res, err := syncer.Sync(context.Background(), d.Namespace, d.Name, c.Now)
			if err != nil && (planErr == nil || err.Error() != planErr.Error()) {
				t.Fatalf("Sync() error = %v, Plan() error = %v", err, planErr)
			}
			got := rollout.Report{Now: c.Now, Actions: sent(t, client.Actions(), typed), Events: []string{}, RecheckAt: res.RecheckAt}
			if err != nil {
				got.Error = err.Error()
			}
			close(events.Events)
			for e := range events.Events {
				got.Events = append(got.Events, e)
			}
			if diff := cmp.Diff(want, normalize(t, report(t, got))); diff != "" {
				t.Errorf("Sync() calls mismatch (-upstream +Sync):\n%s", diff)
				return
			}
			compared++
		})
	}
	t.Logf("%d cases: %d compared, %d where Plan differs from upstream on purpose", len(cases), compared, differ)
	if compared+differ != len(cases) || differ > 10 {
		t.Errorf("%d compared and %d skipped of %d cases; package rollout's replay skips 10 (its goldenWraps)", compared, differ, len(cases))
	}
}

// sent turns the write calls recorded by a fake clientset back into
// actions, reading the objects sent with the package's From functions.
// objs are the objects the clientset started with.
func sent(t *testing.T, calls []clienttesting.Action, objs []runtime.Object) []rollout.Action {
	t.Helper()
	sizes := map[string]int32{}
	for _, o := range objs {
		if rs, ok := o.(*appsv1.ReplicaSet); ok {
			sizes[rs.Name] = *rs.Spec.Replicas
		}
	}
	out := []rollout.Action{} // the contract lists no actions as []
	for _, call := range calls {
		switch call.GetVerb() {
		case "create":
			rs, err := kube.FromReplicaSet(call.(clienttesting.CreateAction).GetObject().(*appsv1.ReplicaSet))
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, rollout.Action{Type: rollout.CreateReplicaSet, ReplicaSet: rs.Name, To: rs.Spec.Replicas,
				Labels: rs.Labels, Annotations: rs.Annotations})
			sizes[rs.Name] = rs.Spec.Replicas
		case "update":
			switch obj := call.(clienttesting.UpdateAction).GetObject().(type) {
			case *appsv1.ReplicaSet:
				rs, err := kube.FromReplicaSet(obj)
				if err != nil {
					t.Fatal(err)
				}
				a := rollout.Action{Type: rollout.ScaleReplicaSet, ReplicaSet: rs.Name, From: sizes[rs.Name], To: rs.Spec.Replicas, Annotations: rs.Annotations}
				if a.From == a.To {
					a.Type = rollout.UpdateReplicaSet
				}
				out = append(out, a)
				sizes[rs.Name] = rs.Spec.Replicas
			case *appsv1.Deployment:
				d, err := kube.FromDeployment(obj)
				if err != nil {
					t.Fatal(err)
				}
				if call.GetSubresource() == "status" {
					out = append(out, rollout.Action{Type: rollout.UpdateDeploymentStatus, Annotations: d.Annotations, Status: &d.Status})
				} else {
					out = append(out, rollout.Action{Type: rollout.UpdateDeployment, Annotations: d.Annotations, Template: &d.Spec.Template})
				}
			}
		case "patch":
			patch := call.(clienttesting.PatchAction)
			a := rollout.Action{Type: rollout.AdoptReplicaSet, ReplicaSet: patch.GetName()}
			if strings.Contains(string(patch.GetPatch()), `"$patch":"delete"`) {
				a.Type = rollout.ReleaseReplicaSet
			}
			out = append(out, a)
		case "delete":
			out = append(out, rollout.Action{Type: rollout.DeleteReplicaSet, ReplicaSet: call.(clienttesting.DeleteAction).GetName()})
		}
	}
	return out
}

func report(t *testing.T, r rollout.Report) []byte {
	t.Helper()
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func normalize(t *testing.T, plan []byte) map[string]any {
	t.Helper()
	out, err := golden.Normalize(plan)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
