package hash

import (
	"bytes"
	"maps"
	"slices"
	"strconv"
)

// Label is the label key under which the controller records the template
// hash on a ReplicaSet, its selector and its pod template (§1.1).
const Label = "pod-template-hash"

// A Template is the part of a pod template that is hashed and compared.
// Its zero value is the empty template.
type Template struct {
	// Labels and Annotations are the template's metadata maps. A nil map and
	// an empty map are the same to Sum and Equal.
	Labels      map[string]string
	Annotations map[string]string

	// Spec is the JSON of the pod spec. Sum and Equal read it in canonical
	// form (see Canonical): nil, empty, whitespace-only and JSON null all
	// mean {}. A Spec that is not valid JSON is used byte for byte.
	Spec []byte
}

// Sum returns the pod-template-hash of t without a collision count (upstream's
// ComputeHash with a nil collisionCount): 1 to 10 characters from
// "456789bcdf". Sum is a 32-bit FNV-1a of the encoding described in the
// package documentation, so it does not depend on map iteration order or on
// the key order and whitespace of t.Spec, and a Label entry in t.Labels is
// hashed like any other label. Sum never panics; a Spec that is not valid
// JSON is hashed as its raw bytes. Sum does not modify t, and when t.Spec is
// canonical (see [IsCanonical]) and t has at most 16 labels and 16
// annotations it allocates only the returned string.
func Sum(t Template) string {
	return Encode(uint32(sum(t)))
}

// SumCollisions is Sum with the collision count mixed in, as upstream does for
// a non-nil collisionCount: after t's encoding the hash reads uint32(count)
// in little-endian order and then four zero bytes. SumCollisions(t, 0)
// differs from Sum(t) (upstream's nil and 0 differ too).
func SumCollisions(t Template, count int32) string {
	h := sum(t).uint32(uint32(count)).uint32(0)
	return Encode(uint32(h))
}

// sum hashes the encoding of t described in doc.go.
func sum(t Template) fnv32a {
	h := newFNV32a()
	h = hashMap(h, 'l', t.Labels)
	h = hashMap(h, 'a', t.Annotations)
	spec, _ := specForm(t.Spec)
	if spec == nil {
		spec = []byte("{}")
	}
	return h.byte('s').uvarint(uint64(len(spec))).bytes(spec)
}

// hashMap writes tag, the number of entries and then each entry in
// increasing key order, every key and value preceded by its length.
func hashMap(h fnv32a, tag byte, m map[string]string) fnv32a {
	h = h.byte(tag).uvarint(uint64(len(m)))
	var stack [16]string // most maps are small: sort their keys without allocating
	keys := stack[:0]
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		v := m[k]
		h = h.uvarint(uint64(len(k))).string(k).uvarint(uint64(len(v))).string(v)
	}
	return h
}

// specForm returns the form of a Template's Spec that Sum hashes and Equal
// compares, and whether spec is valid JSON. For valid JSON the form is the
// canonical encoding, with nil standing for {}; otherwise it is spec itself.
// specForm allocates only when spec is not canonical.
func specForm(spec []byte) (form []byte, valid bool) {
	if len(spec) == 0 {
		return nil, true
	}
	if !IsCanonical(spec) {
		c, err := Canonical(nil, spec)
		if err != nil {
			return spec, false
		}
		spec = c
	}
	if string(spec) == "{}" || string(spec) == "null" {
		return nil, true
	}
	return spec, true
}

// Equal reports whether a and b are the same template when the Label entry
// of their labels is ignored (R-EQ-1 for this model): labels equal after
// removing Label, annotations equal as maps, specs equal in canonical form.
// Nil and empty maps are equal. Specs that are not valid JSON are equal only
// to identical bytes. Equal is reflexive and symmetric, and Equal(a, b)
// implies that a and b have the same Sum once Label is removed from their
// labels. Equal does not modify a or b, and does not allocate when both specs
// are canonical.
//
// Upstream compares typed Go values and so treats resource quantities
// numerically ("1" == "1000m"); Equal compares JSON text, in which such
// spellings differ.
func Equal(a, b Template) bool {
	return labelsEqual(a.Labels, b.Labels) &&
		maps.Equal(a.Annotations, b.Annotations) &&
		specEqual(a.Spec, b.Spec)
}

// EqualCanonical is [Equal] for templates whose specs are already in
// canonical form (as decoding or [Canonical] leaves them): it compares the
// specs byte for byte and never scans or allocates. For a spec that is not
// canonical it may report a difference where Equal reports none.
func EqualCanonical(a, b Template) bool {
	// The specs first: templates that differ mostly differ there, and
	// comparing bytes is cheaper than comparing maps.
	return bytes.Equal(specOrEmpty(a.Spec), specOrEmpty(b.Spec)) &&
		labelsEqual(a.Labels, b.Labels) &&
		maps.Equal(a.Annotations, b.Annotations)
}

// specOrEmpty returns spec, or {} for an empty spec, which means {}.
func specOrEmpty(spec []byte) []byte {
	if len(spec) == 0 {
		return emptyObject
	}
	return spec
}

var emptyObject = []byte("{}")

// labelsEqual compares a and b as if neither had the key Label.
func labelsEqual(a, b map[string]string) bool {
	n := 0
	for k, v := range a {
		if k == Label {
			continue
		}
		if w, ok := b[k]; !ok || w != v {
			return false
		}
		n++
	}
	nb := len(b)
	if _, ok := b[Label]; ok {
		nb--
	}
	return n == nb
}

func specEqual(a, b []byte) bool {
	if bytes.Equal(a, b) {
		return true
	}
	fa, validA := specForm(a)
	fb, validB := specForm(b)
	return validA && validB && bytes.Equal(fa, fb)
}

// safeDigits maps a decimal digit to upstream's "safe encoding" of it.
const safeDigits = "456789bcdf"

// Encode renders a 32-bit sum as upstream does: its decimal digits without
// leading zeros (1 to 10 of them), each mapped 0→4 1→5 2→6 3→7 4→8 5→9 6→b
// 7→c 8→d 9→f.
func Encode(sum uint32) string {
	var buf [10]byte
	b := strconv.AppendUint(buf[:0], uint64(sum), 10)
	for i, c := range b {
		b[i] = safeDigits[c-'0']
	}
	return string(b)
}

// maxNameLen is the longest valid ReplicaSet name (a DNS-1123 subdomain).
const maxNameLen = 253

// Name returns the ReplicaSet name prefix + "-" + hash (R-NAME-1). When
// 253-1-len(hash) is positive and prefix is longer than that, prefix is cut
// to that many bytes, so the name is at most 253 bytes. The hash is never
// cut: with a hash of 252 bytes or more the prefix is kept whole.
//
// Name does not check that the result is a valid name; a cut that leaves a
// trailing '.' or '-' yields a name the API rejects, as upstream's does.
func Name(prefix, hash string) string {
	if limit := maxNameLen - 1 - len(hash); limit > 0 && len(prefix) > limit {
		prefix = prefix[:limit]
	}
	return prefix + "-" + hash
}

// fnv32a is the state of a 32-bit FNV-1a hash. Its methods return the state
// after reading more input; the state is the sum.
type fnv32a uint32

const (
	fnvOffset32 = 2166136261
	fnvPrime32  = 16777619
)

func newFNV32a() fnv32a { return fnvOffset32 }

func (h fnv32a) byte(c byte) fnv32a {
	return (h ^ fnv32a(c)) * fnvPrime32
}

func (h fnv32a) bytes(b []byte) fnv32a {
	for _, c := range b {
		h = (h ^ fnv32a(c)) * fnvPrime32
	}
	return h
}

func (h fnv32a) string(s string) fnv32a {
	for i := 0; i < len(s); i++ {
		h = (h ^ fnv32a(s[i])) * fnvPrime32
	}
	return h
}

// uint32 reads v as four little-endian bytes.
func (h fnv32a) uint32(v uint32) fnv32a {
	return h.byte(byte(v)).byte(byte(v >> 8)).byte(byte(v >> 16)).byte(byte(v >> 24))
}

// uvarint reads v in the varint encoding of encoding/binary.
func (h fnv32a) uvarint(v uint64) fnv32a {
	for v >= 0x80 {
		h = h.byte(byte(v) | 0x80)
		v >>= 7
	}
	return h.byte(byte(v))
}
