package sim

import (
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestWalkerStamps checks that a time written in a message as RFC 3339 to
// the second is one number, its Unix seconds, so that moving it by 3s
// carries into the minutes and the hours, as a progress re-check's
// reason needs; other digits stay numbers of their own, and a stamp that
// no longer reads as one (past year 9999) is refused.
func TestWalkerStamps(t *testing.T) {
	for _, tt := range []struct {
		name, in string
		move     int64 // added to every number
		want     string
		bad      bool
	}{
		{"seconds", "runs out at 2026-01-01T00:20:07Z", 3, "runs out at 2026-01-01T00:20:10Z", false},
		{"into the hour", "the deadline of 600s runs out at 2026-01-01T00:59:58Z.", 3, "the deadline of 603s runs out at 2026-01-01T01:00:01Z.", false},
		{"fraction is not a stamp", "at 2026-01-01T00:20:07.5Z", 1, "at 2027-01-01T00:21:07.6Z", false}, // digits with a leading zero are shape
		{"past year 9999", "at 9999-12-31T23:59:59Z", 1, "at 9999-12-31T23:59:59Z", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := tt.in
			w := walker{}
			w.text(&s)
			nums := make([]int64, len(w.f.nums))
			for i, v := range w.f.nums {
				nums[i] = v + tt.move
			}
			got := tt.in
			dec := walker{decode: true, f: flat{nums: nums, regions: w.f.regions}}
			dec.text(&got)
			if dec.bad != tt.bad || !tt.bad && got != tt.want {
				t.Errorf("text(%q) moved by %d = %q (bad %v), want %q (bad %v)", tt.in, tt.move, got, dec.bad, tt.want, tt.bad)
			}
		})
	}
}

// TestCtlStateCoversEveryField pins the fields of the controllers model's
// state that ctlState walks for the fast-forward (ffstate.go): a
// field it does not visit would be carried unchanged across a jump. When
// one of these types gains a field, this test names it, and ctlState must
// learn it (and the list here with it).
func TestCtlStateCoversEveryField(t *testing.T) {
	for _, tt := range []struct {
		v    any
		want []string
	}{
		// seq orders the events: ctlState visits them in order and a
		// jump keeps their seq; race and burstReplicas are the
		// configuration; plans is a cache of a pure function.
		{ctlRun{}, []string{"events", "seq", "race", "client", "retries", "sinks", "spam", "burstReplicas", "dep", "wakeAt", "wakePending", "depWrote", "depTouched", "plannedGen", "statusAt", "depFailed", "errAt", "errSeen", "sets", "podAt", "podPending", "completeAt", "complete", "revealAt", "revealPending", "plans", "leftAt", "left", "racePeak", "racePeakAt", "raceCeiling", "heldAt", "proof", "cutShort"}},
		{deadlineProof{}, []string{"broken", "atLeast", "above", "settled", "settledAt", "fired", "updated"}},
		{event{}, []string{"at", "class", "seq", "kind", "set", "n", "which"}},
		{setSync{}, []string{"queueKey", "uid", "started", "listed", "listedGone", "generation", "minReady", "toCreate", "batch", "batchLeft", "deleteLeft", "refused", "holdBack", "heldBack", "stale", "retried", "failed", "status", "failures", "retryAt", "retryPending"}},
		{queueKey{}, []string{"queued", "busy", "dirty"}},
		{sink{}, []string{"pending", "busy", "creations"}},
		// interval and burst are the configuration.
		{bucket{}, []string{"unlimited", "interval", "burst", "tat"}},
		{spamKey{}, []string{"which", "object", "kind"}},
	} {
		typ := reflect.TypeOf(tt.v)
		var got []string
		for i := range typ.NumField() {
			got = append(got, typ.Field(i).Name)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("fields of %v changed (-walked +now): teach ctlState (ffstate.go) the new ones\n%s", typ, diff)
		}
	}
}

// TestTextFromForm checks that decoding a string through its form taken
// apart once (textFromForm, as a jump's commit does for each string of
// its period) gives what text gives, the same string and the same
// refusal, for strings decoded twice with different moves.
func TestTextFromForm(t *testing.T) {
	for _, in := range []string{
		"",
		"no numbers",
		"Scaled up replica set web-86dd955bd7 from 5 to 6",
		"the deadline of 600s runs out at 2026-01-01T00:59:58Z.",
		"leading 007 zeros and 0 alone",
		"at 9999-12-31T23:59:59Z",
		"99999999999999999999 does not fit",
	} {
		for _, moves := range [][]int64{{0, 0}, {1, 3}, {-7, 2}} {
			w := walker{}
			w.text(&in)
			forms := make([]*textForm, len(w.f.regions))
			for _, move := range moves {
				nums := make([]int64, len(w.f.nums))
				for i, v := range w.f.nums {
					nums[i] = v + move
				}
				want := in
				plain := walker{decode: true, f: flat{nums: nums, regions: w.f.regions}}
				plain.text(&want)
				got := in
				formed := walker{decode: true, f: flat{nums: nums, regions: w.f.regions}, forms: forms}
				formed.text(&got)
				if got != want || formed.bad != plain.bad || formed.pos != plain.pos {
					t.Errorf("text(%q) moved by %d: through its form %q (bad %v, %d numbers), want %q (bad %v, %d numbers)", in, move, got, formed.bad, formed.pos, want, plain.bad, plain.pos)
				}
			}
		}
	}
}
