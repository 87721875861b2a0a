// Package hash computes the pod-template-hash of a Deployment's pod template,
// names ReplicaSets after it, and compares templates while ignoring that
// label.
//
// The Deployment controller labels each ReplicaSet it creates with
// [Label] = [Sum] of the Deployment's template (or [SumCollisions] once the
// Deployment has seen a name collision) and names it [Name](deployment, hash).
// It finds the ReplicaSet of the current template with [Equal], not by
// comparing hashes.
//
// # Templates
//
// A [Template] holds labels, annotations and the pod spec as JSON. The spec is
// compared and hashed in the canonical form of [Canonical]: sorted keys, no
// whitespace, null and empty-array members dropped, one string escaping.
// [IsCanonical] tells whether a spec is already canonical, which makes [Sum]
// and [Equal] cheap for specs that were stored canonically.
//
// # The hashed bytes
//
// [Sum] is the 32-bit FNV-1a of this byte string, where varint(n) is the
// encoding/binary uvarint of n and every map lists its entries in increasing
// byte-wise key order:
//
//	'l' varint(len(Labels))      then varint(len(k)) k varint(len(v)) v for each label
//	'a' varint(len(Annotations)) then the annotations the same way
//	's' varint(len(spec)) spec   spec = Canonical(Spec), {} for a blank or null Spec,
//	                             Spec itself if it is not valid JSON
//
// [SumCollisions] continues with the four little-endian bytes of the count
// and four zero bytes, as upstream does. The sum is written by [Encode].
// This encoding is part of the package's compatibility promise: changing it
// renames every ReplicaSet the controller creates, so the tests pin it.
//
// # Differences from upstream
//
// Upstream hashes a go-spew dump of its Go structs, which no other program
// can reproduce, so the hashes here differ from upstream's; the FNV-1a
// function, the collision bytes, the decimal rendering and the digit table
// are upstream's, so names look alike. Unlike the dump, Sum treats nil and
// empty maps (and absent, null and empty-list fields) alike. Equal compares
// JSON text where upstream compares typed values, so equivalent spellings of
// a resource quantity or a number ("1" and "1000m", 1 and 1.0) differ.
package hash
