package difftest

import (
	"os"
	"path/filepath"
	"testing"

	"sigs.k8s.io/yaml"
)

// FuzzCreateAgainstUpstream feeds mutated manifests to the real create
// path and to rolloutmath's (compareCreate): the same refusals, the same
// problems, the same stored object, or a failure. Seeds are the project's
// manifests (testdata/apiserver/manifests). Run it with
//
//	go test -run '^$' -fuzz FuzzCreateAgainstUpstream -fuzztime 60s ./difftest/
func FuzzCreateAgainstUpstream(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "..", "testdata", "apiserver", "manifests", "*.yaml"))
	for _, name := range files {
		y, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		j, err := yaml.YAMLToJSON(y)
		if err != nil {
			f.Fatalf("%s: %v", name, err)
		}
		f.Add(j)
	}
	if len(files) == 0 {
		f.Fatal("no manifests in testdata/apiserver/manifests")
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := compareCreate(data); err != nil {
			t.Fatalf("%v\ninput %s", err, data)
		}
	})
}
