package rollout

import (
	"bytes"
	"errors"
	"slices"
	"strconv"

	"github.com/rolloutmath/rolloutmath/hash"
)

// PodSpec is a pod template's spec, kept as canonical JSON (the form
// [hash.Canonical] gives: object keys sorted, no insignificant white space,
// no null members or empty lists). Equal specs therefore have equal bytes,
// and templates compare byte for byte. A PodSpec is built by
// [ParsePodSpec] or by decoding, so it always holds a valid JSON object;
// the zero PodSpec is the empty spec {}.
type PodSpec struct {
	b []byte // canonical JSON; never modified once set; nil means {}
}

// errNotObject reports a pod spec that is valid JSON but not an object.
var errNotObject = errors.New("a pod spec must be a JSON object")

// ParsePodSpec returns the PodSpec of a JSON object, in canonical form. It
// applies no defaults (decoding a [PodTemplate] does). Empty input or null
// is the empty spec; anything but an object is an error.
func ParsePodSpec(data []byte) (PodSpec, error) {
	t := bytes.TrimSpace(data)
	if len(t) == 0 || string(t) == "null" {
		return PodSpec{}, nil
	}
	if t[0] != '{' {
		return PodSpec{}, errNotObject
	}
	c, err := hash.Canonical(nil, t)
	if err != nil {
		return PodSpec{}, err
	}
	if string(c) == "{}" {
		return PodSpec{}, nil
	}
	return PodSpec{b: c}, nil
}

// JSON returns the spec's canonical JSON, {} for the empty spec. The caller
// may modify the result.
func (s PodSpec) JSON() []byte {
	if len(s.b) == 0 {
		return []byte("{}")
	}
	return slices.Clone(s.b)
}

// String returns the spec's canonical JSON.
func (s PodSpec) String() string { return string(s.JSON()) }

// IsZero reports whether s is the empty spec.
func (s PodSpec) IsZero() bool { return len(s.b) == 0 }

// Equal reports whether s and o are the same spec.
func (s PodSpec) Equal(o PodSpec) bool { return bytes.Equal(s.b, o.b) }

// MarshalJSON encodes the spec in its canonical form.
func (s PodSpec) MarshalJSON() ([]byte, error) { return s.JSON(), nil }

// UnmarshalJSON decodes a JSON object into its canonical form, as
// [ParsePodSpec] does.
func (s *PodSpec) UnmarshalJSON(b []byte) error {
	p, err := ParsePodSpec(b)
	if err != nil {
		return err
	}
	*s = p
	return nil
}

// MustParsePodSpec is [ParsePodSpec] for specs written in the program, such
// as test fixtures: it panics if json is not a JSON object, like
// regexp.MustCompile.
func MustParsePodSpec(json string) PodSpec {
	s, err := ParsePodSpec([]byte(json))
	if err != nil {
		panic("rollout: MustParsePodSpec(" + strconv.Quote(json) + "): " + err.Error())
	}
	return s
}
