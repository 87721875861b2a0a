package sim

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rolloutmath/rolloutmath/rollout"
)

// A flat is a run's state, or a step, taken apart into a shape and
// numbers: every count, size, time and number written in a message is a
// number, and everything else (names, types, reasons, templates, the
// length of every list) is the shape. Two flats with equal shapes differ
// only in numbers, so a state that moves by the same numbers period after
// period can be extrapolated (see fastForward).
type flat struct {
	shape []byte
	nums  []int64
	// regions are the numbers of each string and map, in the order the
	// walker visits them, so that decoding can skip those that do not
	// change.
	regions []region
}

// A region is the numbers nums[start:start+count] of one string or map;
// the next nested regions are inside it (a map's values).
type region struct{ start, count, nested int }

// walker visits every field of a run's state or of a step in one fixed
// order, to flatten it (encoding) or to set its numbers from a flat of
// the same shape (decoding). In decoding, it replaces rather than writes
// into the maps, slices and strings it changes, so that it can work on a
// shallow copy of a value that shares them.
type walker struct {
	decode bool
	// noJSON leaves the specs (litJSON) out of the shape: the
	// controllers' fast-forward, which runs only where no edit or
	// replica change is pending, and where the controllers write no spec
	// but a new ReplicaSet's (which changes the shape), flattens every
	// Deployment sync and cannot afford to encode them each time.
	noJSON bool
	f      flat
	pos    int  // decoding: the next number
	bad    bool // decoding: a number did not fit its field
	// same, in decoding, marks the regions of f whose numbers are as they
	// were (nil: none known); ri is the next region.
	same []bool
	ri   int
	// owned, in decoding, says the next slice eachOf visits is the
	// caller's own copy, to write into rather than clone; eachOf clears
	// it, so the slices nested in that one are cloned as usual.
	owned bool
	// forms, in decoding, holds each text region's string taken apart
	// (textForm, nil until then) once it has been, for a caller that
	// decodes many strings of one shape from the same originals
	// (commit); nil: none.
	forms []*textForm
	// arena, if not nil, in decoding, is where the copies of statuses
	// and conditions and the moved messages go (see stepArena); the
	// messages are set only when the arena is flushed.
	arena *stepArena
	// seen and moves, in commit's decoding, are the step as seen and the
	// move of its numbers a period: where a status write's conditions
	// are the step's as seen and move alike, decoding leaves them to be
	// the decoded step's (sameConds), listing the statuses in asStep.
	seen   *Step
	moves  []int64
	asStep []*rollout.DeploymentStatus
	// parts, if withParts, are where the parts of the step visited lie
	// (encoding writes them); in decoding, the parts that skip marks are
	// left as they are (see part). They are values, not a pointer to the
	// caller's, which would move a snapshot that takes them to the heap.
	parts     [stepParts]stepPart
	withParts bool
	skip      [stepParts]bool
	// keys is scratch for sorting a map's keys (strings); buf, for
	// writing a string in decoding (textFromForm). A caller that walks
	// many values may keep them from one walker to the next.
	keys []string
	buf  []byte
	// ctl is the scratch of ctlState's sorting (ffstate.go) and of
	// strings.
	ctl ctlScratch
}

// ctlScratch is the scratch ctlState sorts the controllers' events,
// spam-filter keys and ReplicaSet names in; a caller that flattens many
// states keeps it from one walker to the next (ctlFF).
type ctlScratch struct {
	evs   []event
	spam  []spamKey
	names []string
	// maps, if not nil, are the flattenings of the maps encoding saw
	// last, reused for a map seen again (see mapFlats).
	maps *mapFlats
}

// open starts a region in encoding and returns its index. In decoding it
// reports whether the region can be skipped, and skips it.
func (w *walker) open() (int, bool) {
	i := w.ri
	w.ri++
	if !w.decode {
		w.f.regions = append(w.f.regions, region{start: len(w.f.nums)})
		return i, false
	}
	if w.same != nil && w.same[i] {
		r := w.f.regions[i]
		w.pos += r.count
		w.ri += r.nested
		return i, true
	}
	return i, false
}

// close ends the region i in encoding.
func (w *walker) close(i int) {
	if !w.decode {
		r := &w.f.regions[i]
		r.count = len(w.f.nums) - r.start
		r.nested = len(w.f.regions) - i - 1
	}
}

// unchanged returns, for each region of f, whether d moves none of its
// numbers.
func unchanged(f flat, d []int64) []bool {
	out := make([]bool, len(f.regions))
	for i, r := range f.regions {
		out[i] = !slices.ContainsFunc(d[r.start:r.start+r.count], func(v int64) bool { return v != 0 })
	}
	return out
}

// Markers in the shape: a literal ends with endLit, and every number
// leaves isNum, so that the shape also tells where the numbers are.
const (
	endLit = 0
	isNum  = 1
)

func (w *walker) lit(s string) {
	if !w.decode {
		w.f.shape = append(append(w.f.shape, s...), endLit)
	}
}

// litJSON adds the JSON of v to the shape; v is not read in decoding.
func (w *walker) litJSON(v func() any) {
	if w.decode {
		return
	}
	if w.noJSON {
		w.lit("spec")
		return
	}
	b, err := json.Marshal(v())
	if err != nil {
		b = fmt.Appendf(nil, "unencodable: %v", err) // never equal to a real encoding
	}
	w.f.shape = append(append(w.f.shape, b...), endLit)
}

func (w *walker) flag(b bool) {
	if b {
		w.lit("t")
	} else {
		w.lit("f")
	}
}

func (w *walker) num(v int64) int64 {
	if !w.decode {
		w.f.shape = append(w.f.shape, isNum)
		w.f.nums = append(w.f.nums, v)
		return v
	}
	v = w.f.nums[w.pos]
	w.pos++
	return v
}

func (w *walker) i64(p *int64) { *p = w.num(*p) }

func (w *walker) i32(p *int32) {
	v := w.num(int64(*p))
	if v < math.MinInt32 || v > math.MaxInt32 {
		w.bad = true
		return
	}
	*p = int32(v)
}

func (w *walker) int(p *int) { *p = int(w.num(int64(*p))) }

func (w *walker) dur(p *time.Duration) { *p = time.Duration(w.num(int64(*p))) }

func (w *walker) opt(o *rollout.OptionalInt32) {
	w.flag(o.Valid)
	if o.Valid {
		w.i32(&o.Value)
	}
}

// Times between these two are numbers (their UnixNano); others, such as
// the zero time, are shape.
var (
	minTime = time.Unix(0, math.MinInt64/2)
	maxTime = time.Unix(0, math.MaxInt64/2)
)

// Unix seconds strictly between these two are times between minTime
// and maxTime (the division truncates towards zero, a second inside
// minTime's).
const (
	minTimeSec = math.MinInt64 / 2 / int64(time.Second)
	maxTimeSec = math.MaxInt64 / 2 / int64(time.Second)
)

// zeroUnix is the zero time's Unix seconds.
const zeroUnix = -62135596800

// numberTime reports whether t, of Unix seconds sec, is a number of the
// flats: between minTime and maxTime, most times by their seconds alone.
func numberTime(t time.Time, sec int64) bool {
	if sec > minTimeSec && sec < maxTimeSec {
		return true
	}
	return !t.Before(minTime) && !t.After(maxTime)
}

// time visits a time: the zero time and times out of minTime..maxTime
// are shape, others their location (shape) and UnixNano (a number). Its
// seconds are read once (time's methods each read them again: this was
// a twentieth of the flattening).
func (w *walker) time(p *time.Time) {
	sec, nsec := p.Unix(), p.Nanosecond()
	if sec == zeroUnix && nsec == 0 {
		w.lit("zero")
		return
	}
	if !numberTime(*p, sec) {
		if !w.decode {
			w.lit(p.Format(time.RFC3339Nano))
		}
		return
	}
	loc := p.Location()
	if !w.decode {
		if loc == time.UTC {
			w.lit("UTC")
		} else {
			w.lit(loc.String())
		}
	}
	n := w.num(sec*int64(time.Second) + int64(nsec))
	if w.decode {
		if n < minTime.UnixNano() || n > maxTime.UnixNano() {
			w.bad = true
			return
		}
		*p = time.Unix(0, n).In(loc)
	}
}

// text flattens a string: each run of decimal digits that reads as an
// int64 without a leading zero is a number, the rest is shape. In
// decoding, the string is rewritten only if a number changed.
func (w *walker) text(p *string) {
	if w.decode && w.forms != nil {
		w.textFromForm(p)
		return
	}
	ri, skip := w.open()
	if skip {
		return
	}
	defer w.close(ri)
	s := *p
	var b *strings.Builder // decoding: from the first number that changed
	done := 0              // s[:done] has been visited
	for i := 0; i < len(s); {
		if !isDigit(s[i]) {
			i++
			continue
		}
		if j, ok := w.stamp(s, i, done, &b); ok {
			done, i = j, j
			continue
		}
		j := i
		for j < len(s) && isDigit(s[j]) {
			j++
		}
		v, err := strconv.ParseInt(s[i:j], 10, 64)
		if err != nil || (s[i] == '0' && j-i > 1) {
			i = j
			continue // shape
		}
		w.lit(s[done:i])
		n := w.num(v)
		if w.decode && (b != nil || n != v) {
			if b == nil {
				b = new(strings.Builder)
				b.Grow(len(s) + 4)
				b.WriteString(s[:i])
			} else {
				b.WriteString(s[done:i])
			}
			if n < 0 {
				w.bad = true // it would read as another number
			}
			b.WriteString(strconv.FormatInt(n, 10))
		}
		done, i = j, j
	}
	w.lit(s[done:])
	if b != nil {
		b.WriteString(s[done:])
		*p = b.String()
	}
}

// stampLen is the length of a time in UTC written as RFC 3339 to the
// second, as messages write a progress deadline's end.
const stampLen = len("2006-01-02T15:04:05Z")

// stamp visits a time written as RFC 3339 to the second in UTC at s[i:],
// if there is one, as one number (its Unix seconds), so that it moves
// with the clock instead of wrapping at 60 as its digits do. It returns
// where the time ends and true, or false if s[i:] does not start with
// one. done and b are text's.
func (w *walker) stamp(s string, i, done int, b **strings.Builder) (int, bool) {
	j := i + stampLen
	if j > len(s) || s[j-1] != 'Z' || (j < len(s) && isDigit(s[j])) {
		return 0, false
	}
	t, err := time.Parse(time.RFC3339, s[i:j])
	if err != nil {
		return 0, false
	}
	w.lit(s[done:i])
	w.lit("rfc3339")
	v := t.Unix()
	n := w.num(v)
	if w.decode && (*b != nil || n != v) {
		if *b == nil {
			*b = new(strings.Builder)
			(*b).Grow(len(s) + 4)
			(*b).WriteString(s[:i])
		} else {
			(*b).WriteString(s[done:i])
		}
		out := time.Unix(n, 0).UTC().Format(time.RFC3339)
		if len(out) != stampLen {
			w.bad = true // it would not read back as the same number
		}
		(*b).WriteString(out)
	}
	return j, true
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// A textForm is a string as text takes it apart: the literal pieces
// around its numbers (one more than the numbers), each number as read,
// and whether it is a time written as RFC 3339 (see stamp).
type textForm struct {
	pieces []string
	nums   []int64
	stamps []bool
}

// parseText takes s apart as text does.
func parseText(s string) textForm {
	var f textForm
	done := 0
	add := func(i, j int, v int64, stamp bool) {
		f.pieces = append(f.pieces, s[done:i])
		f.nums = append(f.nums, v)
		f.stamps = append(f.stamps, stamp)
		done = j
	}
	for i := 0; i < len(s); {
		if !isDigit(s[i]) {
			i++
			continue
		}
		if j, v, ok := readStamp(s, i); ok {
			add(i, j, v, true)
			i = j
			continue
		}
		j := i
		for j < len(s) && isDigit(s[j]) {
			j++
		}
		v, err := strconv.ParseInt(s[i:j], 10, 64)
		if err == nil && (s[i] != '0' || j-i == 1) {
			add(i, j, v, false)
		}
		i = j
	}
	f.pieces = append(f.pieces, s[done:])
	return f
}

// readStamp reads a time written as RFC 3339 to the second in UTC at
// s[i:], as stamp does: where it ends, its Unix seconds, and whether
// there is one.
func readStamp(s string, i int) (int, int64, bool) {
	j := i + stampLen
	if j > len(s) || s[j-1] != 'Z' || (j < len(s) && isDigit(s[j])) {
		return 0, 0, false
	}
	t, err := time.Parse(time.RFC3339, s[i:j])
	if err != nil {
		return 0, 0, false
	}
	return j, t.Unix(), true
}

// textFromForm is text in decoding with w.forms: the string is taken
// apart once per region (its original is the same for every string
// decoded into it), and rewritten only if a number changed.
func (w *walker) textFromForm(p *string) {
	ri, skip := w.open()
	if skip {
		return
	}
	f := w.forms[ri]
	if f == nil {
		parsed := parseText(*p)
		f = &parsed
		w.forms[ri] = f
	}
	start := w.pos
	changed := false
	for _, v := range f.nums {
		if w.num(v) != v {
			changed = true
		}
	}
	if !changed {
		return
	}
	// The string is written into the walker's scratch, then allocated
	// once, or, with an arena (commit), copied into it to become part of
	// one string with the other messages of its chunk (a builder, its
	// numbers and its times were an allocation each).
	b := w.buf[:0]
	for k, n := range w.f.nums[start:w.pos] {
		b = append(b, f.pieces[k]...)
		if f.stamps[k] {
			at := len(b)
			b = time.Unix(n, 0).UTC().AppendFormat(b, time.RFC3339)
			if len(b)-at != stampLen {
				w.bad = true // it would not read back as the same number
			}
			continue
		}
		if n < 0 {
			w.bad = true // it would read as another number
		}
		b = strconv.AppendInt(b, n, 10)
	}
	b = append(b, f.pieces[len(f.nums)]...)
	w.buf = b
	if w.arena != nil {
		w.arena.setText(p, b)
		return
	}
	*p = string(b)
}

func (w *walker) strings(p *map[string]string) {
	ri, skip := w.open()
	if skip {
		return
	}
	defer w.close(ri)
	m := *p
	if len(m) == 0 {
		w.lit("0")
		return
	}
	var kept *mapFlat
	if w.ctl.maps != nil && !w.decode {
		if kept = w.ctl.maps.find(m); kept.m != nil {
			w.appendMapFlat(kept)
			return
		}
		defer w.keepMapFlat(kept, m, ri, len(w.f.shape))
	}
	// The keys are sorted into the walker's scratch (no map's value is a
	// map, so the visits do not nest).
	if cap(w.keys) < len(m) {
		w.keys = make([]string, 0, max(len(m), 8))
	}
	keys := w.keys[:0]
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	w.keys = keys
	if !w.decode {
		w.lit(strconv.Itoa(len(m)))
	}
	var out map[string]string
	for _, k := range keys {
		w.lit(k)
		was := m[k]
		v := was
		w.text(&v)
		if w.decode && v != was {
			if out == nil {
				out = make(map[string]string, len(m))
				for k, v := range m {
					out[k] = v
				}
			}
			out[k] = v
		}
	}
	if out != nil {
		*p = out
	}
}

// region visits a part of a value in a region of its own, which
// decoding skips when none of its numbers move (an action's status or
// created ReplicaSet, most of which a jump's steps leave as they were).
func (w *walker) region(visit func()) {
	ri, skip := w.open()
	if skip {
		return
	}
	visit()
	w.close(ri)
}

// listOf visits a list as eachOf does, the list and each of its
// elements in a region of their own: decoding skips an element whose
// numbers do not move, and a list none of whose numbers move, which it
// then does not copy either (a jump's steps share such a list with the
// step they were written from).
func listOf[T any](w *walker, p *[]T, visit func(*T)) {
	ri, skip := w.open()
	if skip {
		w.owned = false
		return
	}
	eachOf(w, p, func(e *T) {
		ei, skip := w.open()
		if skip {
			return
		}
		visit(e)
		w.close(ei)
	})
	w.close(ri)
}

// mapFlats remember how strings flattened the maps it saw last: during
// a run no map of the objects is changed in place once the fast-forward
// looks at it (the runs replace maps; the functions of Config.Edits,
// which may not, all come before), so a map at the same address
// flattens as it did, and so does a map with the same entries. The
// flattening of every Deployment sync sees the same few maps (the
// objects' labels and annotations) again and again, and a jump's check
// their copies; sorting their keys and reading their values took a third
// of it.
type mapFlats struct {
	kept [16]mapFlat
	next int // the slot to reuse next
}

// A mapFlat is one map's flattening: its shape, its numbers, and its
// nested regions (their starts counted from the map's first number).
// It keeps the map, so that no other map takes its address.
type mapFlat struct {
	m       map[string]string
	at      uintptr
	shape   []byte
	nums    []int64
	regions []region
}

// find returns the flattening of m, or of a map with the same entries,
// if one is kept, else a slot to keep m's in (its m nil).
func (f *mapFlats) find(m map[string]string) *mapFlat {
	at := reflect.ValueOf(m).Pointer()
	for i := range f.kept {
		if s := &f.kept[i]; s.m != nil && s.at == at && len(s.m) == len(m) {
			return s
		}
	}
	for i := range f.kept {
		if s := &f.kept[i]; s.m != nil && len(s.m) == len(m) && sameEntries(s.m, m) {
			s.m, s.at = m, at
			return s
		}
	}
	s := &f.kept[f.next]
	f.next = (f.next + 1) % len(f.kept)
	s.m, s.at = nil, at
	return s
}

// sameEntries reports whether a and b, of one length, hold the same
// entries.
func sameEntries(a, b map[string]string) bool {
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// appendMapFlat writes the flattening kept in s, as strings would write
// its map, into the region strings opened.
func (w *walker) appendMapFlat(s *mapFlat) {
	start := len(w.f.nums)
	w.f.shape = append(w.f.shape, s.shape...)
	w.f.nums = append(w.f.nums, s.nums...)
	for _, r := range s.regions {
		r.start += start
		w.f.regions = append(w.f.regions, r)
	}
	w.ri += len(s.regions)
}

// keepMapFlat keeps in s m's flattening, which strings has just written
// from the number of its region ri and from shape[shape:] on.
func (w *walker) keepMapFlat(s *mapFlat, m map[string]string, ri, shape int) {
	start := w.f.regions[ri].start
	s.m = m
	s.shape = append(s.shape[:0], w.f.shape[shape:]...)
	s.nums = append(s.nums[:0], w.f.nums[start:]...)
	s.regions = s.regions[:0]
	for _, r := range w.f.regions[ri+1:] {
		r.start -= start
		s.regions = append(s.regions, r)
	}
}

// eachOf visits every element of *p, in decoding on a copy of the slice
// (unless w.owned says *p is one already).
func eachOf[T any](w *walker, p *[]T, visit func(*T)) {
	owned := w.owned
	w.owned = false
	if !w.decode {
		w.lit(strconv.Itoa(len(*p)))
	}
	if w.decode && len(*p) > 0 && !owned {
		if c, ok := any(p).(*[]rollout.Condition); ok && w.arena != nil {
			*c = w.arena.conditions(*c)
		} else {
			*p = slices.Clone(*p)
		}
	}
	for i := range *p {
		visit(&(*p)[i])
	}
}
