package rollout_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/surge"
)

// decoded summarizes what Decode read: each object as kind namespace/name,
// then the warnings.
func decoded(objs rollout.Objects) []string {
	var out []string
	for _, d := range objs.Deployments {
		out = append(out, "Deployment "+d.Namespace+"/"+d.Name)
	}
	for _, rs := range objs.ReplicaSets {
		out = append(out, "ReplicaSet "+rs.Namespace+"/"+rs.Name)
	}
	for _, p := range objs.Pods {
		out = append(out, "Pod "+p.Namespace+"/"+p.Name)
	}
	for _, w := range objs.Warnings {
		out = append(out, "warning: "+w)
	}
	return out
}

const (
	shapeDeployment = `{"kind": "Deployment", "metadata": {"name": "web", "namespace": "prod"}, "spec": {"selector": {"matchLabels": {"app": "web"}}, "template": {"metadata": {"labels": {"app": "web"}}, "spec": {"containers": [{"name": "c", "image": "i"}]}}}}`
	shapeReplicaSet = `{"kind": "ReplicaSet", "metadata": {"name": "web-1"}, "spec": {"selector": {"matchLabels": {"app": "web"}}, "template": {"metadata": {"labels": {"app": "web"}}, "spec": {"containers": [{"name": "c", "image": "i"}]}}}}`
	shapePod        = `{"kind": "Pod", "metadata": {"name": "p"}, "spec": {"containers": [{"name": "c", "image": "i"}]}}`
)

// TestDecodeShapes: what Decode accepts as a manifest (a List, a kind
// ending in List, items without a kind, or one object), which kinds it
// keeps, the namespace it gives an object without one, and how it names
// the item of each problem, one line each.
func TestDecodeShapes(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string
		wantErr  string
	}{
		{name: "a List of every kind", in: `{"kind": "List", "items": [` + shapeDeployment + `,` + shapeReplicaSet + `,` + shapePod + `, {"kind": "ConfigMap", "metadata": {"name": "c"}}]}`,
			want: []string{"Deployment prod/web", "ReplicaSet default/web-1", "Pod default/p"}},
		{name: "a typed list", in: `{"kind": "ReplicaSetList", "items": [` + shapeReplicaSet + `]}`, want: []string{"ReplicaSet default/web-1"}},
		{name: "items without a kind", in: `{"items": [` + shapePod + `]}`, want: []string{"Pod default/p"}},
		{name: "one object", in: "\n " + shapeDeployment + " \n", want: []string{"Deployment prod/web"}},
		{name: "an empty List", in: `{"kind": "List", "items": []}`},
		{name: "not an object", in: `[1]`, wantErr: "not a JSON object"},
		{name: "nothing", in: ` `, wantErr: "not a JSON object"},
		{name: "broken JSON", in: `{"kind": }`, wantErr: "invalid character '}' looking for beginning of value"},
		{name: "no kind", in: `{"metadata": {"name": "x"}}`, wantErr: "no kind: not a Kubernetes object"},
		{name: "every bad item, each on its line", in: `{"kind": "List", "items": [1, {"metadata": {}}, ` + shapePod + `]}`,
			wantErr: "items[0]: not a JSON object\nitems[1]: no kind: not a Kubernetes object"},
		{name: "a nested list", in: `{"kind": "List", "items": [{"kind": "List", "items": [2]}]}`, wantErr: "items[0]items[0]: not a JSON object"},
		{name: "a bad Pod", in: `{"kind": "List", "items": [{"kind": "Pod", "metadata": {"name": "p"}, "spec": {"nodeName": 3}}]}`,
			wantErr: `items[0] Pod "p": spec.nodeName: Invalid value: 3: must be a string, not a number`},
		{name: "a bad ReplicaSet", in: `{"kind": "ReplicaSet", "metadata": {"name": "r"}, "spec": {"replicas": "x"}}`,
			wantErr: `ReplicaSet "r": spec.replicas: Invalid value: "x": must be a number, not a string`},
		{name: "two problems of one object", in: `{"kind": "Pod", "metadata": {"name": "p", "nmae": "q"}, "spec": {"nodeName": 3}}`,
			wantErr: "Pod \"p\": metadata.nmae: unknown field\nPod \"p\": spec.nodeName: Invalid value: 3: must be a string, not a number"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			objs, err := rollout.Decode([]byte(tt.in))
			if diff := cmp.Diff(tt.wantErr, errString(err)); diff != "" {
				t.Fatalf("Decode() error mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.want, decoded(objs)); diff != "" && err == nil {
				t.Errorf("Decode() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestObjectsState: a Deployment's State holds the ReplicaSets and Pods of
// its namespace only, and the time given.
func TestObjectsState(t *testing.T) {
	objs, err := rollout.Decode([]byte(`{"kind": "List", "items": [` + shapeDeployment + `,` + shapeReplicaSet + `,` + shapePod + `,` +
		strings.ReplaceAll(shapeReplicaSet, `"name": "web-1"`, `"name": "web-2", "namespace": "prod"`) + `,` +
		strings.ReplaceAll(shapePod, `"name": "p"`, `"name": "q", "namespace": "prod"`) + `]}`))
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	s := objs.State(objs.Deployments[0], now)
	var pods []string
	for _, p := range s.Pods {
		pods = append(pods, p.Name)
	}
	got := fmt.Sprintf("%v %v %v", rollout.Names(s.ReplicaSets), pods, s.Now.Equal(now))
	if want := "[web-2] [q] true"; got != want {
		t.Errorf("State() has %s, want %s", got, want)
	}
}

// TestDecodeKeepsStatusAndDeletion: decoding keeps what the controller
// reads besides the spec: a Deployment's and a ReplicaSet's status, and a
// deletion timestamp (absent is the zero time).
func TestDecodeKeepsStatusAndDeletion(t *testing.T) {
	objs, err := rollout.Decode([]byte(`{"kind": "List", "items": [
	{"kind": "Deployment", "metadata": {"name": "web", "deletionTimestamp": "2026-01-01T00:00:05Z"},
	 "spec": {"selector": {"matchLabels": {"app": "web"}}, "template": {"metadata": {"labels": {"app": "web"}}, "spec": {"containers": [{"name": "c", "image": "i"}]}}},
	 "status": {"observedGeneration": 3, "replicas": 4, "updatedReplicas": 2, "readyReplicas": 3, "availableReplicas": 1, "unavailableReplicas": 3, "collisionCount": 1,
	  "conditions": [{"type": "Available", "status": "False", "reason": "R", "message": "m", "lastUpdateTime": "2026-01-01T00:00:01Z", "lastTransitionTime": "2026-01-01T00:00:02Z"}]}},
	{"kind": "ReplicaSet", "metadata": {"name": "web-1"}, "spec": {"replicas": 2, "selector": {"matchLabels": {"app": "web"}}, "template": {"metadata": {"labels": {"app": "web"}}, "spec": {"containers": [{"name": "c", "image": "i"}]}}},
	 "status": {"replicas": 2, "fullyLabeledReplicas": 2, "readyReplicas": 1, "availableReplicas": 1, "observedGeneration": 1, "terminatingReplicas": 1,
	  "conditions": [{"type": "ReplicaFailure", "status": "True", "reason": "FailedCreate", "message": "quota", "lastTransitionTime": "2026-01-01T00:00:03Z"}]}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	d, rs := objs.Deployments[0], objs.ReplicaSets[0]
	at := func(sec int) time.Time { return time.Date(2026, 1, 1, 0, 0, sec, 0, time.UTC) }
	wantD := rollout.DeploymentStatus{ObservedGeneration: 3, Replicas: 4, UpdatedReplicas: 2, ReadyReplicas: 3, AvailableReplicas: 1, UnavailableReplicas: 3,
		CollisionCount: rollout.Int32(1), Conditions: []rollout.Condition{{Type: rollout.Available, Status: rollout.ConditionFalse, Reason: "R", Message: "m",
			LastUpdateTime: at(1), LastTransitionTime: at(2)}}}
	if diff := cmp.Diff(wantD, d.Status); diff != "" {
		t.Errorf("Deployment status mismatch (-want +got):\n%s", diff)
	}
	if !d.DeletionTimestamp.Equal(at(5)) || !d.Deleting() {
		t.Errorf("deletionTimestamp %v, Deleting %v; want %v, true", d.DeletionTimestamp, d.Deleting(), at(5))
	}
	wantRS := rollout.ReplicaSetStatus{Replicas: 2, FullyLabeledReplicas: 2, ReadyReplicas: 1, AvailableReplicas: 1, ObservedGeneration: 1,
		TerminatingReplicas: rollout.Int32(1), Conditions: []rollout.ReplicaSetCondition{{Type: rollout.ReplicaFailure, Status: rollout.ConditionTrue,
			Reason: "FailedCreate", Message: "quota", LastTransitionTime: at(3)}}}
	if diff := cmp.Diff(wantRS, rs.Status); diff != "" {
		t.Errorf("ReplicaSet status mismatch (-want +got):\n%s", diff)
	}
	if !rs.DeletionTimestamp.IsZero() || rs.Deleting() {
		t.Errorf("ReplicaSet deletionTimestamp %v, want none", rs.DeletionTimestamp)
	}
}

// TestDecodeStrategyAndMeta: maxSurge and maxUnavailable read as a count
// (a number) or a percent (a string of the API's grammar), anything else an
// error on the field that wraps surge.ErrSyntax, for either field; owner
// references keep controller and blockOwnerDeletion, false when absent;
// empty label and annotation maps decode as absent.
func TestDecodeStrategyAndMeta(t *testing.T) {
	deployment := func(rollingUpdate, meta string) string {
		return `{"kind": "Deployment", "metadata": {"name": "web"` + meta + `}, "spec": {"selector": {"matchLabels": {"app": "web"}},
		 "strategy": {"type": "RollingUpdate", "rollingUpdate": ` + rollingUpdate + `},
		 "template": {"metadata": {"labels": {"app": "web"}}, "spec": {"containers": [{"name": "c", "image": "i"}]}}}}`
	}
	for _, tc := range []struct {
		rollingUpdate string
		want          string // the limits, or the error
	}{
		{`{"maxSurge": 3, "maxUnavailable": "10%"}`, "3 10%"},
		{`{"maxSurge": "3", "maxUnavailable": 1}`, `Deployment "web": spec.strategy.rollingUpdate.maxSurge: Invalid value: "3": ` + surge.PercentSyntaxDetail},
		{`{"maxSurge": 1, "maxUnavailable": "25 %"}`, `Deployment "web": spec.strategy.rollingUpdate.maxUnavailable: Invalid value: "25 %": ` + surge.PercentSyntaxDetail},
	} {
		objs, err := rollout.Decode([]byte(deployment(tc.rollingUpdate, "")))
		got := errString(err)
		if err == nil {
			ru := objs.Deployments[0].Spec.Strategy.RollingUpdate
			got = ru.MaxSurge.String() + " " + ru.MaxUnavailable.String()
		} else if !errors.Is(err, surge.ErrSyntax) {
			t.Errorf("%s: error %v does not wrap surge.ErrSyntax", tc.rollingUpdate, err)
		}
		if got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.rollingUpdate, got, tc.want)
		}
	}
	objs, err := rollout.Decode([]byte(deployment(`{"maxSurge": 1, "maxUnavailable": 1}`,
		`, "labels": {}, "annotations": {}, "ownerReferences": [{"apiVersion": "v1", "kind": "K", "name": "a", "uid": "u1"},
		 {"apiVersion": "v1", "kind": "K", "name": "b", "uid": "u2", "controller": true, "blockOwnerDeletion": true}]`)))
	if err != nil {
		t.Fatal(err)
	}
	d := objs.Deployments[0]
	want := []rollout.OwnerReference{{APIVersion: "v1", Kind: "K", Name: "a", UID: "u1"}, {APIVersion: "v1", Kind: "K", Name: "b", UID: "u2", Controller: true, BlockOwnerDeletion: true}}
	if diff := cmp.Diff(want, d.OwnerReferences); diff != "" {
		t.Errorf("owner references mismatch (-want +got):\n%s", diff)
	}
	if d.Labels != nil || d.Annotations != nil {
		t.Errorf("labels %#v, annotations %#v; want nil for empty maps", d.Labels, d.Annotations)
	}
}

// TestDecodeReplicaSetsAsStored: a ReplicaSet's template gets the pod
// defaults, as the API server stores it; with Validate, a ReplicaSet the
// server refuses on create is an error; a Deployment's rollback request
// that is not a number is an error, as the server's conversion makes it.
func TestDecodeReplicaSetsAsStored(t *testing.T) {
	objs, err := rollout.Decode([]byte(shapeReplicaSet))
	if err != nil {
		t.Fatal(err)
	}
	if spec := objs.ReplicaSets[0].Spec.Template.Spec.String(); !strings.Contains(spec, `"restartPolicy":"Always"`) || !strings.Contains(spec, `"imagePullPolicy":"Always"`) || !strings.Contains(spec, `"dnsPolicy":"ClusterFirst"`) {
		t.Errorf("template spec %s, want the pod defaults", spec)
	}
	bad := strings.ReplaceAll(shapeReplicaSet, `"name": "web-1"`, `"name": "Web_1"`)
	if _, err := (rollout.DecodeOptions{Validate: true}).Decode([]byte(bad)); err == nil || !strings.Contains(err.Error(), `ReplicaSet "Web_1": metadata.name: Invalid value: "Web_1"`) {
		t.Errorf("Decode with Validate of a ReplicaSet named Web_1: error %v", err)
	}
	if _, err := (rollout.DecodeOptions{}).Decode([]byte(bad)); err != nil {
		t.Errorf("Decode without Validate: %v", err)
	}
	rollback := strings.ReplaceAll(shapeDeployment, `"namespace": "prod"`, `"namespace": "prod", "annotations": {"deprecated.deployment.rollback.to": "abc"}`)
	if _, err := rollout.Decode([]byte(rollback)); errString(err) != `Deployment "web": metadata.annotations: Invalid value: "deprecated.deployment.rollback.to=abc": failed to parse annotation[deprecated.deployment.rollback.to]=abc as int64` {
		t.Errorf("Decode of a rollback to abc: error %v", err)
	}
}
