package difftest

import (
	"bytes"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The differential tests of the containers' validation (validateContainers,
// validateInitContainers, validateEphemeralContainers and what they call).

// inCtrArea reports whether a problem is one the containers' rules
// report: a field under a list of containers, except the ones rules of
// other areas report there, which are left out on both sides:
// validateFileKeyRefVolumes's NotFound for a fileKeyRef's volume, and
// validateHostUsers's Forbidden volumeDevices.
func inCtrArea(p Problem) bool {
	const spec = "spec.template.spec."
	rest, ok := strings.CutPrefix(p.Field, spec)
	if !ok {
		return false
	}
	in := false
	for _, list := range []string{"containers", "initContainers", "ephemeralContainers"} {
		if after, ok := strings.CutPrefix(rest, list); ok && (after == "" || after[0] == '[' || after[0] == '.') {
			in = true
		}
	}
	switch {
	case !in:
		return false
	case p.Type == "Not found" && strings.HasSuffix(p.Field, ".valueFrom.fileKeyRef.volumeName"):
		return false
	case p.Type == "Forbidden" && strings.HasSuffix(p.Field, ".volumeDevices"):
		return false
	}
	return true
}

func ctrProblems(ps []Problem) []Problem {
	var out []Problem
	for _, p := range ps {
		if inCtrArea(p) {
			out = append(out, p)
		}
	}
	return out
}

// compareContainers runs a Deployment both ways and returns a difference
// in the containers' problems, or in what is stored when both accept (err),
// and, apart, a difference in refusal that comes from another area
// (elsewhere).
func compareContainers(data []byte) (elsewhere string, err error) {
	real, _ := RealCreateDeployment(data)
	ours, _ := OursCreateDeployment(data)
	if real.Decode != "" || ours.Decode != "" {
		if (real.Decode == "") != (ours.Decode == "") {
			return "", fmt.Errorf("decode: real %q, ours %q", real.Decode, ours.Decode)
		}
		return "", nil
	}
	rp, op := ctrProblems(real.Problems), ctrProblems(ours.Problems)
	if !slices.Equal(rp, op) {
		return "", fmt.Errorf("container problems differ:\nreal %v\nours %v", rp, op)
	}
	if !real.Refused() && !ours.Refused() && !bytes.Equal(real.Stored, ours.Stored) {
		return "", fmt.Errorf("stored differ:\nreal %s\nours %s", real.Stored, ours.Stored)
	}
	if real.Refused() != ours.Refused() {
		return fmt.Sprintf("real %v, ours %v", real.Problems, ours.Problems), nil
	}
	return "", nil
}

// ctrEnvInt reads a count from the environment, or def.
func ctrEnvInt(t *testing.T, name string, def int) int {
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatalf("%s=%q: %v", name, s, err)
	}
	return n
}

// TestContainersRandom compares random plausible Deployments whose
// containers exercise every container rule, asserting the same container
// problems on both sides and the same stored object when both accept.
// DIFFTEST_CTR_CASES sets the number of cases (default 3000) and
// DIFFTEST_CTR_SEED the first seed (default 1).
func TestContainersRandom(t *testing.T) {
	n := ctrEnvInt(t, "DIFFTEST_CTR_CASES", 3000)
	seed := int64(ctrEnvInt(t, "DIFFTEST_CTR_SEED", 1))
	start := time.Now()
	accepted, refused, failed := 0, 0, 0
	elsewhere := map[string]int{}
	seen := map[string]bool{}
	for i := range n {
		s := seed + int64(i)
		data := newCtrGen(s).deployment()
		other, err := compareContainers(data)
		if err != nil {
			failed++
			if failed <= 5 {
				t.Errorf("seed %d: %v\ninput %s", s, err, data)
			}
			continue
		}
		if other != "" {
			elsewhere[other]++
		}
		out, _ := OursCreateDeployment(data)
		for _, p := range ctrProblems(out.Problems) {
			seen[ctrRuleKey(p)] = true
		}
		if out.Refused() {
			refused++
		} else {
			accepted++
		}
	}
	if failed > 5 {
		t.Errorf("%d more cases differ", failed-5)
	}
	t.Logf("%d cases (seeds %d..%d) in %v: %d accepted, %d refused, %d differ in containers, %d differ only elsewhere",
		n, seed, seed+int64(n)-1, time.Since(start).Round(time.Millisecond), accepted, refused, failed, len(elsewhere))
	for _, k := range ctrSortedKeys(elsewhere) {
		t.Logf("elsewhere (%d): %s", elsewhere[k], k)
	}
	if n >= 3000 {
		for _, k := range ctrGeneratedRules {
			if !seen[k] {
				t.Errorf("no case reported %s: the generator no longer reaches that rule", k)
			}
		}
	}
	if accepted < n/20 {
		t.Errorf("only %d of %d cases were accepted: the generator is too harsh to compare stored objects", accepted, n)
	}
}

var ctrIndexRegexp = regexp.MustCompile(`\[[^\]]*\]`)

// ctrRuleKey is a problem with its indices and keys blanked out:
// "containers[].ports[].name: Invalid value".
func ctrRuleKey(p Problem) string {
	return ctrIndexRegexp.ReplaceAllString(strings.TrimPrefix(p.Field, "spec.template.spec."), "[]") + ": " + p.Type
}

// ctrGeneratedRules are problems the default run of TestContainersRandom
// reaches, one or more per family of rules, so that a change to the
// generator that stops exercising a rule is noticed.
var ctrGeneratedRules = []string{
	"containers: Required value",
	"containers[].name: Invalid value",
	"containers[].name: Duplicate value",
	"initContainers[].name: Duplicate value",
	"ephemeralContainers[].name: Duplicate value",
	"containers[].image: Required value",
	"ephemeralContainers[].image: Invalid value",
	"containers[].imagePullPolicy: Unsupported value",
	"containers[].terminationMessagePolicy: Unsupported value",
	"containers[].ports[].name: Invalid value",
	"containers[].ports[].containerPort: Invalid value",
	"containers[].ports[].hostPort: Invalid value",
	"containers[].ports[].hostPort: Duplicate value",
	"containers[].ports[].protocol: Unsupported value",
	"containers[].env[].name: Invalid value",
	"containers[].env[].valueFrom: Invalid value",
	"containers[].env[].valueFrom.fieldRef: Invalid value",
	"containers[].env[].valueFrom.fieldRef.fieldPath: Unsupported value",
	"containers[].env[].valueFrom.resourceFieldRef.resource: Unsupported value",
	"containers[].env[].valueFrom.resourceFieldRef.divisor: Invalid value",
	"containers[].env[].valueFrom.configMapKeyRef.key: Invalid value",
	"containers[].env[].valueFrom.secretKeyRef.name: Invalid value",
	"containers[].env[].valueFrom.fileKeyRef.path: Invalid value",
	"containers[].envFrom: Invalid value",
	"containers[].envFrom[].prefix: Invalid value",
	"containers[].resources.limits[]: Invalid value",
	"containers[].resources.requests: Invalid value",
	"containers[].resources.limits: Required value",
	"containers[].resources: Forbidden",
	"containers[].resources.claims[]: Not found",
	"containers[].resizePolicy: Unsupported value",
	"containers[].resizePolicy[]: Duplicate value",
	"initContainers[].resizePolicy[].restartPolicy: Invalid value",
	"containers[].restartPolicy: Unsupported value",
	"containers[].restartPolicyRules: Too many",
	"containers[].restartPolicyRules[].action: Unsupported value",
	"containers[].restartPolicyRules[].exitCodes.operator: Unsupported value",
	"containers[].restartPolicyRules[].exitCodes.values: Too many",
	"initContainers[].restartPolicy: Unsupported value",
	"initContainers[].livenessProbe: Forbidden",
	"containers[].volumeMounts[].name: Not found",
	"containers[].volumeMounts[].mountPath: Required value",
	"containers[].volumeMounts.subPath: Invalid value",
	"containers[].volumeMounts.mountPropagation: Forbidden",
	"containers[].volumeMounts.recursiveReadOnly: Unsupported value",
	"containers[].volumeDevices[].name: Invalid value",
	"containers[].volumeDevices[].devicePath: Invalid value",
	"containers[].livenessProbe: Required value",
	"containers[].livenessProbe.grpc: Forbidden",
	"containers[].livenessProbe.successThreshold: Invalid value",
	"containers[].readinessProbe.terminationGracePeriodSeconds: Invalid value",
	"containers[].readinessProbe.httpGet.httpHeaders: Invalid value",
	"containers[].startupProbe.tcpSocket.port: Invalid value",
	"containers[].lifecycle.preStop.sleep: Invalid value",
	"containers[].securityContext: Invalid value",
	"containers[].securityContext.runAsUser: Invalid value",
	"containers[].securityContext.procMount: Invalid value",
	"containers[].securityContext.seccompProfile.type: Unsupported value",
	"containers[].securityContext.appArmorProfile.localhostProfile: Invalid value",
	"containers[].securityContext.windowsOptions.runAsUserName: Invalid value",
	"ephemeralContainers[].ports: Forbidden",
	"ephemeralContainers[].targetContainerName: Not found",
	"ephemeralContainers[].volumeMounts[].subPath: Forbidden",
}

func ctrSortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
