package manifest

import (
	"bytes"
	"fmt"

	"github.com/rolloutmath/rolloutmath/internal/lz"
)

// A Packer keeps the text of many documents in a fraction of its memory,
// for keeping the places of many objects once decoded (see
// [Packer.Pack]): it writes each text as copies from a sample document,
// where they match, and the bytes that differ. Documents alike (the
// Deployments of a repository, a List kubectl printed) take a tenth of
// their size or less. A Packer is safe for concurrent use; the documents
// it packs hold it.
type Packer struct{ dict *lz.Dict }

// NewPacker returns a Packer whose dictionary is the text of sample: a
// document like those it will pack, such as the first of them. A sample
// without text (a document converted from JSON not as written) makes a
// Packer that packs nothing away but still packs correctly.
func NewPacker(sample Document) *Packer {
	return &Packer{dict: lz.NewDict(bytes.Clone(sample.text()))}
}

// Pack returns d lean (see [Document.Lean]) with its text packed: String,
// FieldLine, Object and Decode give what they give for d, reading the
// text back when asked (about a microsecond a kilobyte). The JSON field
// of the result is nil, also for a document that is JSON as written.
// A document with no text to pack (converted from JSON, not as written)
// is returned lean.
func (p *Packer) Pack(d Document) Document {
	switch {
	case d.yaml != nil && d.yaml.packed == nil:
		y := &yamlSource{packed: p.pack(d.yaml.text), line: d.yaml.line}
		d.yaml, d.JSON = y, nil
	case d.asWritten && d.JSON != nil:
		d.packed, d.JSON = p.pack(d.JSON), nil
	}
	return d.Lean()
}

// pack packs text.
func (p *Packer) pack(text []byte) *packedText {
	b := p.dict.Pack(nil, text)
	return &packedText{dict: p.dict, data: bytes.Clone(b), size: len(text)} // no spare capacity
}

// packedText is a text a Packer packed.
type packedText struct {
	dict *lz.Dict
	data []byte
	size int // of the text
}

// text returns the text, read back.
func (t *packedText) text() []byte {
	b, err := t.dict.Unpack(make([]byte, 0, t.size), t.data)
	if err != nil {
		// Cannot happen: data is what the dictionary packed.
		panic(fmt.Sprintf("manifest: a packed document does not read back: %v", err))
	}
	return b
}

// text returns the text d is read from: its YAML, or its JSON as
// written; nil for a document converted from JSON.
func (d Document) text() []byte {
	switch {
	case d.yaml != nil:
		return d.yaml.source()
	case d.asWritten:
		return d.written()
	}
	return nil
}

// written returns the JSON as written of d, read back if packed.
func (d Document) written() []byte {
	if d.JSON == nil && d.packed != nil {
		return d.packed.text()
	}
	return d.JSON
}
