package rollout

import (
	"testing"
	"unsafe"
)

// TestProgressMessageReusesPrev checks that progressMessage returns the
// previous message itself when it is the one built, and builds the
// message otherwise, as strconv.Quote would.
func TestProgressMessageReusesPrev(t *testing.T) {
	rs := &ReplicaSet{ObjectMeta: ObjectMeta{Name: "web-5d\"x"}}
	d := Deployment{ObjectMeta: ObjectMeta{Name: "web"}}
	want := `ReplicaSet "web-5d\"x" is progressing.`
	if got := progressMessage(d, rs, "is progressing.", ""); got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	prev := string([]byte(want))
	if got := progressMessage(d, rs, "is progressing.", prev); unsafe.StringData(got) != unsafe.StringData(prev) {
		t.Fatalf("the equal previous message was not reused")
	}
	if got := progressMessage(d, nil, "has timed out progressing.", prev); got != `Deployment "web" has timed out progressing.` {
		t.Fatalf("got %q", got)
	}
}

// TestWithConditionExactAndFresh checks that withCondition leaves its input
// as it was and returns a slice of its own with no spare room.
func TestWithConditionExactAndFresh(t *testing.T) {
	in := []Condition{{Type: Available, Reason: "a"}, {Type: Progressing, Reason: "p"}, {Type: ReplicaFailure, Reason: "f"}}
	keep := append([]Condition(nil), in...)
	out := withCondition(in, Condition{Type: Progressing, Reason: "q"})
	want := []Condition{{Type: Available, Reason: "a"}, {Type: ReplicaFailure, Reason: "f"}, {Type: Progressing, Reason: "q"}}
	if len(out) != len(want) || cap(out) != len(want) {
		t.Fatalf("len %d cap %d, want %d", len(out), cap(out), len(want))
	}
	for i := range want {
		if out[i] != want[i] || in[i] != keep[i] {
			t.Fatalf("at %d: out %+v in %+v", i, out[i], in[i])
		}
	}
	out[0].Reason = "changed"
	if in[0].Reason != "a" {
		t.Fatal("the result shares the input's array")
	}
	if added := withCondition(in[:1], Condition{Type: Progressing}); len(added) != 2 || cap(added) != 2 {
		t.Fatalf("adding: len %d cap %d", len(added), cap(added))
	}
}
