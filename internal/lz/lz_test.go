package lz_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/internal/lz"
)

// manifest is a Deployment in YAML, of a name and an image.
func manifest(name, image string) string {
	return fmt.Sprintf("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: %s\n  labels: {app: %s}\nspec:\n  replicas: 3\n  template:\n    spec:\n      containers:\n      - name: app\n        image: %s\n        imagePullPolicy: IfNotPresent\n", name, name, image)
}

func TestPackRoundTrip(t *testing.T) {
	dict := lz.NewDict([]byte(manifest("web", "web:1")))
	for _, tt := range []struct{ name, text string }{
		{"empty", ""},
		{"short", "abc"},
		{"the dictionary itself", manifest("web", "web:1")},
		{"a like manifest", manifest("shop-frontend", "registry.example.com/shop:2.7")},
		{"unlike text", strings.Repeat("zq", 300)},
		{"a copy at the very end", "xx" + manifest("web", "web:1")[:40]},
	} {
		t.Run(tt.name, func(t *testing.T) {
			packed := dict.Pack(nil, []byte(tt.text))
			got, err := dict.Unpack(nil, packed)
			if err != nil || string(got) != tt.text {
				t.Errorf("Unpack(Pack(%q)) = %q, %v", tt.text, got, err)
			}
		})
	}
	// A manifest like the dictionary packs to a fraction of its size.
	text := manifest("shop-frontend", "registry.example.com/shop:2.7")
	if n := len(dict.Pack(nil, []byte(text))); n > len(text)/3 {
		t.Errorf("a manifest like the dictionary packs to %d bytes of %d, want a third at most", n, len(text))
	}
}

// TestPackProperties: Unpack(Pack(text)) is text for any dictionary and
// text, Pack appends to dst, and Unpack of any bytes returns an error or
// a text, never a panic.
func TestPackProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		alphabet := rapid.SliceOfN(rapid.Byte(), 1, 4).Draw(t, "alphabet")
		str := func(label string) []byte {
			idx := rapid.SliceOfN(rapid.IntRange(0, len(alphabet)-1), 0, 200).Draw(t, label)
			b := make([]byte, len(idx))
			for i, k := range idx {
				b[i] = alphabet[k]
			}
			return b
		}
		dict := lz.NewDict(str("dict"))
		text := str("text")
		prefix := rapid.SliceOfN(rapid.Byte(), 0, 3).Draw(t, "dst")
		packed := dict.Pack(bytes.Clone(prefix), text)
		if !bytes.HasPrefix(packed, prefix) {
			t.Fatalf("Pack did not append to dst")
		}
		got, err := dict.Unpack([]byte("x"), packed[len(prefix):])
		if err != nil || string(got) != "x"+string(text) {
			t.Fatalf("Unpack(Pack(%q)) = %q, %v", text, got, err)
		}
		_, _ = dict.Unpack(nil, rapid.SliceOf(rapid.Byte()).Draw(t, "garbage"))
	})
}

func FuzzUnpack(f *testing.F) {
	dict := lz.NewDict([]byte(manifest("web", "web:1")))
	f.Add(dict.Pack(nil, []byte(manifest("api", "api:2"))))
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01})
	f.Fuzz(func(t *testing.T, packed []byte) {
		text, err := dict.Unpack(nil, packed)
		if err != nil {
			return
		}
		if again, err := dict.Unpack(nil, dict.Pack(nil, text)); err != nil || !bytes.Equal(again, text) {
			t.Errorf("round trip of %q: %q, %v", text, again, err)
		}
	})
}

func ExampleDict() {
	dict := lz.NewDict([]byte("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n"))
	text := []byte("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: shop\n")
	packed := dict.Pack(nil, text)
	back, err := dict.Unpack(nil, packed)
	fmt.Println(len(text), len(packed), string(back) == string(text), err)
	// Output: 60 8 true <nil>
}
