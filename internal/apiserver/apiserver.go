// Package apiserver does what a Kubernetes API server (v1.35, v1.36 or
// v1.37, see [FeatureGates]) does to the
// objects of a rollout between kubectl and the controller: it defaults
// them, applies the effects of its internal conversions, drops the fields
// of disabled feature gates, validates them, and brings them to the form
// that reading a stored object gives (empty lists and maps absent,
// quantities canonical). For the pods a ReplicaSet creates it does what
// admission does: LimitRange defaults and limits, and what a
// ResourceQuota charges and refuses. It works on the types of internal/schema, which
// its strict decoder fills.
//
// # Upstream's functions and ours
//
//	SetObjectDefaults_Deployment (apps/v1)      defaultDeployment
//	SetObjectDefaults_ReplicaSet                defaultReplicaSet
//	SetObjectDefaults_Pod (core/v1)             defaultPod
//	SetDefaults_PodSpec, _Container, _Probe,    setDefaultsPodSpec, setDefaultsContainerFields,
//	  _HTTPGetAction, _Volume, _ResourceList,     defaultProbe, setDefaultsHTTPGetAction,
//	  _ObjectFieldSelector, ...                   defaultVolume, setDefaultsResourceList, defaultFieldRef
//	Convert_v1_Deployment_To_apps_Deployment    convertDeployment
//	  (and back), the PodSpec and
//	  PodTemplateSpec conversions                 convertPodSpec, convertPodTemplate
//	pod.DropDisabledTemplateFields              dropDisabledFields
//	deploymentStrategy.PrepareForCreate         CreateDeployment
//	apps validation.ValidateDeployment          validateDeployment
//	apps validation.ValidateReplicaSet          validateReplicaSet
//	core validation.ValidatePodTemplateSpec     validatePodTemplateSpec
//	core validation.ValidatePodSpec             validatePodSpec
//	core validation.ValidateObjectMeta          validateObjectMeta
//	core validation.ValidateVolumes             validateVolumes (and every source's validator)
//	protobuf storage round trip                 schema.StoredDeployment and its siblings
//	SetObjectDefaults_ResourceQuota, _LimitRange ReadResourceQuota, ReadLimitRange, ...
//	  and the policy objects' validation          ValidateResourceQuota, ValidateLimitRange, ... (policy.go)
//	SetDefaults_Pod, LimitRanger admission      TemplatePod, AdmitLimits
//	the quota's pod evaluator                   PodUsage, QuotaCharges, QuotaConstraints
//
// The Kubernetes minor and its feature gates are [FeatureGates], whose zero
// value is the newest supported minor with its default gates. VERSIONS.md
// in this directory lists what differs between the minors and which of it
// is implemented.
package apiserver

import (
	"strconv"
	"strings"

	"github.com/rolloutmath/rolloutmath/internal/field"
	"github.com/rolloutmath/rolloutmath/internal/schema"
)

// CreateDeployment turns a decoded Deployment into the one the API server
// stores when kubectl creates it, and returns why the server would refuse
// it (nil when it would not). It clears the resourceVersion (kubectl
// does, before it sends the object), defaults d, applies the conversions,
// clears the status, sets the generation to 1, drops the fields of
// disabled gates, validates, and leaves d in stored form. The server
// assigns a uid, a creation time and a resourceVersion, which d does not
// get here.
func CreateDeployment(d *schema.Deployment, g FeatureGates) field.ErrorList {
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
	var errs field.ErrorList
	d.ResourceVersion = "" // kubectl clears it before it creates
	d.Status = schema.DeploymentStatus{}
	d.Generation = 1
	d.TypeMeta = schema.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"}
	d.DeletionTimestamp, d.DeletionGracePeriodSeconds = nil, nil
	dropDisabledFields(&d.Spec.Template.Spec, nil, g)
	errs = append(errs, validateDeployment(d, rollbackTo, createPodOptions(g))...)
	schema.StoredDeployment(d)
	return dedupFrom137(errs, g)
}

// CreateReplicaSet is [CreateDeployment] for a ReplicaSet.
func CreateReplicaSet(rs *schema.ReplicaSet, g FeatureGates) field.ErrorList {
	if errs := checkVersion(g); errs != nil {
		return errs
	}
	if errs := checkTypeMeta(rs.TypeMeta, "apps/v1", "ReplicaSet"); errs != nil {
		return errs
	}
	defaultReplicaSet(rs, g)
	convertPodTemplate(&rs.Spec.Template)
	var errs field.ErrorList
	rs.ResourceVersion = "" // kubectl clears it before it creates
	rs.Status = schema.ReplicaSetStatus{}
	rs.Generation = 1
	rs.TypeMeta = schema.TypeMeta{APIVersion: "apps/v1", Kind: "ReplicaSet"}
	rs.DeletionTimestamp, rs.DeletionGracePeriodSeconds = nil, nil
	dropDisabledFields(&rs.Spec.Template.Spec, nil, g)
	errs = append(errs, validateReplicaSet(rs, createPodOptions(g))...)
	schema.StoredReplicaSet(rs)
	return dedupFrom137(errs, g)
}

// ReadDeployment turns a decoded Deployment that a server already stores
// (kubectl get output) into what a client reads: the defaults of this
// version applied, as the server applies them when it reads from storage,
// the conversions' effects, and stored form. It validates nothing; see
// [ValidateDeployment]. It returns an error only for an apiVersion or kind
// other than apps/v1 Deployment, and for a rollback annotation that is not
// a number, which the server cannot convert.
func ReadDeployment(d *schema.Deployment, g FeatureGates) field.ErrorList {
	if errs := checkVersion(g); errs != nil {
		return errs
	}
	if errs := checkTypeMeta(d.TypeMeta, "apps/v1", "Deployment"); errs != nil {
		return errs
	}
	defaultDeployment(d, g)
	d.TypeMeta = schema.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"}
	kept := keepInitContainerAnnotations(d.Spec.Template.Annotations, g)
	if _, err := convertDeployment(d); err != nil {
		return field.ErrorList{err}
	}
	restoreInitContainerAnnotations(&d.Spec.Template, kept)
	schema.StoredDeployment(d)
	return nil
}

// ReadReplicaSet is [ReadDeployment] for a ReplicaSet.
func ReadReplicaSet(rs *schema.ReplicaSet, g FeatureGates) field.ErrorList {
	if errs := checkVersion(g); errs != nil {
		return errs
	}
	if errs := checkTypeMeta(rs.TypeMeta, "apps/v1", "ReplicaSet"); errs != nil {
		return errs
	}
	defaultReplicaSet(rs, g)
	rs.TypeMeta = schema.TypeMeta{APIVersion: "apps/v1", Kind: "ReplicaSet"}
	kept := keepInitContainerAnnotations(rs.Spec.Template.Annotations, g)
	convertPodTemplate(&rs.Spec.Template)
	restoreInitContainerAnnotations(&rs.Spec.Template, kept)
	schema.StoredReplicaSet(rs)
	return nil
}

// ReadPod is [ReadDeployment] for a Pod.
func ReadPod(p *schema.Pod, g FeatureGates) field.ErrorList {
	if errs := checkVersion(g); errs != nil {
		return errs
	}
	if errs := checkTypeMeta(p.TypeMeta, "v1", "Pod"); errs != nil {
		return errs
	}
	defaultPod(p, g)
	p.TypeMeta = schema.TypeMeta{APIVersion: "v1", Kind: "Pod"}
	convertPodSpec(&p.Spec)
	schema.StoredPod(p)
	return nil
}

// checkTypeMeta refuses an object whose apiVersion or kind is not the
// type's, as the API server refuses a request body of another type (kubectl
// finds no such resource first). Either may be absent, and the version of
// the type's own group ("apps/"): the request's URL gives them.
func checkTypeMeta(tm schema.TypeMeta, apiVersion, kind string) field.ErrorList {
	var errs field.ErrorList
	if !sameVersion(tm.APIVersion, apiVersion) {
		errs = append(errs, field.InvalidString(field.NewPath("apiVersion"), tm.APIVersion, "no kind "+strconv.Quote(kind)+" in this version: want "+apiVersion))
	}
	if tm.Kind != "" && tm.Kind != kind {
		errs = append(errs, field.InvalidString(field.NewPath("kind"), tm.Kind, "want "+kind))
	}
	return errs
}

// ValidateDeployment reports what the API server's create validation
// refuses in d, which must already be defaulted (as Read leaves it) and,
// for a manifest, without the fields of disabled gates
// ([DropDisabledTemplateFields]).
func ValidateDeployment(d *schema.Deployment, g FeatureGates) field.ErrorList {
	if errs := checkVersion(g); errs != nil {
		return errs
	}
	var rollbackTo *int64
	if n, err := strconv.ParseInt(d.Annotations[rollbackToAnnotation], 10, 64); err == nil {
		rollbackTo = &n
	}
	return dedupFrom137(validateDeployment(d, rollbackTo, createPodOptions(g)), g)
}

// ValidateReplicaSet is [ValidateDeployment] for a ReplicaSet.
func ValidateReplicaSet(rs *schema.ReplicaSet, g FeatureGates) field.ErrorList {
	if errs := checkVersion(g); errs != nil {
		return errs
	}
	return dedupFrom137(validateReplicaSet(rs, createPodOptions(g)), g)
}

// DropDisabledTemplateFields drops from a template's spec the fields of
// the gates that g disables, as the API server does when it creates the
// object, and returns those gates (upstream's names) whose fields s used.
func DropDisabledTemplateFields(s *schema.PodSpec, g FeatureGates) (dropped []string) {
	return dropDisabledFields(s, nil, g)
}

// DefaultPodTemplateSpec applies the defaults and conversions the API
// server applies to a Deployment's template, and brings it to stored form.
func DefaultPodTemplateSpec(t *schema.PodTemplateSpec, g FeatureGates) {
	defaultPodSpecObject(&t.Spec, g)
	convertPodTemplate(t)
	schema.StoredPodTemplateSpec(t)
}

// sameVersion reports whether the apiVersion of a request body is want
// once the server fills what it leaves out (runtime's gvkWithDefaults):
// the group and version when both are empty, the version when the group
// is want's.
func sameVersion(got, want string) bool {
	group, version, _ := strings.Cut(want, "/")
	if !strings.Contains(want, "/") {
		group, version = "", want
	}
	g, v, ok := strings.Cut(got, "/")
	if !ok {
		g, v = "", got
	} else if strings.Contains(v, "/") {
		return false // not a group/version at all
	}
	if v == "" && (g == "" || g == group) {
		return true
	}
	return g == group && v == version
}
