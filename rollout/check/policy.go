package check

import (
	"fmt"
	"maps"
	"slices"

	"github.com/rolloutmath/rolloutmath/internal/apiserver"
	"github.com/rolloutmath/rolloutmath/internal/schema"
	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/manifest"
)

// The policy objects a rollout is checked against, read from the input:
// ResourceQuotas, LimitRanges, PodDisruptionBudgets and
// HorizontalPodAutoscalers, each decoded strictly, read as a client of an
// API server of the input's minor reads it (defaults applied) and validated
// as the server validates it on create.

// policyKinds are the kinds of the policy objects.
var policyKinds = []string{"ResourceQuota", "LimitRange", "PodDisruptionBudget", "HorizontalPodAutoscaler", "Node", "PersistentVolumeClaim"}

// A policyObject is a policy object and the document it came from, which
// locates its fields.
type policyObject[T any] struct {
	obj T
	doc manifest.Document
}

// nsPolicy is the policy objects of one namespace, in input order, and
// the lookups made from them once (see indexPolicy).
type nsPolicy struct {
	quotas []policyObject[*schema.ResourceQuota]
	ranges []policyObject[*schema.LimitRange]
	pdbs   []policyObject[*schema.PodDisruptionBudget]
	hpas   []policyObject[*schema.HorizontalPodAutoscaler]
	// claims are the namespace's PersistentVolumeClaims, and nodes the
	// Nodes (held by namespace "", as they have none; see placement).
	claims []policyObject[*schema.PersistentVolumeClaim]
	nodes  []policyObject[*schema.Node]
	// placed are the namespace's Pods bound to a node, as the input
	// shows them.
	placed []placedPod

	hpaOf map[string]int // Deployment name -> its HPA
	// pdbsOf lists the budgets that select each Deployment's pods, and
	// pdbReplicas the replicas of all the Deployments each selects.
	pdbsOf      map[string][]int
	pdbReplicas []int64
}

// indexPolicy makes each namespace's lookups: which HPA scales a
// Deployment, which budgets select its pods. Budgets are found through
// their first matchLabels entry, so that the cost grows with the
// Deployments and not with Deployments times budgets.
func (in *Input) indexPolicy() {
	for ns, p := range in.policy {
		p.hpaOf = map[string]int{}
		for i := len(p.hpas) - 1; i >= 0; i-- { // the first counts
			ref := p.hpas[i].obj.Spec.ScaleTargetRef
			if ref.Kind == "Deployment" && (ref.APIVersion == "apps/v1" || ref.APIVersion == "") {
				p.hpaOf[ref.Name] = i
			}
		}
		if len(p.pdbs) == 0 {
			continue
		}
		sels := make([]apiserver.Selector, len(p.pdbs))
		byLabel := map[string][]int{}
		var anyLabels []int
		for i, b := range p.pdbs {
			sels[i] = apiserver.ParseSelector(b.obj.Spec.Selector)
			if s := b.obj.Spec.Selector; s != nil && len(s.MatchLabels) > 0 {
				k := slices.Sorted(maps.Keys(s.MatchLabels))[0]
				byLabel[k+"="+s.MatchLabels[k]] = append(byLabel[k+"="+s.MatchLabels[k]], i)
			} else {
				anyLabels = append(anyLabels, i)
			}
		}
		p.pdbsOf, p.pdbReplicas = map[string][]int{}, make([]int64, len(p.pdbs))
		for _, d := range in.objs.Deployments {
			if d.Namespace != ns {
				continue
			}
			cands := slices.Clone(anyLabels)
			for k, v := range d.Spec.Template.Labels {
				cands = append(cands, byLabel[k+"="+v]...)
			}
			slices.Sort(cands)
			for _, i := range slices.Compact(cands) {
				if sels[i].Matches(d.Spec.Template.Labels) {
					p.pdbsOf[d.Name] = append(p.pdbsOf[d.Name], i)
					p.pdbReplicas[i] += int64(d.Spec.Replicas)
				}
			}
		}
	}
}

// decodedPolicy is one decoded policy object, before it joins its
// namespace.
type decodedPolicy struct {
	kind, namespace, name string
	add                   func(*nsPolicy)
}

// decodePolicy decodes a document of a policy kind as an API server of
// minor v does, the object's strings from strs (see schema.StringTable).
// Its problems name the field and, where the document writes it, its
// line. The object keeps doc's place, lean, and packed by packer unless
// it is nil.
func decodePolicy(doc manifest.Document, namespace string, v rollout.Version, strs *schema.StringTable, packer *manifest.Packer) (decodedPolicy, []Finding) {
	var (
		meta *schema.ObjectMeta
		res  apiserver.SequenceResult
		p    = decodedPolicy{kind: doc.Kind}
		kept = doc.Lean() // what the policy object keeps: its place
	)
	if packer != nil {
		kept = packer.Pack(doc)
	}
	o := apiserver.SequenceOptions{Validate: true, Namespace: namespace, Gates: apiserver.FeatureGates{Version: v}, Strings: strs}
	switch doc.Kind {
	case "ResourceQuota":
		q, r := apiserver.DecodeResourceQuota(doc.JSON, o)
		meta, res = &q.ObjectMeta, r
		p.add = func(n *nsPolicy) { n.quotas = append(n.quotas, policyObject[*schema.ResourceQuota]{q, kept}) }
	case "LimitRange":
		l, r := apiserver.DecodeLimitRange(doc.JSON, o)
		meta, res = &l.ObjectMeta, r
		p.add = func(n *nsPolicy) { n.ranges = append(n.ranges, policyObject[*schema.LimitRange]{l, kept}) }
	case "PodDisruptionBudget":
		b, r := apiserver.DecodePodDisruptionBudget(doc.JSON, o)
		meta, res = &b.ObjectMeta, r
		p.add = func(n *nsPolicy) { n.pdbs = append(n.pdbs, policyObject[*schema.PodDisruptionBudget]{b, kept}) }
	case "HorizontalPodAutoscaler":
		h, r := apiserver.DecodeHorizontalPodAutoscaler(doc.JSON, o)
		meta, res = &h.ObjectMeta, r
		p.add = func(n *nsPolicy) { n.hpas = append(n.hpas, policyObject[*schema.HorizontalPodAutoscaler]{h, kept}) }
	case "Node":
		x, r := apiserver.DecodeNode(doc.JSON, o)
		meta, res = &x.ObjectMeta, r
		p.add = func(n *nsPolicy) { n.nodes = append(n.nodes, policyObject[*schema.Node]{x, kept}) }
	case "PersistentVolumeClaim":
		x, r := apiserver.DecodePersistentVolumeClaim(doc.JSON, o)
		meta, res = &x.ObjectMeta, r
		p.add = func(n *nsPolicy) { n.claims = append(n.claims, policyObject[*schema.PersistentVolumeClaim]{x, kept}) }
	}
	var problems []Finding
	for _, e := range res.Errs {
		at := doc
		at.Line, _ = doc.FieldLine(e.Field)
		what := doc.Kind
		if res.Decoded && meta.Name != "" {
			what += " " + meta.Name
		}
		f := docFinding(at, fmt.Sprintf("%s: %s: %s", at, what, e.Error()))
		f.Location.Field = e.Field
		problems = append(problems, f)
	}
	if len(problems) > 0 {
		return decodedPolicy{}, problems
	}
	p.namespace, p.name = meta.Namespace, meta.Name
	return p, nil
}

// A Location is where a finding points: a field of an object in the input.
type Location struct {
	// File and Line locate the field, or the closest enclosing field the
	// input writes when it leaves this one to its default.
	File string `json:"file"`
	Line int    `json:"line"`
	// Field is the field's path ("spec.strategy.rollingUpdate.maxSurge")
	// and Object the object ("Deployment shop/web").
	Field  string `json:"field"`
	Object string `json:"object"`
	// Written is false when the input does not write the field: it has its
	// default, and Line is where to add it.
	Written bool `json:"written"`
}

// fieldPlace returns the place of the field path of the object in doc.
func fieldPlace(doc manifest.Document, kind, namespace, name, path string) Location {
	line, written := doc.FieldLine(path)
	obj := kind + " " + name
	if namespace != rollout.DefaultNamespace {
		obj = kind + " " + namespace + "/" + name
	}
	return Location{File: doc.Source, Line: line, Field: path, Object: obj, Written: written}
}

// String locates p as "deploy.yaml:14 spec.strategy.rollingUpdate.maxSurge".
func (p Location) String() string {
	s := fmt.Sprintf("%s:%d %s", p.File, p.Line, p.Field)
	if !p.Written {
		s += " (default)"
	}
	return s
}

// hpaFor returns the HorizontalPodAutoscaler that scales d, if any: the
// first of d's namespace whose scale target is d.
func (in *Input) hpaFor(d rollout.Deployment) (policyObject[*schema.HorizontalPodAutoscaler], bool) {
	if ns := in.policy[d.Namespace]; ns != nil {
		if i, ok := ns.hpaOf[d.Name]; ok {
			return ns.hpas[i], true
		}
	}
	return policyObject[*schema.HorizontalPodAutoscaler]{}, false
}

// deploymentPlace returns the place of a field of Deployment d.
func (in *Input) deploymentPlace(d rollout.Deployment, path string) Location {
	if i, ok := in.index[d.Namespace+"/"+d.Name]; ok {
		return fieldPlace(in.where[i], "Deployment", d.Namespace, d.Name, path)
	}
	return Location{File: in.names, Field: path, Object: "Deployment " + Qualified(d)}
}

// isLive reports whether d was read from a cluster (kubectl get output)
// rather than written by hand: the API server gave it a UID.
func isLive(d rollout.Deployment) bool { return d.UID != "" }

// mergePolicy returns the policy objects of the live objects and of the
// manifests applied onto them: a manifest's object takes the place of the
// live one of its kind, namespace and name, as applying it would.
func mergePolicy(live, manifests map[string]*nsPolicy) map[string]*nsPolicy {
	out := map[string]*nsPolicy{}
	for _, from := range []map[string]*nsPolicy{live, manifests} {
		for ns, p := range from {
			if out[ns] == nil {
				out[ns] = &nsPolicy{}
			}
			o := out[ns]
			o.quotas = replaceByName(o.quotas, p.quotas, func(x *schema.ResourceQuota) string { return x.Name })
			o.ranges = replaceByName(o.ranges, p.ranges, func(x *schema.LimitRange) string { return x.Name })
			o.pdbs = replaceByName(o.pdbs, p.pdbs, func(x *schema.PodDisruptionBudget) string { return x.Name })
			o.hpas = replaceByName(o.hpas, p.hpas, func(x *schema.HorizontalPodAutoscaler) string { return x.Name })
			o.claims = replaceByName(o.claims, p.claims, func(x *schema.PersistentVolumeClaim) string { return x.Name })
			o.nodes = replaceByName(o.nodes, p.nodes, func(x *schema.Node) string { return x.Name })
			o.placed = append(o.placed, p.placed...)
		}
	}
	return out
}

// replaceByName adds the objects of more to list, each taking the place of
// the one of its name.
func replaceByName[T any](list, more []policyObject[T], name func(T) string) []policyObject[T] {
	for _, m := range more {
		i := slices.IndexFunc(list, func(o policyObject[T]) bool { return name(o.obj) == name(m.obj) })
		if i >= 0 {
			list[i] = m
		} else {
			list = append(list, m)
		}
	}
	return list
}
