package strategicpatch

import "testing"

// benchLive is a stored Deployment with three containers, env, ports,
// volumes and defaults, last applied from benchManifest with one image
// older and an autoscaler's replica count.
const benchLive = `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"annotations":{"kubectl.kubernetes.io/last-applied-configuration":"{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"annotations\":{},\"name\":\"web\",\"namespace\":\"default\"},\"spec\":{\"replicas\":3,\"selector\":{\"matchLabels\":{\"app\":\"web\"}},\"template\":{\"metadata\":{\"labels\":{\"app\":\"web\"}},\"spec\":{\"containers\":[{\"env\":[{\"name\":\"A\",\"value\":\"1\"},{\"name\":\"B\",\"value\":\"2\"}],\"image\":\"nginx:1.25\",\"name\":\"app\",\"ports\":[{\"containerPort\":80}],\"resources\":{\"requests\":{\"cpu\":\"1\",\"memory\":\"128Mi\"}},\"volumeMounts\":[{\"mountPath\":\"/etc/web\",\"name\":\"config\"}]},{\"image\":\"envoy:1.30\",\"name\":\"sidecar\"}],\"volumes\":[{\"configMap\":{\"name\":\"web-config\"},\"name\":\"config\"}]}}}}\n"},"generation":4,"labels":{"app":"web"},"name":"web","namespace":"default","resourceVersion":"812","uid":"b1c2"},"spec":{"progressDeadlineSeconds":600,"replicas":7,"revisionHistoryLimit":10,"selector":{"matchLabels":{"app":"web"}},"strategy":{"rollingUpdate":{"maxSurge":"25%","maxUnavailable":"25%"},"type":"RollingUpdate"},"template":{"metadata":{"annotations":{"kubectl.kubernetes.io/restartedAt":"2026-01-02T03:04:05Z"},"labels":{"app":"web"}},"spec":{"containers":[{"env":[{"name":"A","value":"1"},{"name":"B","value":"2"}],"image":"nginx:1.25","imagePullPolicy":"IfNotPresent","name":"app","ports":[{"containerPort":80,"protocol":"TCP"}],"resources":{"requests":{"cpu":"1","memory":"128Mi"}},"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File","volumeMounts":[{"mountPath":"/etc/web","name":"config"}]},{"image":"envoy:1.30","imagePullPolicy":"IfNotPresent","name":"sidecar","resources":{},"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File"},{"image":"istio/proxyv2","imagePullPolicy":"IfNotPresent","name":"istio-proxy","resources":{},"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File"}],"dnsPolicy":"ClusterFirst","restartPolicy":"Always","schedulerName":"default-scheduler","securityContext":{},"terminationGracePeriodSeconds":30,"volumes":[{"configMap":{"defaultMode":420,"name":"web-config"},"name":"config"}]}}},"status":{"observedGeneration":4,"replicas":7}}`

// benchManifest bumps the image, adds an env var and drops replicas.
const benchManifest = `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"app","image":"nginx:1.26","ports":[{"containerPort":80}],"env":[{"name":"A","value":"1"},{"name":"B","value":"2"},{"name":"C","value":"3"}],"resources":{"requests":{"cpu":"1","memory":"128Mi"}},"volumeMounts":[{"name":"config","mountPath":"/etc/web"}]},{"name":"sidecar","image":"envoy:1.30"}],"volumes":[{"name":"config","configMap":{"name":"web-config"}}]}}}}`

// BenchmarkApply measures kubectl apply of benchManifest onto benchLive:
// the modified configuration, the three-way patch and the patched object.
func BenchmarkApply(b *testing.B) {
	s := deploymentSchema(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Apply([]byte(benchLive), []byte(benchManifest), "default", s, true); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStrategicMergePatch measures the API server's side alone.
func BenchmarkStrategicMergePatch(b *testing.B) {
	s := deploymentSchema(b)
	a, err := Apply([]byte(benchLive), []byte(benchManifest), "default", s, true)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := StrategicMergePatch([]byte(benchLive), a.Patch, s); err != nil {
			b.Fatal(err)
		}
	}
}
