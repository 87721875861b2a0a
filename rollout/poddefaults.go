package rollout

import (
	"bytes"
	"encoding/json"
	"strings"
)

// defaultPodSpec applies the API server's defaults to a pod template's spec
// and returns it in canonical JSON. Every ReplicaSet and Deployment read
// from a cluster carries these defaults, so a manifest without them must
// get them to compare equal to its ReplicaSet's template. An absent or null
// spec is the empty one, defaulted, as the API server defaults a zero
// PodSpec.
//
// The defaults are core/v1's for a PodSpec and its containers: dnsPolicy
// ClusterFirst, restartPolicy Always, an empty securityContext,
// terminationGracePeriodSeconds 30 and schedulerName default-scheduler; for
// each container and init container, imagePullPolicy (Always for the
// latest or no tag, else IfNotPresent), terminationMessagePath
// /dev/termination-log, terminationMessagePolicy File, empty resources and
// protocol TCP on ports.
func defaultPodSpec(raw json.RawMessage) (PodSpec, error) {
	if t := bytes.TrimSpace(raw); len(t) == 0 || string(t) == "null" {
		raw = json.RawMessage("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var spec map[string]any
	if err := dec.Decode(&spec); err != nil {
		return PodSpec{}, err
	}
	if spec == nil {
		spec = map[string]any{}
	}
	setDefault(spec, "dnsPolicy", "ClusterFirst")
	setDefault(spec, "restartPolicy", "Always")
	setDefault(spec, "securityContext", map[string]any{})
	setDefault(spec, "terminationGracePeriodSeconds", json.Number("30"))
	setDefault(spec, "schedulerName", "default-scheduler")
	for _, key := range []string{"initContainers", "containers"} {
		list, _ := spec[key].([]any)
		for _, c := range list {
			if c, ok := c.(map[string]any); ok {
				defaultContainer(c)
			}
		}
	}
	out, err := json.Marshal(spec)
	if err != nil {
		return PodSpec{}, err
	}
	return ParsePodSpec(out)
}

func defaultContainer(c map[string]any) {
	image, _ := c["image"].(string)
	policy := "IfNotPresent"
	if tag := imageTag(image); tag == "latest" {
		policy = "Always"
	}
	setDefault(c, "imagePullPolicy", policy)
	setDefault(c, "terminationMessagePath", "/dev/termination-log")
	setDefault(c, "terminationMessagePolicy", "File")
	setDefault(c, "resources", map[string]any{})
	ports, _ := c["ports"].([]any)
	for _, p := range ports {
		if p, ok := p.(map[string]any); ok {
			setDefault(p, "protocol", "TCP")
		}
	}
}

// imageTag returns an image reference's tag: "latest" when it has neither
// tag nor digest, "" when it has only a digest.
func imageTag(image string) string {
	name, _, digested := strings.Cut(image, "@")
	last := name[strings.LastIndexByte(name, '/')+1:]
	if _, tag, ok := strings.Cut(last, ":"); ok {
		return tag
	}
	if digested {
		return ""
	}
	return "latest"
}

// setDefault sets m[key] to v when it is absent, null or the empty string.
func setDefault(m map[string]any, key string, v any) {
	if cur, ok := m[key]; !ok || cur == nil || cur == "" {
		m[key] = v
	}
}
