package hash

import (
	"encoding/binary"
	"hash/fnv"
	"testing"
)

// TestCollisionBytesMatchUpstream continues upstream's hash of the empty
// PodTemplateSpec: FNV-1a's state is its sum, so starting from upstream's
// sum of the dump (D.5: 4130463924) and reading the collision bytes must give
// upstream's hashes for collisionCount 0 and 1.
func TestCollisionBytesMatchUpstream(t *testing.T) {
	const dumpSum = 4130463924
	tests := []struct {
		count int32
		want  string
	}{
		{0, "777dfcd544"},
		{1, "b54bc767c"},
	}
	if got := Encode(dumpSum); got != "85748b7f68" {
		t.Errorf("Encode(%d) = %q, want %q", uint32(dumpSum), got, "85748b7f68")
	}
	for _, tt := range tests {
		h := fnv32a(dumpSum).uint32(uint32(tt.count)).uint32(0)
		if got := Encode(uint32(h)); got != tt.want {
			t.Errorf("collision count %d: got %q, want upstream's %q", tt.count, got, tt.want)
		}
	}
}

// TestFNV32aMatchesStdlib checks the hasher against hash/fnv.
func TestFNV32aMatchesStdlib(t *testing.T) {
	inputs := []string{"", "a", "foobar", "pod-template-hash", "\x00\xff\x80"}
	for _, in := range inputs {
		std := fnv.New32a()
		std.Write([]byte(in))
		if got, want := uint32(newFNV32a().string(in)), std.Sum32(); got != want {
			t.Errorf("fnv32a.string(%q) = %d, want %d", in, got, want)
		}
		if got, want := uint32(newFNV32a().bytes([]byte(in))), std.Sum32(); got != want {
			t.Errorf("fnv32a.bytes(%q) = %d, want %d", in, got, want)
		}
	}
	// uvarint writes the bytes of encoding/binary's uvarint.
	for _, v := range []uint64{0, 1, 127, 128, 300, 1<<32 + 5, 1<<64 - 1} {
		want := newFNV32a().bytes(binary.AppendUvarint(nil, v))
		if got := newFNV32a().uvarint(v); got != want {
			t.Errorf("uvarint(%d) = %d, want %d", v, got, want)
		}
	}
}
