package check

import (
	"encoding/json"
	"fmt"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/apply"
	"github.com/rolloutmath/rolloutmath/rollout/manifest"
)

// ApplyOptions are the options of ApplyAll.
type ApplyOptions struct {
	// Namespace is that of 'kubectl apply -n': the namespace of the
	// manifests that name none, and the only one a manifest may name.
	// The zero value is no -n: a manifest's own namespace, else
	// "default".
	Namespace string
	// Version is the API server's Kubernetes minor (see apply.Options).
	Version rollout.Version
}

// An Apply is what 'kubectl apply' did to one Deployment manifest.
type Apply struct {
	// Name is the Deployment's "namespace/name".
	Name string
	// Manifest is the manifest applied; Live is the live Deployment it
	// was applied onto, the zero Document on a first apply.
	Manifest, Live manifest.Document
	// Result is what the API server stores, and what changed.
	Result apply.Result
}

// ApplyAll applies each Deployment of manifests, in manifest order, onto
// the live Deployment of live with its namespace and name (apply.Apply),
// or creates it where there is none (apply.Create). It returns the
// applies that succeeded, in manifest order, and one finding of rule
// input (see ApplyProblem) per line of every apply refused: a manifest of
// another namespace than opts.Namespace, a Deployment given twice, or
// what kubectl or the API server refuses. ApplyAll does not modify its
// inputs.
func ApplyAll(manifests, live *Input, opts ApplyOptions) ([]Apply, []Finding) {
	liveAt := map[string]manifest.Document{} // namespace/name -> the live Deployment's document
	for i, d := range live.objs.Deployments {
		liveAt[d.Namespace+"/"+d.Name] = live.where[i]
	}
	var (
		done    []Apply
		refused []Finding
		seen    = map[string]manifest.Document{}
	)
	for i, d := range manifests.objs.Deployments {
		doc, err := withJSON(manifests.where[i])
		if err != nil {
			refused = append(refused, ApplyProblem(doc, fmt.Sprintf("Deployment %q: %v", d.Name, err)))
			continue
		}
		ns, err := applyNamespace(doc, opts.Namespace)
		if err != nil {
			refused = append(refused, ApplyProblem(doc, fmt.Sprintf("Deployment %q: %v", d.Name, err)))
			continue
		}
		key := ns + "/" + d.Name
		if first, dup := seen[key]; dup {
			refused = append(refused, ApplyProblem(doc, fmt.Sprintf("Deployment %s: also at %s: a Deployment is applied once", key, first)))
			continue
		}
		seen[key] = doc
		var r apply.Result
		at, found := liveAt[key]
		if found {
			at, err = withJSON(at)
		}
		o := apply.Options{Namespace: ns, Version: opts.Version}
		switch {
		case err != nil:
		case found:
			r, err = apply.Apply(at.JSON, doc.JSON, o)
		default:
			r, err = apply.Create(doc.JSON, o)
		}
		if err != nil {
			how := "kubectl apply (a first apply: " + live.names + " has no such Deployment)"
			if found {
				how = "kubectl apply onto the live object (" + at.String() + ")"
			}
			for _, p := range lines(err) {
				refused = append(refused, ApplyProblem(doc, fmt.Sprintf("Deployment %s: %s: %s", key, how, p)))
			}
			continue
		}
		done = append(done, Apply{Name: key, Manifest: doc, Live: at, Result: r})
	}
	return done, refused
}

// withJSON returns doc with its JSON, which the input keeps only for
// documents read as JSON (see manifest.Document.Lean).
func withJSON(doc manifest.Document) (manifest.Document, error) {
	j, err := doc.Object()
	doc.JSON = j
	return doc, err
}

// applyNamespace returns the namespace doc is applied in: its own, or
// n's, or "default". A manifest of another namespace than a non-empty n
// is refused, as kubectl refuses it.
func applyNamespace(doc manifest.Document, n string) (string, error) {
	var m struct {
		Metadata struct {
			Namespace string `json:"namespace"`
		} `json:"metadata"`
	}
	if err := json.Unmarshal(doc.JSON, &m); err != nil {
		return "", err // the document decoded as a Deployment: not reached
	}
	own := m.Metadata.Namespace
	switch {
	case own != "" && n != "" && own != n:
		return "", fmt.Errorf("metadata.namespace %q is not -n %s: kubectl apply refuses a manifest of another namespace than the one it is given", own, n)
	case own != "":
		return own, nil
	case n != "":
		return n, nil
	}
	return rollout.DefaultNamespace, nil
}
