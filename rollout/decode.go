package rollout

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"
)

// Objects are the Deployments, ReplicaSets and Pods read from a manifest.
type Objects struct {
	Deployments []Deployment
	ReplicaSets []ReplicaSet
	Pods        []Pod
}

// DefaultNamespace is the namespace of an object whose manifest names none.
const DefaultNamespace = "default"

// Decode reads Kubernetes objects from JSON: a List (what kubectl get -o
// json prints for several objects) or a single object. Deployments,
// ReplicaSets and Pods are kept, applying the API server's defaults; other
// kinds are skipped. An object without a namespace gets [DefaultNamespace].
// Errors name the item and the field.
func Decode(data []byte) (Objects, error) {
	var o Objects
	err := o.add(data, "")
	return o, err
}

type typeMeta struct {
	Kind     string `json:"kind"`
	Metadata struct {
		Name string `json:"name"`
	} `json:"metadata"`
	Items []json.RawMessage `json:"items"`
}

func (o *Objects) add(data []byte, where string) error {
	data = bytes.TrimSpace(data)
	if len(data) == 0 || data[0] != '{' {
		return fmt.Errorf("%snot a JSON object", at(where))
	}
	var tm typeMeta
	if err := json.Unmarshal(data, &tm); err != nil {
		return fmt.Errorf("%s%w", at(where), err)
	}
	if tm.Kind == "List" || (tm.Kind == "" && tm.Items != nil) || (len(tm.Kind) > 4 && tm.Kind[len(tm.Kind)-4:] == "List") {
		for i, item := range tm.Items {
			if err := o.add(item, fmt.Sprintf("%sitems[%d]", where, i)); err != nil {
				return err
			}
		}
		return nil
	}
	what := fmt.Sprintf("%s%s %q", prefix(where), tm.Kind, tm.Metadata.Name)
	var err error
	switch tm.Kind {
	case "Deployment":
		var d Deployment
		if err = json.Unmarshal(data, &d); err == nil {
			d.Namespace = namespaceOr(d.Namespace)
			o.Deployments = append(o.Deployments, d)
		}
	case "ReplicaSet":
		var rs ReplicaSet
		if err = json.Unmarshal(data, &rs); err == nil {
			rs.Namespace = namespaceOr(rs.Namespace)
			o.ReplicaSets = append(o.ReplicaSets, rs)
		}
	case "Pod":
		var p Pod
		if err = json.Unmarshal(data, &p); err == nil {
			p.Namespace = namespaceOr(p.Namespace)
			o.Pods = append(o.Pods, p)
		}
	case "":
		return fmt.Errorf("%sno kind: not a Kubernetes object", at(where))
	}
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return nil
}

func at(where string) string {
	if where == "" {
		return ""
	}
	return where + ": "
}

func prefix(where string) string {
	if where == "" {
		return ""
	}
	return where + " "
}

func namespaceOr(ns string) string {
	if ns == "" {
		return DefaultNamespace
	}
	return ns
}

// State returns the sync state of d at now: the ReplicaSets and Pods of o in
// d's namespace.
func (o Objects) State(d Deployment, now time.Time) State {
	s := State{Deployment: d, Now: now}
	for _, rs := range o.ReplicaSets {
		if rs.Namespace == d.Namespace {
			s.ReplicaSets = append(s.ReplicaSets, rs)
		}
	}
	for _, p := range o.Pods {
		if p.Namespace == d.Namespace {
			s.Pods = append(s.Pods, p)
		}
	}
	return s
}
