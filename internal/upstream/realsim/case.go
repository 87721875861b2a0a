package realsim

import (
	"errors"
	"fmt"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// Kube-controller-manager's defaults, which a zero Case field means.
const (
	// DefaultQPS and DefaultBurst are --kube-api-qps and --kube-api-burst.
	DefaultQPS   = 20
	DefaultBurst = 30
	// Workers is --concurrent-deployment-syncs and
	// --concurrent-replicaset-syncs.
	Workers = 5
	// BurstReplicas is the ReplicaSet controller's burstReplicas.
	BurstReplicas = 500
	// DefaultMaxTime is how long after the change a run waits for the
	// rollout to complete when Case.MaxTime is 0.
	DefaultMaxTime = 30 * time.Minute
)

// Limits of a Case, so that a run's time and memory stay bounded.
const (
	MaxReplicas = 5000
	MaxDuration = time.Hour
)

// A Case is one rollout to run: a Deployment of Replicas pods, fully rolled
// out with the image "example.com/app:1", whose image is then changed to
// "example.com/app:2".
//
// The zero values mean: MaxSurge and MaxUnavailable "25%" (the API's
// default), ProgressDeadlineSeconds 600, QPS and Burst kube-controller-
// manager's 20 and 30, no quota, pods ready at once and gone at once when
// deleted.
type Case struct {
	// Name names the case in tests and in the recorded file.
	Name string

	Replicas int32
	// Recreate selects the Recreate strategy; otherwise it is
	// RollingUpdate with MaxSurge and MaxUnavailable, each a count ("1")
	// or a percentage ("25%").
	Recreate       bool
	MaxSurge       string
	MaxUnavailable string

	MinReadySeconds         int32
	ProgressDeadlineSeconds int32

	// ReadyAfter is the time from a pod's creation to its Ready condition
	// turning True.
	ReadyAfter time.Duration
	// Terminating is how long a deleted pod stays, terminating: the pod
	// template's terminationGracePeriodSeconds is Terminating rounded up
	// to a second, and the kubelet removes the pod Terminating after its
	// deletion (0: the API server removes it at once).
	Terminating time.Duration
	// MaxPods is a ResourceQuota on the namespace's pods: creations beyond
	// it are refused with 403 Forbidden, as the quota admission plugin
	// does; terminating pods count (0: no quota).
	MaxPods int32

	// QPS and Burst are each controller's client rate limit (one token
	// bucket per controller, for every request it makes); a negative QPS
	// means no limit.
	QPS   float32
	Burst int

	// MaxTime is how long after the change the run waits for the rollout
	// to complete (0: DefaultMaxTime).
	MaxTime time.Duration
	// Timeline asks for Measurement.Timeline.
	Timeline bool
	// Requests asks for Measurement.Requests, the request log.
	Requests bool
}

// CaseError reports a Case field that cannot be run.
type CaseError struct {
	Case   string
	Field  string
	Reason string
}

func (e *CaseError) Error() string {
	return fmt.Sprintf("realsim: case %q: %s: %s", e.Case, e.Field, e.Reason)
}

// check returns every reason c cannot be run, joined.
func (c Case) check() error {
	var errs []error
	bad := func(field, reason string) { errs = append(errs, &CaseError{c.Name, field, reason}) }
	if c.Replicas < 0 || c.Replicas > MaxReplicas {
		bad("Replicas", fmt.Sprintf("%d is not in [0, %d]", c.Replicas, MaxReplicas))
	}
	for _, f := range []struct {
		name string
		d    time.Duration
	}{{"ReadyAfter", c.ReadyAfter}, {"Terminating", c.Terminating}, {"MaxTime", c.MaxTime}} {
		if f.d < 0 || f.d > MaxDuration {
			bad(f.name, fmt.Sprintf("%v is not in [0, %v]", f.d, MaxDuration))
		}
	}
	if c.MinReadySeconds < 0 || c.MinReadySeconds > int32(MaxDuration/time.Second) {
		bad("MinReadySeconds", fmt.Sprintf("%d is not in [0, %d]", c.MinReadySeconds, MaxDuration/time.Second))
	}
	if c.ProgressDeadlineSeconds < 0 || c.ProgressDeadlineSeconds > 0 && c.ProgressDeadlineSeconds <= c.MinReadySeconds {
		bad("ProgressDeadlineSeconds", "must be positive and greater than MinReadySeconds")
	}
	if c.MaxPods < 0 {
		bad("MaxPods", "must not be negative")
	}
	if c.Burst < 0 {
		bad("Burst", "must not be negative")
	}
	if c.Recreate && (c.MaxSurge != "" || c.MaxUnavailable != "") {
		bad("MaxSurge", "Recreate takes no MaxSurge or MaxUnavailable")
	}
	if !c.Recreate {
		s, u, err := c.surge()
		if err != nil {
			bad("MaxSurge", err.Error())
		} else if s.IntValue() == 0 && s.Type == intstr.Int && u.IntValue() == 0 && u.Type == intstr.Int {
			bad("MaxUnavailable", "may not be 0 when MaxSurge is 0")
		}
	}
	return errors.Join(errs...)
}

// surge parses MaxSurge and MaxUnavailable, "25%" when empty.
func (c Case) surge() (s, u intstr.IntOrString, err error) {
	parse := func(field, v string) (intstr.IntOrString, error) {
		if v == "" {
			v = "25%"
		}
		x := intstr.Parse(v)
		if x.Type == intstr.String {
			var p int
			if _, err := fmt.Sscanf(v, "%d%%", &p); err != nil || fmt.Sprintf("%d%%", p) != v || p < 0 || p > 100 {
				return x, fmt.Errorf("%s %q is neither a count nor a percentage in [0%%, 100%%]", field, v)
			}
		} else if x.IntVal < 0 {
			return x, fmt.Errorf("%s %q is negative", field, v)
		}
		return x, nil
	}
	if s, err = parse("MaxSurge", c.MaxSurge); err != nil {
		return
	}
	u, err = parse("MaxUnavailable", c.MaxUnavailable)
	return
}

// Images of the template before and after the change.
const (
	OldImage = "example.com/app:1"
	NewImage = "example.com/app:2"
)

const (
	namespace = "default"
	name      = "app"
)

// deployment is c's Deployment as the API server stores it after
// defaulting, with the old image.
func (c Case) deployment() *appsv1.Deployment {
	labels := map[string]string{"app": name}
	grace := int64((c.Terminating + time.Second - 1) / time.Second)
	deadline := c.ProgressDeadlineSeconds
	if deadline == 0 {
		deadline = 600
	}
	replicas := c.Replicas
	history := int32(10)
	d := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name},
		Spec: appsv1.DeploymentSpec{
			Replicas:                &replicas,
			Selector:                &metav1.LabelSelector{MatchLabels: labels},
			MinReadySeconds:         c.MinReadySeconds,
			RevisionHistoryLimit:    &history,
			ProgressDeadlineSeconds: &deadline,
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec: corev1.PodSpec{
					Containers: []corev1.Container{{
						Name: "app", Image: OldImage,
						TerminationMessagePath:   corev1.TerminationMessagePathDefault,
						TerminationMessagePolicy: corev1.TerminationMessageReadFile,
						ImagePullPolicy:          corev1.PullIfNotPresent,
					}},
					RestartPolicy:                 corev1.RestartPolicyAlways,
					TerminationGracePeriodSeconds: &grace,
					DNSPolicy:                     corev1.DNSClusterFirst,
					SchedulerName:                 corev1.DefaultSchedulerName,
					SecurityContext:               &corev1.PodSecurityContext{},
				},
			},
		},
	}
	if c.Recreate {
		d.Spec.Strategy.Type = appsv1.RecreateDeploymentStrategyType
	} else {
		s, u, _ := c.surge()
		d.Spec.Strategy = appsv1.DeploymentStrategy{
			Type:          appsv1.RollingUpdateDeploymentStrategyType,
			RollingUpdate: &appsv1.RollingUpdateDeployment{MaxSurge: &s, MaxUnavailable: &u},
		}
	}
	return d
}
