package sim

import (
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/internal/gen"
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
		{"now in another second", func(s *rollout.State) { s.Now = s.Now.Add(time.Second) }},
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

// TestPlanCacheKeyHoldsWhatPlanReadsOfNow: two states that differ only
// in their instant within one second get one key when every progress
// deadline Plan may compare the instant with is a second or more away,
// and Plan gives both the same actions then; near a deadline, or past
// it, their keys differ. The states are rollouts under way (a sync after
// the template changed, its writes applied) and gen.State's.
func TestPlanCacheKeyHoldsWhatPlanReadsOfNow(t *testing.T) {
	objs, err := rollout.Decode([]byte(`{"apiVersion":"apps/v1","kind":"Deployment",
"metadata":{"name":"app","namespace":"default"},
"spec":{"replicas":1,"selector":{"matchLabels":{"app":"app"}},
"template":{"metadata":{"labels":{"app":"app"}},
"spec":{"containers":[{"name":"app","image":"app:1"}]}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	same, apart, rechecks := 0, 0, 0
	rapid.Check(t, func(t *rapid.T) {
		var s rollout.State
		if rapid.Bool().Draw(t, "rollout under way") {
			d := objs.Deployments[0]
			d.Spec.Replicas = rapid.Int32Range(1, 20).Draw(t, "replicas")
			d.Spec.Strategy = gen.Strategy().Draw(t, "strategy")
			start := gen.Epoch()
			var err error
			if s, err = WithImage(FromDeployment(d, start), "app", "app:2"); err != nil {
				t.Fatal(err)
			}
			actions, err := rollout.Plan(s)
			if err != nil {
				t.Fatal(err)
			}
			s = rollout.Apply(s, actions)
			s.Now = start.Add(time.Duration(rapid.IntRange(0, 20).Draw(t, "seconds later")) * time.Second)
		} else {
			s = gen.State().Draw(t, "state")
		}
		s.Pods = nil // a state with pods is planned afresh
		if rapid.Bool().Draw(t, "short deadline") {
			s.Deployment.Spec.ProgressDeadlineSeconds = rollout.Int32(rapid.Int32Range(1, 5).Draw(t, "deadline"))
		}
		sec := s.Now.Truncate(time.Second)
		conds := slices.Clone(s.Deployment.Status.Conditions)
		for i := range conds {
			if conds[i].Type == rollout.Progressing {
				back := time.Duration(rapid.Int64Range(-2e9, 8e9).Draw(t, "progressing updated before the second (ns)"))
				conds[i].LastUpdateTime = sec.Add(-back)
			}
		}
		s.Deployment.Status.Conditions = conds
		a, b := s, s
		a.Now = sec.Add(time.Duration(rapid.Int64Range(0, 999_999_999).Draw(t, "first instant (ns)")))
		b.Now = sec.Add(time.Duration(rapid.Int64Range(0, 999_999_999).Draw(t, "second instant (ns)")))
		c := newPlanCache(Config{})
		ka, oka := c.appendState(nil, a)
		kb, okb := c.appendState(nil, b)
		if !oka || !okb {
			t.Fatalf("keys not usable: %t, %t", oka, okb)
		}
		if string(ka) != string(kb) {
			apart++
			if !nearDeadline(&a.Deployment, a.Now, sec) && !nearDeadline(&b.Deployment, b.Now, sec) {
				t.Fatalf("instants %v and %v, both far from the deadline: different keys", a.Now, b.Now)
			}
			return
		}
		same++
		if !a.Now.Equal(b.Now) && (nearDeadline(&a.Deployment, a.Now, sec) || nearDeadline(&b.Deployment, b.Now, sec)) {
			t.Fatalf("instants %v and %v, near the deadline: one key", a.Now, b.Now)
		}
		pa, erra := rollout.Plan(a)
		pb, errb := rollout.Plan(b)
		if !sameActions(pa, pb) || !sameError(erra, errb) {
			t.Fatalf("one key, different plans at %v and %v:\n%s, %v\n%s, %v", a.Now, b.Now, actionsText(pa), erra, actionsText(pb), errb)
		}
		if slices.ContainsFunc(pa, func(a rollout.Action) bool { return a.Type == rollout.RecheckProgress }) {
			rechecks++
		}
	})
	t.Logf("%d draws with one key (%d of them re-check progress), %d with two", same, rechecks, apart)
	gen.Covered(t, "had one key and re-checked progress", rechecks, same+apart, 0.25) // 31% over 300 draws
	gen.Covered(t, "had two keys", apart, same+apart, 0.1)                            // 14% over 300 draws
}
