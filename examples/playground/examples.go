package main

import "embed"

// The manifests the page offers to start from, nginx (the default, that
// of `rolloutctl simulate` without -f) first.
//
//go:embed examples/*.yaml
var exampleFiles embed.FS

// An Example is a manifest to start from with the change that shows it.
type Example struct {
	Name  string `json:"name"`
	Title string `json:"title"`
	State State  `json:"state"`
}

// examples returns the page's examples, the default first. Each State
// sets the image its rollout changes to.
func examples() []Example {
	list := []struct{ name, title, image string }{
		{"nginx", "nginx-deployment: 10 replicas, 25% surge (rolloutctl's example)", "nginx:1.9.3"},
		{"surge1", "maxSurge 1, maxUnavailable 0, a readiness probe", "web:1.1"},
		{"recreate", "Recreate with a preStop sleep", "worker:1.1"},
		{"hpa", "an HPA's range bounds the replicas", "gateway:2.4"},
		{"quota", "a pod quota below the rollout's peak", "checkout:4.2"},
	}
	var out []Example
	for _, e := range list {
		b, err := exampleFiles.ReadFile("examples/" + e.name + ".yaml")
		if err != nil {
			panic("playground: embedded example " + e.name + " missing: " + err.Error()) // a build without its files
		}
		out = append(out, Example{Name: e.name, Title: e.title, State: State{Manifest: string(b), Image: e.image}})
	}
	return out
}

// DefaultState is the state of a page opened without a fragment: the
// nginx example changed to nginx:1.9.3, as `rolloutctl simulate` runs it
// without arguments.
func DefaultState() State { return examples()[0].State }
