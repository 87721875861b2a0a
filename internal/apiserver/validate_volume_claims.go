package apiserver

import (
	"github.com/rolloutmath/rolloutmath/internal/field"
	"github.com/rolloutmath/rolloutmath/internal/schema"
)

// Validation of ephemeral volumes, whose claim template is a
// PersistentVolumeClaim in all but name: upstream's
// validateEphemeralVolumeSource, ValidatePersistentVolumeClaimTemplate,
// ValidateTemplateObjectMeta and ValidatePersistentVolumeClaimSpec with
// what they call (pkg/apis/core/validation).

// claimSpecOptions are upstream's PersistentVolumeClaimSpecValidationOptions
// that ValidatePersistentVolumeClaimSpec reads.
type claimSpecOptions struct {
	AllowInvalidLabelValueInSelector      bool
	AllowInvalidAPIGroupInDataSourceOrRef bool
	EnableVolumeAttributesClass           bool
}

// claimTemplateOptions are ValidationOptionsForPersistentVolumeClaimTemplate's
// options for a new claim template in v1.36: strict selector values, and
// volume attributes classes validated (the VolumeAttributesClass gate is
// locked on).
func claimTemplateOptions() claimSpecOptions {
	return claimSpecOptions{EnableVolumeAttributesClass: true}
}

// validateEphemeralVolumeSource is upstream's validateEphemeralVolumeSource:
// a valid claim template.
func validateEphemeralVolumeSource(e *schema.EphemeralVolumeSource, p *field.Path) field.ErrorList {
	if e.VolumeClaimTemplate == nil {
		return field.ErrorList{field.RequiredValue(p.Child("volumeClaimTemplate"), "")}
	}
	return validatePersistentVolumeClaimTemplate(e.VolumeClaimTemplate, p.Child("volumeClaimTemplate"), claimTemplateOptions())
}

// validatePersistentVolumeClaimTemplate is upstream's
// ValidatePersistentVolumeClaimTemplate: its metadata and its spec.
func validatePersistentVolumeClaimTemplate(t *schema.PersistentVolumeClaimTemplate, p *field.Path, opts claimSpecOptions) field.ErrorList {
	errs := validateTemplateObjectMeta(&t.ObjectMeta, p.Child("metadata"))
	return append(errs, validatePersistentVolumeClaimSpec(&t.Spec, p.Child("spec"), opts)...)
}

// validateTemplateObjectMeta is upstream's ValidateTemplateObjectMeta: an
// embedded template's metadata has valid annotations and labels and
// nothing else. Upstream compares each other field with its zero value, so
// an empty list that is present (finalizers: []) counts as set; field
// names are Go's with the first letter lowered, hence "uID".
func validateTemplateObjectMeta(m *schema.ObjectMeta, p *field.Path) field.ErrorList {
	errs := validateAnnotations(m.Annotations, p.Child("annotations"))
	errs = append(errs, validateLabels(m.Labels, p.Child("labels"))...)
	set := []struct {
		name string
		set  bool
	}{
		{"name", m.Name != ""},
		{"generateName", m.GenerateName != ""},
		{"namespace", m.Namespace != ""},
		{"selfLink", m.SelfLink != ""},
		{"uID", m.UID != ""},
		{"resourceVersion", m.ResourceVersion != ""},
		{"generation", m.Generation != 0},
		{"creationTimestamp", !m.CreationTimestamp.IsZero()},
		{"deletionTimestamp", m.DeletionTimestamp != nil},
		{"deletionGracePeriodSeconds", m.DeletionGracePeriodSeconds != nil},
		{"ownerReferences", m.OwnerReferences != nil},
		{"finalizers", m.Finalizers != nil},
		{"managedFields", m.ManagedFields != nil},
	}
	for _, f := range set {
		if f.set {
			errs = append(errs, field.ForbiddenField(p.Child(f.name), "cannot be set"))
		}
	}
	return errs
}

// validatePersistentVolumeClaimSpec is upstream's
// ValidatePersistentVolumeClaimSpec: known access modes (ReadWriteOncePod
// alone), a valid selector, a positive storage request, valid class
// names, a known volume mode, valid data sources that agree.
func validatePersistentVolumeClaimSpec(s *schema.PersistentVolumeClaimSpec, p *field.Path, opts claimSpecOptions) field.ErrorList {
	var errs field.ErrorList
	if len(s.AccessModes) == 0 {
		errs = append(errs, field.RequiredValue(p.Child("accessModes"), "at least 1 access mode is required"))
	}
	if s.Selector != nil {
		errs = append(errs, validateLabelSelector(s.Selector, opts.AllowInvalidLabelValueInSelector, p.Child("selector"))...)
	}
	oncePod, other := false, false
	for _, m := range s.AccessModes {
		switch m {
		case "ReadWriteOncePod":
			oncePod = true
		case "ReadWriteOnce", "ReadOnlyMany", "ReadWriteMany":
			other = true
		default:
			errs = append(errs, field.NotSupported(p.Child("accessModes"), m, []string{"ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"}))
		}
	}
	if oncePod && other {
		errs = append(errs, field.ForbiddenField(p.Child("accessModes"), "may not use ReadWriteOncePod with other access modes"))
	}
	storagePath := p.Child("resources").Key("storage")
	if q, ok := s.Resources.Requests.Get("storage"); !ok {
		errs = append(errs, field.RequiredValue(storagePath, ""))
	} else if q.Sign() <= 0 {
		errs = append(errs, field.InvalidString(storagePath, q.String(), "must be greater than zero"))
	}
	// Upstream then applies ValidateResourceQuantityValue, which a positive
	// storage quantity always passes: storage is not an integer resource.
	if c := s.StorageClassName; c != nil && *c != "" {
		for _, msg := range nameIsDNSSubdomain(*c, false) {
			errs = append(errs, field.InvalidString(p.Child("storageClassName"), *c, msg))
		}
	}
	if m := s.VolumeMode; m != nil && *m != "Block" && *m != "Filesystem" {
		errs = append(errs, field.NotSupported(p.Child("volumeMode"), *m, []string{"Block", "Filesystem"}))
	}
	if s.DataSource != nil {
		errs = append(errs, validateDataSource(s.DataSource.APIGroup, s.DataSource.Kind, s.DataSource.Name, p.Child("dataSource"), opts.AllowInvalidAPIGroupInDataSourceOrRef)...)
	}
	if r := s.DataSourceRef; r != nil {
		errs = append(errs, validateDataSourceRef(r, p.Child("dataSourceRef"), opts.AllowInvalidAPIGroupInDataSourceOrRef)...)
	}
	// Upstream prints the path of dataSource as the value, which renders
	// as {} (a field.Path has no exported fields).
	if r := s.DataSourceRef; r != nil && r.Namespace != nil && *r.Namespace != "" {
		if s.DataSource != nil {
			errs = append(errs, field.InvalidValue(p, "{}", "may not be specified when dataSourceRef.namespace is specified"))
		}
	} else if s.DataSource != nil && r != nil && !dataSourceEqualsRef(s.DataSource, r) {
		errs = append(errs, field.InvalidValue(p, "{}", "must match dataSourceRef"))
	}
	if c := s.VolumeAttributesClassName; c != nil && *c != "" && opts.EnableVolumeAttributesClass {
		for _, msg := range nameIsDNSSubdomain(*c, false) {
			errs = append(errs, field.InvalidString(p.Child("volumeAttributesClassName"), *c, msg))
		}
	}
	return errs
}

// dataSourceEqualsRef is upstream's isDataSourceEqualDataSourceRef: the
// same API group (both unset, or equal), kind and name.
func dataSourceEqualsRef(ds *schema.TypedLocalObjectReference, ref *schema.TypedObjectReference) bool {
	sameGroup := (ds.APIGroup == nil) == (ref.APIGroup == nil) && (ds.APIGroup == nil || *ds.APIGroup == *ref.APIGroup)
	return sameGroup && ds.Kind == ref.Kind && ds.Name == ref.Name
}

// validateDataSource is upstream's validateDataSource: a name and a kind;
// in the core group the kind must be PersistentVolumeClaim, and another
// group must be a DNS subdomain unless allowed otherwise.
func validateDataSource(apiGroup *string, kind, name string, p *field.Path, allowInvalidAPIGroup bool) field.ErrorList {
	var errs field.ErrorList
	if name == "" {
		errs = append(errs, field.RequiredValue(p.Child("name"), ""))
	}
	if kind == "" {
		errs = append(errs, field.RequiredValue(p.Child("kind"), ""))
	}
	group := ""
	if apiGroup != nil {
		group = *apiGroup
	}
	if group == "" && kind != "PersistentVolumeClaim" {
		errs = append(errs, field.InvalidString(p, kind, "must be 'PersistentVolumeClaim' when referencing the default apiGroup"))
	}
	if group != "" && !allowInvalidAPIGroup {
		for _, msg := range isDNS1123Subdomain(group) {
			errs = append(errs, field.InvalidString(p.Child("apiGroup"), group, msg))
		}
	}
	return errs
}

// validateDataSourceRef is upstream's validateDataSourceRef: what
// validateDataSource checks, and a DNS-label namespace when it names one.
func validateDataSourceRef(r *schema.TypedObjectReference, p *field.Path, allowInvalidAPIGroup bool) field.ErrorList {
	errs := validateDataSource(r.APIGroup, r.Kind, r.Name, p, allowInvalidAPIGroup)
	if r.Namespace != nil && *r.Namespace != "" {
		for _, msg := range nameIsDNSLabel(*r.Namespace, false) {
			errs = append(errs, field.InvalidString(p.Child("namespace"), *r.Namespace, msg))
		}
	}
	return errs
}
