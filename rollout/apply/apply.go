// Package apply answers what applying a manifest onto a running Deployment
// does, offline: it computes the Deployment the API server will hold, as
// kubectl and a v1.36 API server compute it, and says whether the apply
// starts a rollout and which fields change.
//
// [Apply] is kubectl apply's default, client-side apply: the three-way
// strategic merge of the last-applied configuration, the live object and
// the manifest, which the API server then applies to the live object,
// defaults, validates and stores. [Replace] is kubectl replace (the
// manifest replaces the object), and [Create] a first apply. Server-side
// apply, which tracks field managers, is not modelled.
//
// The live object is what kubectl get -o json (or yaml, converted) prints,
// the manifest what the user applies; both are JSON of one apps/v1
// Deployment. Use package rollout/manifest to read them from files.
package apply

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"strings"

	"github.com/rolloutmath/rolloutmath/internal/apiserver"
	"github.com/rolloutmath/rolloutmath/internal/field"
	"github.com/rolloutmath/rolloutmath/internal/schema"
	"github.com/rolloutmath/rolloutmath/internal/strategicpatch"
	"github.com/rolloutmath/rolloutmath/rollout"
)

// Options say how kubectl and the API server treat the objects. The zero
// value is kubectl's defaults and the newest supported minor's API.
type Options struct {
	// Lenient drops unknown and duplicate fields of the manifest with a
	// warning instead of refusing them, as kubectl apply --validate=false.
	Lenient bool
	// NoOverwrite is kubectl apply --overwrite=false: a field that the
	// manifest changes and another writer changed since the last apply is
	// a conflict, and the apply fails.
	NoOverwrite bool
	// Namespace is kubectl's namespace (--namespace, or the context's):
	// a manifest without one is applied there, and one that names
	// another is refused, as kubectl refuses it. Empty means the live
	// object's namespace for Apply and Replace, rollout.DefaultNamespace
	// for Create.
	Namespace string
	// FeatureGates are the API server's feature gates; the zero value is
	// the defaults of Version's minor.
	FeatureGates rollout.FeatureGates
	// Version is the API server's Kubernetes minor: the fields a manifest
	// may have, its defaults and its validation. The zero value is the
	// newest supported minor; Apply, Create and Replace refuse one that
	// names no supported minor (an error wrapping rollout.ErrVersion).
	Version rollout.Version
}

// server returns the API server's minor and gates.
func (o Options) server() apiserver.FeatureGates {
	return apiserver.FeatureGates{Version: o.Version, Gates: o.FeatureGates}
}

// check refuses options that name no supported minor.
func (o Options) check() error {
	if !o.Version.Valid() {
		return fmt.Errorf("apply: Options.Version %s: %w", o.Version, rollout.ErrVersion)
	}
	return nil
}

// Result is what an apply does to one Deployment.
type Result struct {
	// Before is the live Deployment, as a client reads it; nil when the
	// apply creates the Deployment.
	Before *rollout.Deployment
	// After is the Deployment the API server stores.
	After rollout.Deployment
	// Stored is the stored object's JSON (members in byte order of their
	// names, as the API server stores it).
	Stored []byte
	// Patch is the strategic merge patch kubectl sends, for Apply.
	Patch []byte
	// Changes lists the fields of the spec and of the metadata a user
	// sets (labels, annotations but kubectl's last-applied one) that the
	// apply changes, in the order of their paths.
	Changes []Change
	// Warnings are what lenient decoding dropped and, for Apply onto a
	// live object without kubectl's last-applied annotation, kubectl's
	// warning that it is missing (kubectl then removes no field the
	// manifest leaves out, and adds the annotation).
	Warnings []string
}

// Rollout reports whether the apply starts a rollout: it creates the
// Deployment, or changes its pod template as upstream compares templates
// (labels, annotations, the rest of the metadata, the spec; quantities by
// value, empty lists as absent).
func (r Result) Rollout() bool {
	return r.Before == nil || !rollout.EqualIgnoreHash(r.Before.Spec.Template, r.After.Spec.Template)
}

// Summary is the answer in one line: "rollout: <the template's changed
// fields>", then "; also <the other changes>" when there are some; "no rollout: the template is unchanged once defaulted", then
// what changes instead when something does; or, when kubectl sends no
// patch, "no change".
func (r Result) Summary() string {
	if r.Before == nil {
		return "rollout: a new Deployment"
	}
	var template, other []string
	for _, c := range r.Changes {
		if strings.HasPrefix(c.Path, "spec.template.") {
			template = append(template, c.Path+" changed")
		} else {
			other = append(other, c.String())
		}
	}
	switch {
	case r.Rollout():
		s := "rollout: the pod template changed"
		if len(template) > 0 {
			s = "rollout: " + strings.Join(template, ", ")
		}
		if len(other) > 0 {
			s += "; also " + strings.Join(other, ", ")
		}
		return s
	case len(other) > 0:
		return "no rollout: the template is unchanged once defaulted; " + strings.Join(other, ", ")
	case string(r.Patch) == "{}":
		return "no change: kubectl sends no patch"
	}
	return "no rollout: the template is unchanged once defaulted"
}

// Apply is kubectl apply (client-side, its default) of manifest onto live:
// kubectl computes the three-way strategic merge patch of the
// configuration it applied last (live's last-applied annotation), the
// manifest (with that annotation set to the manifest itself) and the live
// object, and sends it unless it is empty; the API server applies it to
// the live object, decodes and defaults the result, keeps the status,
// bumps the generation when the spec changes, validates the update and
// stores it. So a field that the manifest omits is removed only if the
// last apply set it, lists of containers, ports, env and volumes merge by
// their keys, and what another writer changed (an autoscaler's replicas,
// kubectl rollout restart's annotation) stays.
//
// A manifest without a namespace is applied in o.Namespace, or else in
// live's (as kubectl apply -n with that namespace); one that names another
// namespace or another Deployment is refused. Apply fails where kubectl or the API server
// fails: a manifest with unknown fields (unless o.Lenient), a conflict
// (with o.NoOverwrite), an update the server refuses (an immutable
// selector changed, an invalid result), each problem naming its field.
// The server's new resourceVersion and managedFields are not modelled:
// Result.After keeps live's.
func Apply(live, manifest []byte, o Options) (Result, error) {
	if err := o.check(); err != nil {
		return Result{}, err
	}
	before, err := readLive(live, o)
	if err != nil {
		return Result{}, err
	}
	m, warnings, err := decodeDeployment(manifest, cmp.Or(o.Namespace, before.Namespace), o)
	if err != nil {
		return Result{}, err
	}
	if m.Name != before.Name || m.Namespace != before.Namespace {
		return Result{}, fmt.Errorf("the manifest is Deployment %s/%s, the live object %s/%s", m.Namespace, m.Name, before.Namespace, before.Name)
	}
	if _, ok := before.Annotations[rollout.LastAppliedAnnotation]; !ok {
		warnings = append(warnings, "metadata.annotations: the live Deployment has no "+rollout.LastAppliedAnnotation+
			" annotation, which kubectl apply needs (it was created by kubectl create or another client): kubectl warns, removes no field the manifest leaves out, and adds the annotation")
	}
	current := schema.AppendDeployment(nil, before, schema.Stored)
	applied, err := strategicpatch.Apply(current, manifest, m.Namespace, deploymentSchema, !o.NoOverwrite)
	if err != nil {
		return Result{}, fmt.Errorf("kubectl apply: %w", err)
	}
	if string(applied.Patch) == "{}" { // kubectl sends nothing
		r, err := result(before, clone(before), warnings)
		r.Patch = applied.Patch
		return r, err
	}
	d, res := schema.DecodeDeployment(applied.Object, schema.DecodeOptions{Lenient: o.Lenient, Version: o.Version})
	if err := refusal(res.Errs); err != nil {
		return Result{}, fmt.Errorf("the patched object: %w", err)
	}
	if err := refusal(apiserver.UpdateDeployment(clone(before), d, o.server())); err != nil {
		return Result{}, err
	}
	r, err := result(before, d, warnings)
	r.Patch = applied.Patch
	return r, err
}

// Create is a first kubectl apply of manifest, when no live object
// exists: kubectl adds its last-applied annotation (the manifest's own
// JSON) and creates the object. It returns the Deployment the API server
// stores, or why it refuses it. The stored object has no uid,
// resourceVersion or creation time, which the server assigns. A manifest
// without a namespace is created in o.Namespace, or
// rollout.DefaultNamespace.
func Create(manifest []byte, o Options) (Result, error) {
	if err := o.check(); err != nil {
		return Result{}, err
	}
	ns := cmp.Or(o.Namespace, rollout.DefaultNamespace)
	_, warnings, err := decodeDeployment(manifest, ns, o)
	if err != nil {
		return Result{}, err
	}
	created, err := strategicpatch.CreatedObject(manifest, ns)
	if err != nil {
		return Result{}, fmt.Errorf("kubectl apply: %w", err)
	}
	d, res := schema.DecodeDeployment(created, schema.DecodeOptions{Lenient: o.Lenient, Version: o.Version})
	if err := refusal(res.Errs); err != nil {
		return Result{}, err
	}
	if err := refusal(apiserver.CreateDeployment(d, o.server())); err != nil {
		return Result{}, err
	}
	return result(nil, d, warnings)
}

// Replace is kubectl replace of the live Deployment by manifest: the
// manifest, defaulted, replaces the spec and the metadata (its
// annotations replace live's, kubectl's last-applied one included); the
// status, the uid and the creation time stay; the generation grows when
// the spec or the annotations change. Namespaces and names are as for
// [Apply].
func Replace(live, manifest []byte, o Options) (Result, error) {
	if err := o.check(); err != nil {
		return Result{}, err
	}
	before, err := readLive(live, o)
	if err != nil {
		return Result{}, err
	}
	d, warnings, err := decodeDeployment(manifest, cmp.Or(o.Namespace, before.Namespace), o)
	if err != nil {
		return Result{}, err
	}
	if d.Name != before.Name || d.Namespace != before.Namespace {
		return Result{}, fmt.Errorf("the manifest is Deployment %s/%s, the live object %s/%s", d.Namespace, d.Name, before.Namespace, before.Name)
	}
	if d.ResourceVersion == "" {
		d.ResourceVersion = before.ResourceVersion // kubectl replace sends the live one
	}
	if err := refusal(apiserver.UpdateDeployment(clone(before), d, o.server())); err != nil {
		return Result{}, err
	}
	return result(before, d, warnings)
}

// deploymentSchema is the patch metadata of apps/v1 Deployment.
var deploymentSchema = func() strategicpatch.Schema {
	s, err := strategicpatch.ForStruct(schema.StructIndex("Deployment"))
	if err != nil {
		panic(err) // the generated table has the type
	}
	return s
}()

// clone copies a stored Deployment through its JSON.
func clone(d *schema.Deployment) *schema.Deployment {
	c, res := schema.DecodeDeployment(schema.AppendDeployment(nil, d, schema.Stored), schema.DecodeOptions{EveryMinor: true})
	if len(res.Errs) > 0 {
		panic(res.Errs) // a stored object decodes
	}
	return c
}

// decodeDeployment decodes a manifest strictly (or leniently) into the
// schema's type, in namespace when it names none.
func decodeDeployment(data []byte, namespace string, o Options) (*schema.Deployment, []string, error) {
	d, res := schema.DecodeDeployment(data, schema.DecodeOptions{Lenient: o.Lenient, Version: o.Version})
	if err := refusal(res.Errs); err != nil {
		return nil, nil, err
	}
	if d.Kind != "" && d.Kind != "Deployment" || d.APIVersion != "" && d.APIVersion != "apps/v1" {
		return nil, nil, fmt.Errorf("%s %s: apply handles apps/v1 Deployments", d.APIVersion, d.Kind)
	}
	switch {
	case d.Namespace == "":
		d.Namespace = namespace
	case o.Namespace != "" && d.Namespace != o.Namespace:
		return nil, nil, fmt.Errorf("the namespace from the provided object %q does not match the namespace %q: kubectl refuses it", d.Namespace, o.Namespace)
	}
	return d, res.Warnings, nil
}

// readLive decodes the live object as a client holds it.
func readLive(data []byte, o Options) (*schema.Deployment, error) {
	d, res := schema.DecodeDeployment(data, schema.DecodeOptions{Lenient: o.Lenient, Version: o.Version})
	if err := refusal(res.Errs); err != nil {
		return nil, fmt.Errorf("the live object: %w", err)
	}
	if d.Namespace == "" {
		d.Namespace = rollout.DefaultNamespace
	}
	if err := refusal(apiserver.ReadDeployment(d, o.server())); err != nil {
		return nil, fmt.Errorf("the live object: %w", err)
	}
	if d.ResourceVersion == "" {
		return nil, errors.New("the live object: metadata.resourceVersion: Required value: an object the API server stores has one (kubectl get -o yaml prints it)")
	}
	return d, nil
}

// refusal turns field errors into one error, one line each.
func refusal(errs field.ErrorList) error {
	if len(errs) == 0 {
		return nil
	}
	list := make([]error, len(errs))
	for i, e := range errs {
		list[i] = &rollout.FieldError{Field: e.Field, Kind: string(e.Type), Value: e.Value, Detail: e.Detail}
	}
	return errors.Join(list...)
}

// result builds a Result from the live object (nil on create) and the one
// to store, both in stored form.
func result(before, after *schema.Deployment, warnings []string) (Result, error) {
	stored := schema.AppendDeployment(nil, after, schema.Stored)
	objs, err := rollout.Decode(stored)
	if err != nil || len(objs.Deployments) != 1 {
		return Result{}, fmt.Errorf("apply: reading back the stored object: %v", err)
	}
	r := Result{After: objs.Deployments[0], Stored: stored, Warnings: warnings}
	if before == nil {
		return r, nil
	}
	liveJSON := schema.AppendDeployment(nil, before, schema.Stored)
	objs, err = rollout.Decode(liveJSON)
	if err != nil || len(objs.Deployments) != 1 {
		return Result{}, fmt.Errorf("apply: reading back the live object: %v", err)
	}
	r.Before = &objs.Deployments[0]
	changes, err := diff(userFields(before), userFields(after), schema.IndexDeployment)
	if err != nil {
		return Result{}, err
	}
	r.Changes = changes
	return r, nil
}

// userFields is the JSON of what a user sets in a Deployment: the spec,
// the labels and the annotations but kubectl's last-applied one.
func userFields(d *schema.Deployment) []byte {
	u := schema.Deployment{Spec: d.Spec}
	u.Labels = d.Labels
	if len(d.Annotations) > 0 {
		u.Annotations = map[string]string{}
		for k, v := range d.Annotations {
			if k != rollout.LastAppliedAnnotation {
				u.Annotations[k] = v
			}
		}
	}
	return bytes.Clone(schema.AppendDeployment(nil, &u, schema.Comparison))
}
