package manifest_test

import (
	"bytes"
	"fmt"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/rolloutmath/rolloutmath/rollout/manifest"
)

// deployment is a realistic Deployment as `kubectl get -o json` prints it:
// three containers with environment, ports, probes and resources, about
// 2.5 KB.
func deployment(i int) string {
	return fmt.Sprintf(`{
    "apiVersion": "apps/v1",
    "kind": "Deployment",
    "metadata": {
        "name": "app-%[1]d",
        "namespace": "team-%[2]d",
        "uid": "6f1c2a4e-%08[1]d",
        "generation": 3,
        "labels": {"app": "app-%[1]d", "team": "team-%[2]d"},
        "annotations": {"deployment.kubernetes.io/revision": "3"}
    },
    "spec": {
        "replicas": %[3]d,
        "revisionHistoryLimit": 10,
        "progressDeadlineSeconds": 600,
        "selector": {"matchLabels": {"app": "app-%[1]d"}},
        "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": "25%%", "maxUnavailable": 0}},
        "template": {
            "metadata": {"labels": {"app": "app-%[1]d", "team": "team-%[2]d"}},
            "spec": {
                "containers": [
                    {"name": "app", "image": "registry.example.com/app-%[1]d:1.%[2]d.0",
                     "ports": [{"name": "http", "containerPort": 8080, "protocol": "TCP"}],
                     "env": [{"name": "LOG_LEVEL", "value": "info"}, {"name": "PORT", "value": "8080"}],
                     "resources": {"requests": {"cpu": "100m", "memory": "128Mi"}, "limits": {"memory": "256Mi"}},
                     "readinessProbe": {"httpGet": {"path": "/healthz", "port": 8080, "scheme": "HTTP"}, "periodSeconds": 10,
                                        "timeoutSeconds": 1, "successThreshold": 1, "failureThreshold": 3},
                     "imagePullPolicy": "IfNotPresent", "terminationMessagePath": "/dev/termination-log",
                     "terminationMessagePolicy": "File"},
                    {"name": "sidecar", "image": "registry.example.com/proxy:2.1",
                     "ports": [{"name": "admin", "containerPort": 9901, "protocol": "TCP"}],
                     "resources": {"requests": {"cpu": "50m", "memory": "64Mi"}},
                     "imagePullPolicy": "IfNotPresent", "terminationMessagePath": "/dev/termination-log",
                     "terminationMessagePolicy": "File"},
                    {"name": "logs", "image": "registry.example.com/logs:0.9",
                     "env": [{"name": "TARGET", "value": "stdout"}],
                     "imagePullPolicy": "IfNotPresent", "terminationMessagePath": "/dev/termination-log",
                     "terminationMessagePolicy": "File"}
                ],
                "restartPolicy": "Always", "terminationGracePeriodSeconds": 30, "dnsPolicy": "ClusterFirst",
                "securityContext": {}, "schedulerName": "default-scheduler"
            }
        }
    },
    "status": {"observedGeneration": 3, "replicas": %[3]d, "updatedReplicas": %[3]d, "readyReplicas": %[3]d, "availableReplicas": %[3]d}
}`, i, i%40, 2+i%9)
}

// List returns a List of n Deployments as JSON.
func List(n int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"apiVersion": "v1", "kind": "List", "items": [`)
	for i := range n {
		if i > 0 {
			b.WriteString(",\n")
		}
		b.WriteString(deployment(i))
	}
	b.WriteString("]}\n")
	return b.Bytes()
}

// YAMLStream returns n Deployments as YAML documents.
func YAMLStream(n int) []byte {
	var b bytes.Buffer
	for i := range n {
		y, err := yaml.JSONToYAML([]byte(deployment(i)))
		if err != nil {
			panic(err)
		}
		b.WriteString("---\n")
		b.Write(y)
	}
	return b.Bytes()
}

// BenchmarkParse splits 1,000 Deployments into documents: a JSON List (no
// YAML conversion) and YAML documents (converted, several at once).
func BenchmarkParse(b *testing.B) {
	for _, in := range []struct {
		name string
		data []byte
	}{{"json", List(1000)}, {"yaml", YAMLStream(1000)}} {
		b.Run(in.name, func(b *testing.B) {
			b.SetBytes(int64(len(in.data)))
			b.ReportAllocs()
			for b.Loop() {
				docs, err := manifest.Parse("in", in.data)
				if err != nil || len(docs) != 1000 {
					b.Fatalf("Parse() = %d documents, %v", len(docs), err)
				}
			}
		})
	}
}
