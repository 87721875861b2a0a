package rollout_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutmath/rolloutmath/rollout"
)

// TestLabelSelectorMatches: every matchLabels pair and every expression
// must hold, as apimachinery's LabelSelectorAsSelector reads them: In needs
// the key with one of the values, NotIn the key absent or with another
// value, Exists the key, DoesNotExist its absence; an unknown operator
// matches nothing, and no requirement matches everything.
func TestLabelSelectorMatches(t *testing.T) {
	expr := func(op string, values ...string) rollout.LabelSelector {
		return rollout.LabelSelector{MatchExpressions: []rollout.LabelSelectorRequirement{{Key: "tier", Operator: op, Values: values}}}
	}
	front, back, none := map[string]string{"tier": "front", "app": "web"}, map[string]string{"tier": "back"}, map[string]string{"app": "web"}
	tests := []struct {
		name     string
		selector rollout.LabelSelector
		labels   map[string]string
		want     bool
	}{
		{"empty selector", rollout.LabelSelector{}, none, true},
		{"matchLabels equal", rollout.LabelSelector{MatchLabels: map[string]string{"app": "web"}}, front, true},
		{"matchLabels other value", rollout.LabelSelector{MatchLabels: map[string]string{"app": "db"}}, front, false},
		{"matchLabels key absent", rollout.LabelSelector{MatchLabels: map[string]string{"zone": "a"}}, front, false},
		{"In, value listed", expr(rollout.OpIn, "back", "front"), front, true},
		{"In, value not listed", expr(rollout.OpIn, "back"), front, false},
		{"In, key absent", expr(rollout.OpIn, "front"), none, false},
		{"NotIn, value listed", expr(rollout.OpNotIn, "front"), front, false},
		{"NotIn, value not listed", expr(rollout.OpNotIn, "front"), back, true},
		{"NotIn, key absent", expr(rollout.OpNotIn, "front"), none, true},
		{"Exists, present", expr(rollout.OpExists), back, true},
		{"Exists, absent", expr(rollout.OpExists), none, false},
		{"DoesNotExist, present", expr(rollout.OpDoesNotExist), back, false},
		{"DoesNotExist, absent", expr(rollout.OpDoesNotExist), none, true},
		{"unknown operator", expr("Near", "front"), front, false},
		{"labels and expression both hold", rollout.LabelSelector{MatchLabels: map[string]string{"app": "web"},
			MatchExpressions: []rollout.LabelSelectorRequirement{{Key: "tier", Operator: rollout.OpIn, Values: []string{"front"}}}}, front, true},
		{"labels hold, expression not", rollout.LabelSelector{MatchLabels: map[string]string{"app": "web"},
			MatchExpressions: []rollout.LabelSelectorRequirement{{Key: "tier", Operator: rollout.OpIn, Values: []string{"back"}}}}, front, false},
	}
	for _, tt := range tests {
		if got := tt.selector.Matches(tt.labels); got != tt.want {
			t.Errorf("%s: Matches(%v) = %v, want %v", tt.name, tt.labels, got, tt.want)
		}
	}
}

// TestLabelSelectorCheck: apimachinery's messages for an expression it
// cannot convert, with the expression's index.
func TestLabelSelectorCheck(t *testing.T) {
	tests := []struct {
		op      string
		values  []string
		wantErr string
	}{
		{rollout.OpIn, []string{"a"}, ""},
		{rollout.OpNotIn, []string{"a"}, ""},
		{rollout.OpExists, nil, ""},
		{rollout.OpDoesNotExist, nil, ""},
		{rollout.OpIn, nil, "matchExpressions[1]: for 'in', 'notin' operators, values set can't be empty"},
		{rollout.OpNotIn, nil, "matchExpressions[1]: for 'in', 'notin' operators, values set can't be empty"},
		{rollout.OpExists, []string{"a"}, "matchExpressions[1]: values set must be empty for exists and does not exist"},
		{rollout.OpDoesNotExist, []string{"a"}, "matchExpressions[1]: values set must be empty for exists and does not exist"},
		{"Near", nil, `matchExpressions[1]: "Near" is not a valid label selector operator`},
	}
	for _, tt := range tests {
		s := rollout.LabelSelector{MatchExpressions: []rollout.LabelSelectorRequirement{
			{Key: "app", Operator: rollout.OpExists},
			{Key: "tier", Operator: tt.op, Values: tt.values},
		}}
		if got := errString(s.Check()); got != tt.wantErr {
			t.Errorf("Check() of %s %v = %q, want %q", tt.op, tt.values, got, tt.wantErr)
		}
	}
}

// TestOptionalInt32JSON: a present value is a number (0 included), an
// absent one null, and decoding reverses it; a number beyond int32 is an
// error.
func TestOptionalInt32JSON(t *testing.T) {
	for _, tc := range []struct {
		v    rollout.OptionalInt32
		json string
	}{{rollout.OptionalInt32{}, "null"}, {rollout.Int32(0), "0"}, {rollout.Int32(-7), "-7"}, {rollout.Int32(2147483647), "2147483647"}} {
		b, err := json.Marshal(tc.v)
		if err != nil || string(b) != tc.json {
			t.Errorf("Marshal(%+v) = %s, %v; want %s", tc.v, b, err, tc.json)
		}
		got := rollout.Int32(99) // overwritten, null included
		if err := json.Unmarshal([]byte(tc.json), &got); err != nil || got != tc.v {
			t.Errorf("Unmarshal(%s) = %+v, %v; want %+v", tc.json, got, err, tc.v)
		}
	}
	var o rollout.OptionalInt32
	if err := json.Unmarshal([]byte("2147483648"), &o); err == nil || o.Valid {
		t.Errorf("Unmarshal(2147483648) = %+v, %v; want an error", o, err)
	}
}

// TestDeepCopyShares: a deep copy of a Deployment or a ReplicaSet shares no
// map or slice with the original: writing into every one of the copy's
// leaves the original as it was.
func TestDeepCopyShares(t *testing.T) {
	build := func() rollout.State {
		rs := rollout.WebReplicaSet("web-v1", "v1", 3, 1, rollout.WebEpoch)
		rs.Spec.Selector.MatchExpressions = []rollout.LabelSelectorRequirement{{Key: "tier", Operator: rollout.OpIn, Values: []string{"front"}}}
		rs.Spec.Template.Annotations = map[string]string{"t": "1"}
		rs.Status.Conditions = []rollout.ReplicaSetCondition{{Type: rollout.ReplicaFailure, Message: "m"}}
		s := rollout.WebState(3, rollout.DefaultRollingUpdate(), "v1", rs)
		s.Deployment.Annotations = map[string]string{"a": "1"}
		s.Deployment.Labels = map[string]string{"l": "1"}
		s.Deployment.OwnerReferences = []rollout.OwnerReference{{Name: "o"}}
		s.Deployment.Spec.Selector.MatchExpressions = []rollout.LabelSelectorRequirement{{Key: "tier", Operator: rollout.OpIn, Values: []string{"front"}}}
		s.Deployment.Spec.Template.Annotations = map[string]string{"t": "1"}
		s.Deployment.Status.Conditions = []rollout.Condition{{Type: rollout.Available, Message: "m", LastUpdateTime: time.Unix(0, 0)}}
		return s
	}
	s, want := build(), build() // want is built apart: no copy under test
	c := rollout.State{Deployment: s.Deployment.DeepCopy(), ReplicaSets: []rollout.ReplicaSet{s.ReplicaSets[0].DeepCopy()}}
	rollout.Scribble(&c)
	c.Deployment.Spec.Selector.MatchExpressions[0].Values[0] = "scribbled"
	c.ReplicaSets[0].Spec.Selector.MatchExpressions[0].Values[0] = "scribbled"
	c.ReplicaSets[0].Status.Conditions[0].Message = "scribbled"
	if diff := cmp.Diff(want, s, rollout.StateCmp); diff != "" {
		t.Errorf("DeepCopy() shares memory with the original (-before +after):\n%s", diff)
	}
}
