// Package manifest reads Kubernetes manifests the way kubectl -f does, so
// that a program (a CI check written in Go, a command) can hand what
// people write to [rollout.Decode].
//
// [Read] takes files, directories (every .yaml, .yml and .json file in
// them, recursively, in lexical order) and "-" for standard input. [Parse]
// splits one input into [Document] values: the documents of a YAML stream
// ("---" between them), the values of a JSON stream, and the items of a
// List in either. JSON input (its first character is '{', as kubectl
// decides) is split as it is; YAML is converted to JSON with
// sigs.k8s.io/yaml, kubectl's own rules. A key given twice in a YAML
// mapping counts once, with its last value, as kubectl and the API server
// take it, and the Document says so in its Warnings.
//
// Each Document keeps its source, the line where it starts, its document
// number and its List item, and errors name them as "deploy.yaml:12:
// document 2: items[0]: ...". [Document.FieldLine] gives the line of any
// field, by its path ("spec.strategy.rollingUpdate.maxSurge"), so that a
// finding can point at what to change. An input larger than Options.MaxBytes, or
// one that looks binary in its first bytes, is refused before it is read
// whole.
//
// [Document.Decode] decodes a document with rollout.Decode. A program that
// keeps the place of many objects after decoding them keeps
// [Document.Lean]: the same place and field lines without the JSON
// converted from YAML, which [Document.Object] converts again; or, in a
// tenth of that when the documents are alike, [Packer.Pack]: the text
// itself packed against a sample document, read back when asked.
package manifest
