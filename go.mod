module github.com/rolloutmath/rolloutmath

go 1.24

require (
	github.com/google/go-cmp v0.7.0
	go.yaml.in/yaml/v3 v3.0.3
	pgregory.net/rapid v1.3.0
	sigs.k8s.io/yaml v1.6.0
)

require go.yaml.in/yaml/v2 v2.4.2
