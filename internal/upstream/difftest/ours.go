package difftest

import (
	"github.com/rolloutmath/rolloutmath/internal/apiserver"
	"github.com/rolloutmath/rolloutmath/internal/field"
	"github.com/rolloutmath/rolloutmath/internal/kubeversion"
	"github.com/rolloutmath/rolloutmath/internal/schema"
)

// v136 is the API server these comparisons run against: k8s.io/kubernetes
// v1.36.3 with its default gates.
var v136 = apiserver.FeatureGates{Version: kubeversion.V1_36}

// OursCreateDeployment runs the same request through rolloutmath.
func OursCreateDeployment(data []byte) (Outcome, *schema.Deployment) {
	d, res := schema.DecodeDeployment(data, schema.DecodeOptions{Version: kubeversion.V1_36})
	if out, bad := decodeOutcome(res); bad {
		return out, nil
	}
	if d.Namespace == "" {
		d.Namespace = "default"
	}
	errs := apiserver.CreateDeployment(d, v136)
	return Outcome{Stored: Canonical(schema.AppendDeployment(nil, d, schema.Stored)), Problems: ourProblems(errs)}, d
}

// OursCreateReplicaSet runs the same request through rolloutmath.
func OursCreateReplicaSet(data []byte) (Outcome, *schema.ReplicaSet) {
	rs, res := schema.DecodeReplicaSet(data, schema.DecodeOptions{Version: kubeversion.V1_36})
	if out, bad := decodeOutcome(res); bad {
		return out, nil
	}
	if rs.Namespace == "" {
		rs.Namespace = "default"
	}
	errs := apiserver.CreateReplicaSet(rs, v136)
	return Outcome{Stored: Canonical(schema.AppendReplicaSet(nil, rs, schema.Stored)), Problems: ourProblems(errs)}, rs
}

// decodeOutcome is the outcome of a decode that found problems: strict
// problems (unknown and duplicate fields) as Problems, anything else as a
// decode error.
func decodeOutcome(res schema.Result) (Outcome, bool) {
	if len(res.Errs) == 0 {
		return Outcome{}, false
	}
	var out Outcome
	for _, e := range res.Errs {
		switch e.Type {
		case field.Unknown, field.DuplicateKey:
			out.Problems = append(out.Problems, Problem{Type: string(e.Type), Field: e.Field})
		default:
			out.Decode = e.Error()
		}
	}
	if out.Decode != "" {
		out.Problems = nil
	}
	sortProblems(out.Problems)
	return out, true
}

func ourProblems(errs field.ErrorList) []Problem {
	var ps []Problem
	for _, e := range errs {
		ps = append(ps, Problem{Type: string(e.Type), Field: e.Field})
	}
	sortProblems(ps)
	return ps
}
