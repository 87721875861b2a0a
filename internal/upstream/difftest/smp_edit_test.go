package difftest

import "fmt"

const (
	containersPath = "spec.template.spec.containers"
	volumesPath    = "spec.template.spec.volumes"
)

// edit makes one random change to a manifest, as a person editing it
// would (and, rarely, as a careless one would: duplicates, nulls, odd
// types, empty lists).
func (g *mgen) edit(d doc) {
	c := g.randomElem(d, containersPath)
	switch g.r.Intn(30) {
	case 0, 1, 2: // image bump
		if c != "" {
			d.set(c+".image", g.image())
		}
	case 3: // a container added
		used := map[string]bool{}
		for _, e := range d.list(containersPath) {
			used[fmt.Sprint(e.(obj)["name"])] = true
		}
		for _, n := range containerNames {
			if !used[n] {
				g.add(d, containersPath, g.container(n))
				break
			}
		}
	case 4: // a container removed
		if len(d.list(containersPath)) > 1 || g.chance(0.1) {
			g.drop(d, containersPath)
		}
	case 5:
		g.shuffle(d, containersPath)
	case 6, 7: // env added, removed, reordered, changed
		if c != "" {
			switch g.r.Intn(4) {
			case 0:
				g.add(d, c+".env", g.envVar(g.str(envNames...)))
			case 1:
				g.drop(d, c+".env")
			case 2:
				g.shuffle(d, c+".env")
			default:
				if e := g.randomElem(d, c+".env"); e != "" {
					name := d.get(e + ".name")
					d.set(e, g.envVar(fmt.Sprint(name)))
				}
			}
		}
	case 8, 9: // ports
		if c != "" {
			switch g.r.Intn(4) {
			case 0:
				g.add(d, c+".ports", g.port())
			case 1:
				g.drop(d, c+".ports")
			case 2:
				g.shuffle(d, c+".ports")
			default:
				if p := g.randomElem(d, c+".ports"); p != "" {
					d.set(p, g.port())
				}
			}
		}
	case 10, 11: // volumes and mounts
		switch g.r.Intn(5) {
		case 0:
			g.add(d, volumesPath, g.volume(g.str(volumeNames...)))
		case 1:
			g.drop(d, volumesPath)
		case 2:
			g.shuffle(d, volumesPath)
		case 3:
			if v := g.randomElem(d, volumesPath); v != "" {
				d.set(v, g.volume(fmt.Sprint(d.get(v+".name"))))
			}
		default:
			if c != "" {
				if g.chance(0.5) {
					g.drop(d, c+".volumeMounts")
				} else {
					g.add(d, c+".volumeMounts", obj{"name": g.str(volumeNames...), "mountPath": g.str(mountPaths...)})
				}
			}
		}
	case 12: // labels
		path := g.str("metadata.labels", "spec.template.metadata.labels")
		if g.chance(0.5) {
			d.set(path+"."+g.str("tier", "team", "version"), g.str("x", "y"))
		} else {
			d.del(path + "." + g.str("tier", "team", "version"))
		}
	case 13: // annotations
		path := g.str("metadata.annotations", "spec.template.metadata.annotations")
		if g.chance(0.5) {
			d.set(path+"."+g.str("owner", "note"), g.str("x", "y"))
		} else {
			d.del(path + "." + g.str("owner", "note"))
		}
	case 14, 15: // resources
		if c != "" {
			switch g.r.Intn(4) {
			case 0:
				d.set(c+".resources.requests.cpu", g.quantityCPU())
			case 1:
				d.set(c+".resources.limits.memory", g.quantityMemory())
			case 2:
				d.del(c + ".resources." + g.str("requests", "limits"))
			default:
				d.del(c + ".resources")
			}
		}
	case 16: // replicas
		if g.chance(0.5) {
			d.del("spec.replicas")
		} else {
			d.set("spec.replicas", int64(g.r.Intn(10)))
		}
	case 17:
		if g.chance(0.7) {
			d.set("spec.strategy", g.strategy())
		} else {
			d.del("spec.strategy")
		}
	case 18: // tolerations (an atomic list)
		if g.chance(0.5) {
			g.add(d, "spec.template.spec.tolerations", obj{"key": g.str("a", "b"), "operator": "Exists"})
		} else {
			d.del("spec.template.spec.tolerations")
		}
	case 19: // finalizers (a merged list of scalars)
		switch g.r.Intn(3) {
		case 0:
			g.add(d, "metadata.finalizers", g.str(finalizerNames...))
		case 1:
			g.drop(d, "metadata.finalizers")
		default:
			g.shuffle(d, "metadata.finalizers")
		}
	case 20:
		d.set("spec.template.spec.nodeSelector."+g.str("disk", "zone"), g.str("ssd", "a"))
	case 21:
		if c != "" {
			d.set(c+".args", []any{g.str("--v=2", "--v=3"), "--port=8080"})
		}
	case 22: // a field dropped
		d.del(g.str("spec.minReadySeconds", "spec.revisionHistoryLimit", "spec.template.spec.securityContext",
			"spec.template.spec.terminationGracePeriodSeconds", "spec.template.spec.volumes", "metadata.annotations"))
	case 23: // an explicit null
		d.set(g.str("spec.minReadySeconds", "spec.strategy", "metadata.annotations.owner", "spec.template.spec.nodeSelector"), nil)
	case 24: // a repeated merge key
		if c != "" {
			switch g.r.Intn(3) {
			case 0:
				g.add(d, containersPath, g.container(fmt.Sprint(d.get(c+".name"))))
			case 1:
				g.add(d, c+".env", g.envVar(g.str(envNames...)))
				g.add(d, c+".env", g.envVar(g.str(envNames...)))
			default:
				g.add(d, c+".ports", obj{"containerPort": int64(53), "protocol": "UDP"})
				g.add(d, c+".ports", obj{"containerPort": int64(53), "protocol": "TCP"})
			}
		}
	case 25: // an empty list
		if c != "" {
			d.set(c+"."+g.str("env", "ports", "volumeMounts"), []any{})
		}
	case 26: // odd types
		if c != "" {
			switch g.r.Intn(3) {
			case 0:
				d.set(c+".resources.requests.cpu", g.pick(int64(2), 0.25, 1e3))
			case 1:
				d.set("spec.replicas", g.pick("3", 3.0, int64(3)))
			default:
				d.set(c+".env", obj{"name": "A"})
			}
		}
	case 27:
		switch g.r.Intn(3) {
		case 0:
			d.set("spec.template.spec.imagePullSecrets", []any{obj{"name": g.str("regcred", "other")}})
		case 1:
			d.set("spec.template.spec.hostAliases", []any{obj{"ip": g.str("10.0.0.1", "10.0.0.2"), "hostnames": []any{g.str("a", "b")}}})
		default:
			d.set("spec.template.spec.topologySpreadConstraints", []any{obj{"maxSkew": int64(1), "topologyKey": g.str("zone", "host"), "whenUnsatisfiable": "DoNotSchedule"}})
		}
	case 28:
		if g.chance(0.5) {
			d.set("spec.template.spec.initContainers", []any{g.container("init")})
		} else {
			d.del("spec.template.spec.initContainers")
		}
	default: // the selector
		d.set("spec.selector.matchLabels."+g.str("tier", "app"), g.str("web", "front"))
	}
}

// liveEdit is a change another writer makes to the live object: an
// autoscaler, kubectl rollout restart, set image, set env, a sidecar
// injector, a controller's finalizer, kubectl edit.
func (g *mgen) liveEdit(d doc) {
	c := g.randomElem(d, containersPath)
	switch g.r.Intn(10) {
	case 0:
		d.set("spec.replicas", int64(g.r.Intn(20)))
	case 1:
		d.set("spec.template.metadata.annotations", obj{"kubectl.kubernetes.io/restartedAt": "2026-01-02T03:04:05Z"})
	case 2:
		if c != "" {
			d.set(c+".image", g.image())
		}
	case 3:
		if c != "" {
			g.add(d, c+".env", obj{"name": g.str("INJECTED", "A"), "value": "live"})
		}
	case 4:
		g.add(d, containersPath, obj{"name": "istio-proxy", "image": "istio/proxyv2", "resources": obj{}})
		g.add(d, volumesPath, obj{"name": "istio-envoy", "emptyDir": obj{"medium": "Memory"}})
	case 5:
		d.set("metadata.labels.injected", "yes")
	case 6:
		g.add(d, "metadata.finalizers", g.str(finalizerNames...))
	case 7:
		if c != "" {
			d.del(c + ".resources")
		}
	case 8:
		g.shuffle(d, containersPath)
	default:
		d.set("spec.strategy", g.strategy())
	}
}
