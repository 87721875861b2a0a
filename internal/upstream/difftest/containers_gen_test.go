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

type obj = map[string]any

// gen draws values from r; bad is the chance that a value comes from a
// pool of invalid ones.
type gen struct {
	r   *rand.Rand
	bad float64
}

// newGen returns a generator for one case: some cases draw only valid
// values, others few or many invalid ones.
func newGen(seed int64) gen {
	r := rand.New(rand.NewSource(seed))
	return gen{r: r, bad: []float64{0, 0, 0.02, 0.05, 0.15, 0.3}[r.Intn(6)]}
}

// chance reports true with probability p.
func (g gen) chance(p float64) bool { return g.r.Float64() < p }

// one returns a random element of pool.
func one[T any](g gen, pool ...T) T { return pool[g.r.Intn(len(pool))] }

// pick returns a value from good, or, with probability g.bad, from bad.
func pick[T any](g gen, good, bad []T) T {
	if len(bad) > 0 && g.chance(g.bad) {
		return one(g, bad...)
	}
	return one(g, good...)
}

// maybe sets o[k] to v() with probability p.
func (g gen) maybe(o obj, p float64, k string, v func() any) {
	if g.chance(p) {
		o[k] = v()
	}
}

// list returns between 0 and max elements made by f, and sometimes none
// at all but an empty list.
func (g gen) list(max int, f func() any) []any {
	out := []any{}
	for range g.r.Intn(max + 1) {
		out = append(out, f())
	}
	return out
}

// The pools of values. The volumes are those of baseSpec: cfg (configMap),
// scratch (emptyDir), data (persistentVolumeClaim), eph (ephemeral) and
// img (image).
var (
	ctrNames      = []string{"app", "side", "init", "dbg", "web-1"}
	badCtrNames   = []string{"", "App", "a.b", "Bad_Name", strings.Repeat("a", 63), strings.Repeat("a", 64)}
	images        = []string{"nginx:1.25", "busybox", "nginx:latest", "registry.example.com:5000/app:v1"}
	badImages     = []string{"", " nginx", "nginx ", " "}
	portNames     = []string{"http", "metrics", "grpc"}
	badPortNames  = []string{"HTTP", "a--b", "-ab", "1234", "verylongportname", "web_port"}
	portNums      = []int64{80, 443, 8080, 1, 65535}
	badPortNums   = []int64{0, -1, 65536, 70000}
	envNames      = []string{"A", "MY_VAR", "my.var", "POD_NAME"}
	badEnvNames   = []string{"", "1ABC", "a=b", "é", "with space", "-x", "..", "."}
	objNames      = []string{"cfg", "app-config", "secret1"}
	badObjNames   = []string{"", "Bad", "cfg-", "a_b", strings.Repeat("a", 254)}
	keys          = []string{"k", "key.name", "KEY_NAME"}
	badKeys       = []string{"", "bad key", "..x", ".", "..", strings.Repeat("k", 254)}
	fieldPaths    = []string{"metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName", "spec.serviceAccountName", "status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs", "metadata.labels['app']", "metadata.annotations['Example.COM/x']", "spec.host"}
	badFieldPaths = []string{"", "metadata.labels", "metadata.annotations", "spec.restartPolicy", "status.phase", "bogus", "metadata.name['x']", "metadata.labels['bad key!']", "metadata.annotations['']", "metadata.labels['a/b/c']"}
	resFields     = []string{"limits.cpu", "requests.cpu", "limits.memory", "requests.memory", "limits.ephemeral-storage", "requests.ephemeral-storage", "requests.hugepages-2Mi", "limits.hugepages-1Gi"}
	badResFields  = []string{"", "cpu", "limits.gpu", "requests.storage"}
	divisors      = []string{"1", "1m", "1Mi", "1k", "1Gi", "1e3", "1000m"}
	badDivisors   = []string{"2", "500m", "0", "1Ki", "3Mi", "1n"}
	resNames      = []string{"cpu", "memory", "ephemeral-storage", "hugepages-2Mi", "example.com/gpu"}
	badResNames   = []string{"hugepages-bad", "kubernetes.io/foo", "pods", "storage", "requests.cpu", "bad name", "a/b/c", "requests.example.com/x", "gpu", "example.com/", "hugepages-0", "hugepages-1m"}
	quantities    = []string{"1", "100m", "500m", "2Mi", "4Mi", "1Gi", "3", "2"}
	badQuantities = []string{"-1", "0", "1.5", "1m", "-100m", "3Mi"}
	mountPaths    = []string{"/etc/cfg", "/data", "/x", "/dev/xvda"}
	badMountPaths = []string{"", "/etc/cfg"}
	subPaths      = []string{"sub", "a/b", "x.conf"}
	badSubPaths   = []string{"/abs", "../up", "a/../b", "..", "a/.."}
	signals       = []string{"SIGTERM", "SIGKILL", "SIGRTMIN+1", "SIGUSR1"}
)

// container returns a container for list kind ("containers",
// "initContainers" or "ephemeralContainers").
func (g gen) container(kind string) obj {
	c := obj{"name": pick(g, ctrNames, badCtrNames), "image": pick(g, images, badImages)}
	g.maybe(c, 0.2, "imagePullPolicy", func() any {
		return pick(g, []string{"Always", "IfNotPresent", "Never"}, []string{"Sometimes", "always"})
	})
	g.maybe(c, 0.1, "command", func() any { return []string{"sh", "-c", "true"} })
	g.maybe(c, 0.1, "args", func() any { return []string{"--x"} })
	g.maybe(c, 0.1, "workingDir", func() any { return one(g, "/work", "relative", "") })
	g.maybe(c, 0.15, "terminationMessagePolicy", func() any { return pick(g, []string{"File", "FallbackToLogsOnError"}, []string{"Bad", "file"}) })
	g.maybe(c, 0.1, "terminationMessagePath", func() any { return one(g, "/tmp/msg", "rel") })
	g.maybe(c, 0.4, "ports", func() any { return g.distinct(g.distinct(g.list(3, g.port), "name"), "hostPort") })
	g.maybe(c, 0.4, "env", func() any { return g.list(4, g.envVar) })
	g.maybe(c, 0.2, "envFrom", func() any { return g.list(2, g.envFrom) })
	g.maybe(c, 0.4, "resources", g.resources)
	g.maybe(c, 0.15, "resizePolicy", func() any { return g.distinct(g.list(3, g.resizePolicy), "resourceName") })
	restart := 0.1
	if kind == "initContainers" {
		restart = 0.6
	}
	g.maybe(c, restart, "restartPolicy", func() any { return pick(g, []string{"Always", "Never", "OnFailure"}, []string{"Sometimes", ""}) })
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
		g.maybe(c, 0.5, "targetContainerName", func() any { return one(g, "app", "side", "init", "missing") })
	}
	return c
}

// deployment returns a Deployment's JSON whose template holds random
// containers, init containers and (rarely) ephemeral containers, with the
// pod-level settings container rules read: the restart policy, the
// termination grace period, host networking and host users.
func (g gen) deployment() []byte {
	spec := baseSpec()
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
	g.maybe(spec, 0.1, "restartPolicy", func() any { return one(g, "Always", "Never", "OnFailure") })
	g.maybe(spec, 0.2, "terminationGracePeriodSeconds", func() any { return one[int64](g, 0, 5, 30, 60) })
	g.maybe(spec, 0.1, "hostNetwork", func() any { return true })
	g.maybe(spec, 0.1, "hostUsers", func() any { return false })
	if spec["hostUsers"] == false && !g.chance(g.bad) {
		delete(spec, "hostNetwork")
	}
	if g.chance(g.bad * 2) {
		delete(spec, "resourceClaims")
	}
	return deploymentJSON(spec)
}

// baseSpec is a valid pod spec with one volume of each kind the mounts
// and devices use, and two resource claims.
func baseSpec() obj {
	return obj{
		"containers": []any{obj{"name": "app", "image": "nginx:1.25"}},
		"volumes": []any{
			obj{"name": "cfg", "configMap": obj{"name": "cfg"}},
			obj{"name": "scratch", "emptyDir": obj{}},
			obj{"name": "data", "persistentVolumeClaim": obj{"claimName": "data"}},
			obj{"name": "eph", "ephemeral": obj{"volumeClaimTemplate": obj{"spec": obj{
				"accessModes": []string{"ReadWriteOnce"},
				"resources":   obj{"requests": obj{"storage": "1Gi"}},
			}}}},
			obj{"name": "img", "image": obj{"reference": "registry.example.com/data:v1"}},
		},
		"resourceClaims": []any{
			obj{"name": "gpu", "resourceClaimName": "gpu-claim"},
			obj{"name": "fpga", "resourceClaimTemplateName": "fpga-template"},
		},
	}
}

// deploymentJSON wraps a pod spec in a valid Deployment.
func deploymentJSON(spec obj) []byte {
	d := obj{
		"apiVersion": "apps/v1",
		"kind":       "Deployment",
		"metadata":   obj{"name": "web"},
		"spec": obj{
			"selector": obj{"matchLabels": obj{"app": "web"}},
			"template": obj{"metadata": obj{"labels": obj{"app": "web"}}, "spec": spec},
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
func (g gen) renameUniquely(spec obj) {
	i := 0
	for _, list := range []string{"containers", "initContainers", "ephemeralContainers"} {
		cs, _ := spec[list].([]any)
		for _, c := range cs {
			c.(obj)["name"] = []string{"app", "side", "init", "dbg", "web-1", "c5", "c6", "c7"}[i]
			i++
		}
	}
}

// distinct makes the entries of a list distinct in key k (unless the
// case may be invalid), by dropping later entries that repeat one.
func (g gen) distinct(list []any, k string) []any {
	if g.chance(g.bad) {
		return list
	}
	seen := map[any]bool{}
	out := []any{}
	for _, e := range list {
		v := e.(obj)[k]
		if !seen[v] {
			seen[v] = true
			out = append(out, e)
		}
	}
	return out
}
