package hash_test

import (
	"fmt"

	"github.com/rolloutmath/rolloutmath/hash"
)

func ExampleEncode() {
	// The FNV-1a sum of the empty v1.PodTemplateSpec's rendering.
	fmt.Println(hash.Encode(4130463924))
	// Output: 85748b7f68
}

func ExampleName() {
	fmt.Println(hash.Name("web", "6df65d4dc7"))
	// Output: web-6df65d4dc7
}

func ExampleFNV32a() {
	// hash/fnv's New32a of "hello", one call or several.
	h := hash.NewFNV32a().WriteString("hello")
	fmt.Println(uint32(h), uint32(hash.NewFNV32a().WriteString("he").Write([]byte("llo"))))
	// Output: 1335831723 1335831723
}
