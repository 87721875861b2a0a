package difftest

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

// One case per rule of the containers' validation, named after the rule.
// Each starts from ctrBaseSpec (one valid container, volumes of each kind,
// two resource claims), changes it, and states the problems under the
// containers that both the real API server and ours must report (none:
// both must accept, and store the same object). Problems of other areas
// are not listed.

type ctrRuleCase struct {
	name string
	edit func(spec ctrObj)
	want []string // "field: type", the field relative to spec.template.spec
}

// ctrAt returns container i of list in spec, creating it (valid) as needed.
func ctrAt(spec ctrObj, list string, i int) ctrObj {
	cs, _ := spec[list].([]any)
	for len(cs) <= i {
		cs = append(cs, ctrObj{"name": []string{"app", "side", "third"}[len(cs)] + map[string]string{"containers": "", "initContainers": "-init", "ephemeralContainers": "-dbg"}[list], "image": "nginx:1.25"})
	}
	spec[list] = cs
	return cs[i].(ctrObj)
}

// ctrApp is the first regular container.
func ctrApp(spec ctrObj) ctrObj { return ctrAt(spec, "containers", 0) }

// ctrSet returns an edit that sets the fields of the first regular container.
func ctrSet(kv ...any) func(ctrObj) {
	return func(spec ctrObj) {
		for i := 0; i < len(kv); i += 2 {
			ctrApp(spec)[kv[i].(string)] = kv[i+1]
		}
	}
}

// ctrEnv gives the first container one variable whose valueFrom is vf.
func ctrEnv(vf ctrObj) func(ctrObj) {
	return ctrSet("env", []any{ctrObj{"name": "A", "valueFrom": vf}})
}

// ctrResources gives the first container these limits and requests
// (nil: absent).
func ctrResources(limits, requests ctrObj) func(ctrObj) {
	return func(spec ctrObj) {
		r := ctrObj{}
		if limits != nil {
			r["limits"] = limits
		}
		if requests != nil {
			r["requests"] = requests
		}
		ctrApp(spec)["resources"] = r
	}
}

// ctrSecurity gives the first container this security context.
func ctrSecurity(fields ctrObj) func(ctrObj) { return ctrSet("securityContext", fields) }

// ctrProbe gives the first container this probe (kind is its field).
func ctrProbe(kind string, p ctrObj) func(ctrObj) { return ctrSet(kind, p) }

// ctrMounts gives the first container these volume mounts.
func ctrMounts(ms ...any) func(ctrObj) { return ctrSet("volumeMounts", ms) }

const ctrEphemeralForbidden = "ephemeralContainers: Forbidden" // ValidatePodTemplateSpec's rule

var ctrRuleCases = []ctrRuleCase{
	// validateContainers and the names of every kind of container.
	{"containers: at least one", func(s ctrObj) { s["containers"] = []any{} }, []string{"containers: Required value"}},
	{"container name: required", ctrSet("name", ""), []string{"containers[0].name: Required value"}},
	{"container name: DNS label", ctrSet("name", "App"), []string{"containers[0].name: Invalid value"}},
	{"container name: at most 63 bytes", ctrSet("name", strings.Repeat("a", 64)), []string{"containers[0].name: Invalid value"}},
	{"container name: unique among containers", func(s ctrObj) { ctrAt(s, "containers", 1)["name"] = "app" }, []string{"containers[1].name: Duplicate value"}},
	{"init container name: unique among init and regular containers", func(s ctrObj) { ctrAt(s, "initContainers", 0)["name"] = "app" }, []string{"initContainers[0].name: Duplicate value"}},
	{"ephemeral container name: unique among all containers", func(s ctrObj) { ctrAt(s, "ephemeralContainers", 0)["name"] = "app" },
		[]string{"ephemeralContainers[0].name: Duplicate value", ctrEphemeralForbidden}},
	{"container name: empty names clash", func(s ctrObj) { ctrAt(s, "containers", 1)["name"] = ""; ctrApp(s)["name"] = "" },
		[]string{"containers[0].name: Required value", "containers[1].name: Duplicate value", "containers[1].name: Required value"}},
	{"init container name: empty names do not clash", func(s ctrObj) { ctrAt(s, "initContainers", 0)["name"] = ""; ctrAt(s, "initContainers", 1)["name"] = "" },
		[]string{"initContainers[0].name: Required value", "initContainers[1].name: Required value"}},
	{"image: required", ctrSet("image", ""), []string{"containers[0].image: Required value"}},
	{"image: white space allowed in a template", ctrSet("image", " nginx "), nil},
	{"image: no white space around an ephemeral container's", func(s ctrObj) { ctrAt(s, "ephemeralContainers", 0)["image"] = "nginx " },
		[]string{"ephemeralContainers[0].image: Invalid value", ctrEphemeralForbidden}},
	{"imagePullPolicy: supported", ctrSet("imagePullPolicy", "Never"), nil},
	{"imagePullPolicy: unsupported", ctrSet("imagePullPolicy", "Sometimes"), []string{"containers[0].imagePullPolicy: Unsupported value"}},
	{"terminationMessagePolicy: unsupported", ctrSet("terminationMessagePolicy", "Bad"), []string{"containers[0].terminationMessagePolicy: Unsupported value"}},
	{"command, args, workingDir, terminationMessagePath, stdin, tty: not checked",
		ctrSet("command", []string{""}, "args", []string{}, "workingDir", "rel", "terminationMessagePath", "rel", "stdin", true, "stdinOnce", true, "tty", true), nil},

	// validateContainerPorts and checkHostPortConflicts.
	{"ports: name is an IANA service name", ctrSet("ports", []any{ctrObj{"name": "a--b", "containerPort": 80}}), []string{"containers[0].ports[0].name: Invalid value"}},
	{"ports: name has a letter and lowercase characters only", ctrSet("ports", []any{ctrObj{"name": "HTTP", "containerPort": 80}}), []string{"containers[0].ports[0].name: Invalid value", "containers[0].ports[0].name: Invalid value"}},
	{"ports: name unique", ctrSet("ports", []any{ctrObj{"name": "http", "containerPort": 80}, ctrObj{"name": "http", "containerPort": 81}}), []string{"containers[0].ports[1].name: Duplicate value"}},
	{"ports: containerPort required", ctrSet("ports", []any{ctrObj{"name": "http"}}), []string{"containers[0].ports[0].containerPort: Required value"}},
	{"ports: containerPort at most 65535", ctrSet("ports", []any{ctrObj{"containerPort": 65536}}), []string{"containers[0].ports[0].containerPort: Invalid value"}},
	{"ports: containerPort 65535", ctrSet("ports", []any{ctrObj{"containerPort": 65535}}), nil},
	{"ports: hostPort in range", ctrSet("ports", []any{ctrObj{"containerPort": 80, "hostPort": -5}}), []string{"containers[0].ports[0].hostPort: Invalid value"}},
	{"ports: protocol supported", ctrSet("ports", []any{ctrObj{"containerPort": 80, "protocol": "tcp"}}), []string{"containers[0].ports[0].protocol: Unsupported value"}},
	{"ports: protocol defaults to TCP", ctrSet("ports", []any{ctrObj{"containerPort": 80}, ctrObj{"containerPort": 80, "protocol": "UDP"}}), nil},
	{"host ports: no conflict between containers", func(s ctrObj) {
		ctrApp(s)["ports"] = []any{ctrObj{"containerPort": 80, "hostPort": 80}}
		ctrAt(s, "containers", 1)["ports"] = []any{ctrObj{"containerPort": 81, "hostPort": 80}}
	}, []string{"containers[1].ports[0].hostPort: Duplicate value"}},
	{"host ports: other host IP or protocol is no conflict", ctrSet("ports", []any{
		ctrObj{"containerPort": 80, "hostPort": 80}, ctrObj{"containerPort": 81, "hostPort": 80, "hostIP": "127.0.0.1"}, ctrObj{"containerPort": 82, "hostPort": 80, "protocol": "UDP"},
	}), nil},
	{"host ports: an init container's conflict is reported at index 0", func(s ctrObj) {
		ctrAt(s, "initContainers", 1)["ports"] = []any{ctrObj{"containerPort": 80, "hostPort": 80}, ctrObj{"containerPort": 81, "hostPort": 80}}
	}, []string{"initContainers[0].ports[1].hostPort: Duplicate value"}},
	{"host ports: init containers run one at a time", func(s ctrObj) {
		ctrApp(s)["ports"] = []any{ctrObj{"containerPort": 80, "hostPort": 80}}
		ctrAt(s, "initContainers", 0)["ports"] = []any{ctrObj{"containerPort": 80, "hostPort": 80}}
		ctrAt(s, "initContainers", 1)["ports"] = []any{ctrObj{"containerPort": 80, "hostPort": 80}}
	}, nil},

	// ValidateEnv and validateEnvVarValueFrom.
	{"env: name required", ctrSet("env", []any{ctrObj{"name": ""}}), []string{"containers[0].env[0].name: Required value"}},
	{"env: relaxed names allow a leading digit", ctrSet("env", []any{ctrObj{"name": "1A b.c"}}), nil},
	{"env: relaxed names refuse '='", ctrSet("env", []any{ctrObj{"name": "a=b"}}), []string{"containers[0].env[0].name: Invalid value"}},
	{"env: relaxed names refuse non-ASCII", ctrSet("env", []any{ctrObj{"name": "é"}}), []string{"containers[0].env[0].name: Invalid value"}},
	{"valueFrom: one source required", ctrEnv(ctrObj{}), []string{"containers[0].env[0].valueFrom: Invalid value"}},
	{"valueFrom: not with a value", ctrSet("env", []any{ctrObj{"name": "A", "value": "x", "valueFrom": ctrObj{"fieldRef": ctrObj{"fieldPath": "metadata.name"}}}}),
		[]string{"containers[0].env[0].valueFrom: Invalid value"}},
	{"valueFrom: one source at a time", ctrEnv(ctrObj{"fieldRef": ctrObj{"fieldPath": "metadata.name"}, "secretKeyRef": ctrObj{"name": "s", "key": "k"}}),
		[]string{"containers[0].env[0].valueFrom: Invalid value"}},
	{"fieldRef: every supported field", ctrSet("env", []any{
		ctrObj{"name": "A", "valueFrom": ctrObj{"fieldRef": ctrObj{"fieldPath": "metadata.name"}}},
		ctrObj{"name": "B", "valueFrom": ctrObj{"fieldRef": ctrObj{"fieldPath": "metadata.namespace"}}},
		ctrObj{"name": "C", "valueFrom": ctrObj{"fieldRef": ctrObj{"fieldPath": "metadata.uid"}}},
		ctrObj{"name": "D", "valueFrom": ctrObj{"fieldRef": ctrObj{"fieldPath": "spec.nodeName"}}},
		ctrObj{"name": "E", "valueFrom": ctrObj{"fieldRef": ctrObj{"fieldPath": "spec.serviceAccountName"}}},
		ctrObj{"name": "F", "valueFrom": ctrObj{"fieldRef": ctrObj{"fieldPath": "status.hostIP"}}},
		ctrObj{"name": "G", "valueFrom": ctrObj{"fieldRef": ctrObj{"fieldPath": "status.hostIPs"}}},
		ctrObj{"name": "H", "valueFrom": ctrObj{"fieldRef": ctrObj{"fieldPath": "status.podIP"}}},
		ctrObj{"name": "I", "valueFrom": ctrObj{"fieldRef": ctrObj{"fieldPath": "status.podIPs"}}},
		ctrObj{"name": "J", "valueFrom": ctrObj{"fieldRef": ctrObj{"fieldPath": "metadata.labels['app']"}}},
		ctrObj{"name": "K", "valueFrom": ctrObj{"fieldRef": ctrObj{"fieldPath": "metadata.annotations['Example.COM/Key']"}}},
		ctrObj{"name": "L", "valueFrom": ctrObj{"fieldRef": ctrObj{"apiVersion": "v1", "fieldPath": "spec.host"}}},
	}), nil},
	{"fieldRef: unsupported field", ctrEnv(ctrObj{"fieldRef": ctrObj{"fieldPath": "status.phase"}}), []string{"containers[0].env[0].valueFrom.fieldRef.fieldPath: Unsupported value"}},
	{"fieldRef: all labels unsupported", ctrEnv(ctrObj{"fieldRef": ctrObj{"fieldPath": "metadata.labels"}}), []string{"containers[0].env[0].valueFrom.fieldRef.fieldPath: Unsupported value"}},
	{"fieldRef: unknown field does not convert", ctrEnv(ctrObj{"fieldRef": ctrObj{"fieldPath": "spec.bogus"}}), []string{"containers[0].env[0].valueFrom.fieldRef.fieldPath: Invalid value"}},
	{"fieldRef: only v1 converts", ctrEnv(ctrObj{"fieldRef": ctrObj{"apiVersion": "v2", "fieldPath": "metadata.name"}}), []string{"containers[0].env[0].valueFrom.fieldRef.fieldPath: Invalid value"}},
	{"fieldRef: subscript only on labels and annotations", ctrEnv(ctrObj{"fieldRef": ctrObj{"fieldPath": "metadata.name['x']"}}), []string{"containers[0].env[0].valueFrom.fieldRef.fieldPath: Invalid value"}},
	{"fieldRef: label key is a qualified name", ctrEnv(ctrObj{"fieldRef": ctrObj{"fieldPath": "metadata.labels['bad key']"}}), []string{"containers[0].env[0].valueFrom.fieldRef: Invalid value"}},
	{"resourceFieldRef: resource required", ctrEnv(ctrObj{"resourceFieldRef": ctrObj{"resource": ""}}), []string{"containers[0].env[0].valueFrom.resourceFieldRef.resource: Required value"}},
	{"resourceFieldRef: unsupported resource", ctrEnv(ctrObj{"resourceFieldRef": ctrObj{"resource": "limits.gpu"}}), []string{"containers[0].env[0].valueFrom.resourceFieldRef.resource: Unsupported value"}},
	{"resourceFieldRef: huge pages by prefix", ctrEnv(ctrObj{"resourceFieldRef": ctrObj{"resource": "requests.hugepages-anything", "divisor": "1Mi"}}), nil},
	{"resourceFieldRef: cpu divisor 1m or 1", ctrEnv(ctrObj{"resourceFieldRef": ctrObj{"resource": "limits.cpu", "divisor": "2"}}), []string{"containers[0].env[0].valueFrom.resourceFieldRef.divisor: Invalid value"}},
	{"resourceFieldRef: cpu divisor 1000m is 1", ctrEnv(ctrObj{"resourceFieldRef": ctrObj{"resource": "requests.cpu", "divisor": "1000m"}}), nil},
	{"resourceFieldRef: memory divisor a unit", ctrEnv(ctrObj{"resourceFieldRef": ctrObj{"resource": "limits.memory", "divisor": "3Mi"}}), []string{"containers[0].env[0].valueFrom.resourceFieldRef.divisor: Invalid value"}},
	{"resourceFieldRef: ephemeral-storage divisor a unit", ctrEnv(ctrObj{"resourceFieldRef": ctrObj{"resource": "limits.ephemeral-storage", "divisor": "1m"}}), []string{"containers[0].env[0].valueFrom.resourceFieldRef.divisor: Invalid value"}},
	{"resourceFieldRef: huge pages divisor a unit", ctrEnv(ctrObj{"resourceFieldRef": ctrObj{"resource": "limits.hugepages-2Mi", "divisor": "2Mi"}}), []string{"containers[0].env[0].valueFrom.resourceFieldRef.divisor: Invalid value"}},
	{"resourceFieldRef: zero divisor unchecked", ctrEnv(ctrObj{"resourceFieldRef": ctrObj{"resource": "limits.cpu", "divisor": "0"}}), nil},
	{"configMapKeyRef: name a DNS subdomain, even empty", ctrEnv(ctrObj{"configMapKeyRef": ctrObj{"key": "k"}}), []string{"containers[0].env[0].valueFrom.configMapKeyRef.name: Invalid value"}},
	{"configMapKeyRef: key required", ctrEnv(ctrObj{"configMapKeyRef": ctrObj{"name": "cfg", "key": ""}}), []string{"containers[0].env[0].valueFrom.configMapKeyRef.key: Required value"}},
	{"secretKeyRef: key a config map key", ctrEnv(ctrObj{"secretKeyRef": ctrObj{"name": "s", "key": "bad key"}}), []string{"containers[0].env[0].valueFrom.secretKeyRef.key: Invalid value"}},
	{"secretKeyRef: key not '..'", ctrEnv(ctrObj{"secretKeyRef": ctrObj{"name": "s", "key": ".."}}), []string{"containers[0].env[0].valueFrom.secretKeyRef.key: Invalid value"}},
	{"fileKeyRef: an emptyDir's file", ctrEnv(ctrObj{"fileKeyRef": ctrObj{"volumeName": "scratch", "path": "vars.env", "key": "K"}}), nil},
	{"fileKeyRef: path without backsteps", ctrEnv(ctrObj{"fileKeyRef": ctrObj{"volumeName": "scratch", "path": "a/../b", "key": "K"}}), []string{"containers[0].env[0].valueFrom.fileKeyRef.path: Invalid value"}},
	{"fileKeyRef: key a relaxed variable name", ctrEnv(ctrObj{"fileKeyRef": ctrObj{"volumeName": "scratch", "path": "p", "key": "a=b"}}), []string{"containers[0].env[0].valueFrom.fileKeyRef.key: Invalid value"}},
	{"fileKeyRef: volumeName a DNS label", ctrEnv(ctrObj{"fileKeyRef": ctrObj{"volumeName": "Bad_Name", "path": "p", "key": "K"}}), []string{"containers[0].env[0].valueFrom.fileKeyRef.volumeName: Invalid value"}},
	{"fileKeyRef: all parts required", ctrEnv(ctrObj{"fileKeyRef": ctrObj{"volumeName": "", "path": "", "key": ""}}), []string{
		"containers[0].env[0].valueFrom.fileKeyRef.key: Required value", "containers[0].env[0].valueFrom.fileKeyRef.path: Required value", "containers[0].env[0].valueFrom.fileKeyRef.volumeName: Required value"}},

	// ValidateEnvFrom.
	{"envFrom: one source required", ctrSet("envFrom", []any{ctrObj{"prefix": "P_"}}), []string{"containers[0].envFrom: Invalid value"}},
	{"envFrom: one source at a time", ctrSet("envFrom", []any{ctrObj{"configMapRef": ctrObj{"name": "a"}, "secretRef": ctrObj{"name": "b"}}}), []string{"containers[0].envFrom: Invalid value"}},
	{"envFrom: prefix a variable name", ctrSet("envFrom", []any{ctrObj{"prefix": "a=b", "configMapRef": ctrObj{"name": "a"}}}), []string{"containers[0].envFrom[0].prefix: Invalid value"}},
	{"envFrom: name required", ctrSet("envFrom", []any{ctrObj{"secretRef": ctrObj{}}}), []string{"containers[0].envFrom[0].secretRef.name: Required value"}},
	{"envFrom: name checked as a prefix (a final '-' passes)", ctrSet("envFrom", []any{ctrObj{"configMapRef": ctrObj{"name": "cfg-"}}}), nil},
	{"envFrom: name a DNS subdomain", ctrSet("envFrom", []any{ctrObj{"configMapRef": ctrObj{"name": "Cfg"}}}), []string{"containers[0].envFrom[0].configMapRef.name: Invalid value"}},

	// ValidateContainerResourceRequirements.
	{"resources: standard container resources", ctrResources(ctrObj{"cpu": "1", "memory": "1Gi", "ephemeral-storage": "1Gi"}, ctrObj{"cpu": "500m"}), nil},
	{"resources: unprefixed names are standard, and for containers", ctrResources(ctrObj{"gpu": "1"}, nil), []string{"containers[0].resources.limits[gpu]: Invalid value", "containers[0].resources.limits[gpu]: Invalid value"}},
	{"resources: standard but not for containers", ctrResources(ctrObj{"pods": "1"}, nil), []string{"containers[0].resources.limits[pods]: Invalid value"}},
	{"resources: name a qualified name", ctrResources(ctrObj{"a/b/c": "1"}, ctrObj{"a/b/c": "1"}), []string{"containers[0].resources.limits[a/b/c]: Invalid value", "containers[0].resources.limits[a/b/c]: Invalid value",
		"containers[0].resources.requests[a/b/c]: Invalid value", "containers[0].resources.requests[a/b/c]: Invalid value"}},
	{"resources: extended resource names", ctrResources(ctrObj{"requests.example.com/x": "1"}, nil), []string{"containers[0].resources.limits[requests.example.com/x]: Invalid value"}},
	{"resources: kubernetes.io names pass", ctrResources(ctrObj{"kubernetes.io/foo": "1"}, ctrObj{"kubernetes.io/foo": "500m"}), nil},
	{"resources: not negative", ctrResources(nil, ctrObj{"cpu": "-1"}), []string{"containers[0].resources.requests[cpu]: Invalid value"}},
	{"resources: extended resources whole", ctrResources(ctrObj{"example.com/gpu": "500m"}, nil), []string{"containers[0].resources.limits[example.com/gpu]: Invalid value"}},
	{"resources: request at most the limit", ctrResources(ctrObj{"cpu": "1"}, ctrObj{"cpu": "2"}), []string{"containers[0].resources.requests: Invalid value"}},
	{"resources: extended requests need limits", ctrResources(nil, ctrObj{"example.com/gpu": "1"}), []string{"containers[0].resources.limits: Required value"}},
	{"resources: extended requests equal limits", ctrResources(ctrObj{"example.com/gpu": "2"}, ctrObj{"example.com/gpu": "1"}), []string{"containers[0].resources.requests: Invalid value"}},
	{"resources: huge pages in whole pages", ctrResources(ctrObj{"hugepages-2Mi": "3Mi", "memory": "1Gi"}, nil), []string{"containers[0].resources.limits[hugepages-2Mi]: Invalid value"}},
	{"resources: huge pages need cpu or memory", ctrResources(ctrObj{"hugepages-2Mi": "2Mi"}, nil), []string{"containers[0].resources: Forbidden"}},
	{"resources: huge pages with memory", ctrResources(ctrObj{"hugepages-2Mi": "4Mi", "memory": "1Gi"}, ctrObj{"hugepages-2Mi": "4Mi"}), nil},
	{"huge pages: the page size parses", ctrResources(ctrObj{"hugepages-": "2Mi", "memory": "1"}, nil),
		[]string{"containers[0].resources.limits[hugepages-]: Invalid value", "containers[0].resources.limits[hugepages-]: Invalid value"}},
	{"huge pages: the page size a whole number of bytes", ctrResources(ctrObj{"hugepages-1m": "2Mi", "memory": "1"}, nil), []string{"containers[0].resources.limits[hugepages-1m]: Invalid value"}},
	{"huge pages: quantities at the int64 limit", ctrResources(ctrObj{"hugepages-8Ei": "8Ei", "memory": "1"}, nil), nil},
	{"resources: kubernetes.io resources are not overcommitted past limits", ctrResources(ctrObj{"kubernetes.io/x": "1"}, ctrObj{"kubernetes.io/x": "2"}), []string{"containers[0].resources.requests: Invalid value"}},
	{"resources: quota names are not container resources", ctrResources(ctrObj{"pods": "1"}, ctrObj{"requests.hugepages-2Mi": "2Mi"}),
		[]string{"containers[0].resources.limits[pods]: Invalid value", "containers[0].resources.requests[requests.hugepages-2Mi]: Invalid value"}},
	{"resources: rounding to milli units first", ctrResources(ctrObj{"cpu": "1n"}, ctrObj{"cpu": "1m"}), nil},
	{"claims: name one of the pod's claims", ctrSet("resources", ctrObj{"claims": []any{ctrObj{"name": "other"}}}), []string{"containers[0].resources.claims[0]: Not found"}},
	{"claims: none when the pod has none", func(s ctrObj) {
		delete(s, "resourceClaims")
		ctrSet("resources", ctrObj{"claims": []any{ctrObj{"name": "gpu"}}})(s)
	},
		[]string{"containers[0].resources.claims[0]: Not found"}},
	{"claims: name required", ctrSet("resources", ctrObj{"claims": []any{ctrObj{"name": ""}}}), []string{"containers[0].resources.claims[0]: Required value"}},
	{"claims: no duplicate", ctrSet("resources", ctrObj{"claims": []any{ctrObj{"name": "gpu"}, ctrObj{"name": "gpu"}}}), []string{"containers[0].resources.claims[1]: Duplicate value"}},
	{"claims: requests of one claim", ctrSet("resources", ctrObj{"claims": []any{ctrObj{"name": "gpu", "request": "a"}, ctrObj{"name": "gpu", "request": "b"}}}), nil},
	{"claims: whole claim after one of its requests", ctrSet("resources", ctrObj{"claims": []any{ctrObj{"name": "gpu", "request": "a"}, ctrObj{"name": "gpu", "request": "b"}, ctrObj{"name": "gpu"}}}),
		[]string{"containers[0].resources.claims[2]: Duplicate value", "containers[0].resources.claims[2]: Duplicate value"}},
	{"claims: request a DNS label", ctrSet("resources", ctrObj{"claims": []any{ctrObj{"name": "gpu", "request": "Bad_R"}}}), []string{"containers[0].resources.claims[0].request: Invalid value"}},

	// validateResizePolicy and the init containers' resize rules.
	{"resizePolicy: cpu and memory", ctrSet("resizePolicy", []any{ctrObj{"resourceName": "cpu", "restartPolicy": "NotRequired"}, ctrObj{"resourceName": "memory", "restartPolicy": "RestartContainer"}}), nil},
	{"resizePolicy: unsupported resource", ctrSet("resizePolicy", []any{ctrObj{"resourceName": "gpu", "restartPolicy": "NotRequired"}}), []string{"containers[0].resizePolicy: Unsupported value"}},
	{"resizePolicy: unsupported policy", ctrSet("resizePolicy", []any{ctrObj{"resourceName": "cpu", "restartPolicy": "Sometimes"}}), []string{"containers[0].resizePolicy: Unsupported value"}},
	{"resizePolicy: resource and policy required", ctrSet("resizePolicy", []any{ctrObj{"resourceName": "", "restartPolicy": ""}}), []string{"containers[0].resizePolicy: Required value", "containers[0].resizePolicy: Required value"}},
	{"resizePolicy: one per resource", ctrSet("resizePolicy", []any{ctrObj{"resourceName": "cpu", "restartPolicy": "NotRequired"}, ctrObj{"resourceName": "cpu", "restartPolicy": "NotRequired"}}), []string{"containers[0].resizePolicy[1]: Duplicate value"}},
	{"resizePolicy: NotRequired when the pod never restarts", func(s ctrObj) {
		s["restartPolicy"] = "Never"
		ctrSet("resizePolicy", []any{ctrObj{"resourceName": "cpu", "restartPolicy": "RestartContainer"}})(s)
	}, []string{"containers[0].resizePolicy: Invalid value"}},
	{"resizePolicy: not RestartContainer for a non-sidecar init container", func(s ctrObj) {
		ctrAt(s, "initContainers", 0)["resizePolicy"] = []any{ctrObj{"resourceName": "cpu", "restartPolicy": "RestartContainer"}}
	}, []string{"initContainers[0].resizePolicy[0].restartPolicy: Invalid value"}},
	{"resizePolicy: RestartContainer for a sidecar", func(s ctrObj) {
		ic := ctrAt(s, "initContainers", 0)
		ic["restartPolicy"] = "Always"
		ic["resizePolicy"] = []any{ctrObj{"resourceName": "cpu", "restartPolicy": "RestartContainer"}}
	}, nil},

	// validateContainerRestartPolicy and validateInitContainerRestartPolicy.
	{"restart rules: a regular container's", ctrSet("restartPolicy", "Never", "restartPolicyRules", []any{ctrObj{"action": "Restart", "exitCodes": ctrObj{"operator": "In", "values": []int{42}}}}), nil},
	{"restart rules: RestartAllContainers", ctrSet("restartPolicy", "Always", "restartPolicyRules", []any{ctrObj{"action": "RestartAllContainers", "exitCodes": ctrObj{"operator": "NotIn", "values": []int{0}}}}), nil},
	{"restartPolicy: supported", ctrSet("restartPolicy", "Sometimes"), []string{"containers[0].restartPolicy: Unsupported value"}},
	{"restart rules: need a policy", ctrSet("restartPolicyRules", []any{ctrObj{"action": "Restart", "exitCodes": ctrObj{"operator": "In", "values": []int{1}}}}), []string{"containers[0].restartPolicy: Required value"}},
	{"restart rules: at most 20", ctrSet("restartPolicy", "Never", "restartPolicyRules", ctrRepeat(21, ctrObj{"action": "Restart", "exitCodes": ctrObj{"operator": "In"}})), []string{"containers[0].restartPolicyRules: Too many"}},
	{"restart rules: action supported", ctrSet("restartPolicy", "Never", "restartPolicyRules", []any{ctrObj{"action": "Bad", "exitCodes": ctrObj{"operator": "In"}}}), []string{"containers[0].restartPolicyRules[0].action: Unsupported value"}},
	{"restart rules: exit codes required", ctrSet("restartPolicy", "Never", "restartPolicyRules", []any{ctrObj{"action": "Restart"}}), []string{"containers[0].restartPolicyRules[0].exitCodes: Required value"}},
	{"restart rules: operator In or NotIn", ctrSet("restartPolicy", "Never", "restartPolicyRules", []any{ctrObj{"action": "Restart", "exitCodes": ctrObj{"operator": "Bad"}}}), []string{"containers[0].restartPolicyRules[0].exitCodes.operator: Unsupported value"}},
	{"restart rules: at most 255 exit codes", ctrSet("restartPolicy", "Never", "restartPolicyRules", []any{ctrObj{"action": "Restart", "exitCodes": ctrObj{"operator": "In", "values": ctrSeq(256)}}}), []string{"containers[0].restartPolicyRules[0].exitCodes.values: Too many"}},
	{"init restartPolicy: OnFailure with rules", func(s ctrObj) {
		ic := ctrAt(s, "initContainers", 0)
		ic["restartPolicy"], ic["restartPolicyRules"] = "OnFailure", []any{ctrObj{"action": "Restart", "exitCodes": ctrObj{"operator": "In", "values": []int{3}}}}
	}, nil},
	{"init restartPolicy: supported", func(s ctrObj) { ctrAt(s, "initContainers", 0)["restartPolicy"] = "Sometimes" }, []string{"initContainers[0].restartPolicy: Unsupported value"}},
	{"init restart rules: need a policy", func(s ctrObj) {
		ctrAt(s, "initContainers", 0)["restartPolicyRules"] = []any{ctrObj{"action": "Restart", "exitCodes": ctrObj{"operator": "In"}}}
	}, []string{"initContainers[0].restartPolicy: Required value"}},
	{"sidecar: probes and hooks allowed", func(s ctrObj) {
		ic := ctrAt(s, "initContainers", 0)
		ic["restartPolicy"] = "Always"
		ic["livenessProbe"] = ctrObj{"exec": ctrObj{"command": []string{"true"}}}
		ic["readinessProbe"] = ctrObj{"tcpSocket": ctrObj{"port": 80}}
		ic["startupProbe"] = ctrObj{"grpc": ctrObj{"port": 9000}}
		ic["lifecycle"] = ctrObj{"preStop": ctrObj{"sleep": ctrObj{"seconds": 5}}}
	}, nil},
	{"sidecar: probes validated", func(s ctrObj) {
		ic := ctrAt(s, "initContainers", 0)
		ic["restartPolicy"] = "Always"
		ic["livenessProbe"] = ctrObj{"exec": ctrObj{"command": []string{"true"}}, "successThreshold": 2}
	}, []string{"initContainers[0].livenessProbe.successThreshold: Invalid value"}},
	{"init container: no probes or hooks without restartPolicy Always", func(s ctrObj) {
		ic := ctrAt(s, "initContainers", 0)
		ic["restartPolicy"] = "OnFailure"
		for _, k := range []string{"livenessProbe", "readinessProbe", "startupProbe"} {
			ic[k] = ctrObj{"exec": ctrObj{"command": []string{"true"}}}
		}
		ic["lifecycle"] = ctrObj{}
	}, []string{"initContainers[0].lifecycle: Forbidden", "initContainers[0].livenessProbe: Forbidden", "initContainers[0].readinessProbe: Forbidden", "initContainers[0].startupProbe: Forbidden"}},

	// ValidateVolumeMounts.
	{"volumeMounts: every kind of volume", ctrMounts(
		ctrObj{"name": "cfg", "mountPath": "/a"}, ctrObj{"name": "scratch", "mountPath": "/b", "subPath": "x"}, ctrObj{"name": "data", "mountPath": "/c"},
		ctrObj{"name": "eph", "mountPath": "/d"}, ctrObj{"name": "img", "mountPath": "/e", "readOnly": true}, ctrObj{"name": "cfg", "mountPath": "/f", "subPathExpr": "$(POD)"},
	), nil},
	{"volumeMounts: name a volume of the pod", ctrMounts(ctrObj{"name": "missing", "mountPath": "/a"}), []string{"containers[0].volumeMounts[0].name: Not found"}},
	{"volumeMounts: name required", ctrMounts(ctrObj{"name": "", "mountPath": "/a"}), []string{"containers[0].volumeMounts[0].name: Not found", "containers[0].volumeMounts[0].name: Required value"}},
	{"volumeMounts: mountPath required", ctrMounts(ctrObj{"name": "cfg", "mountPath": ""}), []string{"containers[0].volumeMounts[0].mountPath: Required value"}},
	{"volumeMounts: mountPath unique", ctrMounts(ctrObj{"name": "cfg", "mountPath": "/a"}, ctrObj{"name": "scratch", "mountPath": "/a"}), []string{"containers[0].volumeMounts[1].mountPath: Invalid value"}},
	{"volumeMounts: subPath relative", ctrMounts(ctrObj{"name": "cfg", "mountPath": "/a", "subPath": "/abs"}), []string{"containers[0].volumeMounts.subPath: Invalid value"}},
	{"volumeMounts: subPath without backsteps", ctrMounts(ctrObj{"name": "cfg", "mountPath": "/a", "subPath": "a/../b"}), []string{"containers[0].volumeMounts.subPath: Invalid value"}},
	{"volumeMounts: subPathExpr relative", ctrMounts(ctrObj{"name": "cfg", "mountPath": "/a", "subPathExpr": "/$(X)"}), []string{"containers[0].volumeMounts.subPathExpr: Invalid value"}},
	{"volumeMounts: subPath or subPathExpr", ctrMounts(ctrObj{"name": "cfg", "mountPath": "/a", "subPath": "a", "subPathExpr": "b"}), []string{"containers[0].volumeMounts[0].subPathExpr: Invalid value"}},
	{"mountPropagation: supported", ctrMounts(ctrObj{"name": "cfg", "mountPath": "/a", "mountPropagation": "Bad"}), []string{"containers[0].volumeMounts.mountPropagation: Unsupported value"}},
	{"mountPropagation: Bidirectional needs a privileged container", ctrMounts(ctrObj{"name": "cfg", "mountPath": "/a", "mountPropagation": "Bidirectional"}), []string{"containers[0].volumeMounts.mountPropagation: Forbidden"}},
	{"mountPropagation: Bidirectional in a privileged container", func(s ctrObj) {
		ctrMounts(ctrObj{"name": "cfg", "mountPath": "/a", "mountPropagation": "Bidirectional"})(s)
		ctrApp(s)["securityContext"] = ctrObj{"privileged": true}
	}, nil},
	{"recursiveReadOnly: read-only mounts only", ctrMounts(ctrObj{"name": "cfg", "mountPath": "/a", "recursiveReadOnly": "Enabled"}), []string{"containers[0].volumeMounts.recursiveReadOnly: Forbidden"}},
	{"recursiveReadOnly: propagation None only", ctrMounts(ctrObj{"name": "cfg", "mountPath": "/a", "readOnly": true, "recursiveReadOnly": "IfPossible", "mountPropagation": "HostToContainer"}), []string{"containers[0].volumeMounts.recursiveReadOnly: Forbidden"}},
	{"recursiveReadOnly: Disabled anywhere", ctrMounts(ctrObj{"name": "cfg", "mountPath": "/a", "recursiveReadOnly": "Disabled", "mountPropagation": "HostToContainer"}), nil},
	{"recursiveReadOnly: supported", ctrMounts(ctrObj{"name": "cfg", "mountPath": "/a", "readOnly": true, "recursiveReadOnly": "Bad"}), []string{"containers[0].volumeMounts.recursiveReadOnly: Unsupported value"}},

	// ValidateVolumeDevices.
	{"volumeDevices: claims and ephemeral volumes", ctrSet("volumeDevices", []any{ctrObj{"name": "data", "devicePath": "/dev/a"}, ctrObj{"name": "eph", "devicePath": "/dev/b"}}), nil},
	{"volumeDevices: block volumes only", ctrSet("volumeDevices", []any{ctrObj{"name": "cfg", "devicePath": "/dev/a"}}), []string{"containers[0].volumeDevices[0].name: Invalid value"}},
	{"volumeDevices: name a volume", ctrSet("volumeDevices", []any{ctrObj{"name": "missing", "devicePath": "/dev/a"}}), []string{"containers[0].volumeDevices[0].name: Not found"}},
	{"volumeDevices: name and path required", ctrSet("volumeDevices", []any{ctrObj{"name": "", "devicePath": ""}}), []string{
		"containers[0].volumeDevices[0].devicePath: Required value", "containers[0].volumeDevices[0].name: Not found", "containers[0].volumeDevices[0].name: Required value"}},
	{"volumeDevices: empty paths clash", ctrSet("volumeDevices", []any{ctrObj{"name": "data", "devicePath": ""}, ctrObj{"name": "eph", "devicePath": ""}}), []string{
		"containers[0].volumeDevices[0].devicePath: Required value", "containers[0].volumeDevices[1].devicePath: Invalid value", "containers[0].volumeDevices[1].devicePath: Required value"}},
	{"volumeDevices: name unique", ctrSet("volumeDevices", []any{ctrObj{"name": "data", "devicePath": "/dev/a"}, ctrObj{"name": "data", "devicePath": "/dev/b"}}), []string{"containers[0].volumeDevices[1].name: Invalid value"}},
	{"volumeDevices: path unique", ctrSet("volumeDevices", []any{ctrObj{"name": "data", "devicePath": "/dev/a"}, ctrObj{"name": "eph", "devicePath": "/dev/a"}}), []string{"containers[0].volumeDevices[1].devicePath: Invalid value"}},
	{"volumeDevices: path without backsteps", ctrSet("volumeDevices", []any{ctrObj{"name": "data", "devicePath": "/dev/../a"}}), []string{"containers[0].volumeDevices[0].devicePath: Invalid value"}},
	{"volumeDevices: not also mounted", ctrSet("volumeDevices", []any{ctrObj{"name": "data", "devicePath": "/dev/a"}}, "volumeMounts", []any{ctrObj{"name": "data", "mountPath": "/data"}}),
		[]string{"containers[0].volumeDevices[0].name: Invalid value", "containers[0].volumeMounts[0].name: Invalid value"}},
	{"volumeDevices: path not a mount path", ctrSet("volumeDevices", []any{ctrObj{"name": "data", "devicePath": "/x"}}, "volumeMounts", []any{ctrObj{"name": "cfg", "mountPath": "/x"}}),
		[]string{"containers[0].volumeDevices[0].devicePath: Invalid value", "containers[0].volumeMounts[0].mountPath: Invalid value"}},

	// Probes.
	{"probe: a handler required", ctrProbe("livenessProbe", ctrObj{"periodSeconds": 5}), []string{"containers[0].livenessProbe: Required value"}},
	{"probe: one handler", ctrProbe("readinessProbe", ctrObj{"exec": ctrObj{"command": []string{"true"}}, "tcpSocket": ctrObj{"port": 80}, "grpc": ctrObj{"port": 9000}}),
		[]string{"containers[0].readinessProbe.grpc: Forbidden", "containers[0].readinessProbe.tcpSocket: Forbidden"}},
	{"probe: liveness successThreshold 1", ctrProbe("livenessProbe", ctrObj{"exec": ctrObj{"command": []string{"true"}}, "successThreshold": 2}), []string{"containers[0].livenessProbe.successThreshold: Invalid value"}},
	{"probe: startup successThreshold 1", ctrProbe("startupProbe", ctrObj{"exec": ctrObj{"command": []string{"true"}}, "successThreshold": 3}), []string{"containers[0].startupProbe.successThreshold: Invalid value"}},
	{"probe: readiness successThreshold any", ctrProbe("readinessProbe", ctrObj{"exec": ctrObj{"command": []string{"true"}}, "successThreshold": 3}), nil},
	{"probe: no negative numbers", ctrProbe("readinessProbe", ctrObj{"exec": ctrObj{"command": []string{"true"}}, "initialDelaySeconds": -1, "timeoutSeconds": -1, "periodSeconds": -1, "successThreshold": -1, "failureThreshold": -1}), []string{
		"containers[0].readinessProbe.failureThreshold: Invalid value", "containers[0].readinessProbe.initialDelaySeconds: Invalid value", "containers[0].readinessProbe.periodSeconds: Invalid value",
		"containers[0].readinessProbe.successThreshold: Invalid value", "containers[0].readinessProbe.timeoutSeconds: Invalid value"}},
	{"probe: terminationGracePeriodSeconds positive", ctrProbe("livenessProbe", ctrObj{"exec": ctrObj{"command": []string{"true"}}, "terminationGracePeriodSeconds": 0}), []string{"containers[0].livenessProbe.terminationGracePeriodSeconds: Invalid value"}},
	{"probe: readiness has no terminationGracePeriodSeconds", ctrProbe("readinessProbe", ctrObj{"exec": ctrObj{"command": []string{"true"}}, "terminationGracePeriodSeconds": 10}), []string{"containers[0].readinessProbe.terminationGracePeriodSeconds: Invalid value"}},
	{"exec: command required", ctrProbe("livenessProbe", ctrObj{"exec": ctrObj{}}), []string{"containers[0].livenessProbe.exec.command: Required value"}},
	{"httpGet: port a name", ctrProbe("livenessProbe", ctrObj{"httpGet": ctrObj{"port": "-http"}}), []string{"containers[0].livenessProbe.httpGet.port: Invalid value"}},
	{"httpGet: port a number", ctrProbe("livenessProbe", ctrObj{"httpGet": ctrObj{"port": 0}}), []string{"containers[0].livenessProbe.httpGet.port: Invalid value"}},
	{"httpGet: scheme HTTP or HTTPS", ctrProbe("livenessProbe", ctrObj{"httpGet": ctrObj{"port": 80, "scheme": "ftp"}}), []string{"containers[0].livenessProbe.httpGet.scheme: Unsupported value"}},
	{"httpGet: header names", ctrProbe("livenessProbe", ctrObj{"httpGet": ctrObj{"port": 80, "httpHeaders": []any{ctrObj{"name": "X_A", "value": "v"}, ctrObj{"name": "X-B", "value": ""}}}}), []string{"containers[0].livenessProbe.httpGet.httpHeaders: Invalid value"}},
	{"tcpSocket: port", ctrProbe("startupProbe", ctrObj{"tcpSocket": ctrObj{"port": 65536}}), []string{"containers[0].startupProbe.tcpSocket.port: Invalid value"}},
	{"grpc: port", ctrProbe("startupProbe", ctrObj{"grpc": ctrObj{"port": -1}}), []string{"containers[0].startupProbe.grpc.port: Invalid value"}},

	// validateLifecycle.
	{"lifecycle: hooks", ctrSet("lifecycle", ctrObj{"postStart": ctrObj{"httpGet": ctrObj{"port": "http"}}, "preStop": ctrObj{"sleep": ctrObj{"seconds": 30}}}), nil},
	{"lifecycle: a hook needs a handler", ctrSet("lifecycle", ctrObj{"postStart": ctrObj{}}), []string{"containers[0].lifecycle.postStart: Required value"}},
	{"lifecycle: one handler", ctrSet("lifecycle", ctrObj{"preStop": ctrObj{"exec": ctrObj{"command": []string{"x"}}, "sleep": ctrObj{"seconds": 1}}}), []string{"containers[0].lifecycle.preStop.sleep: Forbidden"}},
	{"sleep: zero allowed", ctrSet("lifecycle", ctrObj{"preStop": ctrObj{"sleep": ctrObj{"seconds": 0}}}), nil},
	{"sleep: not negative", ctrSet("lifecycle", ctrObj{"preStop": ctrObj{"sleep": ctrObj{"seconds": -1}}}), []string{"containers[0].lifecycle.preStop.sleep: Invalid value"}},
	{"sleep: within the grace period", func(s ctrObj) {
		s["terminationGracePeriodSeconds"] = 10
		ctrSet("lifecycle", ctrObj{"postStart": ctrObj{"sleep": ctrObj{"seconds": 11}}})(s)
	}, []string{"containers[0].lifecycle.postStart.sleep: Invalid value"}},
	{"stopSignal: dropped while ContainerStopSignals is off", ctrSet("lifecycle", ctrObj{"stopSignal": "SIGBOGUS"}), nil},

	// ValidateSecurityContext.
	{"securityContext: privileged allowed by the cluster", ctrSecurity(ctrObj{"privileged": true, "allowPrivilegeEscalation": true}), nil},
	{"runAsUser: 0 to 2^31-1", ctrSecurity(ctrObj{"runAsUser": 2147483648}), []string{"containers[0].securityContext.runAsUser: Invalid value"}},
	{"runAsGroup: not negative", ctrSecurity(ctrObj{"runAsGroup": -1}), []string{"containers[0].securityContext.runAsGroup: Invalid value"}},
	{"procMount: supported", ctrSecurity(ctrObj{"procMount": "Bad"}), []string{"containers[0].securityContext.procMount: Unsupported value"}},
	{"procMount: Unmasked needs a user namespace", ctrSecurity(ctrObj{"procMount": "Unmasked"}), []string{"containers[0].securityContext.procMount: Invalid value"}},
	{"procMount: Unmasked without host users", func(s ctrObj) { s["hostUsers"] = false; ctrSecurity(ctrObj{"procMount": "Unmasked"})(s) }, nil},
	{"allowPrivilegeEscalation: not false when privileged", ctrSecurity(ctrObj{"privileged": true, "allowPrivilegeEscalation": false}), []string{"containers[0].securityContext: Invalid value"}},
	{"allowPrivilegeEscalation: not false with CAP_SYS_ADMIN", ctrSecurity(ctrObj{"allowPrivilegeEscalation": false, "capabilities": ctrObj{"add": []string{"CAP_SYS_ADMIN", "CAP_SYS_ADMIN", "SYS_ADMIN"}}}),
		[]string{"containers[0].securityContext: Invalid value", "containers[0].securityContext: Invalid value"}},
	{"seccompProfile: type required", ctrSecurity(ctrObj{"seccompProfile": ctrObj{"type": ""}}), []string{"containers[0].securityContext.seccompProfile.type: Required value"}},
	{"seccompProfile: type supported", ctrSecurity(ctrObj{"seccompProfile": ctrObj{"type": "Bad"}}), []string{"containers[0].securityContext.seccompProfile.type: Unsupported value"}},
	{"seccompProfile: Localhost needs a profile", ctrSecurity(ctrObj{"seccompProfile": ctrObj{"type": "Localhost"}}), []string{"containers[0].securityContext.seccompProfile.localhostProfile: Required value"}},
	{"seccompProfile: profile relative", ctrSecurity(ctrObj{"seccompProfile": ctrObj{"type": "Localhost", "localhostProfile": "/etc/p.json"}}), []string{"containers[0].securityContext.seccompProfile.localhostProfile: Invalid value"}},
	{"seccompProfile: profile only for Localhost", ctrSecurity(ctrObj{"seccompProfile": ctrObj{"type": "RuntimeDefault", "localhostProfile": "p.json"}}), []string{"containers[0].securityContext.seccompProfile.localhostProfile: Invalid value"}},
	{"appArmorProfile: type required", ctrSecurity(ctrObj{"appArmorProfile": ctrObj{"type": ""}}), []string{"containers[0].securityContext.appArmorProfile.type: Required value"}},
	{"appArmorProfile: type supported", ctrSecurity(ctrObj{"appArmorProfile": ctrObj{"type": "Bad"}}), []string{"containers[0].securityContext.appArmorProfile.type: Unsupported value"}},
	{"appArmorProfile: Localhost needs a profile", ctrSecurity(ctrObj{"appArmorProfile": ctrObj{"type": "Localhost"}}), []string{"containers[0].securityContext.appArmorProfile.localhostProfile: Required value"}},
	{"appArmorProfile: profile not blank", ctrSecurity(ctrObj{"appArmorProfile": ctrObj{"type": "Localhost", "localhostProfile": ""}}), []string{"containers[0].securityContext.appArmorProfile.localhostProfile: Required value"}},
	{"appArmorProfile: profile not padded", ctrSecurity(ctrObj{"appArmorProfile": ctrObj{"type": "Localhost", "localhostProfile": " p"}}), []string{"containers[0].securityContext.appArmorProfile.localhostProfile: Invalid value"}},
	{"appArmorProfile: profile at most 4095 bytes", ctrSecurity(ctrObj{"appArmorProfile": ctrObj{"type": "Localhost", "localhostProfile": strings.Repeat("p", 4096)}}), []string{"containers[0].securityContext.appArmorProfile.localhostProfile: Too long"}},
	{"appArmorProfile: profile only for Localhost", ctrSecurity(ctrObj{"appArmorProfile": ctrObj{"type": "Unconfined", "localhostProfile": "p"}}), []string{"containers[0].securityContext.appArmorProfile.localhostProfile: Invalid value"}},
	{"windowsOptions: gmsaCredentialSpecName a DNS subdomain", ctrSecurity(ctrObj{"windowsOptions": ctrObj{"gmsaCredentialSpecName": "Bad_Name"}}), []string{"containers[0].securityContext.windowsOptions.gmsaCredentialSpecName: Invalid value"}},
	{"windowsOptions: gmsaCredentialSpec not empty", ctrSecurity(ctrObj{"windowsOptions": ctrObj{"gmsaCredentialSpec": ""}}), []string{"containers[0].securityContext.windowsOptions.gmsaCredentialSpec: Invalid value"}},
	{"windowsOptions: gmsaCredentialSpec at most 64 KiB", ctrSecurity(ctrObj{"windowsOptions": ctrObj{"gmsaCredentialSpec": strings.Repeat("x", 64*1024+1)}}), []string{"containers[0].securityContext.windowsOptions.gmsaCredentialSpec: Invalid value"}},
	{"runAsUserName: DOMAIN\\USER", ctrSecurity(ctrObj{"windowsOptions": ctrObj{"runAsUserName": `example.com\svc`}}), nil},
	{"runAsUserName: not empty", ctrSecurity(ctrObj{"windowsOptions": ctrObj{"runAsUserName": ""}}), []string{"containers[0].securityContext.windowsOptions.runAsUserName: Invalid value"}},
	{"runAsUserName: one backslash", ctrSecurity(ctrObj{"windowsOptions": ctrObj{"runAsUserName": `a\b\c`}}), []string{"containers[0].securityContext.windowsOptions.runAsUserName: Invalid value"}},
	{"runAsUserName: no control characters", ctrSecurity(ctrObj{"windowsOptions": ctrObj{"runAsUserName": "a\tb"}}), []string{"containers[0].securityContext.windowsOptions.runAsUserName: Invalid value"}},
	{"runAsUserName: domain NetBIOS or DNS", ctrSecurity(ctrObj{"windowsOptions": ctrObj{"runAsUserName": `.dom\u`}}), []string{"containers[0].securityContext.windowsOptions.runAsUserName: Invalid value"}},
	{"runAsUserName: domain under 256 characters", ctrSecurity(ctrObj{"windowsOptions": ctrObj{"runAsUserName": strings.Repeat("d", 256) + `\u`}}), []string{
		"containers[0].securityContext.windowsOptions.runAsUserName: Invalid value", "containers[0].securityContext.windowsOptions.runAsUserName: Invalid value"}},
	{"runAsUserName: user not empty", ctrSecurity(ctrObj{"windowsOptions": ctrObj{"runAsUserName": `dom\`}}), []string{"containers[0].securityContext.windowsOptions.runAsUserName: Invalid value"}},
	{"runAsUserName: user at most 104 characters", ctrSecurity(ctrObj{"windowsOptions": ctrObj{"runAsUserName": strings.Repeat("u", 105)}}), []string{"containers[0].securityContext.windowsOptions.runAsUserName: Invalid value"}},
	{"runAsUserName: user not only dots and spaces", ctrSecurity(ctrObj{"windowsOptions": ctrObj{"runAsUserName": ". ."}}), []string{"containers[0].securityContext.windowsOptions.runAsUserName: Invalid value"}},
	{"runAsUserName: user characters", ctrSecurity(ctrObj{"windowsOptions": ctrObj{"runAsUserName": "us@er"}}), []string{"containers[0].securityContext.windowsOptions.runAsUserName: Invalid value"}},

	// validateEphemeralContainers.
	{"ephemeral containers: not in a template", func(s ctrObj) { ctrAt(s, "ephemeralContainers", 0) }, []string{ctrEphemeralForbidden}},
	{"ephemeral containers: fields they may not set", func(s ctrObj) {
		ec := ctrAt(s, "ephemeralContainers", 0)
		ec["ports"], ec["resources"], ec["resizePolicy"] = []any{}, ctrObj{"limits": ctrObj{}}, []any{}
		ec["restartPolicy"], ec["restartPolicyRules"] = "Never", []any{}
		for _, k := range []string{"livenessProbe", "readinessProbe", "startupProbe"} {
			ec[k] = ctrObj{"exec": ctrObj{"command": []string{"true"}}}
		}
		ec["lifecycle"] = ctrObj{"preStop": ctrObj{"exec": ctrObj{"command": []string{"x"}}}}
	}, []string{
		ctrEphemeralForbidden, "ephemeralContainers[0].lifecycle: Forbidden", "ephemeralContainers[0].livenessProbe: Forbidden", "ephemeralContainers[0].ports: Forbidden",
		"ephemeralContainers[0].readinessProbe: Forbidden", "ephemeralContainers[0].resizePolicy: Forbidden", "ephemeralContainers[0].resources: Forbidden",
		"ephemeralContainers[0].restartPolicy: Forbidden", "ephemeralContainers[0].restartPolicyRules: Forbidden", "ephemeralContainers[0].startupProbe: Forbidden"}},
	{"ephemeral containers: target a regular or init container", func(s ctrObj) { ctrAt(s, "ephemeralContainers", 0)["targetContainerName"] = "missing" },
		[]string{ctrEphemeralForbidden, "ephemeralContainers[0].targetContainerName: Not found"}},
	{"ephemeral containers: no subPath", func(s ctrObj) {
		ctrAt(s, "ephemeralContainers", 0)["volumeMounts"] = []any{ctrObj{"name": "cfg", "mountPath": "/a", "subPath": "x"}, ctrObj{"name": "cfg", "mountPath": "/b", "subPathExpr": "y"}}
	}, []string{ctrEphemeralForbidden, "ephemeralContainers[0].volumeMounts[0].subPath: Forbidden", "ephemeralContainers[0].volumeMounts[1].subPathExpr: Forbidden"}},
}

// ctrRepeat returns n copies of v.
func ctrRepeat(n int, v any) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = v
	}
	return out
}

// ctrSeq returns 0..n-1.
func ctrSeq(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// TestContainerRules runs each rule's case both ways.
func TestContainerRules(t *testing.T) {
	ours := func(data []byte) Outcome { out, _ := OursCreateDeployment(data); return out }
	for _, tc := range ctrRuleCases {
		t.Run(tc.name, func(t *testing.T) { checkCtrRuleCase(t, tc, ours) })
	}
}

// checkCtrRuleCase runs a case through the real server and through ours: both
// must report exactly the problems listed under the containers, and, when
// none are listed, both must accept and store the same object.
func checkCtrRuleCase(t *testing.T, tc ctrRuleCase, ours func([]byte) Outcome) {
	t.Helper()
	spec := ctrBaseSpec()
	tc.edit(spec)
	data := ctrDeploymentJSON(spec)
	var want []Problem
	for _, w := range tc.want {
		f, typ, _ := strings.Cut(w, ": ")
		want = append(want, Problem{Type: typ, Field: "spec.template.spec." + f})
	}
	sortProblems(want)
	real, _ := RealCreateDeployment(data)
	our := ours(data)
	if real.Decode != "" || our.Decode != "" {
		t.Fatalf("decode: real %q, ours %q", real.Decode, our.Decode)
	}
	if got := ctrProblems(real.Problems); !slices.Equal(got, want) {
		t.Errorf("real server: %v, want %v", got, want)
	}
	if got := ctrProblems(our.Problems); !slices.Equal(got, want) {
		t.Errorf("ours: %v, want %v", got, want)
	}
	if len(want) == 0 {
		if real.Refused() || our.Refused() {
			t.Errorf("refused: real %v, ours %v", real.Problems, our.Problems)
		} else if !bytes.Equal(real.Stored, our.Stored) {
			t.Errorf("stored differ:\nreal %s\nours %s", real.Stored, our.Stored)
		}
	}
}
