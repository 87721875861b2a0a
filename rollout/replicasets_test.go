package rollout_test

import (
	"fmt"
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutmath/rolloutmath/rollout"
)

// TestEqualIgnoreHash ports upstream's TestEqualIgnoreHash (vectors B.1):
// each case in both argument orders, and neither template changes.
func TestEqualIgnoreHash(t *testing.T) {
	tmpl := func(nodeName string, annotations, labels map[string]string) rollout.PodTemplate {
		// Upstream also sets metadata.name, which PodTemplate does not keep.
		return rollout.PodTemplate{Labels: labels, Annotations: annotations, Spec: rollout.MustParsePodSpec(fmt.Sprintf(`{"nodeName":%q}`, nodeName))}
	}
	tests := []struct {
		name           string
		former, latter rollout.PodTemplate
		want           bool
		reason         string
	}{
		{
			name:   "Same spec, same labels",
			former: tmpl("foo-node", map[string]string{}, map[string]string{rollout.PodTemplateHashLabel: "value-1", "something": "else"}),
			latter: tmpl("foo-node", map[string]string{}, map[string]string{rollout.PodTemplateHashLabel: "value-1", "something": "else"}),
			want:   true,
		},
		{
			name:   "Same spec, only pod-template-hash label value is different",
			former: tmpl("foo-node", map[string]string{}, map[string]string{rollout.PodTemplateHashLabel: "value-1", "something": "else"}),
			latter: tmpl("foo-node", map[string]string{}, map[string]string{rollout.PodTemplateHashLabel: "value-2", "something": "else"}),
			want:   true,
		},
		{
			name:   "Same spec, the former doesn't have pod-template-hash label",
			former: tmpl("foo-node", map[string]string{}, map[string]string{"something": "else"}),
			latter: tmpl("foo-node", map[string]string{}, map[string]string{rollout.PodTemplateHashLabel: "value-2", "something": "else"}),
			want:   true,
		},
		{
			name:   "Same spec, the label is different, the former doesn't have pod-template-hash label, same number of labels",
			former: tmpl("foo-node", map[string]string{}, map[string]string{"something": "else"}),
			latter: tmpl("foo-node", map[string]string{}, map[string]string{rollout.PodTemplateHashLabel: "value-2"}),
			want:   false,
		},
		{
			name:   "Same spec, the label is different, the latter doesn't have pod-template-hash label, same number of labels",
			former: tmpl("foo-node", map[string]string{}, map[string]string{rollout.PodTemplateHashLabel: "value-1"}),
			latter: tmpl("foo-node", map[string]string{}, map[string]string{"something": "else"}),
			want:   false,
		},
		{
			name:   "Same spec, the label is different, and the pod-template-hash label value is the same",
			former: tmpl("foo-node", map[string]string{}, map[string]string{rollout.PodTemplateHashLabel: "value-1"}),
			latter: tmpl("foo-node", map[string]string{}, map[string]string{rollout.PodTemplateHashLabel: "value-1", "something": "else"}),
			want:   false,
		},
		{
			name:   "Different spec, same labels",
			former: tmpl("foo-node", map[string]string{"former": "value"}, map[string]string{rollout.PodTemplateHashLabel: "value-1", "something": "else"}),
			latter: tmpl("foo-node", map[string]string{"latter": "value"}, map[string]string{rollout.PodTemplateHashLabel: "value-1", "something": "else"}),
			want:   false,
		},
		{
			name:   "Different spec, different pod-template-hash label value",
			former: tmpl("foo-node", map[string]string{}, map[string]string{rollout.PodTemplateHashLabel: "value-1", "something": "else"}),
			latter: tmpl("foo-node", map[string]string{}, map[string]string{rollout.PodTemplateHashLabel: "value-2", "something": "else"}),
			want:   true,
			reason: "upstream's templates differ only in metadata.name (foo-1, foo-2), which PodTemplate does not keep; upstream says false",
		},
		{
			name:   "Different spec, the former doesn't have pod-template-hash label",
			former: tmpl("foo-node-1", map[string]string{}, map[string]string{"something": "else"}),
			latter: tmpl("foo-node-2", map[string]string{}, map[string]string{rollout.PodTemplateHashLabel: "value-2", "something": "else"}),
			want:   false,
		},
		{
			name:   "Different spec, different labels",
			former: tmpl("foo-node-1", map[string]string{}, map[string]string{"something": "else"}),
			latter: tmpl("foo-node-2", map[string]string{}, map[string]string{"nothing": "else"}),
			want:   false,
		},
		// Not upstream: nil and empty maps are equal (R-EQ-1).
		{
			name:   "same label keys, one value different",
			former: tmpl("foo-node", nil, map[string]string{rollout.PodTemplateHashLabel: "x", "something": "else"}),
			latter: tmpl("foo-node", nil, map[string]string{rollout.PodTemplateHashLabel: "y", "something": "other"}),
			want:   false,
		},
		{
			name:   "nil and empty label maps",
			former: tmpl("foo-node", nil, nil),
			latter: tmpl("foo-node", map[string]string{}, map[string]string{rollout.PodTemplateHashLabel: "x"}),
			want:   true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, order := range [][2]rollout.PodTemplate{{tt.former, tt.latter}, {tt.latter, tt.former}} {
				a, b := order[0], order[1]
				wantA, wantB := a.Labels, b.Labels
				a.Labels, b.Labels = maps.Clone(a.Labels), maps.Clone(b.Labels)
				if diff := cmp.Diff(tt.want, rollout.EqualIgnoreHash(a, b)); diff != "" {
					t.Errorf("EqualIgnoreHash() mismatch (-want +got):\n%s", diff)
				}
				if diff := cmp.Diff(wantA, a.Labels); diff != "" {
					t.Errorf("EqualIgnoreHash() changed the first labels (-want +got):\n%s", diff)
				}
				if diff := cmp.Diff(wantB, b.Labels); diff != "" {
					t.Errorf("EqualIgnoreHash() changed the second labels (-want +got):\n%s", diff)
				}
			}
		})
	}
}

// findFixtures is the fixture of upstream's TestFindNewReplicaSet and
// TestFindOldReplicaSets (vectors B.2, B.3).
func findFixtures(newSize int32) (d rollout.Deployment, newRS, newRSDup, oldRS rollout.ReplicaSet) {
	now := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	d = rollout.UpstreamGenerateDeployment("nginx")
	newRS = rollout.UpstreamGenerateRS(d, "nginx-new", "uid-new")
	newRS.Spec.Replicas = newSize
	// generateRS shares the label map with the template.
	newRS.Labels[rollout.PodTemplateHashLabel] = "hash"
	newRS.Spec.Template.Labels = newRS.Labels
	newRS.CreationTimestamp = now.Add(time.Minute)

	newRSDup = rollout.UpstreamGenerateRS(d, "nginx-dup", "uid-dup")
	newRSDup.Labels[rollout.PodTemplateHashLabel] = "different-hash"
	newRSDup.Spec.Template.Labels = newRSDup.Labels
	newRSDup.CreationTimestamp = now

	oldD := rollout.UpstreamGenerateDeployment("nginx")
	oldD.Spec.Template.Spec = rollout.UpstreamContainerSpec("nginx-old-1", "nginx")
	oldRS = rollout.UpstreamGenerateRS(oldD, "nginx-old", "uid-old")
	return d, newRS, newRSDup, oldRS
}

// twin returns a deep copy of rs with another UID.
func twin(rs rollout.ReplicaSet, uid string) rollout.ReplicaSet {
	rs = rs.DeepCopy()
	rs.UID = uid
	return rs
}

// TestFindNewReplicaSet ports upstream's TestFindNewReplicaSet (B.2).
func TestFindNewReplicaSet(t *testing.T) {
	d, newRS, newRSDup, oldRS := findFixtures(0)
	type result struct {
		RS rollout.ReplicaSet
		OK bool
	}
	tests := []struct {
		name string
		sets []rollout.ReplicaSet
		want result
	}{
		{
			name: "Get new ReplicaSet with the same template as Deployment spec but different pod-template-hash value",
			sets: []rollout.ReplicaSet{newRS, oldRS},
			want: result{newRS, true},
		},
		{
			name: "Get the oldest new ReplicaSet when there are more than one ReplicaSet with the same template",
			sets: []rollout.ReplicaSet{newRS, oldRS, newRSDup},
			want: result{newRSDup, true},
		},
		{
			name: "Get nil new ReplicaSet",
			sets: []rollout.ReplicaSet{oldRS},
			want: result{},
		},
		// Not upstream's rows: the oldest given first, and equal creation
		// times and names keep the order given, as upstream's sort.Sort of
		// two does.
		{
			name: "the oldest given first",
			sets: []rollout.ReplicaSet{newRSDup, oldRS, newRS},
			want: result{newRSDup, true},
		},
		{
			name: "equal creation time and name: the first given",
			sets: []rollout.ReplicaSet{oldRS, twin(newRS, "uid-a"), twin(newRS, "uid-b")},
			want: result{twin(newRS, "uid-a"), true},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := rollout.DeepCopies(tt.sets)
			rs, ok := rollout.FindNewReplicaSet(d, tt.sets)
			if diff := cmp.Diff(tt.want, result{rs, ok}); diff != "" {
				t.Errorf("FindNewReplicaSet() mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(before, tt.sets); diff != "" {
				t.Errorf("FindNewReplicaSet() modified its input (-before +after):\n%s", diff)
			}
		})
	}
}

// TestFindOldReplicaSets ports upstream's TestFindOldReplicaSets (B.3):
// all old ReplicaSets oldest first, and those with replicas.
func TestFindOldReplicaSets(t *testing.T) {
	d, newRS, newRSDup, oldRS := findFixtures(1)
	oldRS.CreationTimestamp = newRSDup.CreationTimestamp.Add(-time.Minute)
	tests := []struct {
		name         string
		sets         []rollout.ReplicaSet
		wantAll      []rollout.ReplicaSet
		wantReplicas []rollout.ReplicaSet
	}{
		{
			name:    "Get old ReplicaSets",
			sets:    []rollout.ReplicaSet{newRS, oldRS},
			wantAll: []rollout.ReplicaSet{oldRS},
		},
		{
			name:    "Get old ReplicaSets with no new ReplicaSet",
			sets:    []rollout.ReplicaSet{oldRS},
			wantAll: []rollout.ReplicaSet{oldRS},
		},
		{
			name:         "Get old ReplicaSets with two new ReplicaSets, only the oldest new ReplicaSet is seen as new ReplicaSet",
			sets:         []rollout.ReplicaSet{oldRS, newRS, newRSDup},
			wantAll:      []rollout.ReplicaSet{oldRS, newRS},
			wantReplicas: []rollout.ReplicaSet{newRS},
		},
		{
			name: "Get empty old ReplicaSets",
			sets: []rollout.ReplicaSet{newRS},
		},
		// Not upstream: the result is oldest first whatever the input order.
		{
			name:         "input newest first",
			sets:         []rollout.ReplicaSet{newRS, newRSDup, oldRS},
			wantAll:      []rollout.ReplicaSet{oldRS, newRS},
			wantReplicas: []rollout.ReplicaSet{newRS},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := rollout.DeepCopies(tt.sets)
			withReplicas, all := rollout.FindOldReplicaSets(d, tt.sets)
			if diff := cmp.Diff(tt.wantAll, all); diff != "" {
				t.Errorf("FindOldReplicaSets() all mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantReplicas, withReplicas); diff != "" {
				t.Errorf("FindOldReplicaSets() with replicas mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(before, tt.sets); diff != "" {
				t.Errorf("FindOldReplicaSets() modified its input (-before +after):\n%s", diff)
			}
		})
	}
}

// TestActiveReplicaSetsFiltering ports controller_utils'
// TestActiveReplicaSetsFiltering (B.18), nil entry included.
func TestActiveReplicaSetsFiltering(t *testing.T) {
	rs := func(name string, replicas int32) *rollout.ReplicaSet {
		return &rollout.ReplicaSet{ObjectMeta: rollout.ObjectMeta{Name: name}, Spec: rollout.ReplicaSetSpec{Replicas: replicas}}
	}
	tests := []struct {
		name string
		sets []*rollout.ReplicaSet
		want []string
	}{
		{name: "zero, nil, foo, bar", sets: []*rollout.ReplicaSet{rs("zero", 0), nil, rs("foo", 1), rs("bar", 2)}, want: []string{"foo", "bar"}},
		{name: "none", want: nil},
		{name: "all inactive", sets: []*rollout.ReplicaSet{rs("zero", 0)}, want: nil},
		// Not upstream (R-PRIM-1): a negative size is inactive.
		{name: "negative", sets: []*rollout.ReplicaSet{rs("minus", -1), rs("foo", 1)}, want: []string{"foo"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := slices.Clone(tt.sets)
			if diff := cmp.Diff(tt.want, rollout.Names(rollout.FilterActiveReplicaSets(tt.sets))); diff != "" {
				t.Errorf("FilterActiveReplicaSets() mismatch (-want +got):\n%s", diff)
			}
			if !slices.Equal(before, tt.sets) {
				t.Errorf("FilterActiveReplicaSets() reordered its input: %v, was %v", tt.sets, before)
			}
		})
	}
}

// TestFindActiveOrLatest: upstream has no unit test of FindActiveOrLatest
// (the sync path of a scaling event reaches it); these rows pin its rule.
// The only ReplicaSet with replicas, new or old, is returned; with two or
// more, none (they are scaled proportionally); with none, the new one, or
// else the newest old one. A new ReplicaSet at 0 is not active.
func TestFindActiveOrLatest(t *testing.T) {
	rs := func(name string, size int32, minutes int) *rollout.ReplicaSet {
		r := rollout.WebReplicaSet(name, name, size, 1, rollout.WebEpoch.Add(time.Duration(minutes)*time.Minute))
		return &r
	}
	tests := []struct {
		name string
		new  *rollout.ReplicaSet
		old  []*rollout.ReplicaSet
		want string // "" for nil
	}{
		{"nothing", nil, nil, ""},
		{"a new one at 0 and one active old one: the old one", rs("new", 0, 3), []*rollout.ReplicaSet{rs("a", 3, 1)}, "a"},
		{"a new one at 0 and two old ones, one active: the active one", rs("new", 0, 3), []*rollout.ReplicaSet{rs("a", 0, 1), rs("b", 2, 2)}, "b"},
		{"the new one active and an old one active: none", rs("new", 1, 3), []*rollout.ReplicaSet{rs("a", 3, 1)}, ""},
		{"only the new one active", rs("new", 2, 3), []*rollout.ReplicaSet{rs("a", 0, 1)}, "new"},
		{"none active, a new one: the new one", rs("new", 0, 3), []*rollout.ReplicaSet{rs("a", 0, 1)}, "new"},
		{"none active, no new one: the newest old one", nil, []*rollout.ReplicaSet{rs("a", 0, 1), rs("c", 0, 5), rs("b", 0, 2)}, "c"},
		{"two old ones active, no new one: none", nil, []*rollout.ReplicaSet{rs("a", 1, 1), rs("b", 1, 2)}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ""
			if r := rollout.FindActiveOrLatest(tt.new, tt.old); r != nil {
				got = r.Name
			}
			if got != tt.want {
				t.Errorf("FindActiveOrLatest = %q, want %q", got, tt.want)
			}
		})
	}
}
