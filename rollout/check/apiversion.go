package check

import (
	"fmt"

	"github.com/rolloutmath/rolloutmath/internal/jsonscan"
	"github.com/rolloutmath/rolloutmath/rollout/manifest"
)

// kindVersions are the apiVersion of each kind a check reads, as kubectl
// tells a user to write it.
var kindVersions = map[string]string{
	"Deployment": "apps/v1", "ReplicaSet": "apps/v1", "Pod": "v1",
	"ResourceQuota": "v1", "LimitRange": "v1",
	"PodDisruptionBudget": "policy/v1", "HorizontalPodAutoscaler": "autoscaling/v2",
}

// missingAPIVersion returns the finding of a document of a kind a check
// reads that sets no apiVersion, which kubectl refuses before it sends
// anything ("error validating data: apiVersion not set"), though the API
// server, which the URL tells the version, would take it; ok is false
// when the document sets one or is of another kind.
func missingAPIVersion(doc manifest.Document) (Finding, bool) {
	want, read := kindVersions[doc.Kind]
	if !read || len(doc.JSON) == 0 || doc.JSON[0] != '{' {
		return Finding{}, false
	}
	set := false
	jsonscan.MembersWhile(doc.JSON, func(key []byte, start, end int) bool {
		if string(key) == "apiVersion" && string(doc.JSON[start:end]) != `""` && string(doc.JSON[start:end]) != "null" {
			set = true
		}
		return !set // one set is enough, and apiVersion comes first
	})
	if set {
		return Finding{}, false
	}
	f := docFinding(doc, fmt.Sprintf("%s: %s: apiVersion not set: kubectl refuses an object without one (error validating data); add apiVersion: %s", doc, doc.Kind, want))
	f.Location.Field = "apiVersion"
	return f, true
}
