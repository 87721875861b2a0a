package sim

import (
	"reflect"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutmath/rolloutmath/rollout"
)

// TestWalkerCoversEveryField pins the fields of the types the
// fast-forward's walker takes apart. The walker must visit every field
// that can change during a run, or a fast-forward would carry the field's
// value along unchanged; when a type gains a field, this test names it,
// and the walker must learn it (and the list here with it).
func TestWalkerCoversEveryField(t *testing.T) {
	for _, tt := range []struct {
		v    any
		want []string
	}{
		{rollout.Action{}, []string{"Type", "ReplicaSet", "From", "To", "Labels", "Annotations", "Template", "Status", "Event", "At", "Created", "MinReadySeconds", "Reason"}},
		{rollout.Event{}, []string{"Type", "Reason", "Message"}},
		{rollout.Deployment{}, []string{"ObjectMeta", "Spec", "Status"}}, // Spec as JSON
		{rollout.DeploymentStatus{}, []string{"ObservedGeneration", "Replicas", "UpdatedReplicas", "ReadyReplicas", "AvailableReplicas", "UnavailableReplicas", "TerminatingReplicas", "Conditions", "CollisionCount"}},
		{rollout.Condition{}, []string{"Type", "Status", "LastUpdateTime", "LastTransitionTime", "Reason", "Message"}},
		{rollout.ObjectMeta{}, []string{"Name", "Namespace", "UID", "Generation", "CreationTimestamp", "DeletionTimestamp", "Labels", "Annotations", "OwnerReferences"}},
		{rollout.ReplicaSet{}, []string{"ObjectMeta", "Spec", "Status"}},
		{rollout.ReplicaSetSpec{}, []string{"Replicas", "MinReadySeconds", "Selector", "Template"}}, // the last two as JSON
		{rollout.ReplicaSetStatus{}, []string{"Replicas", "FullyLabeledReplicas", "ReadyReplicas", "AvailableReplicas", "TerminatingReplicas", "ObservedGeneration", "Conditions"}},
		{rollout.ReplicaSetCondition{}, []string{"Type", "Status", "LastTransitionTime", "Reason", "Message"}},
		{rollout.OptionalInt32{}, []string{"Value", "Valid"}},
		// State.Pods is rebuilt by every Recreate sync, Now set by it, and
		// Options never change.
		{rollout.State{}, []string{"Deployment", "ReplicaSets", "Pods", "Now", "Options"}},
		{Step{}, []string{"At", "Actions", "Err", "Sets", "Conditions", "Replicas", "Floor", "Ceiling"}},
		{SetCount{}, []string{"Name", "Revision", "New", "Desired", "Current", "Ready", "Available", "Terminating", "Pending"}},
		// Outcome and Detail are set when the run stops, Duration, Syncs
		// and FailedCreates from the runner's own fields, FastForwarded by
		// the fast-forward.
		// LastChange, the races' ends and the figures of a run past its
		// progress deadline (UpToDeadline among them) are set at the end; Projection
		// only under ModelControllers, which does not fast-forward.
		{Summary{}, []string{"Outcome", "Detail", "Duration", "DeadlineExceededAt", "CompleteAfterDeadline", "AfterDeadline", "AfterDeadlineDetail", "LastChange", "Syncs", "PeakDesired", "PeakPods", "PeakPodsAt", "MinAvailable", "MinAvailableAt", "PeakPodsLow", "PeakPodsHigh", "MinAvailableHigh", "Floor", "Ceiling", "BelowFloor", "FailedCreates", "FastForwarded", "Projection", "UpToDeadline"}},
		{Extremes{}, []string{"PeakPods", "PeakPodsAt", "PeakPodsLow", "PeakPodsHigh", "MinAvailable", "MinAvailableAt", "MinAvailableHigh", "Floor", "Ceiling"}},
		{cohort{}, []string{"n", "created", "readyAt", "late", "never", "pending", "deleted"}},
		// idx is an index of cohorts, built again when they change;
		// goneN and goneLate count gone again when it is decoded
		// (recountGone).
		{podSet{}, []string{"name", "uid", "never", "owned", "cohorts", "gone", "goneN", "goneLate", "created", "failure", "failedAt", "idx"}},
		// cfg, neverReady, rng and stagger are the configuration; merge is
		// set before each sync; owner is the configuration and bound is
		// empty between syncs under ModelSimple, the only model that
		// fast-forwards (and not under Room); walked is the charge's
		// bookkeeping (chargeCohorts takes it after each event of the
		// controllers model), which moves no count or time.
		{podModel{}, []string{"cfg", "neverReady", "rng", "sets", "orphans", "failed", "owner", "bound", "merge", "stagger", "walked"}},
		// cfg, maxWork, start and initial are the configuration; changes
		// and edits bound a jump (maxJump); steps and current are the output
		// (current is flattened as the step); work, cohortDebt, events, walked, workLimited, trialOf and
		// pastLimited (set when the run stops), done, match and ff are the run's
		// bookkeeping; ctl is nil under ModelSimple and walked by
		// ctlState under ModelControllers (ffcontrollers.go); scratch
		// and countsBuf are buffers that hold nothing between calls, and
		// lastSets only lets a step share its Sets with the one before
		// when they are equal.
		{runner{}, []string{"cfg", "maxWork", "start", "clock", "st", "pods", "changes", "edits", "steps", "current", "initial", "sum", "syncs", "work", "cohortDebt", "events", "walked", "workLimited", "trialOf", "next", "last", "active", "editedAt", "done", "completeAt", "deadlineAt", "pastUntil", "deadlineDetail", "toDeadline", "raceToDeadline", "completeAfter", "pastLimited", "ctl", "lastSample", "lastAvail", "lastFloor", "matchGen", "match", "ff", "scratch", "lastSets", "countsBuf"}},
	} {
		typ := reflect.TypeOf(tt.v)
		var got []string
		for i := range typ.NumField() {
			got = append(got, typ.Field(i).Name)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("fields of %v changed (-walked +now): teach walker (affine.go) the new ones\n%s", typ, diff)
		}
	}
}

// TestWalkerRoundTrip checks that decoding a flat into a copy of what it
// was taken from changes nothing, and that decoding moved numbers writes
// them into counts, times and the numbers of messages.
func TestWalkerRoundTrip(t *testing.T) {
	at := time.Date(2026, 1, 1, 0, 0, 30, 0, time.UTC)
	st := Step{
		At: at,
		Actions: []rollout.Action{{
			Type: rollout.ScaleReplicaSet, ReplicaSet: "web-5f9c7d8b4", From: 7, To: 8,
			Annotations: map[string]string{rollout.DesiredReplicasAnnotation: "10", "x": "007"},
			Event:       rollout.Event{Type: "Normal", Reason: "ScalingReplicaSet", Message: "Scaled up replica set web-5f9c7d8b4 from 7 to 8"},
		}},
		Sets:  []SetCount{{Name: "web-5f9c7d8b4", Revision: "2", New: true, Desired: 8, Current: 8}},
		Floor: 10, Ceiling: 11,
	}
	w := walker{}
	w.step(&st)
	f := w.f

	same := st
	dec := walker{decode: true, f: f}
	dec.step(&same)
	if diff := cmp.Diff(st, same); diff != "" || dec.bad || dec.pos != len(f.nums) {
		t.Fatalf("decoding its own flat changed the step (bad %v, %d of %d numbers):\n%s", dec.bad, dec.pos, len(f.nums), diff)
	}

	// One step later: one more pod, 30s on.
	next := st
	next.At = at.Add(30 * time.Second)
	next.Actions = []rollout.Action{st.Actions[0]}
	next.Actions[0].From, next.Actions[0].To = 8, 9
	next.Actions[0].Event.Message = "Scaled up replica set web-5f9c7d8b4 from 8 to 9"
	next.Sets = []SetCount{st.Sets[0]}
	next.Sets[0].Desired, next.Sets[0].Current = 9, 9
	w = walker{}
	w.step(&next)
	if string(w.f.shape) != string(f.shape) {
		t.Fatalf("shapes differ:\n%q\n%q", f.shape, w.f.shape)
	}
	move, ok := steady(w.f, f, f) // against itself: not steady unless nothing moved
	if ok {
		t.Fatalf("steady(%v) with a move", move)
	}
	d := make([]int64, len(f.nums))
	for i := range d {
		d[i] = w.f.nums[i] - f.nums[i]
	}
	nums, _ := ahead(w.f.nums, d, 1)
	got := next
	dec = walker{decode: true, f: flat{nums: nums, regions: w.f.regions}, same: unchanged(w.f, d)}
	dec.step(&got)
	a := got.Actions[0]
	if a.From != 9 || a.To != 10 || a.Event.Message != "Scaled up replica set web-5f9c7d8b4 from 9 to 10" ||
		got.Sets[0].Desired != 10 || !got.At.Equal(at.Add(time.Minute)) || a.Annotations["x"] != "007" {
		t.Errorf("decoded step = %+v", got)
	}
	if next.Actions[0].From != 8 || next.Sets[0].Desired != 9 {
		t.Error("decoding wrote into the slices of the step it copied")
	}
}

// TestNumberTime checks numberTime's shortcut by seconds against the
// comparisons with minTime and maxTime it stands for, at their edges,
// and the zero time's Unix seconds (zeroUnix) that time reads.
func TestNumberTime(t *testing.T) {
	for _, at := range []time.Time{minTime, maxTime} {
		for _, d := range []time.Duration{-time.Second - 1, -time.Second, -1, 0, 1, time.Second, time.Second + 1} {
			tt := at.Add(d)
			want := !tt.Before(minTime) && !tt.After(maxTime)
			if got := numberTime(tt, tt.Unix()); got != want {
				t.Errorf("numberTime(%v) = %v, want %v", tt, got, want)
			}
		}
	}
	if got := (time.Time{}).Unix(); got != zeroUnix {
		t.Errorf("the zero time's Unix() = %d, want zeroUnix %d", got, zeroUnix)
	}
	for _, tt := range []time.Time{time.Unix(0, 0), time.Unix(1<<40, 5), time.Unix(-1<<40, 5), {}} {
		want := !tt.Before(minTime) && !tt.After(maxTime)
		if got := numberTime(tt, tt.Unix()); got != want {
			t.Errorf("numberTime(%v) = %v, want %v", tt, got, want)
		}
	}
}
