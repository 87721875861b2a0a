package rollout

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"weak"

	"github.com/rolloutmath/rolloutmath/internal/lz"
	"github.com/rolloutmath/rolloutmath/internal/schema"
)

// PodSpec is a pod template's spec (core/v1 PodSpec), held as the API
// server stores it: empty lists and maps absent, quantities in canonical
// form. Two PodSpecs are [PodSpec.Equal] exactly when upstream's semantic
// equality finds them equal (quantities compare by value, so cpu "1"
// equals "1000m"), and the comparison is a byte comparison of a canonical
// encoding computed once, when first needed (most specs a check loads are
// never compared).
//
// A PodSpec is immutable and cheap to copy: copies share their contents.
// It is built by [ParsePodSpec] or by decoding a template; the zero PodSpec
// is the empty spec {}.
type PodSpec struct {
	// v is the spec, never modified once set; nil for the empty spec and
	// for a compact one, whose value key holds.
	v   *schema.PodSpec
	key *specKey // shared by copies; nil for the empty spec
}

// specKey is what copies of a spec share: its comparison form, made the
// first time it is asked for (by any copy, from any goroutine), and, for
// a compact spec (see [PodSpec.compact]), its stored JSON and the value
// decoded from it while it is in use.
type specKey struct {
	once sync.Once
	b    []byte // nil for {}

	stored []byte   // a compact spec's stored JSON, packed against dict; nil otherwise
	dict   *lz.Dict // nil: stored is not packed
	size   int      // of the stored JSON, unpacked
	mu     sync.Mutex
	held   weak.Pointer[schema.PodSpec] // stored, decoded; kept while in use
}

// newPodSpec wraps a stored-form spec; it takes ownership of v.
func newPodSpec(v *schema.PodSpec) PodSpec {
	return PodSpec{v: v, key: &specKey{}}
}

// compact returns s held as its stored JSON, packed against dict unless
// it is nil: a third of the memory of its value, or a small part of that
// for specs like dict's; the value is decoded again when needed and kept
// only while something uses it (a weak pointer): for the many templates
// a check loads and reads once or twice. The result is the same spec as
// s in every form ([PodSpec.JSON], [PodSpec.Equal], the
// pod-template-hash), but not [PodSpec.Same] as s.
func (s PodSpec) compact(dict *lz.Dict) PodSpec {
	if s.v == nil {
		return s
	}
	b := schema.AppendPodSpec(nil, s.v, schema.Stored)
	size := len(b)
	if dict != nil {
		b = dict.Pack(nil, b)
	}
	// Cloned so that it holds no spare capacity.
	return PodSpec{key: &specKey{stored: bytes.Clone(b), dict: dict, size: size}}
}

// storedJSON returns the stored JSON of a compact key, unpacked.
func (k *specKey) storedJSON() []byte {
	if k.dict == nil {
		return slices.Clone(k.stored)
	}
	b, err := k.dict.Unpack(make([]byte, 0, k.size), k.stored)
	if err != nil {
		// Cannot happen: stored is what dict packed.
		panic(fmt.Sprintf("rollout: a compact pod spec does not unpack: %v", err))
	}
	return b
}

// value returns the spec of a compact key: the one decoded before, if
// something still holds it, else decoded again from the stored JSON.
func (k *specKey) value() *schema.PodSpec {
	k.mu.Lock()
	defer k.mu.Unlock()
	if v := k.held.Value(); v != nil {
		return v
	}
	v, res := schema.DecodePodSpec(k.storedJSON(), schema.DecodeOptions{EveryMinor: true})
	if len(res.Errs) > 0 || res.Malformed {
		// Cannot happen: the stored form of a spec decodes to it.
		panic(fmt.Sprintf("rollout: a compact pod spec does not decode: %v", res.Errs))
	}
	k.held = weak.Make(v)
	return v
}

// comparison returns the comparison form of s, nil for the empty spec.
func (s PodSpec) comparison() []byte {
	if s.key == nil {
		return nil
	}
	s.key.once.Do(func() {
		if b := schema.AppendPodSpec(nil, s.spec(), schema.Comparison); string(b) != "{}" {
			s.key.b = b
		}
	})
	return s.key.b
}

// errNotObject reports a pod spec that is valid JSON but not an object.
var errNotObject = errors.New("a pod spec must be a JSON object")

// ParsePodSpec decodes the JSON of a core/v1 PodSpec strictly (an unknown
// or misspelled field, a duplicate field or a value of the wrong type is a
// *FieldError naming it) and returns it in stored form. It reads the API
// of the newest supported minor (see [Version]): a field of an older minor
// only is unknown. It applies no
// defaults: decoding a [PodTemplate] or a Deployment does. Empty input or
// null is the empty spec.
func ParsePodSpec(data []byte) (PodSpec, error) {
	t := bytes.TrimSpace(data)
	if len(t) == 0 || string(t) == "null" {
		return PodSpec{}, nil
	}
	if t[0] != '{' {
		return PodSpec{}, errNotObject
	}
	v, res := schema.DecodePodSpec(t, schema.DecodeOptions{})
	if err := fieldErrors(res.Errs); err != nil {
		return PodSpec{}, err
	}
	tpl := schema.PodTemplateSpec{Spec: *v}
	schema.StoredPodTemplateSpec(&tpl)
	*v = tpl.Spec
	return newPodSpec(v), nil
}

// MustParsePodSpec is [ParsePodSpec] for specs written in the program, such
// as test fixtures: it panics if json is not a valid pod spec, like
// regexp.MustCompile.
func MustParsePodSpec(json string) PodSpec {
	s, err := ParsePodSpec([]byte(json))
	if err != nil {
		panic("rollout: MustParsePodSpec(" + strconv.Quote(json) + "): " + err.Error())
	}
	return s
}

// JSON returns the spec as the API server stores it, with object members
// in byte order of their names: {} for the empty spec. The caller may
// modify the result.
func (s PodSpec) JSON() []byte {
	if s.key != nil && s.key.stored != nil {
		return s.key.storedJSON()
	}
	if s.v == nil {
		return []byte("{}")
	}
	return schema.AppendPodSpec(nil, s.v, schema.Stored)
}

// String returns [PodSpec.JSON] as a string.
func (s PodSpec) String() string { return string(s.JSON()) }

// IsZero reports whether s is the empty spec.
func (s PodSpec) IsZero() bool { return s.comparison() == nil }

// Equal reports whether s and o are the same spec for upstream's semantic
// equality: the same fields and values, quantities compared by value.
func (s PodSpec) Equal(o PodSpec) bool { return bytes.Equal(s.comparison(), o.comparison()) }

// Same reports whether s and o are copies of one spec: the same parse or
// change made both. Specs that are the same are equal in every form (see
// [PodSpec.Equal], [PodSpec.JSON] and the pod-template-hash); specs that
// are not the same may still be equal. The zero PodSpec is the same as
// itself only.
func (s PodSpec) Same(o PodSpec) bool { return s.key == o.key }

// MarshalJSON encodes the spec as [PodSpec.JSON] does.
func (s PodSpec) MarshalJSON() ([]byte, error) { return s.JSON(), nil }

// UnmarshalJSON decodes a spec as [ParsePodSpec] does.
func (s *PodSpec) UnmarshalJSON(b []byte) error {
	p, err := ParsePodSpec(b)
	if err != nil {
		return err
	}
	*s = p
	return nil
}

// spec returns the spec's value, which the caller must not modify.
func (s PodSpec) spec() *schema.PodSpec {
	switch {
	case s.v != nil:
		return s.v
	case s.key != nil && s.key.stored != nil:
		return s.key.value()
	}
	return &schema.PodSpec{}
}

// ContainerImage is one container of a pod spec: its name, its image, and
// whether it is an init container.
type ContainerImage struct {
	Name  string
	Image string
	Init  bool
}

// Images returns the spec's containers in the order the kubelet starts
// them: init containers first, then the others, each list in spec order.
func (s PodSpec) Images() []ContainerImage {
	v := s.spec()
	out := make([]ContainerImage, 0, len(v.InitContainers)+len(v.Containers))
	for _, c := range v.InitContainers {
		out = append(out, ContainerImage{Name: c.Name, Image: c.Image, Init: true})
	}
	for _, c := range v.Containers {
		out = append(out, ContainerImage{Name: c.Name, Image: c.Image})
	}
	return out
}

// ErrNoContainer reports a container name a pod spec does not have.
var ErrNoContainer = errors.New("no such container")

// WithImage returns a copy of s in which the container (or init container)
// named container runs image. Nothing else changes: an explicit
// imagePullPolicy is kept, as the API server keeps it on an update. It
// returns an error wrapping [ErrNoContainer] for a name s does not have.
func (s PodSpec) WithImage(container, image string) (PodSpec, error) {
	c, err := s.copySpec()
	if err != nil {
		return PodSpec{}, err
	}
	for _, list := range [][]schema.Container{c.InitContainers, c.Containers} {
		for i := range list {
			if list[i].Name == container {
				list[i].Image = image
				return newPodSpec(c), nil
			}
		}
	}
	return PodSpec{}, fmt.Errorf("container %q: %w (the pod spec has %s)", container, ErrNoContainer, containerNames(s.spec()))
}

// copySpec returns a deep copy of the spec's value.
func (s PodSpec) copySpec() (*schema.PodSpec, error) {
	v, res := schema.DecodePodSpec(s.JSON(), schema.DecodeOptions{EveryMinor: true})
	if err := fieldErrors(res.Errs); err != nil {
		return nil, err // cannot happen: the stored form decodes
	}
	return v, nil
}

func containerNames(v *schema.PodSpec) string {
	var names []string
	for _, c := range v.InitContainers {
		names = append(names, strconv.Quote(c.Name))
	}
	for _, c := range v.Containers {
		names = append(names, strconv.Quote(c.Name))
	}
	if len(names) == 0 {
		return "no containers"
	}
	return fmt.Sprint(names)
}
