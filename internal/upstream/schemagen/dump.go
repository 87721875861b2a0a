package schemagen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/rolloutmath/rolloutmath/internal/kubeversion"
)

// A dump is a model of one minor's API types as JSON: what the generator
// run under one module file (go.mod, go.v135.mod, go.v137.mod) sees of
// k8s.io/api, written to testdata/models so that the merge of the minors
// can be made, and checked, from any one of them.
type dump struct {
	API     string       // the k8s.io/api version, as v0.36.3
	Roots   []string     // the roots' names
	Structs []dumpStruct // in the model's order
}

type dumpStruct struct {
	Name, Upstream, Spew, Model string
	Fields                      []dumpField
}

type dumpField struct {
	Go, JSON                     string
	OmitEmpty, Embedded          bool `json:",omitempty"`
	Type                         dumpType
	PatchStrategy, PatchMergeKey string   `json:",omitempty"`
	ListType                     string   `json:",omitempty"`
	ListMapKeys                  []string `json:",omitempty"`
	MapType, StructType          string   `json:",omitempty"`
	Gates                        []string `json:",omitempty"`
}

type dumpType struct {
	Kind   string
	Spew   string
	Elem   *dumpType `json:",omitempty"`
	Struct string    `json:",omitempty"` // the struct's name
}

// APIVersion returns the version of k8s.io/api that this binary is built
// with, as v0.36.3, from its build information.
func APIVersion() (string, error) {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "", fmt.Errorf("schemagen: no build information")
	}
	for _, d := range bi.Deps {
		if d.Path == "k8s.io/api" {
			if d.Replace != nil {
				d = d.Replace
			}
			return d.Version, nil
		}
	}
	return "", fmt.Errorf("schemagen: k8s.io/api is not a dependency of this binary")
}

// Dump writes m as indented JSON, with api the k8s.io/api version it was
// built from.
func (m *Model) Dump(api string) ([]byte, error) {
	d := dump{API: api}
	for _, r := range m.Roots {
		d.Roots = append(d.Roots, r.Name)
	}
	for _, s := range m.Structs {
		ds := dumpStruct{Name: s.Name, Upstream: s.Upstream, Spew: s.Spew, Model: s.Model}
		for _, f := range s.Fields {
			ds.Fields = append(ds.Fields, dumpField{
				Go: f.Go, JSON: f.JSON, OmitEmpty: f.OmitEmpty, Embedded: f.Embedded,
				Type:          dumpTypeOf(f.Type),
				PatchStrategy: f.PatchStrategy, PatchMergeKey: f.PatchMergeKey,
				ListType: f.ListType, ListMapKeys: f.ListMapKeys, MapType: f.MapType, StructType: f.StructType,
				Gates: gateNames(f.Gates),
			})
		}
		d.Structs = append(d.Structs, ds)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "\t")
	if err := enc.Encode(d); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func dumpTypeOf(t *Type) dumpType {
	d := dumpType{Kind: t.Kind.String(), Spew: t.Spew}
	if t.Elem != nil {
		e := dumpTypeOf(t.Elem)
		d.Elem = &e
	}
	if t.Struct != nil {
		d.Struct = t.Struct.Name
	}
	return d
}

// Load reads a model that Dump wrote, and returns it with its k8s.io/api
// version.
func Load(data []byte) (*Model, string, error) {
	var d dump
	if err := json.Unmarshal(data, &d); err != nil {
		return nil, "", fmt.Errorf("schemagen: reading a model: %w", err)
	}
	m := &Model{}
	byName := map[string]*Struct{}
	for _, ds := range d.Structs {
		if byName[ds.Name] != nil {
			return nil, "", fmt.Errorf("schemagen: model of %s: two structs named %s", d.API, ds.Name)
		}
		s := &Struct{Name: ds.Name, Upstream: ds.Upstream, Spew: ds.Spew, Model: ds.Model}
		byName[s.Name] = s
		m.Structs = append(m.Structs, s)
	}
	for i, ds := range d.Structs {
		s := m.Structs[i]
		for _, df := range ds.Fields {
			t, err := loadType(df.Type, byName)
			if err != nil {
				return nil, "", fmt.Errorf("schemagen: model of %s: %s.%s: %w", d.API, s.Name, df.Go, err)
			}
			s.Fields = append(s.Fields, &Field{
				Go: df.Go, JSON: df.JSON, OmitEmpty: df.OmitEmpty, Embedded: df.Embedded, Type: t,
				PatchStrategy: df.PatchStrategy, PatchMergeKey: df.PatchMergeKey,
				ListType: df.ListType, ListMapKeys: slices.Clone(df.ListMapKeys), MapType: df.MapType, StructType: df.StructType,
				Gates: gatesOf(df.Gates),
			})
		}
	}
	for _, r := range d.Roots {
		s := byName[r]
		if s == nil {
			return nil, "", fmt.Errorf("schemagen: model of %s: no root %s", d.API, r)
		}
		m.Roots = append(m.Roots, s)
	}
	return m, d.API, nil
}

func loadType(d dumpType, byName map[string]*Struct) (*Type, error) {
	k := slices.Index(kindNames[:], d.Kind)
	if k < 0 {
		return nil, fmt.Errorf("kind %q", d.Kind)
	}
	t := &Type{Kind: Kind(k), Spew: d.Spew}
	if d.Elem != nil {
		e, err := loadType(*d.Elem, byName)
		if err != nil {
			return nil, err
		}
		t.Elem = e
	}
	if d.Struct != "" {
		t.Struct = byName[d.Struct]
		if t.Struct == nil {
			return nil, fmt.Errorf("no struct %s", d.Struct)
		}
	}
	if (t.Kind == KStruct) != (t.Struct != nil) || (t.Kind == KPtr || t.Kind == KSlice || t.Kind == KMap) != (t.Elem != nil) {
		return nil, fmt.Errorf("type %s of kind %s is malformed", d.Spew, d.Kind)
	}
	return t, nil
}

// ModelsDir is where the models of the minors are kept, relative to
// internal/upstream.
const ModelsDir = "schemagen/testdata/models"

// ModelFile is the name of the model of k8s.io/api version api in
// ModelsDir, as v0.36.3.json.
func ModelFile(api string) string { return api + ".json" }

// minorOf returns the Kubernetes minor of a k8s.io/api version: v0.36.3
// is Kubernetes 1.36.
func minorOf(api string) (kubeversion.Version, error) {
	rest, ok := strings.CutPrefix(api, "v0.")
	if !ok {
		return kubeversion.Latest, fmt.Errorf("schemagen: k8s.io/api version %q is not v0.N.P", api)
	}
	v, err := kubeversion.Parse("1." + rest)
	if err != nil {
		return kubeversion.Latest, fmt.Errorf("schemagen: k8s.io/api %s: %w", api, err)
	}
	return v, nil
}

// LoadModels reads every model in dir, one a minor.
func LoadModels(dir string) ([]Version, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []Version
	seen := map[kubeversion.Version]string{}
	for _, e := range entries {
		if filepath.Ext(e.Name()) != ".json" {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		m, api, err := Load(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", e.Name(), err)
		}
		if ModelFile(api) != e.Name() {
			return nil, fmt.Errorf("schemagen: %s holds the model of k8s.io/api %s", e.Name(), api)
		}
		v, err := minorOf(api)
		if err != nil {
			return nil, err
		}
		if prev, ok := seen[v]; ok {
			return nil, fmt.Errorf("schemagen: two models of Kubernetes %s: %s and %s", v, prev, api)
		}
		seen[v] = api
		out = append(out, Version{Minor: v, API: api, Model: m})
	}
	for _, v := range kubeversion.Supported() {
		if _, ok := seen[v]; !ok {
			return nil, fmt.Errorf("schemagen: %s has no model of Kubernetes %s (run go run -modfile=go.v1%d.mod ./cmd/schemagen -dump)", dir, v, v.Minor())
		}
	}
	return out, nil
}

// Merged reads the models in dir and merges them.
func Merged(dir string) (*Model, error) {
	vs, err := LoadModels(dir)
	if err != nil {
		return nil, err
	}
	return Merge(vs)
}

// ThisAPI returns the k8s.io/api version of this build. A test binary has
// no dependencies in its build information, so it is then the version of
// the model in dir that equals this build's (an error when none does, or
// when a model is stale). dir is ModelsDir, relative to the caller.
func ThisAPI(dir string) (string, error) {
	if api, err := APIVersion(); err == nil && api != "" {
		return api, nil
	}
	m, err := Upstream()
	if err != nil {
		return "", err
	}
	mine, err := m.Dump("")
	if err != nil {
		return "", err
	}
	vs, err := LoadModels(dir)
	if err != nil {
		return "", err
	}
	for _, v := range vs {
		theirs, err := v.Model.Dump("")
		if err != nil {
			return "", err
		}
		if bytes.Equal(mine, theirs) {
			return v.API, nil
		}
	}
	return "", fmt.Errorf("schemagen: this build's k8s.io/api is none of the models in %s (is one stale?)", dir)
}

// ThisMinor returns the Kubernetes minor of this build's k8s.io/api (see
// ThisAPI).
func ThisMinor(dir string) (kubeversion.Version, error) {
	api, err := ThisAPI(dir)
	if err != nil {
		return kubeversion.Latest, err
	}
	return minorOf(api)
}

func gateNames(gs []Gate) []string {
	var out []string
	for _, g := range gs {
		out = append(out, g.Name)
	}
	return out
}

func gatesOf(names []string) []Gate {
	var out []Gate
	for _, n := range names {
		out = append(out, Gate{Name: n})
	}
	return out
}
