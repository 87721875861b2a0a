package sim

import (
	"reflect"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/surge"
)

// TestPlanCacheKeyCoversEveryField pins the fields of the types that
// planCache.appendState encodes. Two states that differ in a field the key
// leaves out would share a plan; when a type gains a field, this test
// names it, and appendState must encode it (and the list here learn it).
func TestPlanCacheKeyCoversEveryField(t *testing.T) {
	for _, tt := range []struct {
		v    any
		want []string
	}{
		// Pods: a state with pods is planned afresh.
		{rollout.State{}, []string{"Deployment", "ReplicaSets", "Pods", "Now", "Options"}},
		{rollout.Options{}, []string{"OmitTerminatingReplicas", "SkipValidation", "RefreshStaleAnnotations", "Version"}},
		{rollout.Deployment{}, []string{"ObjectMeta", "Spec", "Status"}},
		{rollout.ObjectMeta{}, []string{"Name", "Namespace", "UID", "Generation", "CreationTimestamp", "DeletionTimestamp", "Labels", "Annotations", "OwnerReferences"}},
		{rollout.OwnerReference{}, []string{"APIVersion", "Kind", "Name", "UID", "Controller", "BlockOwnerDeletion"}},
		{rollout.DeploymentSpec{}, []string{"Replicas", "Selector", "Template", "Strategy", "MinReadySeconds", "RevisionHistoryLimit", "Paused", "ProgressDeadlineSeconds"}},
		{rollout.LabelSelector{}, []string{"MatchLabels", "MatchExpressions"}},
		{rollout.LabelSelectorRequirement{}, []string{"Key", "Operator", "Values"}},
		// Meta and Spec by identity (Same).
		{rollout.PodTemplate{}, []string{"Labels", "Annotations", "Meta", "Spec"}},
		{rollout.Strategy{}, []string{"Type", "RollingUpdate"}},
		{rollout.RollingUpdate{}, []string{"MaxSurge", "MaxUnavailable"}},
		{surge.Value{}, []string{"percent", "n"}}, // IsPercent, Int
		{rollout.OptionalInt32{}, []string{"Value", "Valid"}},
		{rollout.DeploymentStatus{}, []string{"ObservedGeneration", "Replicas", "UpdatedReplicas", "ReadyReplicas", "AvailableReplicas", "UnavailableReplicas", "TerminatingReplicas", "Conditions", "CollisionCount"}},
		{rollout.Condition{}, []string{"Type", "Status", "LastUpdateTime", "LastTransitionTime", "Reason", "Message"}},
		{rollout.ReplicaSet{}, []string{"ObjectMeta", "Spec", "Status"}},
		{rollout.ReplicaSetSpec{}, []string{"Replicas", "MinReadySeconds", "Selector", "Template"}},
		{rollout.ReplicaSetStatus{}, []string{"Replicas", "FullyLabeledReplicas", "ReadyReplicas", "AvailableReplicas", "TerminatingReplicas", "ObservedGeneration", "Conditions"}},
		{rollout.ReplicaSetCondition{}, []string{"Type", "Status", "LastTransitionTime", "Reason", "Message"}},
	} {
		typ := reflect.TypeOf(tt.v)
		var got []string
		for i := range typ.NumField() {
			got = append(got, typ.Field(i).Name)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("fields of %v changed (-encoded +now): teach planCache.appendState the new ones\n%s", typ, diff)
		}
	}
}

// TestPlanCacheKeyTellsStatesApart: states that differ in one field the
// key holds get different keys, and equal states equal ones.
func TestPlanCacheKeyTellsStatesApart(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	base := rollout.State{Now: now, Deployment: rollout.Deployment{ObjectMeta: rollout.ObjectMeta{Name: "d", Labels: map[string]string{"a": "b"}}}}
	rs := rollout.ReplicaSet{ObjectMeta: rollout.ObjectMeta{Name: "r", UID: "u"}}
	base.ReplicaSets = []rollout.ReplicaSet{rs}
	for _, tt := range []struct {
		name   string
		change func(s *rollout.State)
	}{
		{"now", func(s *rollout.State) { s.Now = s.Now.Add(1) }},
		{"label value", func(s *rollout.State) { s.Deployment.Labels = map[string]string{"a": "c"} }},
		{"label moved into the key", func(s *rollout.State) { s.Deployment.Labels = map[string]string{"ab": ""} }},
		{"nil labels", func(s *rollout.State) { s.Deployment.Labels = nil }},
		{"empty annotations", func(s *rollout.State) { s.Deployment.Annotations = map[string]string{} }},
		{"replica set size", func(s *rollout.State) { s.ReplicaSets[0].Spec.Replicas = 1 }},
		{"replica set name and uid swapped", func(s *rollout.State) { s.ReplicaSets[0].Name, s.ReplicaSets[0].UID = "u", "r" }},
		{"no replica sets", func(s *rollout.State) { s.ReplicaSets = nil }},
		{"condition", func(s *rollout.State) {
			s.Deployment.Status.Conditions = []rollout.Condition{{Type: rollout.Progressing, LastUpdateTime: now}}
		}},
		{"max surge percent", func(s *rollout.State) { s.Deployment.Spec.Strategy.RollingUpdate.MaxSurge = surge.Percent(0) }},
	} {
		c := newPlanCache(Config{})
		key0, ok := c.appendState(nil, base)
		again, _ := c.appendState(nil, base)
		s := base
		s.ReplicaSets = []rollout.ReplicaSet{rs}
		tt.change(&s)
		key1, ok1 := c.appendState(nil, s)
		if !ok || !ok1 || string(key0) != string(again) || string(key0) == string(key1) {
			t.Errorf("%s: keys %q, %q, %q (ok %t, %t): want the first two equal, the last different", tt.name, key0, again, key1, ok, ok1)
		}
	}
}
