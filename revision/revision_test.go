package revision_test

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rolloutmath/rolloutmath/revision"
)

// rev is a test shorthand: "-" is a missing annotation, anything else a
// present one.
func rev(s string) revision.Rev {
	if s == "-" {
		return revision.Of("", false)
	}
	return revision.Of(s, true)
}

func revs(ss ...string) []revision.Rev {
	out := make([]revision.Rev, len(ss))
	for i, s := range ss {
		out[i] = rev(s)
	}
	return out
}

func TestParse(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    int64
		wantErr error // nil, revision.ErrSyntax or revision.ErrRange
	}{
		{name: "empty", in: "", wantErr: revision.ErrSyntax},
		{name: "zero", in: "0", want: 0},
		{name: "plus sign", in: "+5", want: 5},
		{name: "negative", in: "-1", want: -1},
		{name: "minus zero", in: "-0", want: 0},
		{name: "leading zeros", in: "007", want: 7},
		{name: "decimal", in: "1.5", wantErr: revision.ErrSyntax},
		{name: "letter", in: "x", wantErr: revision.ErrSyntax},
		{name: "space", in: " 1", wantErr: revision.ErrSyntax},
		{name: "underscore", in: "1_000", wantErr: revision.ErrSyntax},
		{name: "hex", in: "0x10", wantErr: revision.ErrSyntax},
		{name: "sign only", in: "+", wantErr: revision.ErrSyntax},
		{name: "max int64", in: "9223372036854775807", want: math.MaxInt64},
		{name: "min int64", in: "-9223372036854775808", want: math.MinInt64},
		{name: "above max int64", in: "9223372036854775808", wantErr: revision.ErrRange},
		{name: "below min int64", in: "-9223372036854775809", wantErr: revision.ErrRange},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := revision.Parse(tt.in)
			if tt.wantErr == nil {
				if err != nil {
					t.Fatalf("Parse(%q) error = %v, want nil", tt.in, err)
				}
				if diff := cmp.Diff(tt.want, got); diff != "" {
					t.Errorf("Parse() mismatch (-want +got):\n%s", diff)
				}
				return
			}
			var pe *revision.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("Parse(%q) error = %v, want a *ParseError", tt.in, err)
			}
			if !errors.Is(err, tt.wantErr) || pe.Input != tt.in {
				t.Errorf("Parse(%q) error = %#v, want input %q wrapping %v", tt.in, pe, tt.in, tt.wantErr)
			}
			if got != 0 {
				t.Errorf("Parse(%q) = %d on error, want 0", tt.in, got)
			}
		})
	}
}

func TestParseErrorMessage(t *testing.T) {
	_, err := revision.Parse("1.5")
	if diff := cmp.Diff(`revision: parsing "1.5": invalid syntax`, err.Error()); diff != "" {
		t.Errorf("Error() mismatch (-want +got):\n%s", diff)
	}
	_, err = revision.Parse("9223372036854775808")
	if diff := cmp.Diff(`revision: parsing "9223372036854775808": value out of range`, err.Error()); diff != "" {
		t.Errorf("Error() mismatch (-want +got):\n%s", diff)
	}
}

// TestParseExhaustive compares Parse with strconv.ParseInt on every string of
// up to four bytes over an alphabet of signs, digits and separators.
func TestParseExhaustive(t *testing.T) {
	const alphabet = "+-019 .x_"
	var walk func(s string)
	walk = func(s string) {
		want, wantErr := strconv.ParseInt(s, 10, 64)
		got, err := revision.Parse(s)
		if (err == nil) != (wantErr == nil) || got != want {
			t.Errorf("Parse(%q) = %d, %v; strconv.ParseInt gives %d, %v", s, got, err, want, wantErr)
		}
		if len(s) == 4 {
			return
		}
		for _, c := range alphabet {
			walk(s + string(c))
		}
	}
	walk("")
}

func TestOf(t *testing.T) {
	tests := []struct {
		name    string
		value   string
		present bool
		want    revision.Rev
	}{
		{name: "absent is revision 0", value: "", present: false, want: revision.Rev{N: 0, Valid: true}},
		{name: "absent ignores value", value: "7", present: false, want: revision.Rev{N: 0, Valid: true}},
		{name: "present", value: "7", present: true, want: revision.Rev{N: 7, Valid: true}},
		{name: "present negative", value: "-7", present: true, want: revision.Rev{N: -7, Valid: true}},
		// upstream's Revision fails on "", so Max and Last skip it.
		{name: "present empty", value: "", present: true, want: revision.Rev{}},
		{name: "present garbage", value: "x", present: true, want: revision.Rev{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := revision.Of(tt.value, tt.present)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Of() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestMaxLastNext(t *testing.T) {
	tests := []struct {
		name      string
		revs      []string // "-" is a missing annotation
		wantMax   int64
		wantLast  int64
		wantNext  int64
		wantError error
	}{
		// Upstream: D.4 LastRevision ["2","2"] → 2.
		{name: "duplicate maximum", revs: []string{"2", "2"}, wantMax: 2, wantLast: 2, wantNext: 3},
		// Upstream: D.4 LastRevision ["3","1","2"] → 2.
		{name: "unsorted", revs: []string{"3", "1", "2"}, wantMax: 3, wantLast: 2, wantNext: 4},
		// Upstream: D.4 LastRevision ["x","5"] → 0.
		{name: "unparsable skipped", revs: []string{"x", "5"}, wantMax: 5, wantLast: 0, wantNext: 6},
		// Upstream: D.4 MaxRevision ["x","5","-7"] → 5.
		{name: "negative never wins", revs: []string{"x", "5", "-7"}, wantMax: 5, wantLast: 0, wantNext: 6},
		{name: "empty", revs: nil, wantMax: 0, wantLast: 0, wantNext: 1},
		{name: "only negatives", revs: []string{"-3", "-1"}, wantMax: 0, wantLast: 0, wantNext: 1},
		{name: "missing counts as 0", revs: []string{"-", "4"}, wantMax: 4, wantLast: 0, wantNext: 5},
		{name: "present empty skipped", revs: []string{"", "1", "2"}, wantMax: 2, wantLast: 1, wantNext: 3},
		{name: "second largest after maximum", revs: []string{"5", "3", "4"}, wantMax: 5, wantLast: 4, wantNext: 6},
		{name: "max int64", revs: []string{"1", "9223372036854775807"}, wantMax: math.MaxInt64, wantLast: 1, wantError: revision.ErrOverflow},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs := revs(tt.revs...)
			if diff := cmp.Diff(tt.wantMax, revision.Max(rs)); diff != "" {
				t.Errorf("Max() mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantLast, revision.Last(rs)); diff != "" {
				t.Errorf("Last() mismatch (-want +got):\n%s", diff)
			}
			next, err := revision.Next(rs)
			if !errors.Is(err, tt.wantError) {
				t.Errorf("Next() error = %v, want %v", err, tt.wantError)
			}
			if diff := cmp.Diff(tt.wantNext, next); diff != "" {
				t.Errorf("Next() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestMaxLastExhaustive checks Max and Last against their multiset
// definitions (R-REV-2, R-REV-3) on every list of up to four revisions drawn
// from {invalid, -1, 0, 1, 2, 3}.
func TestMaxLastExhaustive(t *testing.T) {
	domain := []revision.Rev{{}, {N: -1, Valid: true}, {N: 0, Valid: true}, {N: 1, Valid: true}, {N: 2, Valid: true}, {N: 3, Valid: true}}
	var walk func(rs []revision.Rev)
	walk = func(rs []revision.Rev) {
		var valid []int64
		for _, r := range rs {
			if r.Valid {
				valid = append(valid, r.N)
			}
		}
		// Sort descending.
		for i := range valid {
			for j := i + 1; j < len(valid); j++ {
				if valid[j] > valid[i] {
					valid[i], valid[j] = valid[j], valid[i]
				}
			}
		}
		wantMax, wantLast := int64(0), int64(0)
		if len(valid) > 0 {
			wantMax = max(0, valid[0])
		}
		if len(valid) > 1 {
			wantLast = max(0, valid[1])
		}
		if got := revision.Max(rs); got != wantMax {
			t.Errorf("Max(%v) = %d, want %d", rs, got, wantMax)
		}
		if got := revision.Last(rs); got != wantLast {
			t.Errorf("Last(%v) = %d, want %d", rs, got, wantLast)
		}
		if len(rs) == 4 {
			return
		}
		for _, r := range domain {
			walk(append(rs[:len(rs):len(rs)], r))
		}
	}
	walk(nil)
}

// Upstream: TestAnnotationUtils step 1 (B.14): promotions "11".."20" with a
// limit of 5 characters.
func TestAppendHistoryPromotions(t *testing.T) {
	history := ""
	want := map[int]string{11: "", 12: "11", 13: "11,12", 14: "12,13", 20: "18,19"}
	for next := 11; next <= 20; next++ {
		if next > 11 {
			// The RS had revision next-1 and is promoted to next.
			history = revision.AppendHistory(history, strconv.Itoa(next-1), 5)
		}
		w, ok := want[next]
		if !ok && next >= 13 {
			w, ok = strconv.Itoa(next-2)+","+strconv.Itoa(next-1), true
		}
		if !ok {
			continue
		}
		if diff := cmp.Diff(w, history); diff != "" {
			t.Errorf("after %d: AppendHistory() mismatch (-want +got):\n%s", next, diff)
		}
	}
}

// TestAppendHistoryLimit: with the controller's HistoryLimit, 2000 bytes
// (upstream's limit), a history that reaches exactly 2000 bytes keeps
// every entry, and one byte more drops the oldest.
func TestAppendHistoryLimit(t *testing.T) {
	entries := make([]string, 399) // "1000,1001,...": 5 bytes an entry with its comma
	for i := range entries {
		entries[i] = strconv.Itoa(1000 + i)
	}
	history := strings.Join(entries, ",") // 399*5 - 1 = 1994 bytes
	if got := revision.AppendHistory(history, "12345", revision.HistoryLimit); got != history+",12345" {
		t.Errorf("a history of 2000 bytes: AppendHistory() = ...%q (%d bytes), want every entry", got[max(0, len(got)-20):], len(got))
	}
	if got, want := revision.AppendHistory(history, "123456", revision.HistoryLimit), strings.Join(entries[1:], ",")+",123456"; got != want {
		t.Errorf("a history of 2001 bytes: AppendHistory() = %q... (%d bytes), want the oldest entry dropped (%d bytes)", got[:20], len(got), len(want))
	}
}

func TestAppendHistory(t *testing.T) {
	tests := []struct {
		name    string
		history string
		old     string
		limit   int
		want    string
	}{
		// R-ANN-5 example, limit 5: "" → "11" → "11,12" → "12,13".
		{name: "R-ANN-5 first", history: "", old: "11", limit: 5, want: "11"},
		{name: "R-ANN-5 second", history: "11", old: "12", limit: 5, want: "11,12"},
		{name: "R-ANN-5 third", history: "11,12", old: "13", limit: 5, want: "12,13"},
		{name: "fits", history: "1,2,3", old: "4", limit: revision.HistoryLimit, want: "1,2,3,4"},
		{name: "drop two", history: "1,2,3", old: "4", limit: 3, want: "3,4"},
		{name: "drop all", history: "1,2,3", old: "4", limit: 1, want: "4"},
		// a history starting with "," is overwritten by old alone.
		{name: "leading comma", history: ",1,2", old: "3", limit: 100, want: "3"},
		{name: "comma only", history: ",", old: "3", limit: 100, want: "3"},
		// the overwrite ignores the limit.
		{name: "empty history, old longer than limit", history: "", old: "123456", limit: 5, want: "123456"},
		{name: "empty history, negative limit", history: "", old: "1", limit: -1, want: "1"},
		// old cannot fit even alone: history unchanged, old lost.
		{name: "old longer than limit", history: "1,2", old: "123456", limit: 5, want: "1,2"},
		{name: "negative limit", history: "1,2", old: "3", limit: -1, want: "1,2"},
		// a present-but-empty revision annotation adds an empty entry.
		{name: "empty old", history: "1,2", old: "", limit: 100, want: "1,2,"},
		{name: "empty old on empty history", history: "", old: "", limit: 100, want: ""},
		{name: "empty old, drop", history: "1,2", old: "", limit: 2, want: "2,"},
		{name: "empty middle entry", history: "1,,2", old: "3", limit: 5, want: ",2,3"},
		{name: "trailing comma", history: "1,", old: "3", limit: 100, want: "1,,3"},
		{name: "limit zero, empty old", history: "1", old: "", limit: 0, want: ""},
		// The appended value can equal history.
		{name: "append equals history", history: "1,1", old: "1", limit: 3, want: "1,1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := revision.AppendHistory(tt.history, tt.old, tt.limit)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("AppendHistory() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// appendHistoryRef is AppendHistory written from its documented definition:
// the longest join(pieces[s:]+[old]) that fits, else history.
func appendHistoryRef(history, old string, limit int) string {
	pieces := strings.Split(history, ",")
	if pieces[0] == "" {
		return old
	}
	for s := 0; s <= len(pieces); s++ {
		cand := strings.Join(append(pieces[s:len(pieces):len(pieces)], old), ",")
		if len(cand) <= limit {
			return cand
		}
	}
	return history
}

// TestAppendHistoryExhaustive compares AppendHistory with appendHistoryRef on
// every history of up to five bytes over {1, 2, ","}, several old values and
// limits -1..8.
func TestAppendHistoryExhaustive(t *testing.T) {
	olds := []string{"", "3", "34", "345"}
	var walk func(h string)
	walk = func(h string) {
		for _, old := range olds {
			for limit := -1; limit <= 8; limit++ {
				got := revision.AppendHistory(h, old, limit)
				if want := appendHistoryRef(h, old, limit); got != want {
					t.Errorf("AppendHistory(%q, %q, %d) = %q, want %q", h, old, limit, got, want)
				}
			}
		}
		if len(h) == 5 {
			return
		}
		for _, c := range []string{"1", "2", ","} {
			walk(h + c)
		}
	}
	walk("")
}

var t0 = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

// idle is the R-CLEAN-4 deletability test on a ReplicaSet's fields.
func idle(spec, statusReplicas int32, generation, observed int64, deleting bool) bool {
	return spec == 0 && statusReplicas == 0 && generation <= observed && !deleting
}

func names(sets []revision.Set, idx []int) []string {
	var out []string
	for _, i := range idx {
		out = append(out, sets[i].Name)
	}
	return out
}

// Upstream: TestDeploymentController_cleanupDeployment (C.6). Zero creation
// timestamps, no revision annotations, generation 0 = observedGeneration 0.
func TestPruneCleanupDeployment(t *testing.T) {
	type rs struct {
		name           string
		spec, status   int32
		deletionMarked bool
	}
	tests := []struct {
		name   string
		sets   []rs
		limit  int32
		want   []string
		reason string
	}{
		{
			name:  "3 idle, limit 1",
			sets:  []rs{{"foo-1", 0, 0, false}, {"foo-2", 0, 0, false}, {"foo-3", 0, 0, false}},
			limit: 1,
			want:  []string{"foo-1", "foo-2"},
		},
		{
			name:   "mixed sizes, limit 0",
			sets:   []rs{{"foo-1", 0, 0, false}, {"foo-2", 0, 1, false}, {"foo-3", 1, 0, false}, {"foo-4", 1, 1, false}},
			limit:  0,
			want:   []string{"foo-1"},
			reason: "sets with spec or status replicas are skipped",
		},
		{
			name:  "2 idle, limit 0",
			sets:  []rs{{"foo-1", 0, 0, false}, {"foo-2", 0, 0, false}},
			limit: 0,
			want:  []string{"foo-1", "foo-2"},
		},
		{
			name:  "2 busy, limit 0",
			sets:  []rs{{"foo-1", 1, 1, false}, {"foo-2", 1, 1, false}},
			limit: 0,
			want:  nil,
		},
		{
			name:   "deletion timestamp, limit 0",
			sets:   []rs{{"foo-1", 0, 0, true}},
			limit:  0,
			want:   nil,
			reason: "the caller drops sets being deleted (R-CLEAN-2), leaving no candidates",
		},
		{
			name:   "unlimited, limit 2147483647",
			sets:   []rs{{"foo-1", 0, 0, false}, {"foo-2", 0, 0, false}, {"foo-3", 0, 0, false}},
			limit:  math.MaxInt32,
			want:   nil,
			reason: "the rollout caller skips cleanup for this limit (R-CLEAN-1); Prune deletes nothing anyway since diff < 0",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var sets []revision.Set
			for _, r := range tt.sets {
				if r.deletionMarked {
					continue // R-CLEAN-2: the caller's filter
				}
				sets = append(sets, revision.Set{
					Name: r.name,
					Rev:  revision.Of("", false),
					Idle: idle(r.spec, r.status, 0, 0, r.deletionMarked),
				})
			}
			got := names(sets, revision.Prune(sets, tt.limit))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Prune() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// A set marked for deletion is never Idle, so even a caller that forgot the
// R-CLEAN-2 filter would not delete it.
func TestPruneDeletingNotIdle(t *testing.T) {
	sets := []revision.Set{{Name: "foo-1", Rev: revision.Of("", false), Idle: idle(0, 0, 0, 0, true)}}
	if got := revision.Prune(sets, 0); got != nil {
		t.Errorf("Prune() = %v, want nil", got)
	}
}

// Upstream: TestDeploymentController_cleanupDeploymentOrder (C.7). Creation
// one minute apart in name order; status.replicas = spec.
func TestPruneCleanupDeploymentOrder(t *testing.T) {
	type rs struct {
		name string
		spec int32
		rev  string // "-" is a missing annotation
	}
	tests := []struct {
		name   string
		sets   []rs
		limit  int32
		want   []string
		reason string
	}{
		{
			name:  "revisions in creation order",
			sets:  []rs{{"foo-1", 0, "1"}, {"foo-2", 0, "2"}},
			limit: 1,
			want:  []string{"foo-1"},
		},
		{
			name:  "revisions against creation order",
			sets:  []rs{{"foo-1", 0, "2"}, {"foo-2", 0, "1"}},
			limit: 1,
			want:  []string{"foo-2"},
		},
		{
			name:   "newer set without revision",
			sets:   []rs{{"foo-1", 0, "1"}, {"foo-2", 0, "-"}},
			limit:  1,
			want:   []string{"foo-2"},
			reason: "a missing revision is 0",
		},
		{
			name:  "older set without revision",
			sets:  []rs{{"foo-1", 0, "-"}, {"foo-2", 0, "2"}},
			limit: 1,
			want:  []string{"foo-1"},
		},
		{
			name:   "oldest revision busy",
			sets:   []rs{{"foo-1", 1, "1"}, {"foo-2", 0, "2"}, {"foo-3", 0, "3"}},
			limit:  1,
			want:   []string{"foo-2"},
			reason: "foo-1 is skipped and foo-3 is beyond diff (Q-6)",
		},
		{
			name:   "two oldest busy",
			sets:   []rs{{"foo-1", 1, "1"}, {"foo-2", 1, "2"}, {"foo-3", 0, "3"}},
			limit:  1,
			want:   nil,
			reason: "foo-3 is idle but beyond diff (Q-6)",
		},
		{
			name:  "shuffled revisions",
			sets:  []rs{{"foo-1", 0, "3"}, {"foo-2", 0, "1"}, {"foo-3", 0, "4"}, {"foo-4", 0, "2"}},
			limit: 2,
			want:  []string{"foo-2", "foo-4"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var sets []revision.Set
			for i, r := range tt.sets {
				sets = append(sets, revision.Set{
					Name:    r.name,
					Created: t0.Add(time.Duration(i) * time.Minute),
					Rev:     rev(r.rev),
					Idle:    idle(r.spec, r.spec, 0, 0, false),
				})
			}
			got := names(sets, revision.Prune(sets, tt.limit))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Prune() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestPruneEdges(t *testing.T) {
	at := func(name string, sec int, r string, idle bool) revision.Set {
		return revision.Set{Name: name, Created: t0.Add(time.Duration(sec) * time.Second), Rev: rev(r), Idle: idle}
	}
	tests := []struct {
		name  string
		sets  []revision.Set
		limit int32
		want  []int
	}{
		{name: "no sets", sets: nil, limit: 0, want: nil},
		{name: "negative limit counts as 0", sets: []revision.Set{at("a", 0, "1", true)}, limit: -5, want: []int{0}},
		{name: "min int32 limit", sets: []revision.Set{at("a", 0, "1", true)}, limit: math.MinInt32, want: []int{0}},
		{
			name:  "equal revisions fall back to creation",
			sets:  []revision.Set{at("a", 2, "1", true), at("b", 1, "1", true)},
			limit: 1,
			want:  []int{1},
		},
		{
			name:  "same instant falls back to name",
			sets:  []revision.Set{at("b", 0, "1", true), at("a", 0, "1", true)},
			limit: 1,
			want:  []int{1},
		},
		{
			name:  "same instant in different zones",
			sets:  []revision.Set{{Name: "b", Created: t0, Rev: rev("1"), Idle: true}, {Name: "a", Created: t0.In(time.FixedZone("x", 3600)), Rev: rev("1"), Idle: true}},
			limit: 1,
			want:  []int{1},
		},
		{
			name:  "invalid revision compares by creation",
			sets:  []revision.Set{at("a", 1, "9", true), at("b", 0, "x", true)},
			limit: 1,
			want:  []int{1},
		},
		{
			name:  "negative revision first",
			sets:  []revision.Set{at("a", 0, "0", true), at("b", 1, "-3", true)},
			limit: 1,
			want:  []int{1},
		},
		{
			name:  "same name and instant keep the input order",
			sets:  []revision.Set{at("a", 0, "1", true), at("a", 0, "1", false)},
			limit: 1,
			want:  []int{0},
		},
		{
			name:  "same name and instant keep the input order, reversed",
			sets:  []revision.Set{at("a", 0, "1", false), at("a", 0, "1", true)},
			limit: 1,
			want:  nil,
		},
		{
			name:  "order of result is revision order",
			sets:  []revision.Set{at("a", 0, "3", true), at("b", 1, "1", true), at("c", 2, "2", true), at("d", 3, "4", true)},
			limit: 1,
			want:  []int{1, 2, 0},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := revision.Prune(tt.sets, tt.limit)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Prune() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// with an invalid revision the comparison is not transitive: c < a by
// revision, a < b and b < c by creation. Prune's answer then depends on the
// input order, but is the same every time for a given order.
func TestPruneInconsistentOrderDeterministic(t *testing.T) {
	sets := []revision.Set{
		{Name: "a", Created: t0, Rev: rev("5"), Idle: true},
		{Name: "b", Created: t0.Add(time.Second), Rev: rev("x"), Idle: true},
		{Name: "c", Created: t0.Add(2 * time.Second), Rev: rev("1"), Idle: true},
	}
	first := revision.Prune(sets, 2)
	for range 10 {
		if diff := cmp.Diff(first, revision.Prune(sets, 2)); diff != "" {
			t.Fatalf("Prune() mismatch (-want +got):\n%s", diff)
		}
	}
}

func TestRollback(t *testing.T) {
	tests := []struct {
		name       string
		revs       []string // "-" is a missing annotation
		to         int64
		wantIndex  int
		wantTarget int64
		wantErr    error
	}{
		// Upstream: E-B sync 11, rollback.to "0" with v1 (rev 1) and v2 (rev 2).
		{name: "previous revision", revs: []string{"1", "2"}, to: 0, wantIndex: 0, wantTarget: 1},
		{name: "explicit revision", revs: []string{"1", "2", "3"}, to: 2, wantIndex: 1, wantTarget: 2},
		{name: "explicit current revision", revs: []string{"1", "2"}, to: 2, wantIndex: 1, wantTarget: 2},
		{name: "not found", revs: []string{"1", "2"}, to: 7, wantIndex: -1, wantTarget: 7, wantErr: revision.ErrNotFound},
		{name: "no previous: single set", revs: []string{"1"}, to: 0, wantIndex: -1, wantTarget: 0, wantErr: revision.ErrNoPrevious},
		{name: "no previous: empty", revs: nil, to: 0, wantIndex: -1, wantTarget: 0, wantErr: revision.ErrNoPrevious},
		{name: "no previous: unparsable", revs: []string{"x", "5"}, to: 0, wantIndex: -1, wantTarget: 0, wantErr: revision.ErrNoPrevious},
		// duplicates of the maximum make the previous revision the current one.
		{name: "duplicate maximum", revs: []string{"2", "2"}, to: 0, wantIndex: 0, wantTarget: 2},
		{name: "invalid revisions skipped", revs: []string{"x", "", "1", "2"}, to: 1, wantIndex: 2, wantTarget: 1},
		{name: "missing annotation is revision 0", revs: []string{"x", "-"}, to: 0, wantIndex: -1, wantTarget: 0, wantErr: revision.ErrNoPrevious},
		{name: "first match wins", revs: []string{"3", "1", "3"}, to: 3, wantIndex: 0, wantTarget: 3},
		{name: "negative request not found", revs: []string{"1", "2"}, to: -1, wantIndex: -1, wantTarget: -1, wantErr: revision.ErrNotFound},
		{name: "negative request matches negative revision", revs: []string{"-1", "2"}, to: -1, wantIndex: 0, wantTarget: -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			index, target, err := revision.Rollback(revs(tt.revs...), tt.to)
			if err != tt.wantErr {
				t.Errorf("Rollback() error = %v, want %v", err, tt.wantErr)
			}
			type result struct {
				Index  int
				Target int64
			}
			if diff := cmp.Diff(result{tt.wantIndex, tt.wantTarget}, result{index, target}); diff != "" {
				t.Errorf("Rollback() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRollbackErrorMessages(t *testing.T) {
	if diff := cmp.Diff("unable to find last revision", revision.ErrNoPrevious.Error()); diff != "" {
		t.Errorf("ErrNoPrevious mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff("unable to find the revision to rollback to", revision.ErrNotFound.Error()); diff != "" {
		t.Errorf("ErrNotFound mismatch (-want +got):\n%s", diff)
	}
}

func TestParseRollbackTo(t *testing.T) {
	tests := []struct {
		name   string
		value  string
		wantTo int64
		wantOK bool
	}{
		{name: "empty is no request", value: "", wantTo: 0, wantOK: false},
		// Upstream: E-B sync 11, rollback.to "0".
		{name: "zero is previous", value: "0", wantTo: 0, wantOK: true},
		{name: "revision", value: "3", wantTo: 3, wantOK: true},
		{name: "plus sign", value: "+2", wantTo: 2, wantOK: true},
		{name: "negative", value: "-1", wantTo: -1, wantOK: true},
		{name: "garbage ignored", value: "x", wantTo: 0, wantOK: false},
		{name: "decimal ignored", value: "1.5", wantTo: 0, wantOK: false},
		{name: "space ignored", value: " 1", wantTo: 0, wantOK: false},
		{name: "out of range ignored", value: "9223372036854775808", wantTo: 0, wantOK: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			to, ok := revision.ParseRollbackTo(tt.value)
			type result struct {
				To int64
				OK bool
			}
			if diff := cmp.Diff(result{tt.wantTo, tt.wantOK}, result{to, ok}); diff != "" {
				t.Errorf("ParseRollbackTo() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
