package rollout_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutmath/rolloutmath/rollout"
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
