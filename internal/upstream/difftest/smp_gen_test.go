package difftest

import (
	"fmt"
	"math/rand"
)

// mgen makes realistic Deployment manifests and edits them the way people
// and controllers do, for the randomized apply tests. Values come from
// small pools so that edits collide with each other (same names, same
// ports) often.
type mgen struct{ r *rand.Rand }

type obj = map[string]any

func (g *mgen) chance(p float64) bool { return g.r.Float64() < p }

func (g *mgen) pick(xs ...any) any { return xs[g.r.Intn(len(xs))] }

func (g *mgen) str(xs ...string) string { return xs[g.r.Intn(len(xs))] }

var (
	containerNames = []string{"app", "sidecar", "proxy", "logger", "metrics"}
	envNames       = []string{"A", "B", "C", "LOG_LEVEL", "PORT", "DB_URL"}
	volumeNames    = []string{"config", "data", "cache", "certs"}
	mountPaths     = []string{"/etc/app", "/data", "/cache", "/certs", "/var/log"}
	finalizerNames = []string{"example.com/a", "example.com/b", "foregroundDeletion", "x/c"}
)

func (g *mgen) image() string {
	return g.str("nginx:1.25", "nginx:1.26", "envoy:1.30", "busybox", "registry.example.com/app@sha256:abc", "nginx:1.25")
}

func (g *mgen) quantityCPU() any {
	return g.pick("100m", "250m", "1", "1000m", "0.5", "500m", "2", int64(1), 0.5)
}

func (g *mgen) quantityMemory() any { return g.pick("128Mi", "1Gi", "1024Mi", "512M", "256Mi") }

func (g *mgen) envVar(name string) obj {
	e := obj{"name": name}
	switch g.r.Intn(5) {
	case 0:
		e["valueFrom"] = obj{"fieldRef": obj{"fieldPath": "metadata.name"}}
	case 1:
		e["valueFrom"] = obj{"secretKeyRef": obj{"name": "db", "key": g.str("url", "password")}}
	case 2:
		// no value
	default:
		e["value"] = g.str("1", "x", "", "debug", "8080")
	}
	return e
}

func (g *mgen) port() obj {
	p := obj{"containerPort": g.pick(int64(80), int64(443), int64(8080), int64(53), int64(9090))}
	if g.chance(0.5) {
		p["protocol"] = g.str("TCP", "UDP", "TCP")
	}
	if g.chance(0.4) {
		p["name"] = g.str("http", "metrics", "dns", "https")
	}
	return p
}

func (g *mgen) resources() obj {
	r := obj{}
	for _, k := range []string{"requests", "limits"} {
		if g.chance(0.6) {
			q := obj{}
			if g.chance(0.8) {
				q["cpu"] = g.quantityCPU()
			}
			if g.chance(0.7) {
				q["memory"] = g.quantityMemory()
			}
			r[k] = q
		}
	}
	return r
}

// distinct returns n distinct values of pool, in random order.
func (g *mgen) distinct(pool []string, n int) []string {
	p := g.r.Perm(len(pool))
	out := make([]string, 0, n)
	for i := 0; i < n && i < len(p); i++ {
		out = append(out, pool[p[i]])
	}
	return out
}

func (g *mgen) container(name string) obj {
	c := obj{"name": name, "image": g.image()}
	if g.chance(0.7) {
		var env []any
		for _, n := range g.distinct(envNames, 1+g.r.Intn(4)) {
			env = append(env, g.envVar(n))
		}
		c["env"] = env
	}
	if g.chance(0.6) {
		var ports []any
		for range 1 + g.r.Intn(3) {
			ports = append(ports, g.port())
		}
		c["ports"] = ports
	}
	if g.chance(0.6) {
		c["resources"] = g.resources()
	}
	if g.chance(0.5) {
		var mounts []any
		for i, p := range g.distinct(mountPaths, 1+g.r.Intn(2)) {
			m := obj{"name": volumeNames[i%len(volumeNames)], "mountPath": p}
			if g.chance(0.3) {
				m["readOnly"] = true
			}
			mounts = append(mounts, m)
		}
		c["volumeMounts"] = mounts
	}
	if g.chance(0.3) {
		c["args"] = []any{"--port=8080", g.str("--v=2", "--v=4", "--debug")}
	}
	if g.chance(0.2) {
		c["imagePullPolicy"] = g.str("Always", "IfNotPresent")
	}
	return c
}

func (g *mgen) volume(name string) obj {
	v := obj{"name": name}
	switch g.r.Intn(6) {
	case 0:
		v["emptyDir"] = obj{}
	case 1:
		v["emptyDir"] = obj{"medium": "Memory"}
	case 2:
		v["configMap"] = obj{"name": name + "-cm"}
	case 3:
		v["secret"] = obj{"secretName": name + "-secret"}
	case 4:
		v["hostPath"] = obj{"path": "/var/" + name}
	default:
		v["persistentVolumeClaim"] = obj{"claimName": name}
	}
	return v
}

func (g *mgen) strategy() any {
	switch g.r.Intn(4) {
	case 0:
		return obj{"type": "Recreate"}
	case 1:
		return obj{"type": "RollingUpdate", "rollingUpdate": obj{"maxSurge": g.pick("25%", int64(1)), "maxUnavailable": g.pick(int64(0), "25%")}}
	case 2:
		return obj{"rollingUpdate": obj{"maxSurge": int64(2)}}
	}
	return obj{"type": "RollingUpdate"}
}

// deployment is a fresh manifest.
func (g *mgen) deployment() doc {
	labels := obj{"app": "web"}
	d := doc{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": obj{"name": "web", "labels": obj{"app": "web", "team": g.str("a", "b")}},
		"spec": obj{
			"selector": obj{"matchLabels": labels},
			"template": obj{"metadata": obj{"labels": obj{"app": "web", "version": g.str("v1", "v2")}}, "spec": obj{}},
		},
	}
	if g.chance(0.8) {
		d.set("spec.replicas", int64(g.r.Intn(5)+1))
	}
	if g.chance(0.4) {
		d.set("spec.strategy", g.strategy())
	}
	if g.chance(0.3) {
		d.set("spec.minReadySeconds", int64(g.r.Intn(30)))
	}
	if g.chance(0.2) {
		d.set("spec.revisionHistoryLimit", int64(g.r.Intn(10)))
	}
	if g.chance(0.2) {
		d.set("metadata.annotations", obj{"owner": "team-" + g.str("a", "b")})
	}
	if g.chance(0.15) {
		d.set("metadata.finalizers", toAny(g.distinct(finalizerNames, 1+g.r.Intn(3))))
	}
	var containers []any
	for _, n := range g.distinct(containerNames, 1+g.r.Intn(3)) {
		containers = append(containers, g.container(n))
	}
	d.set("spec.template.spec.containers", containers)
	if g.chance(0.6) {
		var vols []any
		for _, n := range g.distinct(volumeNames, 1+g.r.Intn(3)) {
			vols = append(vols, g.volume(n))
		}
		d.set("spec.template.spec.volumes", vols)
	}
	if g.chance(0.2) {
		d.set("spec.template.spec.initContainers", []any{g.container("init")})
	}
	if g.chance(0.2) {
		d.set("spec.template.spec.tolerations", []any{obj{"key": "dedicated", "operator": "Equal", "value": g.str("web", "db"), "effect": "NoSchedule"}})
	}
	if g.chance(0.2) {
		d.set("spec.template.spec.nodeSelector", obj{"disk": g.str("ssd", "hdd")})
	}
	if g.chance(0.15) {
		d.set("spec.template.spec.imagePullSecrets", []any{obj{"name": g.str("regcred", "other")}})
	}
	if g.chance(0.1) {
		d.set("spec.template.spec.hostAliases", []any{obj{"ip": "10.0.0.1", "hostnames": []any{"a", g.str("b", "c")}}})
	}
	if g.chance(0.1) {
		d.set("spec.template.spec.topologySpreadConstraints", []any{obj{"maxSkew": int64(1), "topologyKey": g.str("zone", "kubernetes.io/hostname"), "whenUnsatisfiable": "DoNotSchedule", "labelSelector": obj{"matchLabels": obj{"app": "web"}}}})
	}
	if g.chance(0.2) {
		d.set("spec.template.spec.securityContext", obj{"runAsNonRoot": true, "fsGroup": int64(2000)})
	}
	if g.chance(0.2) {
		d.set("spec.template.spec.terminationGracePeriodSeconds", int64(g.r.Intn(60)))
	}
	if g.chance(0.2) {
		d.set("spec.template.metadata.annotations", obj{"prometheus.io/scrape": "true"})
	}
	return d
}

func toAny(s []string) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}

// randomElem returns the path of a random element of the list at path,
// or "" when the list is empty.
func (g *mgen) randomElem(d doc, path string) string {
	l := d.list(path)
	if len(l) == 0 {
		return ""
	}
	return fmt.Sprintf("%s.%d", path, g.r.Intn(len(l)))
}

// shuffle reorders the list at path.
func (g *mgen) shuffle(d doc, path string) {
	l := d.list(path)
	g.r.Shuffle(len(l), func(i, j int) { l[i], l[j] = l[j], l[i] })
}

// drop removes a random element of the list at path.
func (g *mgen) drop(d doc, path string) {
	l := d.list(path)
	if len(l) == 0 {
		return
	}
	i := g.r.Intn(len(l))
	d.set(path, append(append([]any{}, l[:i]...), l[i+1:]...))
}

// add appends v to the list at path (creating it).
func (g *mgen) add(d doc, path string, v any) {
	d.set(path, append(append([]any{}, d.list(path)...), v))
}
