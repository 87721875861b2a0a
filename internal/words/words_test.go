package words

import (
	"testing"
	"time"
)

func TestDuration(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{
		{0, "0s"}, {45 * time.Second, "45s"}, {150 * time.Second, "2m30s"}, {2 * time.Minute, "2m"},
		{time.Hour + 5*time.Second, "1h0m5s"}, {time.Hour, "1h"}, {76 * time.Hour, "3d4h"},
		{-90 * time.Second, "-1m30s"}, {1234567 * time.Microsecond, "1.235s"},
	} {
		if got := Duration(tc.d); got != tc.want {
			t.Errorf("Duration(%v) = %q, want %q", tc.d, got, tc.want)
		}
	}
}

func TestPlural(t *testing.T) {
	if got := Plural(1, "sync"); got != "1 sync" {
		t.Errorf("Plural(1) = %q", got)
	}
	if got := Plural(3, "sync"); got != "3 syncs" {
		t.Errorf("Plural(3) = %q", got)
	}
}

func TestCounts(t *testing.T) {
	for _, tt := range []struct {
		counts []int32
		want   string
	}{
		{nil, ""},
		{[]int32{3}, "3"},
		{[]int32{2, 3, 4}, "2..4"},
		{[]int32{1, 3, 4, 5, 9}, "1, 3..5, 9"},
		{[]int32{2147483646, 2147483647}, "2147483646..2147483647"},
	} {
		if got := Counts(tt.counts); got != tt.want {
			t.Errorf("Counts(%v) = %q, want %q", tt.counts, got, tt.want)
		}
	}
}
