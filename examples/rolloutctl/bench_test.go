package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
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

// list writes n realistic Deployments as a JSON List into a file of dir,
// and returns its name and size.
func list(b *testing.B, dir string, n int, asYAML bool) (string, int64) {
	b.Helper()
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
			buf.WriteString(realistic(i))
		}
		buf.WriteString("]}\n")
	}
	name := filepath.Join(dir, "list-"+strconv.Itoa(n)+map[bool]string{true: ".yaml", false: ".json"}[asYAML])
	if err := os.WriteFile(name, buf.Bytes(), 0o644); err != nil {
		b.Fatal(err)
	}
	return name, int64(buf.Len())
}

// BenchmarkLoad reads, splits, decodes and validates 20,000 Deployments:
// a 52 MB JSON List as kubectl prints it, and the same as YAML documents.
func BenchmarkLoad(b *testing.B) {
	for _, asYAML := range []bool{false, true} {
		b.Run(map[bool]string{false: "json", true: "yaml"}[asYAML], func(b *testing.B) {
			file, size := list(b, b.TempDir(), 20000, asYAML)
			f := inputFlags{files: listFlag{file}, maxSize: 1 << 30}
			b.SetBytes(size)
			b.ReportAllocs()
			for b.Loop() {
				in, err := f.load(&env{stderr: io.Discard}, "bench")
				if err != nil || len(in.objs.Deployments) != 20000 {
					b.Fatalf("load: %v", err)
				}
			}
		})
	}
}

// BenchmarkCheck runs check over 20,000 Deployments (the JSON List of
// BenchmarkLoad), loading included, on every core.
func BenchmarkCheck(b *testing.B) {
	file, _ := list(b, b.TempDir(), 20000, false)
	args := []string{"check", "-f", file, "--max-input-size", "1GiB", "--max-pods", "100"}
	b.ReportAllocs()
	for b.Loop() {
		code := run(args, nil, io.Discard, io.Discard)
		if code != exitOK {
			var out strings.Builder
			run(args, nil, &out, &out)
			b.Fatalf("check = %d:\n%.2000s", code, out.String())
		}
	}
	b.ReportMetric(float64(runtime.GOMAXPROCS(0)), "workers")
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
