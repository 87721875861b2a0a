package difftest

import (
	"encoding/json"
	"math/rand"
	"strings"
)

// A generator of plausible Deployments whose containers exercise every
// container validation rule: each field is usually absent or valid, and
// sometimes drawn from values at or past a limit, unsupported enum values,
// empty and duplicate entries. Values are drawn from small pools so that
// names and paths collide (duplicate names, mounts of a volume also used
// as a device, two ports on one host port).

type ctrObj = map[string]any

// ctrGen draws values from r; bad is the chance that a value comes from a
// pool of invalid ones.
type ctrGen struct {
	r   *rand.Rand
	bad float64
}

// newCtrGen returns a generator for one case: some cases draw only valid
// values, others few or many invalid ones.
func newCtrGen(seed int64) ctrGen {
	r := rand.New(rand.NewSource(seed))
	return ctrGen{r: r, bad: []float64{0, 0, 0.02, 0.05, 0.15, 0.3}[r.Intn(6)]}
}

// chance reports true with probability p.
func (g ctrGen) chance(p float64) bool { return g.r.Float64() < p }

// ctrOneOf returns a random element of pool.
func ctrOneOf[T any](g ctrGen, pool ...T) T { return pool[g.r.Intn(len(pool))] }

// ctrPick returns a value from good, or, with probability g.bad, from bad.
func ctrPick[T any](g ctrGen, good, bad []T) T {
	if len(bad) > 0 && g.chance(g.bad) {
		return ctrOneOf(g, bad...)
	}
	return ctrOneOf(g, good...)
}

// maybe sets o[k] to v() with probability p.
func (g ctrGen) maybe(o ctrObj, p float64, k string, v func() any) {
	if g.chance(p) {
		o[k] = v()
	}
}

// list returns between 0 and max elements made by f, and sometimes none
// at all but an empty list.
func (g ctrGen) list(max int, f func() any) []any {
	out := []any{}
	for range g.r.Intn(max + 1) {
		out = append(out, f())
	}
	return out
}

// The pools of values. The volumes are those of ctrBaseSpec: cfg (configMap),
// scratch (emptyDir), data (persistentVolumeClaim), eph (ephemeral) and
// img (image).
var (
	ctrNames         = []string{"app", "side", "init", "dbg", "web-1"}
	ctrBadNames      = []string{"", "App", "a.b", "Bad_Name", strings.Repeat("a", 63), strings.Repeat("a", 64)}
	ctrImages        = []string{"nginx:1.25", "busybox", "nginx:latest", "registry.example.com:5000/app:v1"}
	ctrBadImages     = []string{"", " nginx", "nginx ", " "}
	ctrPortNames     = []string{"http", "metrics", "grpc"}
	ctrBadPortNames  = []string{"HTTP", "a--b", "-ab", "1234", "verylongportname", "web_port"}
	ctrPortNums      = []int64{80, 443, 8080, 1, 65535}
	ctrBadPortNums   = []int64{0, -1, 65536, 70000}
	ctrEnvNames      = []string{"A", "MY_VAR", "my.var", "POD_NAME"}
	ctrBadEnvNames   = []string{"", "1ABC", "a=b", "é", "with space", "-x", "..", "."}
	ctrObjNames      = []string{"cfg", "app-config", "secret1"}
	ctrBadObjNames   = []string{"", "Bad", "cfg-", "a_b", strings.Repeat("a", 254)}
	ctrKeys          = []string{"k", "key.name", "KEY_NAME"}
	ctrBadKeys       = []string{"", "bad key", "..x", ".", "..", strings.Repeat("k", 254)}
	ctrFieldPaths    = []string{"metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName", "spec.serviceAccountName", "status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs", "metadata.labels['app']", "metadata.annotations['Example.COM/x']", "spec.host"}
	ctrBadFieldPaths = []string{"", "metadata.labels", "metadata.annotations", "spec.restartPolicy", "status.phase", "bogus", "metadata.name['x']", "metadata.labels['bad key!']", "metadata.annotations['']", "metadata.labels['a/b/c']"}
	ctrResFields     = []string{"limits.cpu", "requests.cpu", "limits.memory", "requests.memory", "limits.ephemeral-storage", "requests.ephemeral-storage", "requests.hugepages-2Mi", "limits.hugepages-1Gi"}
	ctrBadResFields  = []string{"", "cpu", "limits.gpu", "requests.storage"}
	ctrDivisors      = []string{"1", "1m", "1Mi", "1k", "1Gi", "1e3", "1000m"}
	ctrBadDivisors   = []string{"2", "500m", "0", "1Ki", "3Mi", "1n"}
	ctrResNames      = []string{"cpu", "memory", "ephemeral-storage", "hugepages-2Mi", "example.com/gpu"}
	ctrBadResNames   = []string{"hugepages-bad", "kubernetes.io/foo", "pods", "storage", "requests.cpu", "bad name", "a/b/c", "requests.example.com/x", "gpu", "example.com/", "hugepages-0", "hugepages-1m"}
	ctrQuantities    = []string{"1", "100m", "500m", "2Mi", "4Mi", "1Gi", "3", "2"}
	ctrBadQuantities = []string{"-1", "0", "1.5", "1m", "-100m", "3Mi"}
	ctrMountPaths    = []string{"/etc/cfg", "/data", "/x", "/dev/xvda"}
	ctrBadMountPaths = []string{"", "/etc/cfg"}
	ctrSubPaths      = []string{"sub", "a/b", "x.conf"}
	ctrBadSubPaths   = []string{"/abs", "../up", "a/../b", "..", "a/.."}
	ctrSignals       = []string{"SIGTERM", "SIGKILL", "SIGRTMIN+1", "SIGUSR1"}
)

// container returns a container for list kind ("containers",
// "initContainers" or "ephemeralContainers").
func (g ctrGen) container(kind string) ctrObj {
	c := ctrObj{"name": ctrPick(g, ctrNames, ctrBadNames), "image": ctrPick(g, ctrImages, ctrBadImages)}
	g.maybe(c, 0.2, "imagePullPolicy", func() any {
		return ctrPick(g, []string{"Always", "IfNotPresent", "Never"}, []string{"Sometimes", "always"})
	})
	g.maybe(c, 0.1, "command", func() any { return []string{"sh", "-c", "true"} })
	g.maybe(c, 0.1, "args", func() any { return []string{"--x"} })
	g.maybe(c, 0.1, "workingDir", func() any { return ctrOneOf(g, "/work", "relative", "") })
	g.maybe(c, 0.15, "terminationMessagePolicy", func() any { return ctrPick(g, []string{"File", "FallbackToLogsOnError"}, []string{"Bad", "file"}) })
	g.maybe(c, 0.1, "terminationMessagePath", func() any { return ctrOneOf(g, "/tmp/msg", "rel") })
	g.maybe(c, 0.4, "ports", func() any { return g.distinct(g.distinct(g.list(3, g.port), "name"), "hostPort") })
	g.maybe(c, 0.4, "env", func() any { return g.list(4, g.envVar) })
	g.maybe(c, 0.2, "envFrom", func() any { return g.list(2, g.envFrom) })
	g.maybe(c, 0.4, "resources", g.resources)
	g.maybe(c, 0.15, "resizePolicy", func() any { return g.distinct(g.list(3, g.resizePolicy), "resourceName") })
	restart := 0.1
	if kind == "initContainers" {
		restart = 0.6
	}
	g.maybe(c, restart, "restartPolicy", func() any { return ctrPick(g, []string{"Always", "Never", "OnFailure"}, []string{"Sometimes", ""}) })
	if _, ok := c["restartPolicy"]; ok || g.chance(g.bad) {
		g.maybe(c, 0.3, "restartPolicyRules", func() any { return g.restartRules() })
	}
	g.maybe(c, 0.4, "volumeMounts", func() any { return g.distinct(g.list(3, g.volumeMount), "mountPath") })
	if _, ok := c["volumeMounts"]; !ok || g.chance(g.bad) {
		g.maybe(c, 0.15, "volumeDevices", func() any { return g.distinct(g.distinct(g.list(2, g.volumeDevice), "name"), "devicePath") })
	}
	probe := 0.3
	if kind == "initContainers" {
		probe = 0.1
	}
	for _, p := range []string{"livenessProbe", "readinessProbe", "startupProbe"} {
		g.maybe(c, probe, p, g.probe)
	}
	g.maybe(c, probe, "lifecycle", g.lifecycle)
	g.maybe(c, 0.35, "securityContext", g.securityContext)
	g.maybe(c, 0.05, "stdin", func() any { return true })
	g.maybe(c, 0.05, "stdinOnce", func() any { return true })
	g.maybe(c, 0.05, "tty", func() any { return true })
	if kind == "ephemeralContainers" {
		g.maybe(c, 0.5, "targetContainerName", func() any { return ctrOneOf(g, "app", "side", "init", "missing") })
	}
	return c
}

// deployment returns a Deployment's JSON whose template holds random
// containers, init containers and (rarely) ephemeral containers, with the
// pod-level settings container rules read: the restart policy, the
// termination grace period, host networking and host users.
func (g ctrGen) deployment() []byte {
	spec := ctrBaseSpec()
	cs := []any{}
	for range 1 + g.r.Intn(3) {
		cs = append(cs, g.container("containers"))
	}
	if g.chance(g.bad / 5) {
		cs = []any{}
	}
	spec["containers"] = cs
	if g.chance(0.4) {
		ics := []any{}
		for range 1 + g.r.Intn(2) {
			ics = append(ics, g.container("initContainers"))
		}
		spec["initContainers"] = ics
	}
	if g.chance(g.bad / 2) {
		spec["ephemeralContainers"] = []any{g.container("ephemeralContainers")}
	}
	if !g.chance(g.bad * 2) {
		g.renameUniquely(spec)
	}
	g.maybe(spec, 0.1, "restartPolicy", func() any { return ctrOneOf(g, "Always", "Never", "OnFailure") })
	g.maybe(spec, 0.2, "terminationGracePeriodSeconds", func() any { return ctrOneOf[int64](g, 0, 5, 30, 60) })
	g.maybe(spec, 0.1, "hostNetwork", func() any { return true })
	g.maybe(spec, 0.1, "hostUsers", func() any { return false })
	if spec["hostUsers"] == false && !g.chance(g.bad) {
		delete(spec, "hostNetwork")
	}
	if g.chance(g.bad * 2) {
		delete(spec, "resourceClaims")
	}
	return ctrDeploymentJSON(spec)
}

// ctrBaseSpec is a valid pod spec with one volume of each kind the mounts
// and devices use, and two resource claims.
func ctrBaseSpec() ctrObj {
	return ctrObj{
		"containers": []any{ctrObj{"name": "app", "image": "nginx:1.25"}},
		"volumes": []any{
			ctrObj{"name": "cfg", "configMap": ctrObj{"name": "cfg"}},
			ctrObj{"name": "scratch", "emptyDir": ctrObj{}},
			ctrObj{"name": "data", "persistentVolumeClaim": ctrObj{"claimName": "data"}},
			ctrObj{"name": "eph", "ephemeral": ctrObj{"volumeClaimTemplate": ctrObj{"spec": ctrObj{
				"accessModes": []string{"ReadWriteOnce"},
				"resources":   ctrObj{"requests": ctrObj{"storage": "1Gi"}},
			}}}},
			ctrObj{"name": "img", "image": ctrObj{"reference": "registry.example.com/data:v1"}},
		},
		"resourceClaims": []any{
			ctrObj{"name": "gpu", "resourceClaimName": "gpu-claim"},
			ctrObj{"name": "fpga", "resourceClaimTemplateName": "fpga-template"},
		},
	}
}

// ctrDeploymentJSON wraps a pod spec in a valid Deployment.
func ctrDeploymentJSON(spec ctrObj) []byte {
	d := ctrObj{
		"apiVersion": "apps/v1",
		"kind":       "Deployment",
		"metadata":   ctrObj{"name": "web"},
		"spec": ctrObj{
			"selector": ctrObj{"matchLabels": ctrObj{"app": "web"}},
			"template": ctrObj{"metadata": ctrObj{"labels": ctrObj{"app": "web"}}, "spec": spec},
		},
	}
	b, err := json.Marshal(d)
	if err != nil {
		panic(err)
	}
	return b
}

// renameUniquely gives the containers of spec distinct valid names (the
// pools repeat names on purpose, and most cases should not).
func (g ctrGen) renameUniquely(spec ctrObj) {
	i := 0
	for _, list := range []string{"containers", "initContainers", "ephemeralContainers"} {
		cs, _ := spec[list].([]any)
		for _, c := range cs {
			c.(ctrObj)["name"] = []string{"app", "side", "init", "dbg", "web-1", "c5", "c6", "c7"}[i]
			i++
		}
	}
}

// distinct makes the entries of a list distinct in key k (unless the
// case may be invalid), by dropping later entries that repeat one.
func (g ctrGen) distinct(list []any, k string) []any {
	if g.chance(g.bad) {
		return list
	}
	seen := map[any]bool{}
	out := []any{}
	for _, e := range list {
		v := e.(ctrObj)[k]
		if !seen[v] {
			seen[v] = true
			out = append(out, e)
		}
	}
	return out
}
