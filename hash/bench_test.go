package hash_test

import (
	"testing"

	"github.com/rolloutmath/rolloutmath/hash"
)

func BenchmarkEncode(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		_ = hash.Encode(4130463924)
	}
}

func BenchmarkFNV32a(b *testing.B) {
	data := make([]byte, 8192)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		_ = hash.NewFNV32a().Write(data)
	}
}
