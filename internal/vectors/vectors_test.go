package vectors

import (
	"bytes"
	"encoding/json"
	"os"
	"path"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestRoundTrip: Decode reads back what Encode writes, and Encode writes
// the same bytes for the same vectors.
func TestRoundTrip(t *testing.T) {
	vs := []Vector{
		{Name: "a", Input: json.RawMessage(`{"kind":"Deployment"}`), Stored: json.RawMessage(`{"kind":"Deployment"}`), Hash: map[string]string{"nil": "x"}},
		{Name: "b", Input: json.RawMessage(`{}`), Problems: []Problem{{Type: "FieldValueRequired", Field: "metadata.name"}}},
		{Name: "c", Input: json.RawMessage(`{"spec":{"replicas":"x"}}`), Decode: true},
	}
	data, err := Encode(vs)
	if err != nil {
		t.Fatal(err)
	}
	again, err := Encode(vs)
	if err != nil || !bytes.Equal(data, again) {
		t.Fatalf("Encode is not deterministic (%v)", err)
	}
	got, err := Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(vs, got); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
	if _, err := Decode(bytes.NewReader([]byte("not gzip"))); err == nil {
		t.Error("Decode of non-gzip input: no error")
	}
	if _, err := ReadFile("no-such-file"); err == nil {
		t.Error("ReadFile of a missing file: no error")
	}
}

// TestCheckedInFile: the repository's vectors decode and encode to the
// same bytes, so the file is what Encode writes.
func TestCheckedInFile(t *testing.T) {
	file := path.Join("../..", File)
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	vs, err := ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) < 150 {
		t.Fatalf("%d vectors, want at least 150", len(vs))
	}
	if again, err := Encode(vs); err != nil || !bytes.Equal(again, data) {
		t.Errorf("the checked-in file is not what Encode writes for its vectors (%v)", err)
	}
	if p := (Problem{Type: "FieldValueInvalid", Field: "spec.replicas"}); p.String() != "spec.replicas: FieldValueInvalid" {
		t.Errorf("Problem.String() = %q", p.String())
	}
}
