package schemagen

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// models is ModelsDir from this package's directory.
const models = "testdata/models"

// TestGeneratedFilesAreCurrent fails when a generated file of package
// schema differs from what the generator writes now from the models of
// the minors: run `go run ./cmd/schemagen` from internal/upstream.
func TestGeneratedFilesAreCurrent(t *testing.T) {
	m, err := Merged(models)
	if err != nil {
		t.Fatal(err)
	}
	files, err := m.Files()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join("..", "..", "schema")
	for name, want := range files {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Errorf("%s: %v (run go run ./cmd/schemagen)", name, err)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is stale: run go run ./cmd/schemagen from internal/upstream", name)
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if _, ok := files[e.Name()]; !ok && filepath.Ext(e.Name()) == ".go" && len(e.Name()) > 13 && e.Name()[:13] == "zz_generated." {
			t.Errorf("%s is generated but the generator no longer writes it: delete it", e.Name())
		}
	}
}

// TestModelIsCurrent fails when the model of this build's minor in
// testdata/models differs from what its k8s.io/api gives: run
// go run [-modfile=go.v13N.mod] ./cmd/schemagen -dump from
// internal/upstream. Run it with each minor's module file.
func TestModelIsCurrent(t *testing.T) {
	m, err := Upstream()
	if err != nil {
		t.Fatal(err)
	}
	api, err := ThisAPI(models)
	if err != nil {
		t.Fatal(err)
	}
	want, err := m.Dump(api)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(models, ModelFile(api)))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is stale: run go run ./cmd/schemagen -dump with the module file of k8s.io/api %s", ModelFile(api), api)
	}
}

// TestModelKnowsTheLayout checks a few facts of the model against what
// upstream's types are known to hold, so that a generator bug shows as a
// named failure rather than as a changed hash.
func TestModelKnowsTheLayout(t *testing.T) {
	m, err := Upstream()
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]*Struct{}
	for _, s := range m.Structs {
		byName[s.Name] = s
	}
	c := byName["Container"]
	if c == nil || c.Fields[0].Go != "Name" || c.Fields[1].Go != "Image" || c.Spew != "v1.Container" {
		t.Fatalf("Container: %+v", c)
	}
	var containers *Field
	for _, f := range byName["PodSpec"].Fields {
		if f.JSON == "containers" {
			containers = f
		}
	}
	if containers == nil || containers.PatchStrategy != "merge" || containers.PatchMergeKey != "name" || containers.ListType != "map" {
		t.Errorf("PodSpec.containers: %+v", containers)
	}
	var strategy *Field
	for _, f := range byName["DeploymentSpec"].Fields {
		if f.JSON == "strategy" {
			strategy = f
		}
	}
	if strategy == nil || strategy.PatchStrategy != "retainKeys" {
		t.Errorf("DeploymentSpec.strategy: %+v", strategy)
	}
	probe := byName["Probe"]
	if !probe.Fields[0].Embedded || !probe.Fields[0].Inline() || probe.Fields[0].Go != "ProbeHandler" {
		t.Errorf("Probe's first field: %+v", probe.Fields[0])
	}
}
