package apiserver

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/rolloutmath/rolloutmath/internal/field"
	"github.com/rolloutmath/rolloutmath/internal/kubeversion"
	"github.com/rolloutmath/rolloutmath/internal/schema"
)

// Validation of metadata and label selectors: upstream's
// k8s.io/apimachinery/pkg/api/validation (ValidateObjectMeta and its
// parts) and pkg/apis/meta/v1/validation (labels and selectors). Maps are
// walked in key order, so the errors come out in a stable order (upstream's
// follow map iteration).

// nameFunc validates a name, or a generateName prefix when prefix is set.
type nameFunc func(name string, prefix bool) []string

// validateObjectMeta is core's ValidateObjectMeta: apimachinery's checks
// (name, namespace, generation, labels, annotations, owner references,
// finalizers, managed fields) and the finalizer names Kubernetes reserves.
// v is the minor whose apimachinery applies (owner references and managed
// fields differ in v1.37).
func validateObjectMeta(m *schema.ObjectMeta, namespaced bool, name nameFunc, p *field.Path, v kubeversion.Version) field.ErrorList {
	var errs field.ErrorList
	if m.GenerateName != "" {
		for _, msg := range name(m.GenerateName, true) {
			errs = append(errs, field.InvalidString(p.Child("generateName"), m.GenerateName, msg))
		}
	}
	if m.Name == "" {
		errs = append(errs, field.RequiredValue(p.Child("name"), "name or generateName is required"))
	} else {
		for _, msg := range name(m.Name, false) {
			errs = append(errs, field.InvalidString(p.Child("name"), m.Name, msg))
		}
	}
	if namespaced {
		if m.Namespace == "" {
			errs = append(errs, field.RequiredValue(p.Child("namespace"), ""))
		} else {
			for _, msg := range nameIsDNSLabel(m.Namespace, false) {
				errs = append(errs, field.InvalidString(p.Child("namespace"), m.Namespace, msg))
			}
		}
	} else if m.Namespace != "" {
		errs = append(errs, field.ForbiddenField(p.Child("namespace"), "not allowed on this type"))
	}
	if m.Generation < 0 {
		errs = append(errs, field.InvalidInt(p.Child("generation"), m.Generation, isNegativeErrorMsg))
	}
	errs = append(errs, validateLabels(m.Labels, p.Child("labels"))...)
	errs = append(errs, validateAnnotations(m.Annotations, p.Child("annotations"))...)
	errs = append(errs, validateOwnerReferences(m.OwnerReferences, p.Child("ownerReferences"), v)...)
	errs = append(errs, validateFinalizers(m.Finalizers, p.Child("finalizers"))...)
	errs = append(errs, validateManagedFields(m.ManagedFields, p.Child("managedFields"), v)...)
	for i, f := range m.Finalizers {
		errs = append(errs, validateKubeFinalizerName(f, p.Child("finalizers").Index(i))...)
	}
	return errs
}

const isNegativeErrorMsg = "must be greater than or equal to 0"

// validateNonnegative is ValidateNonnegativeField.
func validateNonnegative(v int64, p *field.Path) field.ErrorList {
	if v < 0 {
		return field.ErrorList{field.InvalidInt(p, v, isNegativeErrorMsg)}
	}
	return nil
}

// validateLabels is ValidateLabels: qualified-name keys and label values.
func validateLabels(labels map[string]string, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, k := range slices.Sorted(maps.Keys(labels)) {
		errs = append(errs, validateLabelName(k, p)...)
		for _, msg := range isValidLabelValue(labels[k]) {
			errs = append(errs, field.InvalidString(p, labels[k], msg))
		}
	}
	return errs
}

// validateLabelName is ValidateLabelName.
func validateLabelName(name string, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, msg := range isQualifiedName(name) {
		errs = append(errs, field.InvalidString(p, name, msg))
	}
	return errs
}

// totalAnnotationSizeLimit is the most bytes of keys and values an
// object's annotations may hold: 256 KiB.
const totalAnnotationSizeLimit = 256 * 1024

// validateAnnotations is ValidateAnnotations: keys are qualified names in
// any case, and all keys and values together are at most 256 KiB.
func validateAnnotations(annotations map[string]string, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	size := 0
	for _, k := range slices.Sorted(maps.Keys(annotations)) {
		for _, msg := range isQualifiedName(strings.ToLower(k)) {
			errs = append(errs, field.InvalidString(p, k, msg))
		}
		size += len(k) + len(annotations[k])
	}
	if size > totalAnnotationSizeLimit {
		errs = append(errs, field.TooLongValue(p, totalAnnotationSizeLimit))
	}
	return errs
}

// validateOwnerReferences is ValidateOwnerReferences: every reference has
// an API version, a kind, a name and a uid, and at most one is the
// controller. v1.37 (apimachinery v0.37 validateOwnerReference) reports a
// reference's errors at its index, an empty field as Required, and an API
// version that is not group/version or version as such; v1.35 and v1.36
// report them at the list's path, as Invalid, and the API version as
// having no version (VERSIONS.md V10).
func validateOwnerReferences(refs []schema.OwnerReference, p *field.Path, v kubeversion.Version) field.ErrorList {
	var errs field.ErrorList
	firstController := ""
	indexed := v.Resolve() >= kubeversion.V1_37
	for i, r := range refs {
		rp := p
		if indexed {
			rp = p.Index(i)
		}
		group, version := splitAPIVersion(r.APIVersion)
		empty := func(name, value string) {
			if value != "" {
				return
			}
			if indexed {
				errs = append(errs, field.RequiredValue(rp.Child(name), "must not be empty"))
			} else {
				errs = append(errs, field.InvalidString(rp.Child(name), value, "must not be empty"))
			}
		}
		switch {
		case indexed && r.APIVersion == "":
			empty("apiVersion", r.APIVersion)
		case indexed && version == "":
			errs = append(errs, field.InvalidString(rp.Child("apiVersion"), r.APIVersion, "must be <group>/<version> or <version>"))
		case version == "":
			errs = append(errs, field.InvalidString(rp.Child("apiVersion"), r.APIVersion, "version must not be empty"))
		}
		empty("kind", r.Kind)
		empty("name", r.Name)
		empty("uid", r.UID)
		if group == "" && version == "v1" && r.Kind == "Event" || group == "events.k8s.io" && r.Kind == "Event" {
			errs = append(errs, field.InvalidValue(rp, fmt.Sprintf("%+v", r), fmt.Sprintf("%s/%s, Kind=%s is disallowed from being an owner", group, version, r.Kind)))
		}
		if r.Controller != nil && *r.Controller {
			name := r.Kind + "/" + r.Name
			if firstController != "" {
				errs = append(errs, field.InvalidValue(p, "[...]", "Only one reference can have Controller set to true. Found \"true\" in references for "+firstController+" and "+name))
			} else {
				firstController = name
			}
		}
	}
	return errs
}

// splitAPIVersion splits group/version; a version alone has no group.
func splitAPIVersion(v string) (group, version string) {
	switch strings.Count(v, "/") {
	case 0:
		return "", v
	case 1:
		g, ver, _ := strings.Cut(v, "/")
		return g, ver
	}
	return "", ""
}

// validateFinalizers is ValidateFinalizers.
func validateFinalizers(fs []string, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	orphan, foreground := false, false
	for _, f := range fs {
		for _, msg := range isQualifiedName(f) {
			errs = append(errs, field.InvalidString(p, f, msg))
		}
		orphan = orphan || f == "orphan"
		foreground = foreground || f == "foregroundDeletion"
	}
	if orphan && foreground {
		errs = append(errs, field.InvalidValue(p, fmt.Sprint(fs), "finalizer orphan and foregroundDeletion cannot be both set"))
	}
	return errs
}

// standardFinalizers are the finalizer names of Kubernetes itself that
// have no domain.
var standardFinalizers = []string{"kubernetes", "orphan", "foregroundDeletion"}

// validateKubeFinalizerName is validateKubeFinalizerName: a finalizer
// without a '/' must be one of Kubernetes' own.
func validateKubeFinalizerName(f string, p *field.Path) field.ErrorList {
	if len(strings.Split(f, "/")) == 1 && !slices.Contains(standardFinalizers, f) {
		return field.ErrorList{field.InvalidString(p, f, "name is neither a standard finalizer name nor is it fully qualified")}
	}
	return nil
}

// validateManagedFields is ValidateManagedFields.
// v1.37 (apimachinery v0.37) reports an empty operation as Required and
// another one as Unsupported; v1.35 and v1.36 report both as Invalid
// (VERSIONS.md V11).
func validateManagedFields(entries []schema.ManagedFieldsEntry, p *field.Path, v kubeversion.Version) field.ErrorList {
	var errs field.ErrorList
	for i, e := range entries {
		ep := p.Index(i)
		switch e.Operation {
		case "Apply", "Update":
		default:
			switch {
			case v.Resolve() < kubeversion.V1_37:
				errs = append(errs, field.InvalidString(ep.Child("operation"), e.Operation, "must be `Apply` or `Update`"))
			case e.Operation == "":
				errs = append(errs, field.RequiredValue(ep.Child("operation"), "must not be empty"))
			default:
				errs = append(errs, field.NotSupported(ep.Child("operation"), e.Operation, []string{"Apply", "Update"}))
			}
		}
		if e.FieldsType != "" && e.FieldsType != "FieldsV1" { // an empty one passes (ValidateManagedFields)
			errs = append(errs, field.InvalidString(ep.Child("fieldsType"), e.FieldsType, "must be `FieldsV1`"))
		}
		if len(e.Subresource) > 256 {
			errs = append(errs, field.TooLongValue(ep.Child("subresource"), 256))
		}
	}
	return errs
}

// validateLabelSelector is ValidateLabelSelector.
func validateLabelSelector(s *schema.LabelSelector, allowInvalidValues bool, p *field.Path) field.ErrorList {
	if s == nil {
		return nil
	}
	errs := validateLabels(s.MatchLabels, p.Child("matchLabels"))
	for i, r := range s.MatchExpressions {
		rp := p.Child("matchExpressions").Index(i)
		switch r.Operator {
		case "In", "NotIn":
			if len(r.Values) == 0 {
				errs = append(errs, field.RequiredValue(rp.Child("values"), "must be specified when `operator` is 'In' or 'NotIn'"))
			}
		case "Exists", "DoesNotExist":
			if len(r.Values) > 0 {
				errs = append(errs, field.ForbiddenField(rp.Child("values"), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"))
			}
		default:
			errs = append(errs, field.InvalidString(rp.Child("operator"), r.Operator, "not a valid selector operator"))
		}
		errs = append(errs, validateLabelName(r.Key, rp.Child("key"))...)
		if !allowInvalidValues {
			for j, v := range r.Values {
				for _, msg := range isValidLabelValue(v) {
					errs = append(errs, field.InvalidString(rp.Child("values").Index(j), v, msg))
				}
			}
		}
	}
	return errs
}

// selector is a label selector the way labels.Selector evaluates it.
type selector struct {
	everything bool // a non-nil selector with no requirements
	nothing    bool // a nil selector
	s          *schema.LabelSelector
}

// selectorOf is metav1.LabelSelectorAsSelector: it fails where that does,
// on an unknown operator, a bad key or value, or In/NotIn without values.
func selectorOf(s *schema.LabelSelector) (selector, bool) {
	if s == nil {
		return selector{nothing: true}, true
	}
	if len(s.MatchLabels)+len(s.MatchExpressions) == 0 {
		return selector{everything: true}, true
	}
	for k, v := range s.MatchLabels {
		if len(isQualifiedName(k)) > 0 || len(isValidLabelValue(v)) > 0 {
			return selector{}, false
		}
	}
	for _, r := range s.MatchExpressions {
		if len(isQualifiedName(r.Key)) > 0 {
			return selector{}, false
		}
		switch r.Operator {
		case "In", "NotIn":
			if len(r.Values) == 0 {
				return selector{}, false
			}
		case "Exists", "DoesNotExist":
			if len(r.Values) != 0 {
				return selector{}, false
			}
		default:
			return selector{}, false
		}
		for _, v := range r.Values {
			if len(isValidLabelValue(v)) > 0 {
				return selector{}, false
			}
		}
	}
	return selector{s: s}, true
}

// empty is labels.Selector's Empty: true for the selector of everything,
// false for the nil selector's, which matches nothing.
func (sel selector) empty() bool { return sel.everything }

// matches reports whether labels satisfy every requirement.
func (sel selector) matches(labels map[string]string) bool {
	switch {
	case sel.everything:
		return true
	case sel.nothing:
		return false
	}
	for k, v := range sel.s.MatchLabels {
		if got, ok := labels[k]; !ok || got != v {
			return false
		}
	}
	for _, r := range sel.s.MatchExpressions {
		v, ok := labels[r.Key]
		switch r.Operator {
		case "In":
			if !ok || !slices.Contains(r.Values, v) {
				return false
			}
		case "NotIn":
			if ok && slices.Contains(r.Values, v) {
				return false
			}
		case "Exists":
			if !ok {
				return false
			}
		case "DoesNotExist":
			if ok {
				return false
			}
		}
	}
	return true
}

// jsonMap renders a map as upstream prints one as the bad value of a field
// error: field.Error's ErrorBody prints a value that is not a number, a
// bool or a string as its JSON (sorted keys, HTML characters escaped;
// "null" for a nil map).
func jsonMap(m map[string]string) string {
	b, err := json.Marshal(m)
	if err != nil {
		return "null" // a map of strings always marshals
	}
	return string(b)
}
