package check

import (
	"encoding/json"
	"fmt"

	"github.com/rolloutmath/rolloutmath/internal/jsonscan"
	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/manifest"
)

// namespaceOf returns the namespace the objects of doc go in when the
// input is applied with 'kubectl apply -n namespace': namespace when doc
// names none, "" when it names one (its own counts) or namespace is "".
// A doc that names another namespace is refused, as kubectl refuses it:
// the finding says so.
func namespaceOf(doc manifest.Document, namespace string) (string, Finding, bool) {
	if namespace == "" || len(doc.JSON) == 0 || doc.JSON[0] != '{' {
		return "", Finding{}, false
	}
	own := ""
	jsonscan.Members(doc.JSON, func(key []byte, start, end int) {
		if string(key) != "metadata" || doc.JSON[start] != '{' {
			return
		}
		meta := doc.JSON[start:end]
		jsonscan.Members(meta, func(k []byte, s, e int) {
			if string(k) == "namespace" {
				_ = json.Unmarshal(meta[s:e], &own)
			}
		})
	})
	switch {
	case own == "":
		return namespace, Finding{}, false
	case own == namespace:
		return "", Finding{}, false
	}
	at := doc
	at.Line, _ = doc.FieldLine("metadata.namespace")
	f := docFinding(at, fmt.Sprintf("%s: %s: metadata.namespace %q is not -n %s: 'kubectl apply -n %s' refuses an object of another namespace", at, doc.Kind, own, namespace, namespace))
	f.Location.Field = "metadata.namespace"
	return "", f, true
}

// inNamespace returns objs with each object in namespace.
func inNamespace(objs rollout.Objects, namespace string) rollout.Objects {
	for i := range objs.Deployments {
		objs.Deployments[i].Namespace = namespace
	}
	for i := range objs.ReplicaSets {
		objs.ReplicaSets[i].Namespace = namespace
	}
	for i := range objs.Pods {
		objs.Pods[i].Namespace = namespace
	}
	return objs
}
