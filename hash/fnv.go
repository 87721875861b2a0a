package hash

// FNV32a is the state of a 32-bit FNV-1a hash, the function of upstream's
// pod-template-hash (hash/fnv's New32a). Its methods return the state after
// reading more input; the state is the sum. Its zero value is not the
// initial state: start from [NewFNV32a].
type FNV32a uint32

const (
	fnvOffset32 = 2166136261
	fnvPrime32  = 16777619
)

// NewFNV32a returns the initial state.
func NewFNV32a() FNV32a { return fnvOffset32 }

// WriteString returns the state after reading s.
func (h FNV32a) WriteString(s string) FNV32a {
	for i := 0; i < len(s); i++ {
		h = (h ^ FNV32a(s[i])) * fnvPrime32
	}
	return h
}

// Write returns the state after reading b.
func (h FNV32a) Write(b []byte) FNV32a {
	for _, c := range b {
		h = (h ^ FNV32a(c)) * fnvPrime32
	}
	return h
}

// WriteCollisionCount returns the state after reading a collision count as
// upstream's ComputeHash appends a non-nil one: the count as a
// little-endian uint32, then four zero bytes.
func (h FNV32a) WriteCollisionCount(count int32) FNV32a {
	var b [8]byte
	v := uint32(count)
	b[0], b[1], b[2], b[3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
	return h.Write(b[:])
}

// A Segment is a constant string prepared so that FNV-1a reads it in one
// step, whatever its length: the state after reading s from h is
// mult·(h with its low byte cleared) + low[h's low byte], because FNV-1a's
// low byte depends only on the previous low byte and the input, and the
// rest of the state is multiplied by the prime at every byte. Preparing a
// segment costs 256 readings of s; use it for strings hashed often.
type Segment struct {
	mult uint32
	low  [256]uint32
}

// NewSegment prepares s.
func NewSegment(s string) *Segment {
	seg := &Segment{mult: 1}
	for range len(s) {
		seg.mult *= fnvPrime32
	}
	for l := range 256 {
		seg.low[l] = uint32(FNV32a(l).WriteString(s))
	}
	return seg
}

// WriteSegment returns the state after reading the segment's string; it is
// h.WriteString(s) for the s the segment was prepared from.
func (h FNV32a) WriteSegment(s *Segment) FNV32a {
	return FNV32a(s.mult*(uint32(h)&^0xff) + s.low[h&0xff])
}
