package main

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"testing"

	"pgregory.net/rapid"
	"sigs.k8s.io/yaml"
)

// jsonValue draws a JSON value of at most depth levels: strings that YAML
// would read as something else or must quote (numbers, booleans, null,
// timestamps, leading dashes and colons, long messages the encoder folds,
// escapes), integers over the whole int64 and uint64 ranges, floats,
// booleans, null, objects and arrays.
func jsonValue(depth int) *rapid.Generator[any] {
	return rapid.Custom(func(t *rapid.T) any {
		kinds := 6
		if depth <= 0 {
			kinds = 4
		}
		switch rapid.IntRange(0, kinds-1).Draw(t, "kind") {
		case 0:
			return rapid.OneOf(
				rapid.SampledFrom([]string{"", "true", "no", "yes", "on", "null", "~", "1", "-1", "1.5", "1e3", "0x1F", "0o17", ".inf",
					"2026-11-29T04:22:44Z", "2026-11-29", "- a", "a: b", "#x", "key:", "'q'", "\"dq\"", "a\nb", "\ttab", " lead", "trail ",
					"ReplicaSet \"web-7d4b9c\" has successfully progressed.",
					"Deployment does not have minimum availability: 3 of 4 updated replicas are available, and the rollout waits for 1 more within its progress deadline of 600s",
					"<&>", "\u2028", "é", "😀", "1:30", "+1", ".5", "0.", "1_000", "=", "!tag", "&anchor", "*alias", "|", ">", "%", "@", "`"}),
				rapid.String(),
			).Draw(t, "string")
		case 1:
			return rapid.OneOf(
				rapid.Int64().AsAny(),
				rapid.SampledFrom([]int64{0, -1, math.MaxInt64, math.MinInt64, math.MaxInt32, math.MinInt32}).AsAny(),
				rapid.Uint64Range(math.MaxInt64+1, math.MaxUint64).AsAny(),
			).Draw(t, "integer")
		case 2:
			f := rapid.OneOf(rapid.Float64(), rapid.SampledFrom([]float64{0.05, 1.5, 10.5, 1e21, 1e-7, 123456789.125, -0.5, 600})).Draw(t, "float")
			if math.IsInf(f, 0) || math.IsNaN(f) {
				return 0.0
			}
			return f
		case 3:
			return rapid.OneOf(rapid.Just[any](nil), rapid.Bool().AsAny()).Draw(t, "literal")
		case 4:
			m := map[string]any{}
			for range rapid.IntRange(0, 5).Draw(t, "keys") {
				k := rapid.OneOf(rapid.SampledFrom([]string{"a", "b", "a2", "a10", "1", "10", "2", "true", "", "z y", "apiVersion", "kind"}), rapid.String()).Draw(t, "key")
				m[k] = jsonValue(depth-1).Draw(t, "value")
			}
			return m
		default:
			var s []any
			for range rapid.IntRange(0, 4).Draw(t, "items") {
				s = append(s, jsonValue(depth-1).Draw(t, "item"))
			}
			return s
		}
	})
}

// TestToYAMLAsJSONToYAML: toYAML writes YAML that reads back as the JSON
// it was given, and the bytes sigs.k8s.io/yaml's JSONToYAML writes (what
// kubectl -o yaml does) wherever that too reads back as the JSON. Where
// it does not, JSONToYAML's YAML decoder read the JSON text as YAML:
// it refuses a control character such as DEL, and takes a raw NEL
// (U+0085), which encoding/json does not escape, for a line break.
func TestToYAMLAsJSONToYAML(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		v := jsonValue(3).Draw(t, "value")
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("Marshal: %v", err)
		}
		got, err := toYAML(json.RawMessage(b))
		if err != nil {
			t.Fatalf("toYAML(%s): %v", b, err)
		}
		if !readsBackAs(got, b) {
			t.Fatalf("JSON %s: toYAML wrote %q, which does not read back as it", b, got)
		}
		if want, err := yaml.JSONToYAML(b); err == nil && readsBackAs(want, b) && !bytes.Equal(got, want) {
			t.Fatalf("JSON %s:\ntoYAML     %q\nJSONToYAML %q", b, got, want)
		}
	})
}

// readsBackAs reports whether the YAML y reads back as the JSON j: the
// same values, numbers compared as float64 (-0 is 0).
func readsBackAs(y, j []byte) bool {
	back, err := yaml.YAMLToJSON(y)
	if err != nil {
		return false
	}
	var a, b any
	if json.Unmarshal(j, &a) != nil || json.Unmarshal(back, &b) != nil {
		return false
	}
	return reflect.DeepEqual(a, b)
}

// TestToYAMLOfSimulations holds toYAML to JSONToYAML on the outputs of
// simulate, whole, in the shapes the command writes.
func TestToYAMLOfSimulations(t *testing.T) {
	for _, args := range [][]string{
		{"simulate", "-o", "json"},
		{"simulate", "-o", "json", "--replicas", "40", "--max-surge", "1", "--max-unavailable", "0", "--ready-after", "1.5s", "--terminating", "2s"},
		{"simulate", "-o", "json", "--model", "event", "--replicas", "7"},
	} {
		r := runCLI(t, "", args...)
		r.wantCode(t, args, exitOK)
		want, err := yaml.JSONToYAML([]byte(r.stdout))
		if err != nil {
			t.Fatalf("%v: JSONToYAML: %v", args, err)
		}
		got, err := toYAML(json.RawMessage(r.stdout))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%v: toYAML differs from JSONToYAML (err %v): %d and %d bytes", args, err, len(got), len(want))
		}
	}
}

// BenchmarkToYAML converts the steps of a simulation one at a time, as
// -o yaml writes them: toYAML against JSONToYAML.
func BenchmarkToYAML(b *testing.B) {
	r := runCLI(b, "", "simulate", "-o", "json", "--replicas", "200", "--max-surge", "1", "--max-unavailable", "0")
	var doc struct{ Steps []json.RawMessage }
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		b.Fatal(err)
	}
	for _, name := range []string{"toYAML", "JSONToYAML"} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for _, st := range doc.Steps {
					var err error
					if name == "toYAML" {
						_, err = toYAML(st)
					} else {
						_, err = yaml.JSONToYAML(st)
					}
					if err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(doc.Steps)), "ns/step")
		})
	}
}
