package revision_test

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/rolloutmath/rolloutmath/revision"
)

var parseSeeds = []string{
	"", "0", "+5", "-1", "-0", "007", "1.5", "x", " 1", "1_000", "0x10", "+",
	"9223372036854775807", "-9223372036854775808",
	"9223372036854775808", "-9223372036854775809",
}

func FuzzParse(f *testing.F) {
	for _, s := range parseSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := revision.Parse(s)
		want, wantErr := strconv.ParseInt(s, 10, 64)
		if (err == nil) != (wantErr == nil) || (err == nil && n != want) || (err != nil && n != 0) {
			t.Fatalf("Parse(%q) = %d, %v; strconv.ParseInt gives %d, %v", s, n, err, want, wantErr)
		}
		if err != nil {
			var pe *revision.ParseError
			if !errors.As(err, &pe) || pe.Input != s ||
				!(errors.Is(err, revision.ErrSyntax) || errors.Is(err, revision.ErrRange)) {
				t.Fatalf("Parse(%q) error %#v is not a ParseError wrapping ErrSyntax or ErrRange", s, err)
			}
			return
		}
		// Round trip through the canonical form.
		canon := strconv.FormatInt(n, 10)
		back, err := revision.Parse(canon)
		if err != nil || back != n {
			t.Fatalf("Parse(%q) = %d, %v; want %d", canon, back, err, n)
		}
		if r := revision.Of(s, true); r != (revision.Rev{N: n, Valid: true}) {
			t.Fatalf("Of(%q, true) = %+v, want {%d true}", s, r, n)
		}
	})
}

func FuzzAppendHistory(f *testing.F) {
	f.Add("", "11", 5)
	f.Add("11", "12", 5)
	f.Add("11,12", "13", 5)
	f.Add(",1,2", "3", 100)
	f.Add("", "123456", 5) // overwrite longer than limit and history
	f.Add("1,2", "123456", 5)
	f.Add("1,2", "", 100)
	f.Add("1,,2", "3", 5)
	f.Add("1,1", "1", 3)
	f.Add("1,2", "3", -1)
	f.Add("1,2,3", "4", revision.HistoryLimit)
	f.Fuzz(func(t *testing.T, history, old string, limit int) {
		got := revision.AppendHistory(history, old, limit)
		if want := appendHistoryRef(history, old, limit); got != want {
			t.Fatalf("AppendHistory(%q, %q, %d) = %q, reference gives %q", history, old, limit, got, want)
		}
		// The bound max(limit, len(history)) does not hold: an empty first
		// piece is replaced by old whatever its length. The true bound, by
		// branch:
		switch {
		case history == "" || history[0] == ',':
			if got != old {
				t.Fatalf("got %q, want old %q", got, old)
			}
		case len(old) > limit:
			if got != history {
				t.Fatalf("got %q, want history %q", got, history)
			}
		default:
			if len(got) > limit || !strings.HasSuffix(history+","+old, got) {
				t.Fatalf("got %q: longer than %d or not a tail of history,old", got, limit)
			}
		}
		if len(got) > max(limit, len(history), len(old)) {
			t.Fatalf("len(%q) > max(limit %d, len(history) %d, len(old) %d)", got, limit, len(history), len(old))
		}
	})
}

func FuzzParseRollbackTo(f *testing.F) {
	for _, s := range parseSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		to, ok := revision.ParseRollbackTo(s)
		want, err := strconv.ParseInt(s, 10, 64)
		if wantOK := s != "" && err == nil; ok != wantOK || (ok && to != want) || (!ok && to != 0) {
			t.Fatalf("ParseRollbackTo(%q) = %d, %v; want %d, %v", s, to, ok, want, wantOK)
		}
		if ok {
			back, ok2 := revision.ParseRollbackTo(strconv.FormatInt(to, 10))
			if !ok2 || back != to {
				t.Fatalf("round trip of %d gave %d, %v", to, back, ok2)
			}
		}
	})
}
