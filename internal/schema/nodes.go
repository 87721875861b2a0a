package schema

// The objects a Deployment's pods are placed on: Nodes and the
// PersistentVolumeClaims the pods mount, decoded strictly as the policy
// objects are (policy.go).

// DecodeNode reads a core/v1 Node.
func DecodeNode(data []byte, opts DecodeOptions) (*Node, Result) {
	d := newDecoder(data, opts)
	x := new(Node)
	d.decodeNode(x)
	d.finish()
	return x, d.result()
}

// DecodePersistentVolumeClaim reads a core/v1 PersistentVolumeClaim.
func DecodePersistentVolumeClaim(data []byte, opts DecodeOptions) (*PersistentVolumeClaim, Result) {
	d := newDecoder(data, opts)
	x := new(PersistentVolumeClaim)
	d.decodePersistentVolumeClaim(x)
	d.finish()
	return x, d.result()
}

// StoredNode is [StoredDeployment] for a Node.
func StoredNode(x *Node) { x.stored() }

// StoredPersistentVolumeClaim is [StoredDeployment] for a
// PersistentVolumeClaim.
func StoredPersistentVolumeClaim(x *PersistentVolumeClaim) { x.stored() }
