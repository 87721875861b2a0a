package rollout

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rolloutmath/rolloutmath/internal/apiserver"
	"github.com/rolloutmath/rolloutmath/internal/lz"
	"github.com/rolloutmath/rolloutmath/internal/schema"
)

// Objects are the Deployments, ReplicaSets and Pods read from a manifest,
// with the warnings that lenient decoding gave.
type Objects struct {
	Deployments []Deployment
	ReplicaSets []ReplicaSet
	Pods        []Pod
	Warnings    []string
}

// DefaultNamespace is the namespace of an object whose manifest names none.
const DefaultNamespace = "default"

// FeatureGates are the API server's feature gates that change what it
// stores for the objects of a rollout. Each field is a [Gate] whose zero
// value, GateDefault, is the default of the API server's minor
// ([DecodeOptions.Version]); GateOn and GateOff override it, as
// --feature-gates does.
type FeatureGates = apiserver.Gates

// Gate is the setting of one feature gate in [FeatureGates]; the zero
// value, GateDefault, is the default of the minor.
type Gate = apiserver.Gate

// The settings of a feature gate.
const (
	GateDefault = apiserver.GateDefault // the minor's default
	GateOn      = apiserver.GateOn      // enabled
	GateOff     = apiserver.GateOff     // disabled
)

// DecodeOptions say how to read objects. The zero value reads them as
// kubectl apply and an API server of the newest supported minor do by
// default.
type DecodeOptions struct {
	// Lenient drops unknown and duplicate fields with a warning instead of
	// refusing them, as kubectl apply --validate=false does.
	Lenient bool
	// Validate refuses, besides what cannot be decoded, the Deployments
	// and ReplicaSets that the API server's validation refuses when they
	// are created (their names, labels, selectors, pod templates: every
	// rule of the minor's apps and core validation), each problem a
	// *FieldError naming the field. Like the server on create, it drops
	// a manifest's template fields of feature gates that are off, with a
	// warning naming the gate; an object the server already stores (one
	// with a resourceVersion) keeps them.
	Validate bool
	// FeatureGates are the API server's feature gates; the zero value is
	// the defaults of Version's minor.
	FeatureGates FeatureGates
	// Version is the API server's Kubernetes minor: the fields a manifest
	// may have (one of another minor is an unknown field, named as any
	// other). The zero value is the newest supported minor. The
	// controller-manager's minor, which names ReplicaSets, is
	// [Options.Version].
	Version Version
	// Strings, if not nil, is a table the decoded objects take their
	// strings from (see [StringTable]), so that objects decoded through
	// one table share equal strings and hold none of their input. The
	// objects decoded are the same with a table or without.
	Strings *StringTable
	// Compact holds the pod template spec of each Deployment and
	// ReplicaSet decoded as its stored JSON, decoded again when something
	// reads it (its hash, its containers) and kept only while in use: for
	// loading many objects that are each read once or twice, at about half
	// the memory. The objects decoded are the same as without it: their
	// specs are equal, with the same JSON and pod-template-hash.
	Compact bool
}

// A StringTable holds one copy of each string of the objects decoded
// through it (DecodeOptions.Strings): loading many similar objects, give
// their decodes one table, and they share their names, labels, images and
// the values the API's defaults write, instead of each keeping a copy of
// its whole input (keys and white space included) for its strings. The
// zero StringTable is empty and ready; it is safe for concurrent use. It
// keeps every string it was given until it is dropped.
//
// Pod specs compacted through a table (DecodeOptions.Compact) are also
// packed against the first of them (see [internal/lz]), as specs alike
// repeat most of their JSON.
type StringTable struct {
	t schema.StringTable

	once  sync.Once
	specs *lz.Dict // the first compact spec's stored JSON
}

// specDict returns the dictionary compact specs decoded through t are
// packed against: the stored JSON of the first, sample; none without a
// table.
func (t *StringTable) specDict(sample PodSpec) *lz.Dict {
	if t == nil {
		return nil
	}
	t.once.Do(func() { t.specs = lz.NewDict(sample.JSON()) })
	return t.specs
}

// Decode reads objects with the zero [DecodeOptions].
func Decode(data []byte) (Objects, error) { return DecodeOptions{}.Decode(data) }

// Decode reads Kubernetes objects from JSON: a List (what kubectl get -o
// json prints for several objects) or a single object. It keeps
// Deployments, ReplicaSets and Pods and skips other kinds.
//
// Decoding is strict, as the API server's is for kubectl apply: a field
// the type does not have (misspelled, or in another case), a field given
// twice, or a value of the wrong type is an error naming the item and the
// field path, one line per problem. Each object is then read as a client of
// an API server of o.Version holds it: the server's defaults applied (replicas 1,
// strategy RollingUpdate 25%/25%, revisionHistoryLimit 10,
// progressDeadlineSeconds 600, and every default of the pod template),
// empty lists and maps absent, quantities in canonical form. An object
// without a namespace is in [DefaultNamespace]. Unless o.Validate is set,
// Decode does not validate: [Plan] refuses what the controller must not act
// on. A Version that is not supported is an error wrapping [ErrVersion].
func (o DecodeOptions) Decode(data []byte) (Objects, error) {
	if err := checkVersion("DecodeOptions.Version", o.Version); err != nil {
		return Objects{}, err
	}
	var objs Objects
	err := o.add(&objs, data, "")
	if err == errMalformed {
		return Objects{}, fmt.Errorf("%w", typeMetaError(bytes.Trim(data, jsonSpace)))
	}
	return objs, err
}

// errMalformed is what add returns when the JSON is not well formed
// anywhere: Decode then reports only that, in encoding/json's words, as it
// does when the whole input is checked first.
var errMalformed = errors.New("malformed JSON")

// jsonSpace is the whitespace JSON allows between tokens.
const jsonSpace = " \t\r\n"

// add decodes the object data, at where in the input, into objs. Each
// part of data is read once: the typeMeta by readTypeMeta, the rest by
// the decoder of its kind, or checked by json.Valid when nothing decodes
// it, so that malformed JSON is found wherever it is.
func (o DecodeOptions) add(objs *Objects, data []byte, where string) error {
	data = bytes.Trim(data, jsonSpace) // not TrimSpace: \f or \v around an item is malformed JSON
	if len(data) == 0 || data[0] != '{' {
		if where != "" && !json.Valid(data) { // a List's item
			return errMalformed
		}
		return fmt.Errorf("%snot a JSON object", at(where))
	}
	tm, items, ok := readTypeMeta(data)
	if !ok {
		err := typeMetaError(data)
		if _, syntax := err.(*json.SyntaxError); syntax {
			return errMalformed
		}
		return fmt.Errorf("%s%w", at(where), err)
	}
	if tm.Kind == "List" || (tm.Kind == "" && tm.Items != nil) || strings.HasSuffix(tm.Kind, "List") {
		if !json.Valid(items.emptied(data)) {
			return errMalformed
		}
		var errs []error
		for i, item := range tm.Items {
			err := o.add(objs, item, fmt.Sprintf("%sitems[%d]", where, i))
			if err == errMalformed {
				return err
			}
			if err != nil {
				errs = append(errs, err)
			}
		}
		return errors.Join(errs...)
	}
	what := strings.TrimSpace(prefix(where) + tm.Kind + " " + strconv.Quote(tm.Metadata.Name))
	var warnings []string
	warn := &warnings
	var err error
	switch tm.Kind {
	case "Deployment":
		var d Deployment
		if d, err = o.decodeDeployment(data, warn); err == nil {
			if o.Compact {
				d.Spec.Template.Spec = d.Spec.Template.Spec.compact(o.Strings.specDict(d.Spec.Template.Spec))
			}
			objs.Deployments = append(objs.Deployments, d)
		}
	case "ReplicaSet":
		var rs ReplicaSet
		if rs, err = o.decodeReplicaSet(data, warn); err == nil {
			if o.Compact {
				rs.Spec.Template.Spec = rs.Spec.Template.Spec.compact(o.Strings.specDict(rs.Spec.Template.Spec))
			}
			objs.ReplicaSets = append(objs.ReplicaSets, rs)
		}
	case "Pod":
		var p Pod
		if p, err = o.decodePod(data, warn); err == nil {
			objs.Pods = append(objs.Pods, p)
		}
	default: // not decoded, but checked
		if !json.Valid(data) {
			return errMalformed
		}
		if tm.Kind == "" {
			return fmt.Errorf("%sno kind: not a Kubernetes object", at(where))
		}
	}
	if err == errMalformed {
		return err
	}
	if err != nil {
		return prefixEach(what, err)
	}
	for _, w := range warnings {
		objs.Warnings = append(objs.Warnings, what+": "+w)
	}
	return nil
}

// prefixEach puts what before each of err's joined errors, keeping them
// apart so that each prints on its own line and errors.As finds each.
func prefixEach(what string, err error) error {
	var list []error
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		list = j.Unwrap()
	} else {
		list = []error{err}
	}
	out := make([]error, len(list))
	for i, e := range list {
		out[i] = fmt.Errorf("%s: %w", what, e)
	}
	return errors.Join(out...)
}

// sequence returns the options of the API server's sequence for o.
func (o DecodeOptions) sequence() apiserver.SequenceOptions {
	var strs *schema.StringTable
	if o.Strings != nil {
		strs = &o.Strings.t
	}
	return apiserver.SequenceOptions{Lenient: o.Lenient, Validate: o.Validate,
		Gates: apiserver.FeatureGates{Version: o.Version, Gates: o.FeatureGates}, Strings: strs}
}

// decodeDeployment decodes one Deployment, appending warnings to warn when
// it is not nil.
func (o DecodeOptions) decodeDeployment(data []byte, warn *[]string) (Deployment, error) {
	v, res := apiserver.DecodeDeployment(data, o.sequence())
	if err := o.result(res, warn); err != nil {
		return Deployment{}, err
	}
	return deploymentFromSchema(v)
}

func (o DecodeOptions) decodeReplicaSet(data []byte, warn *[]string) (ReplicaSet, error) {
	v, res := apiserver.DecodeReplicaSet(data, o.sequence())
	if err := o.result(res, warn); err != nil {
		return ReplicaSet{}, err
	}
	return replicaSetFromSchema(v), nil
}

func (o DecodeOptions) decodePod(data []byte, warn *[]string) (Pod, error) {
	v, res := apiserver.DecodePod(data, o.sequence())
	if err := o.result(res, warn); err != nil {
		return Pod{}, err
	}
	return podFromSchema(v), nil
}

// result returns the sequence's errors as one error, or errMalformed, and
// keeps the warnings.
func (o DecodeOptions) result(res apiserver.SequenceResult, warn *[]string) error {
	if res.Malformed {
		return errMalformed
	}
	if warn != nil {
		*warn = append(*warn, res.Warnings...)
	}
	return fieldErrors(res.Errs)
}

func at(where string) string {
	if where == "" {
		return ""
	}
	return where + ": "
}

func prefix(where string) string {
	if where == "" {
		return ""
	}
	return where + " "
}

// State returns the sync state of d at now: the ReplicaSets and Pods of o in
// d's namespace.
func (o Objects) State(d Deployment, now time.Time) State {
	s := State{Deployment: d, Now: now}
	for _, rs := range o.ReplicaSets {
		if rs.Namespace == d.Namespace {
			s.ReplicaSets = append(s.ReplicaSets, rs)
		}
	}
	for _, p := range o.Pods {
		if p.Namespace == d.Namespace {
			s.Pods = append(s.Pods, p)
		}
	}
	return s
}
