package hash_test

import (
	"encoding/binary"
	"hash/fnv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/hash"
)

func TestEncode(t *testing.T) {
	tests := []struct {
		sum  uint32
		want string
	}{
		{0, "4"},
		{9, "f"},
		{10, "54"},
		// Upstream D.5: SafeEncode("0123456789") = "456789bcdf"; as a sum the
		// leading 0 cannot appear, so check every digit through 1234567890.
		{1234567890, "56789bcdf4"},
		{987654321, "fdcb98765"},
		// Upstream D.5: the FNV-1a sum of the empty PodTemplateSpec dump.
		{4130463924, "85748b7f68"},
		{4294967295, "86f8fbc6f9"},
	}
	for _, tt := range tests {
		if got := hash.Encode(tt.sum); got != tt.want {
			t.Errorf("Encode(%d) = %q, want %q", tt.sum, got, tt.want)
		}
	}
}

// Upstream: TestGenerateReplicaSetName and
// TestDeploymentController_generateReplicaSetName (C.8).
func TestName(t *testing.T) {
	tests := []struct {
		name         string
		prefix, hash string
		want         string
	}{
		{"short name", "my-deployment", "abcde12345", "my-deployment-abcde12345"},
		{"242 characters fit", strings.Repeat("a", 242), "abcde12345", strings.Repeat("a", 242) + "-abcde12345"},
		{"250 characters cut to 242", strings.Repeat("b", 250), "abcde12345", strings.Repeat("b", 242) + "-abcde12345"},
		{"nine-character hash leaves 243", strings.Repeat("c", 250), "b54bc767c", strings.Repeat("c", 243) + "-b54bc767c"},
		{"hash too long to cut", strings.Repeat("d", 252), strings.Repeat("h", 252), strings.Repeat("d", 252) + "-" + strings.Repeat("h", 252)},
		{"limit exactly 1", strings.Repeat("e", 5), strings.Repeat("h", 251), "e-" + strings.Repeat("h", 251)},
		{"empty prefix", "", "4", "-4"},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, hash.Name(tt.prefix, tt.hash)); diff != "" {
			t.Errorf("%s: Name() mismatch (-want +got):\n%s", tt.name, diff)
		}
	}
	// With a real (10-character) hash every name fits.
	h := hash.Encode(4130463924)
	for _, n := range []int{0, 13, 242, 243, 250, 1000} {
		if got := hash.Name(strings.Repeat("a", n), h); len(got) > 253 || !strings.HasSuffix(got, "-"+h) {
			t.Errorf("Name(%d a's, %q) = %d bytes ending %q, want at most 253 ending in -hash", n, h, len(got), got[max(0, len(got)-12):])
		}
	}
}

// TestFNV32aIsHashFNV: the state after any sequence of writes is hash/fnv's
// New32a sum of the concatenation.
func TestFNV32aIsHashFNV(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		parts := rapid.SliceOf(rapid.SliceOf(rapid.Byte())).Draw(t, "parts")
		h := hash.NewFNV32a()
		std := fnv.New32a()
		for i, p := range parts {
			if i%2 == 0 {
				h = h.Write(p)
			} else {
				h = h.WriteString(string(p))
			}
			std.Write(p)
		}
		if uint32(h) != std.Sum32() {
			t.Fatalf("FNV32a = %d, hash/fnv = %d", uint32(h), std.Sum32())
		}
	})
}

// TestWriteCollisionCount: the count's four little-endian bytes, then four
// zero bytes, as upstream's ComputeHash writes them: counts whose bytes
// all differ (0x01020304), with every single bit set, and any int32.
func TestWriteCollisionCount(t *testing.T) {
	want := func(c int32) hash.FNV32a {
		var b [8]byte
		binary.LittleEndian.PutUint32(b[:4], uint32(c))
		return hash.NewFNV32a().Write(b[:])
	}
	counts := []int32{0, 1, 255, 256, 0x01020304, 2147483647, -1}
	for bit := range 32 {
		counts = append(counts, int32(uint32(1)<<bit))
	}
	for _, c := range counts {
		if got := hash.NewFNV32a().WriteCollisionCount(c); got != want(c) {
			t.Errorf("WriteCollisionCount(%#x) = %d, want %d", c, got, want(c))
		}
	}
	rapid.Check(t, func(t *rapid.T) {
		c := rapid.Int32().Draw(t, "count")
		if got := hash.NewFNV32a().WriteCollisionCount(c); got != want(c) {
			t.Fatalf("WriteCollisionCount(%#x) = %d, want %d", c, got, want(c))
		}
	})
}

// TestSegment: reading a prepared segment is reading its string, from any
// state.
func TestSegment(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := rapid.String().Draw(t, "s")
		h := hash.FNV32a(rapid.Uint32().Draw(t, "h"))
		if got, want := h.WriteSegment(hash.NewSegment(s)), h.WriteString(s); got != want {
			t.Fatalf("WriteSegment(%q) from %d = %d, WriteString = %d", s, h, got, want)
		}
	})
}

// TestSegmentFromEveryLowByte: a segment is prepared for all 256 low bytes
// of the state, so reading it from a state ending in any byte, 0x00 to 0xff,
// is reading its string. (A random state ends in 0xff once in 256 draws.)
func TestSegmentFromEveryLowByte(t *testing.T) {
	for _, s := range []string{"", "a", "pod-template"} {
		seg := hash.NewSegment(s)
		for low := range 256 {
			h := hash.FNV32a(0x9e3779b9&^0xff | uint32(low))
			if got, want := h.WriteSegment(seg), h.WriteString(s); got != want {
				t.Errorf("WriteSegment(%q) from %#x = %d, WriteString = %d", s, uint32(h), got, want)
			}
		}
	}
}
