package sim

import (
	"fmt"
	"time"
)

// Model is how a run drives the controllers. The zero value,
// ModelControllers, runs the Deployment and ReplicaSet controllers as
// kube-controller-manager runs them, with its client defaults (see
// [Controllers]); ModelSimple, the golden recordings' model, is chosen by
// name.
type Model uint8

// Models.
const (
	// ModelControllers: the Deployment controller and the ReplicaSet
	// controller as they run in kube-controller-manager, each event
	// driven and behind its own rate-limited API client (see
	// [Controllers] and the package documentation). It is the zero Model.
	ModelControllers Model = iota
	// ModelSimple: one controller sync at a time under the simple pod model
	// (see [PodModel]); Config.Interval chooses between syncs at fixed
	// intervals (the golden recordings' 30s) and event-driven syncs.
	ModelSimple
)

// Name names the model a run used: "controllers", "event driven" or "a
// sync every <Interval>".
func (m Model) Name(interval time.Duration) string {
	switch {
	case m == ModelControllers:
		return "controllers"
	case interval > 0:
		return "a sync every " + interval.String()
	default:
		return "event driven"
	}
}

// kube-controller-manager's defaults for the controllers' clients and the
// ReplicaSet controller.
const (
	// DefaultQPS is --kube-api-qps, the rate of each controller's client.
	DefaultQPS = 20
	// DefaultBurst is --kube-api-burst, the burst of each controller's
	// client.
	DefaultBurst = 30
	// DefaultBurstReplicas is the most pods the ReplicaSet controller
	// creates or deletes in one sync.
	DefaultBurstReplicas = 500
)

// Controllers configures ModelControllers. The zero value is
// kube-controller-manager's defaults: QPS 20 and burst 30 for each
// controller's client, 500 burst replicas.
type Controllers struct {
	// QPS is the rate of each controller's client token bucket, in
	// requests a second: 0 means DefaultQPS and a negative value no
	// limit, as in client-go. A positive QPS must be at least 0.01.
	QPS float64
	// Burst is the size of each client's bucket (0: DefaultBurst).
	Burst int
	// BurstReplicas is the most pods the ReplicaSet controller creates or
	// deletes in one sync (0: DefaultBurstReplicas).
	BurstReplicas int
}

// limits returns the QPS, burst and burst replicas c stands for, defaults
// filled in.
func (c Controllers) limits() (qps float64, burst, burstReplicas int) {
	qps, burst, burstReplicas = c.QPS, c.Burst, c.BurstReplicas
	if qps == 0 {
		qps = DefaultQPS
	}
	if burst == 0 {
		burst = DefaultBurst
	}
	if burstReplicas == 0 {
		burstReplicas = DefaultBurstReplicas
	}
	return qps, burst, burstReplicas
}

// String describes the limits of c, as "kube-api-qps 20, kube-api-burst
// 30" or "no client rate limit".
func (c Controllers) String() string {
	qps, burst, _ := c.limits()
	if qps < 0 {
		return "no client rate limit"
	}
	return fmt.Sprintf("kube-api-qps %g, kube-api-burst %d", qps, burst)
}

func (c Controllers) check(errs *[]error) {
	if c.QPS > 0 && c.QPS < 0.01 {
		*errs = append(*errs, &ConfigError{"Controllers.QPS", fmt.Sprint(c.QPS), "must be negative, 0 or at least 0.01"})
	}
	if c.QPS != c.QPS {
		*errs = append(*errs, &ConfigError{"Controllers.QPS", "NaN", "must be a number"})
	}
	if c.Burst < 0 || c.Burst > 1_000_000 {
		*errs = append(*errs, &ConfigError{"Controllers.Burst", fmt.Sprint(c.Burst), "must be in [0, 1000000]"})
	}
	if c.BurstReplicas < 0 || c.BurstReplicas > 1_000_000 {
		*errs = append(*errs, &ConfigError{"Controllers.BurstReplicas", fmt.Sprint(c.BurstReplicas), "must be in [0, 1000000]"})
	}
}
