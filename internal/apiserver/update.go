package apiserver

import (
	"bytes"
	"maps"
	"slices"

	"github.com/rolloutmath/rolloutmath/internal/field"
	"github.com/rolloutmath/rolloutmath/internal/kubeversion"
	"github.com/rolloutmath/rolloutmath/internal/schema"
)

// The update path: what the API server does when a client replaces a
// stored object (an update, or a patch once applied): rest.BeforeUpdate
// with the registry strategy's PrepareForUpdate and ValidateUpdate.

// UpdateDeployment turns d, the object a client sends to replace old (as
// stored), into the one the server stores, and returns why the server
// would refuse it. It defaults d, applies the conversions, keeps old's
// generation, status, uid and timestamps, drops the fields of disabled
// gates that old does not use, bumps the generation when the spec or the
// annotations change (semantically), validates the update (the selector is
// immutable) and leaves d in stored form. old must be in stored form.
func UpdateDeployment(old, d *schema.Deployment, g FeatureGates) field.ErrorList {
	if errs := checkVersion(g); errs != nil {
		return errs
	}
	if errs := checkTypeMeta(d.TypeMeta, "apps/v1", "Deployment"); errs != nil {
		return errs
	}
	defaultDeployment(d, g)
	rollbackTo, err := convertDeployment(d)
	if err != nil {
		return field.ErrorList{err}
	}
	d.TypeMeta = schema.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"}
	beforeUpdate(&d.ObjectMeta, &old.ObjectMeta)
	d.Status = old.Status
	dropDisabledFields(&d.Spec.Template.Spec, &old.Spec.Template.Spec, g)
	schema.StoredDeployment(d)
	if !specsEqual(d, old) || !maps.Equal(d.Annotations, old.Annotations) {
		d.Generation = old.Generation + 1
	}
	afterUpdate(&d.ObjectMeta, &old.ObjectMeta)
	opts := updatePodOptions(&d.Spec.Template.Spec, &old.Spec.Template.Spec, g)
	errs := validateObjectMetaUpdate(&d.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"), opts.minor())
	errs = append(errs, validateDeploymentSpec(&d.Spec, rollbackTo, field.NewPath("spec"), opts)...)
	if !selectorsEqual(d.Spec.Selector, old.Spec.Selector) {
		errs = append(errs, field.InvalidValue(field.NewPath("spec", "selector"), "{...}", "field is immutable"))
	}
	return dedupFrom137(errs, g)
}

// beforeUpdate is what rest.BeforeUpdate does before PrepareForUpdate: a
// client cannot set the generation.
func beforeUpdate(m, old *schema.ObjectMeta) {
	m.Generation = old.Generation
}

// afterUpdate is what rest.BeforeUpdate does after PrepareForUpdate: the
// uid (when the client sent none), the creation time and the deletion
// fields stay as stored.
func afterUpdate(m, old *schema.ObjectMeta) {
	if m.UID == "" {
		m.UID = old.UID
	}
	if !old.CreationTimestamp.IsZero() {
		m.CreationTimestamp = old.CreationTimestamp
	}
	if old.DeletionTimestamp != nil {
		m.DeletionTimestamp = old.DeletionTimestamp
	}
	if old.DeletionGracePeriodSeconds != nil && m.DeletionGracePeriodSeconds == nil {
		m.DeletionGracePeriodSeconds = old.DeletionGracePeriodSeconds
	}
}

// specsEqual is apiequality.Semantic.DeepEqual of two stored specs: their
// comparison forms are equal.
func specsEqual(a, b *schema.Deployment) bool {
	x := schema.Deployment{Spec: a.Spec}
	y := schema.Deployment{Spec: b.Spec}
	return bytes.Equal(schema.AppendDeployment(nil, &x, schema.Comparison), schema.AppendDeployment(nil, &y, schema.Comparison))
}

// selectorsEqual compares two stored selectors.
func selectorsEqual(a, b *schema.LabelSelector) bool {
	x := schema.Deployment{Spec: schema.DeploymentSpec{Selector: a}}
	y := schema.Deployment{Spec: schema.DeploymentSpec{Selector: b}}
	return bytes.Equal(schema.AppendDeployment(nil, &x, schema.Comparison), schema.AppendDeployment(nil, &y, schema.Comparison))
}

// updatePodOptions are GetValidationOptionsFromPodTemplate's options for
// an update: the create options under the gates, and what the stored
// template already uses.
func updatePodOptions(s, old *schema.PodSpec, g FeatureGates) podOptions {
	opts := createPodOptions(g)
	opts.AllowInvalidLabelValueInSelector = hasInvalidLabelValueInAffinitySelector(old)
	opts.AllowNonLocalProjectedTokenPath = hasNonLocalProjectedTokenPath(old)
	// pod GetValidationOptionsFromPodSpecAndMeta: a stored template keeps a
	// RestartContainer resize policy of a non-sidecar init container
	// (hasRestartContainerForNonSidecarInitContainer, v1.36+), an image
	// volume without a reference (hasEmptyImageVolumeReference, v1.37) and
	// any seLinuxChangePolicy (useOnlyRecursiveSELinuxChangePolicy).
	opts.AllowExistingRestartForNonSidecarInit = opts.AllowExistingRestartForNonSidecarInit || hasRestartContainerForNonSidecarInit(old)
	opts.AllowEmptyImageVolumeReference = hasEmptyImageVolumeReference(old)
	if old.SecurityContext != nil && old.SecurityContext.SELinuxChangePolicy != nil {
		opts.AllowOnlyRecursiveSELinuxChangePolicy = false
	}
	// v1.37's useAllowSysAdminWhenPrivilegeEscalationFalse: a stored
	// container with CAP_SYS_ADMIN and privilege escalation not on (false
	// or unset) lets the update turn it off (VERSIONS.md V18).
	opts.AllowSysAdminWhenPrivilegeEscalationFalse = opts.minor() >= kubeversion.V1_37 && hasSysAdminWithoutPrivilegeEscalation(old)
	opts.update, opts.oldEvictionResponders = true, old.EvictionResponders
	return opts
}

// hasSysAdminWithoutPrivilegeEscalation reports whether a container adds
// CAP_SYS_ADMIN with allowPrivilegeEscalation false or unset.
func hasSysAdminWithoutPrivilegeEscalation(s *schema.PodSpec) bool {
	has := func(sc *schema.SecurityContext) bool {
		if sc == nil || sc.AllowPrivilegeEscalation != nil && *sc.AllowPrivilegeEscalation || sc.Capabilities == nil {
			return false
		}
		return slices.Contains(sc.Capabilities.Add, "CAP_SYS_ADMIN")
	}
	for _, cs := range [][]schema.Container{s.InitContainers, s.Containers} {
		for _, c := range cs {
			if has(c.SecurityContext) {
				return true
			}
		}
	}
	for _, c := range s.EphemeralContainers {
		if has(c.SecurityContext) {
			return true
		}
	}
	return false
}

// hasRestartContainerForNonSidecarInit reports whether an init container
// that is not a sidecar (restartPolicy Always) has a RestartContainer
// resize policy.
func hasRestartContainerForNonSidecarInit(s *schema.PodSpec) bool {
	for _, c := range s.InitContainers {
		if c.RestartPolicy != nil && *c.RestartPolicy == "Always" {
			continue
		}
		for _, p := range c.ResizePolicy {
			if p.RestartPolicy == "RestartContainer" {
				return true
			}
		}
	}
	return false
}

// hasEmptyImageVolumeReference reports whether an image volume has no
// reference.
func hasEmptyImageVolumeReference(s *schema.PodSpec) bool {
	for _, v := range s.Volumes {
		if v.Image != nil && v.Image.Reference == "" {
			return true
		}
	}
	return false
}

// hasInvalidLabelValueInAffinitySelector reports whether a stored template's
// pod (anti-)affinity selectors hold a label value that validation would now
// refuse; such a template may keep it.
func hasInvalidLabelValueInAffinitySelector(s *schema.PodSpec) bool {
	if s.Affinity == nil {
		return false
	}
	var terms []schema.PodAffinityTerm
	if a := s.Affinity.PodAffinity; a != nil {
		terms = append(terms, a.RequiredDuringSchedulingIgnoredDuringExecution...)
		for _, w := range a.PreferredDuringSchedulingIgnoredDuringExecution {
			terms = append(terms, w.PodAffinityTerm)
		}
	}
	if a := s.Affinity.PodAntiAffinity; a != nil {
		terms = append(terms, a.RequiredDuringSchedulingIgnoredDuringExecution...)
		for _, w := range a.PreferredDuringSchedulingIgnoredDuringExecution {
			terms = append(terms, w.PodAffinityTerm)
		}
	}
	for _, t := range terms {
		if t.LabelSelector == nil {
			continue
		}
		for _, r := range t.LabelSelector.MatchExpressions {
			for _, v := range r.Values {
				if len(isValidLabelValue(v)) > 0 {
					return true
				}
			}
		}
	}
	return false
}

// validateObjectMetaUpdate is core's ValidateObjectMetaUpdate: no new
// finalizers on an object being deleted, a resourceVersion, no decremented
// generation, immutable name, namespace, uid, creation and deletion
// fields, and the metadata rules of a create.
func validateObjectMetaUpdate(m, old *schema.ObjectMeta, p *field.Path, v kubeversion.Version) field.ErrorList {
	var errs field.ErrorList
	if old.DeletionTimestamp != nil {
		have := map[string]bool{}
		for _, f := range old.Finalizers {
			have[f] = true
		}
		for _, f := range m.Finalizers {
			if !have[f] {
				errs = append(errs, field.ForbiddenField(p.Child("finalizers"), "no new finalizers can be added if the object is being deleted, found new finalizers "+field.Quote(f)))
				break
			}
		}
	}
	if m.ResourceVersion == "" {
		errs = append(errs, field.InvalidString(p.Child("resourceVersion"), m.ResourceVersion, "must be specified for an update"))
	}
	if m.Generation < old.Generation {
		errs = append(errs, field.InvalidInt(p.Child("generation"), m.Generation, "must not be decremented"))
	}
	immutable := func(name string, same bool) {
		if !same {
			errs = append(errs, field.InvalidValue(p.Child(name), "", "field is immutable"))
		}
	}
	immutable("name", m.Name == old.Name)
	immutable("namespace", m.Namespace == old.Namespace)
	immutable("uid", m.UID == old.UID)
	immutable("creationTimestamp", m.CreationTimestamp.Equal(old.CreationTimestamp.Time))
	immutable("deletionTimestamp", timesEqual(m.DeletionTimestamp, old.DeletionTimestamp))
	immutable("deletionGracePeriodSeconds", int64sEqual(m.DeletionGracePeriodSeconds, old.DeletionGracePeriodSeconds))
	errs = append(errs, validateLabels(m.Labels, p.Child("labels"))...)
	errs = append(errs, validateAnnotations(m.Annotations, p.Child("annotations"))...)
	errs = append(errs, validateOwnerReferences(m.OwnerReferences, p.Child("ownerReferences"), v)...)
	errs = append(errs, validateManagedFields(m.ManagedFields, p.Child("managedFields"), v)...)
	for i, f := range m.Finalizers {
		errs = append(errs, validateKubeFinalizerName(f, p.Child("finalizers").Index(i))...)
	}
	return errs
}

func timesEqual(a, b *schema.Time) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Equal(b.Time)
}

func int64sEqual(a, b *int64) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}
