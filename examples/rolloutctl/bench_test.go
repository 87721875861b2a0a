package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// realistic returns Deployment i as `kubectl get -o json` prints it:
// three containers with environment, ports, a probe and resources, about
// 2.6 KB; strategies vary.
func realistic(i int) string {
	surges := []string{`"25%"`, `1`, `"50%"`, `2`}
	return fmt.Sprintf(`{"apiVersion": "apps/v1", "kind": "Deployment",
 "metadata": {"name": "app-%[1]d", "namespace": "team-%[2]d", "uid": "6f1c2a4e-%08[1]d", "generation": 3,
  "labels": {"app": "app-%[1]d", "team": "team-%[2]d"}, "annotations": {"deployment.kubernetes.io/revision": "3"}},
 "spec": {"replicas": %[3]d, "revisionHistoryLimit": 10, "progressDeadlineSeconds": 600,
  "selector": {"matchLabels": {"app": "app-%[1]d"}},
  "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": %[4]s, "maxUnavailable": 0}},
  "template": {"metadata": {"labels": {"app": "app-%[1]d", "team": "team-%[2]d"}},
   "spec": {"containers": [
    {"name": "app", "image": "registry.example.com/app-%[1]d:1.%[2]d.0",
     "ports": [{"name": "http", "containerPort": 8080, "protocol": "TCP"}],
     "env": [{"name": "LOG_LEVEL", "value": "info"}, {"name": "PORT", "value": "8080"}],
     "resources": {"requests": {"cpu": "100m", "memory": "128Mi"}, "limits": {"memory": "256Mi"}},
     "readinessProbe": {"httpGet": {"path": "/healthz", "port": 8080, "scheme": "HTTP"}, "periodSeconds": 10,
      "timeoutSeconds": 1, "successThreshold": 1, "failureThreshold": 3},
     "imagePullPolicy": "IfNotPresent", "terminationMessagePath": "/dev/termination-log", "terminationMessagePolicy": "File"},
    {"name": "sidecar", "image": "registry.example.com/proxy:2.1",
     "ports": [{"name": "admin", "containerPort": 9901, "protocol": "TCP"}],
     "resources": {"requests": {"cpu": "50m", "memory": "64Mi"}},
     "imagePullPolicy": "IfNotPresent", "terminationMessagePath": "/dev/termination-log", "terminationMessagePolicy": "File"},
    {"name": "logs", "image": "registry.example.com/logs:0.9", "env": [{"name": "TARGET", "value": "stdout"}],
     "imagePullPolicy": "IfNotPresent", "terminationMessagePath": "/dev/termination-log", "terminationMessagePolicy": "File"}],
    "restartPolicy": "Always", "terminationGracePeriodSeconds": 30, "dnsPolicy": "ClusterFirst",
    "securityContext": {}, "schedulerName": "default-scheduler"}}},
 "status": {"observedGeneration": 3, "replicas": %[3]d, "updatedReplicas": %[3]d, "readyReplicas": %[3]d, "availableReplicas": %[3]d}}`,
		i, i%40, 2+i%9, surges[i%len(surges)])
}

// policyObjects returns the policy objects of realistic(i): for its team's
// namespace (when i is the team's first Deployment) a ResourceQuota and a
// LimitRange, for itself a PodDisruptionBudget, and for every tenth an
// HorizontalPodAutoscaler of replicas..replicas+2.
func policyObjects(i int) []string {
	team, replicas := i%40, 2+i%9
	var out []string
	if i < 40 {
		out = append(out, fmt.Sprintf(`{"apiVersion": "v1", "kind": "ResourceQuota", "metadata": {"name": "compute", "namespace": "team-%d"},
 "spec": {"hard": {"requests.cpu": "2000", "requests.memory": "4000Gi", "limits.memory": "8000Gi", "pods": "10000", "count/replicasets.apps": "20000"}}}`, team),
			fmt.Sprintf(`{"apiVersion": "v1", "kind": "LimitRange", "metadata": {"name": "defaults", "namespace": "team-%d"},
 "spec": {"limits": [{"type": "Container", "defaultRequest": {"cpu": "50m", "memory": "64Mi"}, "default": {"memory": "256Mi"}}]}}`, team))
	}
	out = append(out, fmt.Sprintf(`{"apiVersion": "policy/v1", "kind": "PodDisruptionBudget", "metadata": {"name": "app-%[1]d", "namespace": "team-%[2]d"},
 "spec": {"maxUnavailable": 1, "selector": {"matchLabels": {"app": "app-%[1]d"}}}}`, i, team))
	if i%10 == 0 {
		out = append(out, fmt.Sprintf(`{"apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler", "metadata": {"name": "app-%[1]d", "namespace": "team-%[2]d"},
 "spec": {"scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "app-%[1]d"}, "minReplicas": %[3]d, "maxReplicas": %[4]d}}`, i, team, replicas, replicas+2))
	}
	return out
}

// list writes n realistic Deployments as a JSON List into a file of dir,
// and returns its name and size; options add their policy objects, and
// give each Deployment a progress deadline of its own ("distinct"), or a
// rollout shape of its own ("varied": a deadline, pods ready after 1 to
// 30 s (the readiness probe's initialDelaySeconds, every second) and a
// minReadySeconds of 0 to 18 of its own, beside the 36 combinations of
// replicas and maxSurge: 20,000 shapes whose runs check cannot share).
func list(b testing.TB, dir string, n int, asYAML bool, options ...string) (string, int64) {
	b.Helper()
	policy, distinct, varied := slices.Contains(options, "policy"), slices.Contains(options, "distinct"), slices.Contains(options, "varied")
	var buf bytes.Buffer
	if asYAML {
		for i := range n {
			y, err := yaml.JSONToYAML([]byte(realistic(i)))
			if err != nil {
				b.Fatal(err)
			}
			buf.WriteString("---\n")
			buf.Write(y)
		}
	} else {
		buf.WriteString(`{"apiVersion": "v1", "kind": "List", "items": [`)
		for i := range n {
			if i > 0 {
				buf.WriteString(",\n")
			}
			d := realistic(i)
			if distinct || varied {
				d = strings.Replace(d, `"progressDeadlineSeconds": 600`, fmt.Sprintf(`"progressDeadlineSeconds": %d`, 600+i), 1)
			}
			if varied {
				d = strings.Replace(d, `"revisionHistoryLimit": 10,`, fmt.Sprintf(`"revisionHistoryLimit": 10, "minReadySeconds": %d,`, i/1080%19), 1)
				d = strings.Replace(d, `"periodSeconds": 10,`, fmt.Sprintf(`"initialDelaySeconds": %d, "periodSeconds": 1,`, 1+i/36%30), 1)
			}
			buf.WriteString(d)
			if policy {
				for _, o := range policyObjects(i) {
					buf.WriteString(",\n" + o)
				}
			}
		}
		buf.WriteString("]}\n")
	}
	name := filepath.Join(dir, "list-"+strconv.Itoa(n)+strings.Join(append([]string{""}, options...), "-")+map[bool]string{true: ".yaml", false: ".json"}[asYAML])
	if err := os.WriteFile(name, buf.Bytes(), 0o644); err != nil {
		b.Fatal(err)
	}
	return name, int64(buf.Len())
}

// BenchmarkLoad reads, splits, decodes and validates 20,000 Deployments:
// a 42 MB JSON List as kubectl prints it, and the same as YAML documents.
func BenchmarkLoad(b *testing.B) {
	for _, asYAML := range []bool{false, true} {
		b.Run(map[bool]string{false: "json", true: "yaml"}[asYAML], func(b *testing.B) {
			file, size := list(b, b.TempDir(), 20000, asYAML)
			f := inputFlags{files: listFlag{file}, maxSize: 1 << 30}
			b.SetBytes(size)
			b.ReportAllocs()
			for b.Loop() {
				in, err := f.load(&env{stderr: io.Discard}, "bench")
				if err != nil || len(in.Objects().Deployments) != 20000 {
					b.Fatalf("load: %v", err)
				}
			}
		})
	}
}

// BenchmarkCheck runs check over 20,000 Deployments (the JSON List of
// BenchmarkLoad, and its YAML), loading included, on every core: alone, and with their
// policy objects (a ResourceQuota and a LimitRange per namespace, a
// PodDisruptionBudget each, an HPA for every tenth: 24,000 rollouts). The
// Deployments have 36 rollout shapes, which check simulates once each;
// distinct-shapes gives each its own progress deadline, varied-shapes a
// rollout shape of its own (see list). cpu-s/op is the
// CPU time of a run on all cores, which a shared machine changes less than
// the wall-clock time.
func BenchmarkCheck(b *testing.B) {
	for _, options := range [][]string{nil, {"yaml"}, {"policy"}, {"policy", "distinct"}, {"policy", "varied"}} {
		name := map[string]string{"": "deployments", "yaml": "deployments-yaml", "policy": "with-policy", "policy distinct": "with-policy/distinct-shapes",
			"policy varied": "with-policy/varied-shapes"}[strings.Join(options, " ")]
		b.Run(name, func(b *testing.B) {
			asYAML := slices.Contains(options, "yaml")
			file, _ := list(b, b.TempDir(), 20000, asYAML, options...)
			args := []string{"check", "-f", file, "--max-input-size", "1GiB", "--max-pods", "100"}
			b.ReportAllocs()
			cpu := cpuSeconds()
			for b.Loop() {
				code := run(args, nil, io.Discard, io.Discard)
				if code != exitOK {
					var out strings.Builder
					run(args, nil, &out, &out)
					b.Fatalf("check = %d:\n%.3000s", code, out.String())
				}
			}
			b.ReportMetric((cpuSeconds()-cpu)/float64(b.N), "cpu-s/op")
			b.ReportMetric(float64(runtime.GOMAXPROCS(0)), "workers")
		})
	}
}

// BenchmarkCheckHPA checks the nginx example over an HPA range of
// 2..5000 replicas (128 counts sampled) with its pods ready after 5s, 30s
// and 60s, and ready after 5s terminating for 30s, at the default
// --max-work: issue 23's "an HPA of 2..5000 in under 10 s". Each count's
// run holds a cohort for each instant pods were created at until they
// are available, some 100 at 5s, 600 at 30s and 1,200 at 60s, and one
// for each instant pods were deleted at until they are gone, some 600
// at 30s.
// The answer (exit code) is reported as the metric exit: 0 for OK, 3 for
// a range stopped at its limit. cpu-s/op is the CPU time of a run on all
// cores.
func BenchmarkCheckHPA(b *testing.B) {
	for _, pods := range [][]string{{"5s"}, {"30s"}, {"60s"}, {"5s", "30s"}} {
		name := "ready-after-" + pods[0]
		args := []string{"check", "-f", filepath.Join("testdata", "nginx-deployment.yaml"), "--replicas", "2..5000", "--ready-after", pods[0]}
		if len(pods) > 1 {
			name += "-terminating-" + pods[1]
			args = append(args, "--terminating", pods[1])
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			cpu := cpuSeconds()
			code := 0
			for b.Loop() {
				code = run(args, nil, io.Discard, io.Discard)
				if code != exitOK && code != exitLimit {
					b.Fatalf("check = %d", code)
				}
			}
			b.ReportMetric((cpuSeconds()-cpu)/float64(b.N), "cpu-s/op")
			b.ReportMetric(float64(code), "exit")
		})
	}
}

// BenchmarkBounds writes every row of wide ranges: the heap it holds at
// its peak (peak-heap-B) does not grow with the rows.
func BenchmarkBounds(b *testing.B) {
	for _, rows := range []int{1000, 100000} {
		b.Run(strconv.Itoa(rows)+"-rows", func(b *testing.B) {
			args := []string{"bounds", "-o", "json", "-f", manifestPath("recreate.yaml"), "--step", "1", "--replicas", "1.." + strconv.Itoa(rows)}
			var peak uint64
			b.ReportAllocs()
			for b.Loop() {
				w := &heapWatcher{peak: &peak}
				if code := run(args, nil, w, io.Discard); code != exitOK {
					b.Fatalf("bounds = %d", code)
				}
			}
			b.ReportMetric(float64(peak), "peak-heap-B")
		})
	}
}

// TestWriteBenchmarkInputs writes the benchmark's 20,000 Deployments, as
// YAML and as a JSON List, and the JSON Lists of BenchmarkCheck's
// with-policy cases (plain, distinct-shapes, varied-shapes), into the
// directory $ROLLOUTCTL_BENCH_DIR names, for measuring the command itself
// (see BENCHMARKS.md); without it, it is skipped.
func TestWriteBenchmarkInputs(t *testing.T) {
	dir := os.Getenv("ROLLOUTCTL_BENCH_DIR")
	if dir == "" {
		t.Skip("set ROLLOUTCTL_BENCH_DIR to write the benchmark's inputs")
	}
	for _, asYAML := range []bool{true, false} {
		name, size := list(t, dir, 20000, asYAML)
		t.Logf("%s: %d bytes", name, size)
	}
	for _, options := range [][]string{{"policy"}, {"policy", "distinct"}, {"policy", "varied"}} {
		name, size := list(t, dir, 20000, false, options...)
		t.Logf("%s: %d bytes", name, size)
	}
}

// BenchmarkSimulateJSON writes `simulate -o json` of the seed example at
// 20,000 replicas, maxSurge 0 and maxUnavailable 1: 40,000 steps, 265 MB
// of JSON, written a step at a time (encodeJSON). peak-heap-B is the
// heap the command holds at its peak, sampled as it writes: the run's
// steps, not the document.
func BenchmarkSimulateJSON(b *testing.B) { benchmarkSimulate(b, "json", 20000) }

// BenchmarkSimulateYAML is BenchmarkSimulateJSON's `-o yaml` at 5,000
// replicas: 10,000 steps, 45 MB of YAML, each step converted and written
// on its own (encodeYAML).
func BenchmarkSimulateYAML(b *testing.B) { benchmarkSimulate(b, "yaml", 5000) }

func benchmarkSimulate(b *testing.B, format string, replicas int) {
	src := strings.NewReplacer("replicas: 10", "replicas: "+strconv.Itoa(replicas), "maxSurge: 25%", "maxSurge: 0", "maxUnavailable: 25%", "maxUnavailable: 1").Replace(string(defaultManifest))
	file := filepath.Join(b.TempDir(), "big.yaml")
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		b.Fatal(err)
	}
	args := []string{"simulate", "-o", format, "-f", file, "--image", "nginx:2"}
	var peak uint64
	b.ReportAllocs()
	for b.Loop() {
		w := &sampledHeap{peak: &peak}
		if code := run(args, nil, w, io.Discard); code != exitOK {
			b.Fatalf("simulate = %d", code)
		}
		b.ReportMetric(float64(w.bytes), format+"-B")
	}
	b.ReportMetric(float64(peak), "peak-heap-B")
}

// sampledHeap counts what is written to it and samples the live heap
// every 16 MB of it.
type sampledHeap struct {
	bytes, next int64
	peak        *uint64
}

func (h *sampledHeap) Write(p []byte) (int, error) {
	if h.bytes += int64(len(p)); h.bytes >= h.next {
		h.next = h.bytes + 16<<20
		var m runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&m)
		*h.peak = max(*h.peak, m.HeapAlloc)
	}
	return len(p), nil
}
