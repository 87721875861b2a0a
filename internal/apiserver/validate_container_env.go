package apiserver

import (
	"strconv"

	"github.com/rolloutmath/rolloutmath/internal/field"
	"github.com/rolloutmath/rolloutmath/internal/schema"
)

// A container's ports and environment: upstream's validateContainerPorts,
// checkHostPortConflicts, ValidateEnv and ValidateEnvFrom with the
// selectors they check.

// validateContainerPorts is upstream's validateContainerPorts: each port
// has an optional IANA service name, unique in the container; a container
// port from 1 to 65535; a host port, when set, in that range too; and a
// TCP, UDP or SCTP protocol. The host IP is not checked.
func validateContainerPorts(ports []schema.ContainerPort, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	names := map[string]bool{}
	for i, port := range ports {
		pp := p.Index(i)
		if port.Name != "" {
			if msgs := isValidPortName(port.Name); len(msgs) > 0 {
				for _, msg := range msgs {
					errs = append(errs, field.InvalidString(pp.Child("name"), port.Name, msg))
				}
			} else if names[port.Name] {
				errs = append(errs, field.DuplicateValue(pp.Child("name"), field.Quote(port.Name)))
			} else {
				names[port.Name] = true
			}
		}
		if port.ContainerPort == 0 {
			errs = append(errs, field.RequiredValue(pp.Child("containerPort"), ""))
		} else {
			for _, msg := range isValidPortNum(int64(port.ContainerPort)) {
				errs = append(errs, field.InvalidInt(pp.Child("containerPort"), int64(port.ContainerPort), msg))
			}
		}
		if port.HostPort != 0 {
			for _, msg := range isValidPortNum(int64(port.HostPort)) {
				errs = append(errs, field.InvalidInt(pp.Child("hostPort"), int64(port.HostPort), msg))
			}
		}
		switch port.Protocol {
		case "TCP", "UDP", "SCTP":
		case "":
			errs = append(errs, field.RequiredValue(pp.Child("protocol"), ""))
		default:
			errs = append(errs, field.NotSupported(pp.Child("protocol"), port.Protocol, []string{"SCTP", "TCP", "UDP"}))
		}
	}
	return errs
}

// checkHostPortConflicts is upstream's checkHostPortConflicts (with
// AccumulateUniqueHostPorts): no two ports of the containers under p claim
// the same protocol, host IP and host port. Ports without a host port
// claim nothing.
func checkHostPortConflicts(cs []schema.Container, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	claimed := map[string]bool{}
	for i := range cs {
		for j, port := range cs[i].Ports {
			if port.HostPort == 0 {
				continue
			}
			key := port.Protocol + "/" + port.HostIP + "/" + strconv.Itoa(int(port.HostPort))
			if claimed[key] {
				errs = append(errs, field.DuplicateValue(p.Index(i).Child("ports").Index(j).Child("hostPort"), field.Quote(key)))
			} else {
				claimed[key] = true
			}
		}
	}
	return errs
}

// validEnvDownwardAPIFieldPathExpressions are the pod fields an
// environment variable may read with a fieldRef besides one label or
// annotation (upstream's set of that name), sorted.
var validEnvDownwardAPIFieldPathExpressions = []string{
	"metadata.name", "metadata.namespace", "metadata.uid",
	"spec.nodeName", "spec.serviceAccountName",
	"status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs",
}

// validateEnv is upstream's ValidateEnv: each variable has a name (printable
// ASCII but '=' under the relaxed rule, a C-like identifier otherwise) and
// a valid valueFrom.
func validateEnv(vars []schema.EnvVar, p *field.Path, opts podOptions) field.ErrorList {
	var errs field.ErrorList
	for i := range vars {
		ev := &vars[i]
		ip := p.Index(i)
		if ev.Name == "" {
			errs = append(errs, field.RequiredValue(ip.Child("name"), ""))
		} else {
			errs = append(errs, validateEnvVarName(ev.Name, ip.Child("name"), opts)...)
		}
		errs = append(errs, validateEnvVarValueFrom(ev, ip.Child("valueFrom"), opts)...)
	}
	return errs
}

// validateEnvVarName checks a variable name or prefix, relaxed or strict
// as opts say.
func validateEnvVarName(name string, p *field.Path, opts podOptions) field.ErrorList {
	check := isEnvVarName
	if opts.AllowRelaxedEnvironmentVariableValidation {
		check = isRelaxedEnvVarName
	}
	var errs field.ErrorList
	for _, msg := range check(name) {
		errs = append(errs, field.InvalidString(p, name, msg))
	}
	return errs
}

// validateEnvVarValueFrom is upstream's validateEnvVarValueFrom: a
// valueFrom has exactly one valid source, and then the variable has no
// value.
func validateEnvVarValueFrom(ev *schema.EnvVar, p *field.Path, opts podOptions) field.ErrorList {
	vf := ev.ValueFrom
	if vf == nil {
		return nil
	}
	var errs field.ErrorList
	n := 0
	if vf.FieldRef != nil {
		n++
		errs = append(errs, validateObjectFieldSelector(vf.FieldRef, validEnvDownwardAPIFieldPathExpressions, p.Child("fieldRef"))...)
	}
	if vf.ResourceFieldRef != nil {
		n++
		errs = append(errs, validateContainerResourceFieldSelector(vf.ResourceFieldRef, validContainerResourceFieldPathExpressions(),
			validContainerResourceFieldPathPrefixesWithDownwardAPIHugePages(), p.Child("resourceFieldRef"), false)...)
	}
	if vf.ConfigMapKeyRef != nil {
		n++
		errs = append(errs, validateKeySelector(vf.ConfigMapKeyRef.Name, vf.ConfigMapKeyRef.Key, p.Child("configMapKeyRef"))...)
	}
	if vf.SecretKeyRef != nil {
		n++
		errs = append(errs, validateKeySelector(vf.SecretKeyRef.Name, vf.SecretKeyRef.Key, p.Child("secretKeyRef"))...)
	}
	if vf.FileKeyRef != nil {
		n++
		errs = append(errs, validateFileKeySelector(vf.FileKeyRef, p.Child("fileKeyRef"))...)
	}
	switch {
	case n == 0 && opts.AllowEnvFilesValidation:
		errs = append(errs, field.InvalidString(p, "", "must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef`, `secretKeyRef` or `fileKeyRef`"))
	case n == 0:
		errs = append(errs, field.InvalidString(p, "", "must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`"))
	case ev.Value != "":
		errs = append(errs, field.InvalidString(p, "", "may not be specified when `value` is not empty"))
	case n > 1:
		errs = append(errs, field.InvalidString(p, "", "may not have more than one field specified at a time"))
	}
	return errs
}

// validateKeySelector is upstream's validateConfigMapKeySelector and
// validateSecretKeySelector, which are the same: the object's name a DNS
// subdomain (an empty one is invalid, not missing), and a key a config
// map could hold.
func validateKeySelector(name, key string, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, msg := range nameIsDNSSubdomain(name, false) {
		errs = append(errs, field.InvalidString(p.Child("name"), name, msg))
	}
	if key == "" {
		errs = append(errs, field.RequiredValue(p.Child("key"), ""))
	} else {
		for _, msg := range isConfigMapKey(key) {
			errs = append(errs, field.InvalidString(p.Child("key"), key, msg))
		}
	}
	return errs
}

// validateFileKeySelector is upstream's validateFileKeySelector: a key
// that is a relaxed variable name, a volume named by a DNS label, and a
// path without '..' steps. That the volume exists and is an emptyDir is
// validateFileKeyRefVolumes's rule.
func validateFileKeySelector(s *schema.FileKeySelector, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if s.Key == "" {
		errs = append(errs, field.RequiredValue(p.Child("key"), ""))
	} else {
		for _, msg := range isRelaxedEnvVarName(s.Key) {
			errs = append(errs, field.InvalidString(p.Child("key"), s.Key, msg))
		}
	}
	if s.VolumeName == "" {
		errs = append(errs, field.RequiredValue(p.Child("volumeName"), ""))
	} else {
		errs = append(errs, validateDNS1123Label(s.VolumeName, p.Child("volumeName"))...)
	}
	if s.Path == "" {
		errs = append(errs, field.RequiredValue(p.Child("path"), ""))
	} else {
		errs = append(errs, validatePathNoBacksteps(s.Path, p.Child("path"))...)
	}
	return errs
}

// validateEnvFrom is upstream's ValidateEnvFrom: an optional prefix that is
// a variable name, and exactly one of a config map and a secret, named by a
// DNS subdomain. Upstream reports a missing or second source at the list,
// not at the entry.
func validateEnvFrom(sources []schema.EnvFromSource, p *field.Path, opts podOptions) field.ErrorList {
	var errs field.ErrorList
	for i := range sources {
		ev := &sources[i]
		ip := p.Index(i)
		if ev.Prefix != "" {
			errs = append(errs, validateEnvVarName(ev.Prefix, ip.Child("prefix"), opts)...)
		}
		n := 0
		if ev.ConfigMapRef != nil {
			n++
			errs = append(errs, validateEnvSourceName(ev.ConfigMapRef.Name, ip.Child("configMapRef"))...)
		}
		if ev.SecretRef != nil {
			n++
			errs = append(errs, validateEnvSourceName(ev.SecretRef.Name, ip.Child("secretRef"))...)
		}
		switch {
		case n == 0:
			errs = append(errs, field.InvalidString(p, "", "must specify one of: `configMapRef` or `secretRef`"))
		case n > 1:
			errs = append(errs, field.InvalidString(p, "", "may not have more than one field specified at a time"))
		}
	}
	return errs
}

// validateEnvSourceName is upstream's validateConfigMapEnvSource and
// validateSecretEnvSource: a name is required, and is checked as a
// generateName prefix would be (ValidateConfigMapName(name, true)), so a
// final '-' passes.
func validateEnvSourceName(name string, p *field.Path) field.ErrorList {
	if name == "" {
		return field.ErrorList{field.RequiredValue(p.Child("name"), "")}
	}
	var errs field.ErrorList
	for _, msg := range nameIsDNSSubdomain(name, true) {
		errs = append(errs, field.InvalidString(p.Child("name"), name, msg))
	}
	return errs
}
