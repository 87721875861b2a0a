package apiserver

import (
	"github.com/rolloutmath/rolloutmath/internal/field"
	"github.com/rolloutmath/rolloutmath/internal/schema"
)

// DecodeNode is the sequence of a Node, which rolloutmath only reads from
// the cluster ('kubectl get nodes -o yaml'): strict decoding, the type
// checked, the stored form, and no validation or defaults. A Node has no
// namespace; the sequence leaves it empty.
func DecodeNode(data []byte, o SequenceOptions) (*schema.Node, SequenceResult) {
	n, res := schema.DecodeNode(data, o.schema())
	o.Validate = false
	out := sequence(n, res, &n.ObjectMeta, o, func(n *schema.Node) field.ErrorList {
		if errs := checkVersion(o.Gates); errs != nil {
			return errs
		}
		if errs := checkTypeMeta(n.TypeMeta, "v1", "Node"); errs != nil {
			return errs
		}
		n.TypeMeta = schema.TypeMeta{APIVersion: "v1", Kind: "Node"}
		schema.StoredNode(n)
		return nil
	}, nil, nil)
	n.Namespace = ""
	return n, out
}

// DecodePersistentVolumeClaim is the sequence of a PersistentVolumeClaim,
// read as a Node is (no validation or defaults): only its access modes
// matter to rolloutmath.
func DecodePersistentVolumeClaim(data []byte, o SequenceOptions) (*schema.PersistentVolumeClaim, SequenceResult) {
	c, res := schema.DecodePersistentVolumeClaim(data, o.schema())
	o.Validate = false
	return c, sequence(c, res, &c.ObjectMeta, o, func(c *schema.PersistentVolumeClaim) field.ErrorList {
		if errs := checkVersion(o.Gates); errs != nil {
			return errs
		}
		if errs := checkTypeMeta(c.TypeMeta, "v1", "PersistentVolumeClaim"); errs != nil {
			return errs
		}
		c.TypeMeta = schema.TypeMeta{APIVersion: "v1", Kind: "PersistentVolumeClaim"}
		schema.StoredPersistentVolumeClaim(c)
		return nil
	}, nil, nil)
}
