package schema

import (
	"math/big"
	"slices"
	"strconv"

	"github.com/rolloutmath/rolloutmath/hash"
)

// A spewer renders values as upstream's pod-template-hash sees them: the
// go-spew "%#v" rendering of the v1 types with the configuration of
// k8s.io/utils/dump.ForHash (types shown, map keys sorted, methods not
// called, no pointer addresses), fed to a 32-bit FNV-1a hash as it is
// written, or appended to text when text is non-nil (for tests and
// diagnostics).
//
// The generated spew functions write a struct as
// {Field:(type)value Field:(type)value}, with the type of each field as
// reflect prints it; elements of lists and maps, and the value behind a
// pointer, are written without their type; nil pointers, lists and maps are
// <nil>; strings are written raw.
type spewer struct {
	h    hash.FNV32a
	text *[]byte
}

func (w *spewer) lit(s string) {
	if w.text != nil {
		*w.text = append(*w.text, s...)
		return
	}
	w.h = w.h.WriteString(s)
}

func (w *spewer) str(s string) { w.lit(s) }

func (w *spewer) i64(v int64) {
	var buf [20]byte
	w.bytes(strconv.AppendInt(buf[:0], v, 10))
}

func (w *spewer) u64(v uint64) {
	var buf [20]byte
	w.bytes(strconv.AppendUint(buf[:0], v, 10))
}

func (w *spewer) bytes(b []byte) {
	if w.text != nil {
		*w.text = append(*w.text, b...)
		return
	}
	w.h = w.h.Write(b)
}

func (w *spewer) boolean(b bool) {
	if b {
		w.lit("true")
	} else {
		w.lit("false")
	}
}

// quantity writes resource.Quantity's fields: its int64 amount, its decimal
// amount (an *inf.Dec holding a big.Int), the cached string and the format.
func (w *spewer) quantity(q *Quantity) {
	w.lit("{i:(resource.int64Amount){value:(int64)")
	w.i64(q.i.value)
	w.lit(" scale:(resource.Scale)")
	w.i64(int64(q.i.scale))
	w.lit("} d:(resource.infDecAmount){Dec:(*inf.Dec)")
	if q.d == nil {
		w.lit("<nil>")
	} else {
		w.lit("{unscaled:(big.Int){neg:(bool)")
		w.boolean(q.d.unscaled.Sign() < 0)
		w.lit(" abs:(big.nat)")
		words := new(big.Int).Abs(&q.d.unscaled).Bits()
		if len(words) == 0 {
			w.lit("<nil>")
		} else {
			w.lit("[")
			for i, word := range words {
				if i > 0 {
					w.lit(" ")
				}
				w.u64(uint64(word))
			}
			w.lit("]")
		}
		w.lit("} scale:(inf.Scale)")
		w.i64(int64(q.d.scale))
		w.lit("}")
	}
	w.lit("} s:(string)")
	w.str(q.s)
	w.lit(" Format:(resource.Format)")
	w.str(q.Format)
	w.lit("}")
}

func (w *spewer) intOrString(v *IntOrString) {
	w.lit("{Type:(intstr.Type)")
	w.i64(v.Type)
	w.lit(" IntVal:(int32)")
	w.i64(int64(v.IntVal))
	w.lit(" StrVal:(string)")
	w.str(v.StrVal)
	w.lit("}")
}

// unixToInternal is the seconds from year 1 to 1970, time.Time's offset.
const unixToInternal = (1969*365 + 1969/4 - 1969/100 + 1969/400) * 86400

// time writes a metav1.Time as the controller holds one read from the API
// server: whole seconds, in the controller's local time zone, which is UTC
// in the kube-controller-manager image (a Location named UTC with no
// zones).
func (w *spewer) time(t *Time) {
	w.lit("{Time:(time.Time){wall:(uint64)")
	if t.IsZero() {
		w.lit("0 ext:(int64)0 loc:(*time.Location)<nil>}}")
		return
	}
	w.u64(uint64(t.Nanosecond()))
	w.lit(" ext:(int64)")
	w.i64(t.Unix() + unixToInternal)
	w.lit(" loc:(*time.Location){name:(string)UTC zone:([]time.zone)<nil> tx:([]time.zoneTrans)<nil> extend:(string) cacheStart:(int64)0 cacheEnd:(int64)0 cacheZone:(*time.zone)<nil>}}}")
}

func (w *spewer) fieldsV1(f *FieldsV1) {
	w.lit("{Raw:([]uint8)")
	if f.Raw == nil {
		w.lit("<nil>}")
		return
	}
	w.lit("[")
	for i, b := range f.Raw {
		if i > 0 {
			w.lit(" ")
		}
		w.u64(uint64(b))
	}
	w.lit("]}")
}

func (w *spewer) sliceString(s []string) {
	if s == nil {
		w.lit("<nil>")
		return
	}
	w.lit("[")
	for i, v := range s {
		if i > 0 {
			w.lit(" ")
		}
		w.str(v)
	}
	w.lit("]")
}

func (w *spewer) sliceInt32(s []int32) {
	if s == nil {
		w.lit("<nil>")
		return
	}
	w.lit("[")
	for i, v := range s {
		if i > 0 {
			w.lit(" ")
		}
		w.i64(int64(v))
	}
	w.lit("]")
}

func (w *spewer) sliceInt64(s []int64) {
	if s == nil {
		w.lit("<nil>")
		return
	}
	w.lit("[")
	for i, v := range s {
		if i > 0 {
			w.lit(" ")
		}
		w.i64(v)
	}
	w.lit("]")
}

// keys returns m's keys sorted, in buf when they fit.
func keys[V any](m map[string]V, buf []string) []string {
	ks := buf[:0]
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

func (w *spewer) mapString(m map[string]string) {
	if m == nil {
		w.lit("<nil>")
		return
	}
	var buf [16]string
	w.lit("map[")
	for i, k := range keys(m, buf[:]) {
		if i > 0 {
			w.lit(" ")
		}
		w.str(k)
		w.lit(":")
		w.str(m[k])
	}
	w.lit("]")
}

func (w *spewer) mapQuantity(m map[string]Quantity) {
	if m == nil {
		w.lit("<nil>")
		return
	}
	var buf [16]string
	w.lit("map[")
	for i, k := range keys(m, buf[:]) {
		if i > 0 {
			w.lit(" ")
		}
		w.str(k)
		w.lit(":")
		q := m[k]
		w.quantity(&q)
	}
	w.lit("]")
}
