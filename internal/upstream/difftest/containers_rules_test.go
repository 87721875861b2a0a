package difftest

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

// One case per rule of the containers' validation, named after the rule.
// Each starts from baseSpec (one valid container, volumes of each kind,
// two resource claims), changes it, and states the problems under the
// containers that both the real API server and ours must report (none:
// both must accept, and store the same object). Problems of other areas
// are not listed.

type ruleCase struct {
	name string
	edit func(spec obj)
	want []string // "field: type", the field relative to spec.template.spec
}

// c returns container i of list in spec, creating it (valid) as needed.
func c(spec obj, list string, i int) obj {
	cs, _ := spec[list].([]any)
	for len(cs) <= i {
		cs = append(cs, obj{"name": []string{"app", "side", "third"}[len(cs)] + map[string]string{"containers": "", "initContainers": "-init", "ephemeralContainers": "-dbg"}[list], "image": "nginx:1.25"})
	}
	spec[list] = cs
	return cs[i].(obj)
}

// app is the first regular container.
func app(spec obj) obj { return c(spec, "containers", 0) }

// set returns an edit that sets the fields of the first regular container.
func set(kv ...any) func(obj) {
	return func(spec obj) {
		for i := 0; i < len(kv); i += 2 {
			app(spec)[kv[i].(string)] = kv[i+1]
		}
	}
}

func env(vf obj) func(obj) { return set("env", []any{obj{"name": "A", "valueFrom": vf}}) }

func res(limits, requests obj) func(obj) {
	return func(spec obj) {
		r := obj{}
		if limits != nil {
			r["limits"] = limits
		}
		if requests != nil {
			r["requests"] = requests
		}
		app(spec)["resources"] = r
	}
}

func sc(fields obj) func(obj) { return set("securityContext", fields) }

func probe(kind string, p obj) func(obj) { return set(kind, p) }

func mounts(ms ...any) func(obj) { return set("volumeMounts", ms) }

const ephemeralForbidden = "ephemeralContainers: Forbidden" // ValidatePodTemplateSpec's rule

var containerRuleCases = []ruleCase{
	// validateContainers and the names of every kind of container.
	{"containers: at least one", func(s obj) { s["containers"] = []any{} }, []string{"containers: Required value"}},
	{"container name: required", set("name", ""), []string{"containers[0].name: Required value"}},
	{"container name: DNS label", set("name", "App"), []string{"containers[0].name: Invalid value"}},
	{"container name: at most 63 bytes", set("name", strings.Repeat("a", 64)), []string{"containers[0].name: Invalid value"}},
	{"container name: unique among containers", func(s obj) { c(s, "containers", 1)["name"] = "app" }, []string{"containers[1].name: Duplicate value"}},
	{"init container name: unique among init and regular containers", func(s obj) { c(s, "initContainers", 0)["name"] = "app" }, []string{"initContainers[0].name: Duplicate value"}},
	{"ephemeral container name: unique among all containers", func(s obj) { c(s, "ephemeralContainers", 0)["name"] = "app" },
		[]string{"ephemeralContainers[0].name: Duplicate value", ephemeralForbidden}},
	{"container name: empty names clash", func(s obj) { c(s, "containers", 1)["name"] = ""; app(s)["name"] = "" },
		[]string{"containers[0].name: Required value", "containers[1].name: Duplicate value", "containers[1].name: Required value"}},
	{"init container name: empty names do not clash", func(s obj) { c(s, "initContainers", 0)["name"] = ""; c(s, "initContainers", 1)["name"] = "" },
		[]string{"initContainers[0].name: Required value", "initContainers[1].name: Required value"}},
	{"image: required", set("image", ""), []string{"containers[0].image: Required value"}},
	{"image: white space allowed in a template", set("image", " nginx "), nil},
	{"image: no white space around an ephemeral container's", func(s obj) { c(s, "ephemeralContainers", 0)["image"] = "nginx " },
		[]string{"ephemeralContainers[0].image: Invalid value", ephemeralForbidden}},
	{"imagePullPolicy: supported", set("imagePullPolicy", "Never"), nil},
	{"imagePullPolicy: unsupported", set("imagePullPolicy", "Sometimes"), []string{"containers[0].imagePullPolicy: Unsupported value"}},
	{"terminationMessagePolicy: unsupported", set("terminationMessagePolicy", "Bad"), []string{"containers[0].terminationMessagePolicy: Unsupported value"}},
	{"command, args, workingDir, terminationMessagePath, stdin, tty: not checked",
		set("command", []string{""}, "args", []string{}, "workingDir", "rel", "terminationMessagePath", "rel", "stdin", true, "stdinOnce", true, "tty", true), nil},

	// validateContainerPorts and checkHostPortConflicts.
	{"ports: name is an IANA service name", set("ports", []any{obj{"name": "a--b", "containerPort": 80}}), []string{"containers[0].ports[0].name: Invalid value"}},
	{"ports: name has a letter and lowercase characters only", set("ports", []any{obj{"name": "HTTP", "containerPort": 80}}), []string{"containers[0].ports[0].name: Invalid value", "containers[0].ports[0].name: Invalid value"}},
	{"ports: name unique", set("ports", []any{obj{"name": "http", "containerPort": 80}, obj{"name": "http", "containerPort": 81}}), []string{"containers[0].ports[1].name: Duplicate value"}},
	{"ports: containerPort required", set("ports", []any{obj{"name": "http"}}), []string{"containers[0].ports[0].containerPort: Required value"}},
	{"ports: containerPort at most 65535", set("ports", []any{obj{"containerPort": 65536}}), []string{"containers[0].ports[0].containerPort: Invalid value"}},
	{"ports: containerPort 65535", set("ports", []any{obj{"containerPort": 65535}}), nil},
	{"ports: hostPort in range", set("ports", []any{obj{"containerPort": 80, "hostPort": -5}}), []string{"containers[0].ports[0].hostPort: Invalid value"}},
	{"ports: protocol supported", set("ports", []any{obj{"containerPort": 80, "protocol": "tcp"}}), []string{"containers[0].ports[0].protocol: Unsupported value"}},
	{"ports: protocol defaults to TCP", set("ports", []any{obj{"containerPort": 80}, obj{"containerPort": 80, "protocol": "UDP"}}), nil},
	{"host ports: no conflict between containers", func(s obj) {
		app(s)["ports"] = []any{obj{"containerPort": 80, "hostPort": 80}}
		c(s, "containers", 1)["ports"] = []any{obj{"containerPort": 81, "hostPort": 80}}
	}, []string{"containers[1].ports[0].hostPort: Duplicate value"}},
	{"host ports: other host IP or protocol is no conflict", set("ports", []any{
		obj{"containerPort": 80, "hostPort": 80}, obj{"containerPort": 81, "hostPort": 80, "hostIP": "127.0.0.1"}, obj{"containerPort": 82, "hostPort": 80, "protocol": "UDP"},
	}), nil},
	{"host ports: an init container's conflict is reported at index 0", func(s obj) {
		c(s, "initContainers", 1)["ports"] = []any{obj{"containerPort": 80, "hostPort": 80}, obj{"containerPort": 81, "hostPort": 80}}
	}, []string{"initContainers[0].ports[1].hostPort: Duplicate value"}},
	{"host ports: init containers run one at a time", func(s obj) {
		app(s)["ports"] = []any{obj{"containerPort": 80, "hostPort": 80}}
		c(s, "initContainers", 0)["ports"] = []any{obj{"containerPort": 80, "hostPort": 80}}
		c(s, "initContainers", 1)["ports"] = []any{obj{"containerPort": 80, "hostPort": 80}}
	}, nil},

	// ValidateEnv and validateEnvVarValueFrom.
	{"env: name required", set("env", []any{obj{"name": ""}}), []string{"containers[0].env[0].name: Required value"}},
	{"env: relaxed names allow a leading digit", set("env", []any{obj{"name": "1A b.c"}}), nil},
	{"env: relaxed names refuse '='", set("env", []any{obj{"name": "a=b"}}), []string{"containers[0].env[0].name: Invalid value"}},
	{"env: relaxed names refuse non-ASCII", set("env", []any{obj{"name": "é"}}), []string{"containers[0].env[0].name: Invalid value"}},
	{"valueFrom: one source required", env(obj{}), []string{"containers[0].env[0].valueFrom: Invalid value"}},
	{"valueFrom: not with a value", set("env", []any{obj{"name": "A", "value": "x", "valueFrom": obj{"fieldRef": obj{"fieldPath": "metadata.name"}}}}),
		[]string{"containers[0].env[0].valueFrom: Invalid value"}},
	{"valueFrom: one source at a time", env(obj{"fieldRef": obj{"fieldPath": "metadata.name"}, "secretKeyRef": obj{"name": "s", "key": "k"}}),
		[]string{"containers[0].env[0].valueFrom: Invalid value"}},
	{"fieldRef: every supported field", set("env", []any{
		obj{"name": "A", "valueFrom": obj{"fieldRef": obj{"fieldPath": "metadata.name"}}},
		obj{"name": "B", "valueFrom": obj{"fieldRef": obj{"fieldPath": "metadata.namespace"}}},
		obj{"name": "C", "valueFrom": obj{"fieldRef": obj{"fieldPath": "metadata.uid"}}},
		obj{"name": "D", "valueFrom": obj{"fieldRef": obj{"fieldPath": "spec.nodeName"}}},
		obj{"name": "E", "valueFrom": obj{"fieldRef": obj{"fieldPath": "spec.serviceAccountName"}}},
		obj{"name": "F", "valueFrom": obj{"fieldRef": obj{"fieldPath": "status.hostIP"}}},
		obj{"name": "G", "valueFrom": obj{"fieldRef": obj{"fieldPath": "status.hostIPs"}}},
		obj{"name": "H", "valueFrom": obj{"fieldRef": obj{"fieldPath": "status.podIP"}}},
		obj{"name": "I", "valueFrom": obj{"fieldRef": obj{"fieldPath": "status.podIPs"}}},
		obj{"name": "J", "valueFrom": obj{"fieldRef": obj{"fieldPath": "metadata.labels['app']"}}},
		obj{"name": "K", "valueFrom": obj{"fieldRef": obj{"fieldPath": "metadata.annotations['Example.COM/Key']"}}},
		obj{"name": "L", "valueFrom": obj{"fieldRef": obj{"apiVersion": "v1", "fieldPath": "spec.host"}}},
	}), nil},
	{"fieldRef: unsupported field", env(obj{"fieldRef": obj{"fieldPath": "status.phase"}}), []string{"containers[0].env[0].valueFrom.fieldRef.fieldPath: Unsupported value"}},
	{"fieldRef: all labels unsupported", env(obj{"fieldRef": obj{"fieldPath": "metadata.labels"}}), []string{"containers[0].env[0].valueFrom.fieldRef.fieldPath: Unsupported value"}},
	{"fieldRef: unknown field does not convert", env(obj{"fieldRef": obj{"fieldPath": "spec.bogus"}}), []string{"containers[0].env[0].valueFrom.fieldRef.fieldPath: Invalid value"}},
	{"fieldRef: only v1 converts", env(obj{"fieldRef": obj{"apiVersion": "v2", "fieldPath": "metadata.name"}}), []string{"containers[0].env[0].valueFrom.fieldRef.fieldPath: Invalid value"}},
	{"fieldRef: subscript only on labels and annotations", env(obj{"fieldRef": obj{"fieldPath": "metadata.name['x']"}}), []string{"containers[0].env[0].valueFrom.fieldRef.fieldPath: Invalid value"}},
	{"fieldRef: label key is a qualified name", env(obj{"fieldRef": obj{"fieldPath": "metadata.labels['bad key']"}}), []string{"containers[0].env[0].valueFrom.fieldRef: Invalid value"}},
	{"resourceFieldRef: resource required", env(obj{"resourceFieldRef": obj{"resource": ""}}), []string{"containers[0].env[0].valueFrom.resourceFieldRef.resource: Required value"}},
	{"resourceFieldRef: unsupported resource", env(obj{"resourceFieldRef": obj{"resource": "limits.gpu"}}), []string{"containers[0].env[0].valueFrom.resourceFieldRef.resource: Unsupported value"}},
	{"resourceFieldRef: huge pages by prefix", env(obj{"resourceFieldRef": obj{"resource": "requests.hugepages-anything", "divisor": "1Mi"}}), nil},
	{"resourceFieldRef: cpu divisor 1m or 1", env(obj{"resourceFieldRef": obj{"resource": "limits.cpu", "divisor": "2"}}), []string{"containers[0].env[0].valueFrom.resourceFieldRef.divisor: Invalid value"}},
	{"resourceFieldRef: cpu divisor 1000m is 1", env(obj{"resourceFieldRef": obj{"resource": "requests.cpu", "divisor": "1000m"}}), nil},
	{"resourceFieldRef: memory divisor a unit", env(obj{"resourceFieldRef": obj{"resource": "limits.memory", "divisor": "3Mi"}}), []string{"containers[0].env[0].valueFrom.resourceFieldRef.divisor: Invalid value"}},
	{"resourceFieldRef: ephemeral-storage divisor a unit", env(obj{"resourceFieldRef": obj{"resource": "limits.ephemeral-storage", "divisor": "1m"}}), []string{"containers[0].env[0].valueFrom.resourceFieldRef.divisor: Invalid value"}},
	{"resourceFieldRef: huge pages divisor a unit", env(obj{"resourceFieldRef": obj{"resource": "limits.hugepages-2Mi", "divisor": "2Mi"}}), []string{"containers[0].env[0].valueFrom.resourceFieldRef.divisor: Invalid value"}},
	{"resourceFieldRef: zero divisor unchecked", env(obj{"resourceFieldRef": obj{"resource": "limits.cpu", "divisor": "0"}}), nil},
	{"configMapKeyRef: name a DNS subdomain, even empty", env(obj{"configMapKeyRef": obj{"key": "k"}}), []string{"containers[0].env[0].valueFrom.configMapKeyRef.name: Invalid value"}},
	{"configMapKeyRef: key required", env(obj{"configMapKeyRef": obj{"name": "cfg", "key": ""}}), []string{"containers[0].env[0].valueFrom.configMapKeyRef.key: Required value"}},
	{"secretKeyRef: key a config map key", env(obj{"secretKeyRef": obj{"name": "s", "key": "bad key"}}), []string{"containers[0].env[0].valueFrom.secretKeyRef.key: Invalid value"}},
	{"secretKeyRef: key not '..'", env(obj{"secretKeyRef": obj{"name": "s", "key": ".."}}), []string{"containers[0].env[0].valueFrom.secretKeyRef.key: Invalid value"}},
	{"fileKeyRef: an emptyDir's file", env(obj{"fileKeyRef": obj{"volumeName": "scratch", "path": "vars.env", "key": "K"}}), nil},
	{"fileKeyRef: path without backsteps", env(obj{"fileKeyRef": obj{"volumeName": "scratch", "path": "a/../b", "key": "K"}}), []string{"containers[0].env[0].valueFrom.fileKeyRef.path: Invalid value"}},
	{"fileKeyRef: key a relaxed variable name", env(obj{"fileKeyRef": obj{"volumeName": "scratch", "path": "p", "key": "a=b"}}), []string{"containers[0].env[0].valueFrom.fileKeyRef.key: Invalid value"}},
	{"fileKeyRef: volumeName a DNS label", env(obj{"fileKeyRef": obj{"volumeName": "Bad_Name", "path": "p", "key": "K"}}), []string{"containers[0].env[0].valueFrom.fileKeyRef.volumeName: Invalid value"}},
	{"fileKeyRef: all parts required", env(obj{"fileKeyRef": obj{"volumeName": "", "path": "", "key": ""}}), []string{
		"containers[0].env[0].valueFrom.fileKeyRef.key: Required value", "containers[0].env[0].valueFrom.fileKeyRef.path: Required value", "containers[0].env[0].valueFrom.fileKeyRef.volumeName: Required value"}},

	// ValidateEnvFrom.
	{"envFrom: one source required", set("envFrom", []any{obj{"prefix": "P_"}}), []string{"containers[0].envFrom: Invalid value"}},
	{"envFrom: one source at a time", set("envFrom", []any{obj{"configMapRef": obj{"name": "a"}, "secretRef": obj{"name": "b"}}}), []string{"containers[0].envFrom: Invalid value"}},
	{"envFrom: prefix a variable name", set("envFrom", []any{obj{"prefix": "a=b", "configMapRef": obj{"name": "a"}}}), []string{"containers[0].envFrom[0].prefix: Invalid value"}},
	{"envFrom: name required", set("envFrom", []any{obj{"secretRef": obj{}}}), []string{"containers[0].envFrom[0].secretRef.name: Required value"}},
	{"envFrom: name checked as a prefix (a final '-' passes)", set("envFrom", []any{obj{"configMapRef": obj{"name": "cfg-"}}}), nil},
	{"envFrom: name a DNS subdomain", set("envFrom", []any{obj{"configMapRef": obj{"name": "Cfg"}}}), []string{"containers[0].envFrom[0].configMapRef.name: Invalid value"}},

	// ValidateContainerResourceRequirements.
	{"resources: standard container resources", res(obj{"cpu": "1", "memory": "1Gi", "ephemeral-storage": "1Gi"}, obj{"cpu": "500m"}), nil},
	{"resources: unprefixed names are standard, and for containers", res(obj{"gpu": "1"}, nil), []string{"containers[0].resources.limits[gpu]: Invalid value", "containers[0].resources.limits[gpu]: Invalid value"}},
	{"resources: standard but not for containers", res(obj{"pods": "1"}, nil), []string{"containers[0].resources.limits[pods]: Invalid value"}},
	{"resources: name a qualified name", res(obj{"a/b/c": "1"}, obj{"a/b/c": "1"}), []string{"containers[0].resources.limits[a/b/c]: Invalid value", "containers[0].resources.limits[a/b/c]: Invalid value",
		"containers[0].resources.requests[a/b/c]: Invalid value", "containers[0].resources.requests[a/b/c]: Invalid value"}},
	{"resources: extended resource names", res(obj{"requests.example.com/x": "1"}, nil), []string{"containers[0].resources.limits[requests.example.com/x]: Invalid value"}},
	{"resources: kubernetes.io names pass", res(obj{"kubernetes.io/foo": "1"}, obj{"kubernetes.io/foo": "500m"}), nil},
	{"resources: not negative", res(nil, obj{"cpu": "-1"}), []string{"containers[0].resources.requests[cpu]: Invalid value"}},
	{"resources: extended resources whole", res(obj{"example.com/gpu": "500m"}, nil), []string{"containers[0].resources.limits[example.com/gpu]: Invalid value"}},
	{"resources: request at most the limit", res(obj{"cpu": "1"}, obj{"cpu": "2"}), []string{"containers[0].resources.requests: Invalid value"}},
	{"resources: extended requests need limits", res(nil, obj{"example.com/gpu": "1"}), []string{"containers[0].resources.limits: Required value"}},
	{"resources: extended requests equal limits", res(obj{"example.com/gpu": "2"}, obj{"example.com/gpu": "1"}), []string{"containers[0].resources.requests: Invalid value"}},
	{"resources: huge pages in whole pages", res(obj{"hugepages-2Mi": "3Mi", "memory": "1Gi"}, nil), []string{"containers[0].resources.limits[hugepages-2Mi]: Invalid value"}},
	{"resources: huge pages need cpu or memory", res(obj{"hugepages-2Mi": "2Mi"}, nil), []string{"containers[0].resources: Forbidden"}},
	{"resources: huge pages with memory", res(obj{"hugepages-2Mi": "4Mi", "memory": "1Gi"}, obj{"hugepages-2Mi": "4Mi"}), nil},
	{"huge pages: the page size parses", res(obj{"hugepages-": "2Mi", "memory": "1"}, nil),
		[]string{"containers[0].resources.limits[hugepages-]: Invalid value", "containers[0].resources.limits[hugepages-]: Invalid value"}},
	{"huge pages: the page size a whole number of bytes", res(obj{"hugepages-1m": "2Mi", "memory": "1"}, nil), []string{"containers[0].resources.limits[hugepages-1m]: Invalid value"}},
	{"huge pages: quantities at the int64 limit", res(obj{"hugepages-8Ei": "8Ei", "memory": "1"}, nil), nil},
	{"resources: kubernetes.io resources are not overcommitted past limits", res(obj{"kubernetes.io/x": "1"}, obj{"kubernetes.io/x": "2"}), []string{"containers[0].resources.requests: Invalid value"}},
	{"resources: quota names are not container resources", res(obj{"pods": "1"}, obj{"requests.hugepages-2Mi": "2Mi"}),
		[]string{"containers[0].resources.limits[pods]: Invalid value", "containers[0].resources.requests[requests.hugepages-2Mi]: Invalid value"}},
	{"resources: rounding to milli units first", res(obj{"cpu": "1n"}, obj{"cpu": "1m"}), nil},
	{"claims: name one of the pod's claims", set("resources", obj{"claims": []any{obj{"name": "other"}}}), []string{"containers[0].resources.claims[0]: Not found"}},
	{"claims: none when the pod has none", func(s obj) {
		delete(s, "resourceClaims")
		set("resources", obj{"claims": []any{obj{"name": "gpu"}}})(s)
	},
		[]string{"containers[0].resources.claims[0]: Not found"}},
	{"claims: name required", set("resources", obj{"claims": []any{obj{"name": ""}}}), []string{"containers[0].resources.claims[0]: Required value"}},
	{"claims: no duplicate", set("resources", obj{"claims": []any{obj{"name": "gpu"}, obj{"name": "gpu"}}}), []string{"containers[0].resources.claims[1]: Duplicate value"}},
	{"claims: requests of one claim", set("resources", obj{"claims": []any{obj{"name": "gpu", "request": "a"}, obj{"name": "gpu", "request": "b"}}}), nil},
	{"claims: whole claim after one of its requests", set("resources", obj{"claims": []any{obj{"name": "gpu", "request": "a"}, obj{"name": "gpu", "request": "b"}, obj{"name": "gpu"}}}),
		[]string{"containers[0].resources.claims[2]: Duplicate value", "containers[0].resources.claims[2]: Duplicate value"}},
	{"claims: request a DNS label", set("resources", obj{"claims": []any{obj{"name": "gpu", "request": "Bad_R"}}}), []string{"containers[0].resources.claims[0].request: Invalid value"}},

	// validateResizePolicy and the init containers' resize rules.
	{"resizePolicy: cpu and memory", set("resizePolicy", []any{obj{"resourceName": "cpu", "restartPolicy": "NotRequired"}, obj{"resourceName": "memory", "restartPolicy": "RestartContainer"}}), nil},
	{"resizePolicy: unsupported resource", set("resizePolicy", []any{obj{"resourceName": "gpu", "restartPolicy": "NotRequired"}}), []string{"containers[0].resizePolicy: Unsupported value"}},
	{"resizePolicy: unsupported policy", set("resizePolicy", []any{obj{"resourceName": "cpu", "restartPolicy": "Sometimes"}}), []string{"containers[0].resizePolicy: Unsupported value"}},
	{"resizePolicy: resource and policy required", set("resizePolicy", []any{obj{"resourceName": "", "restartPolicy": ""}}), []string{"containers[0].resizePolicy: Required value", "containers[0].resizePolicy: Required value"}},
	{"resizePolicy: one per resource", set("resizePolicy", []any{obj{"resourceName": "cpu", "restartPolicy": "NotRequired"}, obj{"resourceName": "cpu", "restartPolicy": "NotRequired"}}), []string{"containers[0].resizePolicy[1]: Duplicate value"}},
	{"resizePolicy: NotRequired when the pod never restarts", func(s obj) {
		s["restartPolicy"] = "Never"
		set("resizePolicy", []any{obj{"resourceName": "cpu", "restartPolicy": "RestartContainer"}})(s)
	}, []string{"containers[0].resizePolicy: Invalid value"}},
	{"resizePolicy: not RestartContainer for a non-sidecar init container", func(s obj) {
		c(s, "initContainers", 0)["resizePolicy"] = []any{obj{"resourceName": "cpu", "restartPolicy": "RestartContainer"}}
	}, []string{"initContainers[0].resizePolicy[0].restartPolicy: Invalid value"}},
	{"resizePolicy: RestartContainer for a sidecar", func(s obj) {
		ic := c(s, "initContainers", 0)
		ic["restartPolicy"] = "Always"
		ic["resizePolicy"] = []any{obj{"resourceName": "cpu", "restartPolicy": "RestartContainer"}}
	}, nil},

	// validateContainerRestartPolicy and validateInitContainerRestartPolicy.
	{"restart rules: a regular container's", set("restartPolicy", "Never", "restartPolicyRules", []any{obj{"action": "Restart", "exitCodes": obj{"operator": "In", "values": []int{42}}}}), nil},
	{"restart rules: RestartAllContainers", set("restartPolicy", "Always", "restartPolicyRules", []any{obj{"action": "RestartAllContainers", "exitCodes": obj{"operator": "NotIn", "values": []int{0}}}}), nil},
	{"restartPolicy: supported", set("restartPolicy", "Sometimes"), []string{"containers[0].restartPolicy: Unsupported value"}},
	{"restart rules: need a policy", set("restartPolicyRules", []any{obj{"action": "Restart", "exitCodes": obj{"operator": "In", "values": []int{1}}}}), []string{"containers[0].restartPolicy: Required value"}},
	{"restart rules: at most 20", set("restartPolicy", "Never", "restartPolicyRules", repeat(21, obj{"action": "Restart", "exitCodes": obj{"operator": "In"}})), []string{"containers[0].restartPolicyRules: Too many"}},
	{"restart rules: action supported", set("restartPolicy", "Never", "restartPolicyRules", []any{obj{"action": "Bad", "exitCodes": obj{"operator": "In"}}}), []string{"containers[0].restartPolicyRules[0].action: Unsupported value"}},
	{"restart rules: exit codes required", set("restartPolicy", "Never", "restartPolicyRules", []any{obj{"action": "Restart"}}), []string{"containers[0].restartPolicyRules[0].exitCodes: Required value"}},
	{"restart rules: operator In or NotIn", set("restartPolicy", "Never", "restartPolicyRules", []any{obj{"action": "Restart", "exitCodes": obj{"operator": "Bad"}}}), []string{"containers[0].restartPolicyRules[0].exitCodes.operator: Unsupported value"}},
	{"restart rules: at most 255 exit codes", set("restartPolicy", "Never", "restartPolicyRules", []any{obj{"action": "Restart", "exitCodes": obj{"operator": "In", "values": seq(256)}}}), []string{"containers[0].restartPolicyRules[0].exitCodes.values: Too many"}},
	{"init restartPolicy: OnFailure with rules", func(s obj) {
		ic := c(s, "initContainers", 0)
		ic["restartPolicy"], ic["restartPolicyRules"] = "OnFailure", []any{obj{"action": "Restart", "exitCodes": obj{"operator": "In", "values": []int{3}}}}
	}, nil},
	{"init restartPolicy: supported", func(s obj) { c(s, "initContainers", 0)["restartPolicy"] = "Sometimes" }, []string{"initContainers[0].restartPolicy: Unsupported value"}},
	{"init restart rules: need a policy", func(s obj) {
		c(s, "initContainers", 0)["restartPolicyRules"] = []any{obj{"action": "Restart", "exitCodes": obj{"operator": "In"}}}
	}, []string{"initContainers[0].restartPolicy: Required value"}},
	{"sidecar: probes and hooks allowed", func(s obj) {
		ic := c(s, "initContainers", 0)
		ic["restartPolicy"] = "Always"
		ic["livenessProbe"] = obj{"exec": obj{"command": []string{"true"}}}
		ic["readinessProbe"] = obj{"tcpSocket": obj{"port": 80}}
		ic["startupProbe"] = obj{"grpc": obj{"port": 9000}}
		ic["lifecycle"] = obj{"preStop": obj{"sleep": obj{"seconds": 5}}}
	}, nil},
	{"sidecar: probes validated", func(s obj) {
		ic := c(s, "initContainers", 0)
		ic["restartPolicy"] = "Always"
		ic["livenessProbe"] = obj{"exec": obj{"command": []string{"true"}}, "successThreshold": 2}
	}, []string{"initContainers[0].livenessProbe.successThreshold: Invalid value"}},
	{"init container: no probes or hooks without restartPolicy Always", func(s obj) {
		ic := c(s, "initContainers", 0)
		ic["restartPolicy"] = "OnFailure"
		for _, k := range []string{"livenessProbe", "readinessProbe", "startupProbe"} {
			ic[k] = obj{"exec": obj{"command": []string{"true"}}}
		}
		ic["lifecycle"] = obj{}
	}, []string{"initContainers[0].lifecycle: Forbidden", "initContainers[0].livenessProbe: Forbidden", "initContainers[0].readinessProbe: Forbidden", "initContainers[0].startupProbe: Forbidden"}},

	// ValidateVolumeMounts.
	{"volumeMounts: every kind of volume", mounts(
		obj{"name": "cfg", "mountPath": "/a"}, obj{"name": "scratch", "mountPath": "/b", "subPath": "x"}, obj{"name": "data", "mountPath": "/c"},
		obj{"name": "eph", "mountPath": "/d"}, obj{"name": "img", "mountPath": "/e", "readOnly": true}, obj{"name": "cfg", "mountPath": "/f", "subPathExpr": "$(POD)"},
	), nil},
	{"volumeMounts: name a volume of the pod", mounts(obj{"name": "missing", "mountPath": "/a"}), []string{"containers[0].volumeMounts[0].name: Not found"}},
	{"volumeMounts: name required", mounts(obj{"name": "", "mountPath": "/a"}), []string{"containers[0].volumeMounts[0].name: Not found", "containers[0].volumeMounts[0].name: Required value"}},
	{"volumeMounts: mountPath required", mounts(obj{"name": "cfg", "mountPath": ""}), []string{"containers[0].volumeMounts[0].mountPath: Required value"}},
	{"volumeMounts: mountPath unique", mounts(obj{"name": "cfg", "mountPath": "/a"}, obj{"name": "scratch", "mountPath": "/a"}), []string{"containers[0].volumeMounts[1].mountPath: Invalid value"}},
	{"volumeMounts: subPath relative", mounts(obj{"name": "cfg", "mountPath": "/a", "subPath": "/abs"}), []string{"containers[0].volumeMounts.subPath: Invalid value"}},
	{"volumeMounts: subPath without backsteps", mounts(obj{"name": "cfg", "mountPath": "/a", "subPath": "a/../b"}), []string{"containers[0].volumeMounts.subPath: Invalid value"}},
	{"volumeMounts: subPathExpr relative", mounts(obj{"name": "cfg", "mountPath": "/a", "subPathExpr": "/$(X)"}), []string{"containers[0].volumeMounts.subPathExpr: Invalid value"}},
	{"volumeMounts: subPath or subPathExpr", mounts(obj{"name": "cfg", "mountPath": "/a", "subPath": "a", "subPathExpr": "b"}), []string{"containers[0].volumeMounts[0].subPathExpr: Invalid value"}},
	{"mountPropagation: supported", mounts(obj{"name": "cfg", "mountPath": "/a", "mountPropagation": "Bad"}), []string{"containers[0].volumeMounts.mountPropagation: Unsupported value"}},
	{"mountPropagation: Bidirectional needs a privileged container", mounts(obj{"name": "cfg", "mountPath": "/a", "mountPropagation": "Bidirectional"}), []string{"containers[0].volumeMounts.mountPropagation: Forbidden"}},
	{"mountPropagation: Bidirectional in a privileged container", func(s obj) {
		mounts(obj{"name": "cfg", "mountPath": "/a", "mountPropagation": "Bidirectional"})(s)
		app(s)["securityContext"] = obj{"privileged": true}
	}, nil},
	{"recursiveReadOnly: read-only mounts only", mounts(obj{"name": "cfg", "mountPath": "/a", "recursiveReadOnly": "Enabled"}), []string{"containers[0].volumeMounts.recursiveReadOnly: Forbidden"}},
	{"recursiveReadOnly: propagation None only", mounts(obj{"name": "cfg", "mountPath": "/a", "readOnly": true, "recursiveReadOnly": "IfPossible", "mountPropagation": "HostToContainer"}), []string{"containers[0].volumeMounts.recursiveReadOnly: Forbidden"}},
	{"recursiveReadOnly: Disabled anywhere", mounts(obj{"name": "cfg", "mountPath": "/a", "recursiveReadOnly": "Disabled", "mountPropagation": "HostToContainer"}), nil},
	{"recursiveReadOnly: supported", mounts(obj{"name": "cfg", "mountPath": "/a", "readOnly": true, "recursiveReadOnly": "Bad"}), []string{"containers[0].volumeMounts.recursiveReadOnly: Unsupported value"}},

	// ValidateVolumeDevices.
	{"volumeDevices: claims and ephemeral volumes", set("volumeDevices", []any{obj{"name": "data", "devicePath": "/dev/a"}, obj{"name": "eph", "devicePath": "/dev/b"}}), nil},
	{"volumeDevices: block volumes only", set("volumeDevices", []any{obj{"name": "cfg", "devicePath": "/dev/a"}}), []string{"containers[0].volumeDevices[0].name: Invalid value"}},
	{"volumeDevices: name a volume", set("volumeDevices", []any{obj{"name": "missing", "devicePath": "/dev/a"}}), []string{"containers[0].volumeDevices[0].name: Not found"}},
	{"volumeDevices: name and path required", set("volumeDevices", []any{obj{"name": "", "devicePath": ""}}), []string{
		"containers[0].volumeDevices[0].devicePath: Required value", "containers[0].volumeDevices[0].name: Not found", "containers[0].volumeDevices[0].name: Required value"}},
	{"volumeDevices: empty paths clash", set("volumeDevices", []any{obj{"name": "data", "devicePath": ""}, obj{"name": "eph", "devicePath": ""}}), []string{
		"containers[0].volumeDevices[0].devicePath: Required value", "containers[0].volumeDevices[1].devicePath: Invalid value", "containers[0].volumeDevices[1].devicePath: Required value"}},
	{"volumeDevices: name unique", set("volumeDevices", []any{obj{"name": "data", "devicePath": "/dev/a"}, obj{"name": "data", "devicePath": "/dev/b"}}), []string{"containers[0].volumeDevices[1].name: Invalid value"}},
	{"volumeDevices: path unique", set("volumeDevices", []any{obj{"name": "data", "devicePath": "/dev/a"}, obj{"name": "eph", "devicePath": "/dev/a"}}), []string{"containers[0].volumeDevices[1].devicePath: Invalid value"}},
	{"volumeDevices: path without backsteps", set("volumeDevices", []any{obj{"name": "data", "devicePath": "/dev/../a"}}), []string{"containers[0].volumeDevices[0].devicePath: Invalid value"}},
	{"volumeDevices: not also mounted", set("volumeDevices", []any{obj{"name": "data", "devicePath": "/dev/a"}}, "volumeMounts", []any{obj{"name": "data", "mountPath": "/data"}}),
		[]string{"containers[0].volumeDevices[0].name: Invalid value", "containers[0].volumeMounts[0].name: Invalid value"}},
	{"volumeDevices: path not a mount path", set("volumeDevices", []any{obj{"name": "data", "devicePath": "/x"}}, "volumeMounts", []any{obj{"name": "cfg", "mountPath": "/x"}}),
		[]string{"containers[0].volumeDevices[0].devicePath: Invalid value", "containers[0].volumeMounts[0].mountPath: Invalid value"}},

	// Probes.
	{"probe: a handler required", probe("livenessProbe", obj{"periodSeconds": 5}), []string{"containers[0].livenessProbe: Required value"}},
	{"probe: one handler", probe("readinessProbe", obj{"exec": obj{"command": []string{"true"}}, "tcpSocket": obj{"port": 80}, "grpc": obj{"port": 9000}}),
		[]string{"containers[0].readinessProbe.grpc: Forbidden", "containers[0].readinessProbe.tcpSocket: Forbidden"}},
	{"probe: liveness successThreshold 1", probe("livenessProbe", obj{"exec": obj{"command": []string{"true"}}, "successThreshold": 2}), []string{"containers[0].livenessProbe.successThreshold: Invalid value"}},
	{"probe: startup successThreshold 1", probe("startupProbe", obj{"exec": obj{"command": []string{"true"}}, "successThreshold": 3}), []string{"containers[0].startupProbe.successThreshold: Invalid value"}},
	{"probe: readiness successThreshold any", probe("readinessProbe", obj{"exec": obj{"command": []string{"true"}}, "successThreshold": 3}), nil},
	{"probe: no negative numbers", probe("readinessProbe", obj{"exec": obj{"command": []string{"true"}}, "initialDelaySeconds": -1, "timeoutSeconds": -1, "periodSeconds": -1, "successThreshold": -1, "failureThreshold": -1}), []string{
		"containers[0].readinessProbe.failureThreshold: Invalid value", "containers[0].readinessProbe.initialDelaySeconds: Invalid value", "containers[0].readinessProbe.periodSeconds: Invalid value",
		"containers[0].readinessProbe.successThreshold: Invalid value", "containers[0].readinessProbe.timeoutSeconds: Invalid value"}},
	{"probe: terminationGracePeriodSeconds positive", probe("livenessProbe", obj{"exec": obj{"command": []string{"true"}}, "terminationGracePeriodSeconds": 0}), []string{"containers[0].livenessProbe.terminationGracePeriodSeconds: Invalid value"}},
	{"probe: readiness has no terminationGracePeriodSeconds", probe("readinessProbe", obj{"exec": obj{"command": []string{"true"}}, "terminationGracePeriodSeconds": 10}), []string{"containers[0].readinessProbe.terminationGracePeriodSeconds: Invalid value"}},
	{"exec: command required", probe("livenessProbe", obj{"exec": obj{}}), []string{"containers[0].livenessProbe.exec.command: Required value"}},
	{"httpGet: port a name", probe("livenessProbe", obj{"httpGet": obj{"port": "-http"}}), []string{"containers[0].livenessProbe.httpGet.port: Invalid value"}},
	{"httpGet: port a number", probe("livenessProbe", obj{"httpGet": obj{"port": 0}}), []string{"containers[0].livenessProbe.httpGet.port: Invalid value"}},
	{"httpGet: scheme HTTP or HTTPS", probe("livenessProbe", obj{"httpGet": obj{"port": 80, "scheme": "ftp"}}), []string{"containers[0].livenessProbe.httpGet.scheme: Unsupported value"}},
	{"httpGet: header names", probe("livenessProbe", obj{"httpGet": obj{"port": 80, "httpHeaders": []any{obj{"name": "X_A", "value": "v"}, obj{"name": "X-B", "value": ""}}}}), []string{"containers[0].livenessProbe.httpGet.httpHeaders: Invalid value"}},
	{"tcpSocket: port", probe("startupProbe", obj{"tcpSocket": obj{"port": 65536}}), []string{"containers[0].startupProbe.tcpSocket.port: Invalid value"}},
	{"grpc: port", probe("startupProbe", obj{"grpc": obj{"port": -1}}), []string{"containers[0].startupProbe.grpc.port: Invalid value"}},

	// validateLifecycle.
	{"lifecycle: hooks", set("lifecycle", obj{"postStart": obj{"httpGet": obj{"port": "http"}}, "preStop": obj{"sleep": obj{"seconds": 30}}}), nil},
	{"lifecycle: a hook needs a handler", set("lifecycle", obj{"postStart": obj{}}), []string{"containers[0].lifecycle.postStart: Required value"}},
	{"lifecycle: one handler", set("lifecycle", obj{"preStop": obj{"exec": obj{"command": []string{"x"}}, "sleep": obj{"seconds": 1}}}), []string{"containers[0].lifecycle.preStop.sleep: Forbidden"}},
	{"sleep: zero allowed", set("lifecycle", obj{"preStop": obj{"sleep": obj{"seconds": 0}}}), nil},
	{"sleep: not negative", set("lifecycle", obj{"preStop": obj{"sleep": obj{"seconds": -1}}}), []string{"containers[0].lifecycle.preStop.sleep: Invalid value"}},
	{"sleep: within the grace period", func(s obj) {
		s["terminationGracePeriodSeconds"] = 10
		set("lifecycle", obj{"postStart": obj{"sleep": obj{"seconds": 11}}})(s)
	}, []string{"containers[0].lifecycle.postStart.sleep: Invalid value"}},
	{"stopSignal: dropped while ContainerStopSignals is off", set("lifecycle", obj{"stopSignal": "SIGBOGUS"}), nil},

	// ValidateSecurityContext.
	{"securityContext: privileged allowed by the cluster", sc(obj{"privileged": true, "allowPrivilegeEscalation": true}), nil},
	{"runAsUser: 0 to 2^31-1", sc(obj{"runAsUser": 2147483648}), []string{"containers[0].securityContext.runAsUser: Invalid value"}},
	{"runAsGroup: not negative", sc(obj{"runAsGroup": -1}), []string{"containers[0].securityContext.runAsGroup: Invalid value"}},
	{"procMount: supported", sc(obj{"procMount": "Bad"}), []string{"containers[0].securityContext.procMount: Unsupported value"}},
	{"procMount: Unmasked needs a user namespace", sc(obj{"procMount": "Unmasked"}), []string{"containers[0].securityContext.procMount: Invalid value"}},
	{"procMount: Unmasked without host users", func(s obj) { s["hostUsers"] = false; sc(obj{"procMount": "Unmasked"})(s) }, nil},
	{"allowPrivilegeEscalation: not false when privileged", sc(obj{"privileged": true, "allowPrivilegeEscalation": false}), []string{"containers[0].securityContext: Invalid value"}},
	{"allowPrivilegeEscalation: not false with CAP_SYS_ADMIN", sc(obj{"allowPrivilegeEscalation": false, "capabilities": obj{"add": []string{"CAP_SYS_ADMIN", "CAP_SYS_ADMIN", "SYS_ADMIN"}}}),
		[]string{"containers[0].securityContext: Invalid value", "containers[0].securityContext: Invalid value"}},
	{"seccompProfile: type required", sc(obj{"seccompProfile": obj{"type": ""}}), []string{"containers[0].securityContext.seccompProfile.type: Required value"}},
	{"seccompProfile: type supported", sc(obj{"seccompProfile": obj{"type": "Bad"}}), []string{"containers[0].securityContext.seccompProfile.type: Unsupported value"}},
	{"seccompProfile: Localhost needs a profile", sc(obj{"seccompProfile": obj{"type": "Localhost"}}), []string{"containers[0].securityContext.seccompProfile.localhostProfile: Required value"}},
	{"seccompProfile: profile relative", sc(obj{"seccompProfile": obj{"type": "Localhost", "localhostProfile": "/etc/p.json"}}), []string{"containers[0].securityContext.seccompProfile.localhostProfile: Invalid value"}},
	{"seccompProfile: profile only for Localhost", sc(obj{"seccompProfile": obj{"type": "RuntimeDefault", "localhostProfile": "p.json"}}), []string{"containers[0].securityContext.seccompProfile.localhostProfile: Invalid value"}},
	{"appArmorProfile: type required", sc(obj{"appArmorProfile": obj{"type": ""}}), []string{"containers[0].securityContext.appArmorProfile.type: Required value"}},
	{"appArmorProfile: type supported", sc(obj{"appArmorProfile": obj{"type": "Bad"}}), []string{"containers[0].securityContext.appArmorProfile.type: Unsupported value"}},
	{"appArmorProfile: Localhost needs a profile", sc(obj{"appArmorProfile": obj{"type": "Localhost"}}), []string{"containers[0].securityContext.appArmorProfile.localhostProfile: Required value"}},
	{"appArmorProfile: profile not blank", sc(obj{"appArmorProfile": obj{"type": "Localhost", "localhostProfile": ""}}), []string{"containers[0].securityContext.appArmorProfile.localhostProfile: Required value"}},
	{"appArmorProfile: profile not padded", sc(obj{"appArmorProfile": obj{"type": "Localhost", "localhostProfile": " p"}}), []string{"containers[0].securityContext.appArmorProfile.localhostProfile: Invalid value"}},
	{"appArmorProfile: profile at most 4095 bytes", sc(obj{"appArmorProfile": obj{"type": "Localhost", "localhostProfile": strings.Repeat("p", 4096)}}), []string{"containers[0].securityContext.appArmorProfile.localhostProfile: Too long"}},
	{"appArmorProfile: profile only for Localhost", sc(obj{"appArmorProfile": obj{"type": "Unconfined", "localhostProfile": "p"}}), []string{"containers[0].securityContext.appArmorProfile.localhostProfile: Invalid value"}},
	{"windowsOptions: gmsaCredentialSpecName a DNS subdomain", sc(obj{"windowsOptions": obj{"gmsaCredentialSpecName": "Bad_Name"}}), []string{"containers[0].securityContext.windowsOptions.gmsaCredentialSpecName: Invalid value"}},
	{"windowsOptions: gmsaCredentialSpec not empty", sc(obj{"windowsOptions": obj{"gmsaCredentialSpec": ""}}), []string{"containers[0].securityContext.windowsOptions.gmsaCredentialSpec: Invalid value"}},
	{"windowsOptions: gmsaCredentialSpec at most 64 KiB", sc(obj{"windowsOptions": obj{"gmsaCredentialSpec": strings.Repeat("x", 64*1024+1)}}), []string{"containers[0].securityContext.windowsOptions.gmsaCredentialSpec: Invalid value"}},
	{"runAsUserName: DOMAIN\\USER", sc(obj{"windowsOptions": obj{"runAsUserName": `example.com\svc`}}), nil},
	{"runAsUserName: not empty", sc(obj{"windowsOptions": obj{"runAsUserName": ""}}), []string{"containers[0].securityContext.windowsOptions.runAsUserName: Invalid value"}},
	{"runAsUserName: one backslash", sc(obj{"windowsOptions": obj{"runAsUserName": `a\b\c`}}), []string{"containers[0].securityContext.windowsOptions.runAsUserName: Invalid value"}},
	{"runAsUserName: no control characters", sc(obj{"windowsOptions": obj{"runAsUserName": "a\tb"}}), []string{"containers[0].securityContext.windowsOptions.runAsUserName: Invalid value"}},
	{"runAsUserName: domain NetBIOS or DNS", sc(obj{"windowsOptions": obj{"runAsUserName": `.dom\u`}}), []string{"containers[0].securityContext.windowsOptions.runAsUserName: Invalid value"}},
	{"runAsUserName: domain under 256 characters", sc(obj{"windowsOptions": obj{"runAsUserName": strings.Repeat("d", 256) + `\u`}}), []string{
		"containers[0].securityContext.windowsOptions.runAsUserName: Invalid value", "containers[0].securityContext.windowsOptions.runAsUserName: Invalid value"}},
	{"runAsUserName: user not empty", sc(obj{"windowsOptions": obj{"runAsUserName": `dom\`}}), []string{"containers[0].securityContext.windowsOptions.runAsUserName: Invalid value"}},
	{"runAsUserName: user at most 104 characters", sc(obj{"windowsOptions": obj{"runAsUserName": strings.Repeat("u", 105)}}), []string{"containers[0].securityContext.windowsOptions.runAsUserName: Invalid value"}},
	{"runAsUserName: user not only dots and spaces", sc(obj{"windowsOptions": obj{"runAsUserName": ". ."}}), []string{"containers[0].securityContext.windowsOptions.runAsUserName: Invalid value"}},
	{"runAsUserName: user characters", sc(obj{"windowsOptions": obj{"runAsUserName": "us@er"}}), []string{"containers[0].securityContext.windowsOptions.runAsUserName: Invalid value"}},

	// validateEphemeralContainers.
	{"ephemeral containers: not in a template", func(s obj) { c(s, "ephemeralContainers", 0) }, []string{ephemeralForbidden}},
	{"ephemeral containers: fields they may not set", func(s obj) {
		ec := c(s, "ephemeralContainers", 0)
		ec["ports"], ec["resources"], ec["resizePolicy"] = []any{}, obj{"limits": obj{}}, []any{}
		ec["restartPolicy"], ec["restartPolicyRules"] = "Never", []any{}
		for _, k := range []string{"livenessProbe", "readinessProbe", "startupProbe"} {
			ec[k] = obj{"exec": obj{"command": []string{"true"}}}
		}
		ec["lifecycle"] = obj{"preStop": obj{"exec": obj{"command": []string{"x"}}}}
	}, []string{
		ephemeralForbidden, "ephemeralContainers[0].lifecycle: Forbidden", "ephemeralContainers[0].livenessProbe: Forbidden", "ephemeralContainers[0].ports: Forbidden",
		"ephemeralContainers[0].readinessProbe: Forbidden", "ephemeralContainers[0].resizePolicy: Forbidden", "ephemeralContainers[0].resources: Forbidden",
		"ephemeralContainers[0].restartPolicy: Forbidden", "ephemeralContainers[0].restartPolicyRules: Forbidden", "ephemeralContainers[0].startupProbe: Forbidden"}},
	{"ephemeral containers: target a regular or init container", func(s obj) { c(s, "ephemeralContainers", 0)["targetContainerName"] = "missing" },
		[]string{ephemeralForbidden, "ephemeralContainers[0].targetContainerName: Not found"}},
	{"ephemeral containers: no subPath", func(s obj) {
		c(s, "ephemeralContainers", 0)["volumeMounts"] = []any{obj{"name": "cfg", "mountPath": "/a", "subPath": "x"}, obj{"name": "cfg", "mountPath": "/b", "subPathExpr": "y"}}
	}, []string{ephemeralForbidden, "ephemeralContainers[0].volumeMounts[0].subPath: Forbidden", "ephemeralContainers[0].volumeMounts[1].subPathExpr: Forbidden"}},
}

// repeat returns n copies of v.
func repeat(n int, v any) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = v
	}
	return out
}

// seq returns 0..n-1.
func seq(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// TestContainerRules runs each rule's case both ways.
func TestContainerRules(t *testing.T) {
	ours := func(data []byte) Outcome { out, _ := OursCreateDeployment(data); return out }
	for _, tc := range containerRuleCases {
		t.Run(tc.name, func(t *testing.T) { checkRuleCase(t, tc, ours) })
	}
}

// checkRuleCase runs a case through the real server and through ours: both
// must report exactly the problems listed under the containers, and, when
// none are listed, both must accept and store the same object.
func checkRuleCase(t *testing.T, tc ruleCase, ours func([]byte) Outcome) {
	t.Helper()
	spec := baseSpec()
	tc.edit(spec)
	data := deploymentJSON(spec)
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
	if got := containerProblems(real.Problems); !slices.Equal(got, want) {
		t.Errorf("real server: %v, want %v", got, want)
	}
	if got := containerProblems(our.Problems); !slices.Equal(got, want) {
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
