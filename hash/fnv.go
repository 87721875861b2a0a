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
