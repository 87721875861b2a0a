package difftest

import "strings"

// The parts of a generated container: ports, environment, resources,
// restart rules, mounts and devices, probes and hooks, security context.

func (g ctrGen) port() any {
	p := ctrObj{"containerPort": ctrPick(g, ctrPortNums, ctrBadPortNums)}
	g.maybe(p, 0.4, "name", func() any { return ctrPick(g, ctrPortNames, ctrBadPortNames) })
	g.maybe(p, 0.25, "hostPort", func() any { return ctrPick(g, []int64{80, 8080, 9000}, []int64{0, -5, 65536}) })
	g.maybe(p, 0.3, "protocol", func() any { return ctrPick(g, []string{"TCP", "UDP", "SCTP"}, []string{"tcp", "HTTP"}) })
	g.maybe(p, 0.15, "hostIP", func() any { return ctrOneOf(g, "0.0.0.0", "127.0.0.1", "bogus") })
	return p
}

func (g ctrGen) envVar() any {
	e := ctrObj{"name": ctrPick(g, ctrEnvNames, ctrBadEnvNames)}
	if g.chance(0.5) {
		e["value"] = ctrOneOf(g, "v", "")
	}
	if g.chance(0.5) && (e["value"] != "v" || g.chance(g.bad)) {
		vf := ctrObj{}
		n := 1
		if g.chance(g.bad) {
			n = g.r.Intn(3) // none, or two sources
		}
		for range n {
			switch g.r.Intn(5) {
			case 0:
				f := ctrObj{"fieldPath": ctrPick(g, ctrFieldPaths, ctrBadFieldPaths)}
				g.maybe(f, 0.3, "apiVersion", func() any { return ctrPick(g, []string{"v1"}, []string{"v2", "apps/v1"}) })
				vf["fieldRef"] = f
			case 1:
				f := ctrObj{"resource": ctrPick(g, ctrResFields, ctrBadResFields)}
				g.maybe(f, 0.3, "containerName", func() any { return ctrOneOf(g, "app", "") })
				g.maybe(f, 0.4, "divisor", func() any { return ctrPick(g, ctrDivisors, ctrBadDivisors) })
				vf["resourceFieldRef"] = f
			case 2:
				vf["configMapKeyRef"] = g.keyRef()
			case 3:
				vf["secretKeyRef"] = g.keyRef()
			case 4:
				f := ctrObj{
					"volumeName": ctrPick(g, []string{"scratch"}, []string{"", "Bad_Name", "missing"}),
					"path":       ctrPick(g, []string{"vars.env", "a/b.env"}, []string{"", "../x", "a/../b", "/abs"}),
					"key":        ctrPick(g, []string{"K", "my.key"}, []string{"", "a=b", "é"}),
				}
				g.maybe(f, 0.3, "optional", func() any { return g.chance(0.5) })
				vf["fileKeyRef"] = f
			}
		}
		e["valueFrom"] = vf
	}
	return e
}

func (g ctrGen) keyRef() ctrObj {
	k := ctrObj{"key": ctrPick(g, ctrKeys, ctrBadKeys)}
	g.maybe(k, 0.9, "name", func() any { return ctrPick(g, ctrObjNames, ctrBadObjNames) })
	g.maybe(k, 0.2, "optional", func() any { return true })
	return k
}

func (g ctrGen) envFrom() any {
	e := ctrObj{}
	g.maybe(e, 0.3, "prefix", func() any { return ctrPick(g, []string{"P_", "app."}, []string{"1x", "a=b", ""}) })
	ref := func() any { return ctrObj{"name": ctrPick(g, append(ctrObjNames, "cfg-"), []string{"", "Bad", "a_b"})} }
	switch {
	case g.chance(g.bad / 2):
	case g.chance(g.bad / 2):
		e["configMapRef"], e["secretRef"] = ref(), ref()
	case g.chance(0.5):
		e["configMapRef"] = ref()
	default:
		e["secretRef"] = ref()
	}
	return e
}

func (g ctrGen) resourceList() any {
	l := ctrObj{}
	for range g.r.Intn(4) {
		l[ctrPick(g, ctrResNames, ctrBadResNames)] = ctrPick(g, ctrQuantities, ctrBadQuantities)
	}
	return l
}

func (g ctrGen) resources() any {
	r := ctrObj{}
	if g.chance(g.bad * 2) {
		g.maybe(r, 0.6, "limits", g.resourceList)
		g.maybe(r, 0.6, "requests", g.resourceList)
	} else {
		// Valid: whole huge pages beside memory, extended resources with
		// equal requests and limits, requests no greater than limits.
		lim, req := ctrObj{}, ctrObj{}
		for range g.r.Intn(4) {
			switch name := ctrOneOf(g, ctrResNames...); name {
			case "hugepages-2Mi":
				q := ctrOneOf(g, "2Mi", "4Mi")
				lim[name], lim["memory"] = q, "1Gi"
				g.maybe(req, 0.5, name, func() any { return q })
			case "example.com/gpu":
				q := ctrOneOf(g, "1", "2")
				lim[name] = q
				g.maybe(req, 0.5, name, func() any { return q })
			default:
				q := ctrOneOf(g, ctrQuantities...)
				if g.chance(0.5) {
					lim[name] = q
					delete(req, name)
				}
				if _, ok := lim[name]; !ok || g.chance(0.5) {
					req[name] = q
				}
			}
		}
		if len(lim) > 0 || g.chance(0.1) {
			r["limits"] = lim
		}
		if len(req) > 0 || g.chance(0.1) {
			r["requests"] = req
		}
	}
	if g.chance(0.2) {
		r["claims"] = g.distinct(g.list(3, func() any {
			c := ctrObj{"name": ctrPick(g, []string{"gpu", "fpga"}, []string{"", "other"})}
			g.maybe(c, 0.4, "request", func() any { return ctrPick(g, []string{"r1", "r2"}, []string{"Bad_R"}) })
			return c
		}), "name")
	}
	return r
}

func (g ctrGen) resizePolicy() any {
	return ctrObj{
		"resourceName":  ctrPick(g, []string{"cpu", "memory"}, []string{"", "gpu"}),
		"restartPolicy": ctrPick(g, []string{"NotRequired", "RestartContainer"}, []string{"", "Sometimes"}),
	}
}

func (g ctrGen) restartRules() any {
	n := g.r.Intn(3)
	if g.chance(g.bad / 3) {
		n = 21
	}
	rules := []any{}
	for range n {
		r := ctrObj{"action": ctrPick(g, []string{"Restart", "RestartAllContainers"}, []string{"Bad", ""})}
		if !g.chance(g.bad) {
			ec := ctrObj{"operator": ctrPick(g, []string{"In", "NotIn"}, []string{"Bad", ""})}
			vals := []any{}
			count := g.r.Intn(3)
			if g.chance(g.bad / 3) {
				count = 256
			}
			for i := range count {
				vals = append(vals, i)
			}
			ec["values"] = vals
			r["exitCodes"] = ec
		}
		rules = append(rules, r)
	}
	return rules
}

func (g ctrGen) volumeMount() any {
	m := ctrObj{
		"name":      ctrPick(g, []string{"cfg", "scratch", "data", "eph", "img"}, []string{"missing", ""}),
		"mountPath": ctrPick(g, ctrMountPaths, ctrBadMountPaths),
	}
	g.maybe(m, 0.3, "readOnly", func() any { return g.chance(0.5) })
	g.maybe(m, 0.15, "subPath", func() any { return ctrPick(g, ctrSubPaths, ctrBadSubPaths) })
	g.maybe(m, 0.1, "subPathExpr", func() any { return ctrPick(g, []string{"$(POD_NAME)", "logs"}, []string{"/abs", "../x"}) })
	g.maybe(m, 0.15, "mountPropagation", func() any {
		return ctrPick(g, []string{"None", "HostToContainer"}, []string{"Bidirectional", "Bad", "none"})
	})
	g.maybe(m, 0.15, "recursiveReadOnly", func() any { return ctrPick(g, []string{"Disabled", "Enabled", "IfPossible"}, []string{"Bad", ""}) })
	if _, ok := m["recursiveReadOnly"]; ok && !g.chance(g.bad) {
		m["readOnly"] = true
		delete(m, "mountPropagation")
	}
	return m
}

func (g ctrGen) volumeDevice() any {
	return ctrObj{
		"name":       ctrPick(g, []string{"data", "eph"}, []string{"cfg", "missing", ""}),
		"devicePath": ctrPick(g, []string{"/dev/xvda", "/dev/xvdb"}, []string{"", "/dev/../x", "/data", "/etc/cfg"}),
	}
}

// portValue is a port number or name, as httpGet and tcpSocket take.
func (g ctrGen) portValue() any {
	if g.chance(0.6) {
		return ctrPick(g, ctrPortNums, ctrBadPortNums)
	}
	return ctrPick(g, ctrPortNames, ctrBadPortNames)
}

// handler returns a probe's or a hook's handler: usually one action,
// sometimes none or two.
func (g ctrGen) handler(actions []string) ctrObj {
	h := ctrObj{}
	n := 1
	if g.chance(g.bad) {
		n = g.r.Intn(3)
	}
	for range n {
		switch ctrOneOf(g, actions...) {
		case "exec":
			h["exec"] = ctrObj{"command": ctrPick(g, [][]string{{"true"}, {"cat", "/tmp/ok"}}, [][]string{{}})}
		case "httpGet":
			a := ctrObj{"port": g.portValue()}
			g.maybe(a, 0.3, "path", func() any { return ctrOneOf(g, "/healthz", "") })
			g.maybe(a, 0.2, "scheme", func() any { return ctrPick(g, []string{"HTTP", "HTTPS"}, []string{"ftp", "http"}) })
			g.maybe(a, 0.2, "httpHeaders", func() any {
				return g.list(2, func() any {
					return ctrObj{"name": ctrPick(g, []string{"X-A", "Accept"}, []string{"bad header", "", "X_A"}), "value": "v"}
				})
			})
			h["httpGet"] = a
		case "tcpSocket":
			h["tcpSocket"] = ctrObj{"port": g.portValue()}
		case "grpc":
			a := ctrObj{"port": ctrPick(g, ctrPortNums, ctrBadPortNums)}
			g.maybe(a, 0.3, "service", func() any { return "svc" })
			h["grpc"] = a
		case "sleep":
			h["sleep"] = ctrObj{"seconds": ctrPick(g, []int64{1, 5, 30}, []int64{0, -1, 31, 100})}
		}
	}
	return h
}

func (g ctrGen) probe() any {
	p := g.handler([]string{"exec", "httpGet", "tcpSocket", "grpc"})
	for _, k := range []string{"initialDelaySeconds", "timeoutSeconds", "periodSeconds", "failureThreshold"} {
		g.maybe(p, 0.15, k, func() any { return ctrPick(g, []int64{0, 1, 10}, []int64{-1}) })
	}
	g.maybe(p, 0.2, "successThreshold", func() any { return ctrPick(g, []int64{1}, []int64{2, -1, 0}) })
	g.maybe(p, 0.1, "terminationGracePeriodSeconds", func() any { return ctrPick(g, []int64{10}, []int64{0, -1}) })
	return p
}

func (g ctrGen) lifecycle() any {
	l := ctrObj{}
	hook := func() any { return g.handler([]string{"exec", "httpGet", "tcpSocket", "sleep"}) }
	g.maybe(l, 0.6, "postStart", hook)
	g.maybe(l, 0.6, "preStop", hook)
	g.maybe(l, 0.1, "stopSignal", func() any { return ctrPick(g, ctrSignals, []string{"SIGBOGUS"}) })
	return l
}

func (g ctrGen) securityContext() any {
	sc := ctrObj{}
	g.maybe(sc, 0.2, "privileged", func() any { return g.chance(0.5) })
	g.maybe(sc, 0.3, "allowPrivilegeEscalation", func() any { return g.chance(0.5) })
	ids := func() any { return ctrPick(g, []int64{0, 1000, 2147483647}, []int64{-1, 2147483648}) }
	g.maybe(sc, 0.2, "runAsUser", ids)
	g.maybe(sc, 0.2, "runAsGroup", ids)
	g.maybe(sc, 0.1, "runAsNonRoot", func() any { return true })
	g.maybe(sc, 0.1, "readOnlyRootFilesystem", func() any { return true })
	g.maybe(sc, 0.15, "procMount", func() any { return ctrPick(g, []string{"Default"}, []string{"Unmasked", "Bad"}) })
	g.maybe(sc, 0.2, "capabilities", func() any {
		return ctrObj{"add": g.list(2, func() any { return ctrOneOf(g, "NET_ADMIN", "CAP_SYS_ADMIN", "SYS_ADMIN") }), "drop": []string{"ALL"}}
	})
	profile := func(types []string) func() any {
		return func() any {
			p := ctrObj{"type": ctrPick(g, types, []string{"", "Bad"})}
			if p["type"] == "Localhost" || g.chance(g.bad) {
				g.maybe(p, 0.95, "localhostProfile", func() any {
					return ctrPick(g, []string{"prof.json", "my-profile"}, []string{"/abs", "../x", " p", "", strings.Repeat("p", 4096)})
				})
			}
			return p
		}
	}
	g.maybe(sc, 0.2, "seccompProfile", profile([]string{"Localhost", "RuntimeDefault", "Unconfined"}))
	g.maybe(sc, 0.2, "appArmorProfile", profile([]string{"Localhost", "RuntimeDefault", "Unconfined"}))
	g.maybe(sc, 0.1, "seLinuxOptions", func() any { return ctrObj{"level": "s0:c1"} })
	if sc["allowPrivilegeEscalation"] == false && !g.chance(g.bad*2) {
		delete(sc, "privileged")
		delete(sc, "capabilities")
	}
	g.maybe(sc, 0.15, "windowsOptions", func() any {
		w := ctrObj{}
		g.maybe(w, 0.4, "gmsaCredentialSpecName", func() any { return ctrPick(g, []string{"spec-1"}, []string{"Bad_Name", ""}) })
		g.maybe(w, 0.3, "gmsaCredentialSpec", func() any { return ctrPick(g, []string{"{}"}, []string{"", strings.Repeat("x", 64*1024+1)}) })
		g.maybe(w, 0.5, "runAsUserName", func() any {
			return ctrPick(g, []string{"user", `DOMAIN\user`, `example.com\svc`},
				[]string{"", `a\b\c`, `dom\`, `.dom\u`, "us\x01er", "...", "us:er", strings.Repeat("u", 105),
					strings.Repeat("d", 256) + `\u`, `-bad-.com\u`, `toolongnetbiosname\u`})
		})
		return w
	})
	return sc
}
