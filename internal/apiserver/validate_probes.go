package apiserver

import (
	"fmt"
	"slices"

	"github.com/rolloutmath/rolloutmath/internal/field"
	"github.com/rolloutmath/rolloutmath/internal/schema"
)

// A container's probes and lifecycle hooks: upstream's validateProbe and
// its liveness, readiness and startup variants, validateLifecycle,
// validateHandler and the actions, and validateStopSignal.

// validateLivenessProbe is upstream's validateLivenessProbe: a valid probe
// whose success threshold is 1.
func validateLivenessProbe(probe *schema.Probe, grace *int64, p *field.Path, opts podOptions) field.ErrorList {
	if probe == nil {
		return nil
	}
	errs := validateProbe(probe, grace, p, opts)
	if probe.SuccessThreshold != 1 {
		errs = append(errs, field.InvalidInt(p.Child("successThreshold"), int64(probe.SuccessThreshold), "must be 1"))
	}
	return errs
}

// validateReadinessProbe is upstream's validateReadinessProbe: a valid
// probe without a termination grace period (a failed readiness probe kills
// nothing).
func validateReadinessProbe(probe *schema.Probe, grace *int64, p *field.Path, opts podOptions) field.ErrorList {
	if probe == nil {
		return nil
	}
	errs := validateProbe(probe, grace, p, opts)
	if probe.TerminationGracePeriodSeconds != nil {
		errs = append(errs, field.InvalidInt(p.Child("terminationGracePeriodSeconds"), *probe.TerminationGracePeriodSeconds, "must not be set for readinessProbes"))
	}
	return errs
}

// validateStartupProbe is upstream's validateStartupProbe, which checks
// what validateLivenessProbe checks: a valid probe whose success threshold
// is 1.
func validateStartupProbe(probe *schema.Probe, grace *int64, p *field.Path, opts podOptions) field.ErrorList {
	return validateLivenessProbe(probe, grace, p, opts)
}

// validateProbe is upstream's validateProbe: exactly one valid handler,
// no negative delay, timeout, period or threshold, and a positive
// termination grace period when there is one.
func validateProbe(probe *schema.Probe, grace *int64, p *field.Path, opts podOptions) field.ErrorList {
	h := &probe.ProbeHandler
	errs := validateHandler(handler{exec: h.Exec, httpGet: h.HTTPGet, tcpSocket: h.TCPSocket, grpc: h.GRPC}, grace, p, opts)
	errs = append(errs, validateNonnegative(int64(probe.InitialDelaySeconds), p.Child("initialDelaySeconds"))...)
	errs = append(errs, validateNonnegative(int64(probe.TimeoutSeconds), p.Child("timeoutSeconds"))...)
	errs = append(errs, validateNonnegative(int64(probe.PeriodSeconds), p.Child("periodSeconds"))...)
	errs = append(errs, validateNonnegative(int64(probe.SuccessThreshold), p.Child("successThreshold"))...)
	errs = append(errs, validateNonnegative(int64(probe.FailureThreshold), p.Child("failureThreshold"))...)
	if g := probe.TerminationGracePeriodSeconds; g != nil && *g <= 0 {
		errs = append(errs, field.InvalidInt(p.Child("terminationGracePeriodSeconds"), *g, "must be greater than 0"))
	}
	return errs
}

// handler is upstream's commonHandler: the actions of a probe (exec,
// httpGet, tcpSocket, grpc) or of a lifecycle hook (exec, httpGet,
// tcpSocket, sleep).
type handler struct {
	exec      *schema.ExecAction
	httpGet   *schema.HTTPGetAction
	tcpSocket *schema.TCPSocketAction
	grpc      *schema.GRPCAction
	sleep     *schema.SleepAction
}

// validateHandler is upstream's validateHandler: exactly one action, valid.
// The second and later actions are forbidden and not checked.
func validateHandler(h handler, grace *int64, p *field.Path, opts podOptions) field.ErrorList {
	var errs field.ErrorList
	n := 0
	one := func(set bool, name string, check func(*field.Path) field.ErrorList) {
		if !set {
			return
		}
		if n > 0 {
			errs = append(errs, field.ForbiddenField(p.Child(name), "may not specify more than 1 handler type"))
			return
		}
		n++
		errs = append(errs, check(p.Child(name))...)
	}
	one(h.exec != nil, "exec", func(p *field.Path) field.ErrorList { return validateExecAction(h.exec, p) })
	one(h.httpGet != nil, "httpGet", func(p *field.Path) field.ErrorList { return validateHTTPGetAction(h.httpGet, p) })
	one(h.tcpSocket != nil, "tcpSocket", func(p *field.Path) field.ErrorList { return validatePortNumOrName(h.tcpSocket.Port, p.Child("port")) })
	one(h.grpc != nil, "grpc", func(p *field.Path) field.ErrorList {
		errs := validatePortNumOrName(schema.FromInt(h.grpc.Port), p.Child("port"))
		// v1.37 (GRPCContainerProbeTLS): Plaintext or TLS.
		if m := h.grpc.Mode; m != nil && *m != "Plaintext" && *m != "TLS" {
			errs = append(errs, field.NotSupported(p.Child("mode"), *m, []string{"Plaintext", "TLS"}))
		}
		return errs
	})
	one(h.sleep != nil, "sleep", func(p *field.Path) field.ErrorList { return validateSleepAction(h.sleep, grace, p, opts) })
	if n == 0 {
		errs = append(errs, field.RequiredValue(p, "must specify a handler type"))
	}
	return errs
}

// validateExecAction is upstream's validateExecAction: a command.
func validateExecAction(exec *schema.ExecAction, p *field.Path) field.ErrorList {
	if len(exec.Command) == 0 {
		return field.ErrorList{field.RequiredValue(p.Child("command"), "")}
	}
	return nil
}

// validateHTTPGetAction is upstream's validateHTTPGetAction: a path, a
// port number or name, the HTTP or HTTPS scheme, and header names of
// letters, digits and '-'. Upstream reports a bad header name at the
// list, not at the entry.
func validateHTTPGetAction(h *schema.HTTPGetAction, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if h.Path == "" {
		errs = append(errs, field.RequiredValue(p.Child("path"), ""))
	}
	errs = append(errs, validatePortNumOrName(h.Port, p.Child("port"))...)
	if h.Scheme != "HTTP" && h.Scheme != "HTTPS" {
		errs = append(errs, field.NotSupported(p.Child("scheme"), h.Scheme, []string{"HTTP", "HTTPS"}))
	}
	for _, header := range h.HTTPHeaders {
		for _, msg := range isHTTPHeaderName(header.Name) {
			errs = append(errs, field.InvalidString(p.Child("httpHeaders"), header.Name, msg))
		}
	}
	// v1.37 (H2CContainerProbe): HTTP1 or HTTP2, and HTTP2 (h2c) only
	// with the HTTP scheme and no host.
	if pr := h.Protocol; pr != nil {
		switch {
		case *pr != "HTTP1" && *pr != "HTTP2":
			errs = append(errs, field.NotSupported(p.Child("protocol"), *pr, []string{"HTTP1", "HTTP2"}))
		case *pr == "HTTP2" && h.Scheme != "HTTP":
			errs = append(errs, field.InvalidString(p.Child("protocol"), *pr, "is only supported with HTTP (H2C)"))
		case *pr == "HTTP2" && h.Host != "":
			errs = append(errs, field.InvalidString(p.Child("host"), h.Host, "must be empty when `protocol` is \"HTTP2\""))
		}
	}
	return errs
}

// validatePortNumOrName is upstream's ValidatePortNumOrName: a number from
// 1 to 65535 or an IANA service name.
func validatePortNumOrName(port schema.IntOrString, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	switch port.Type {
	case schema.IntType:
		for _, msg := range isValidPortNum(int64(port.IntVal)) {
			errs = append(errs, field.InvalidInt(p, int64(port.IntVal), msg))
		}
	case schema.StringType:
		for _, msg := range isValidPortName(port.StrVal) {
			errs = append(errs, field.InvalidString(p, port.StrVal, msg))
		}
	default:
		errs = append(errs, field.InternalValue(p, fmt.Sprintf("unknown type: %d", port.Type)))
	}
	return errs
}

// validateSleepAction is upstream's validateSleepAction: a sleep no longer
// than the pod's termination grace period, and not negative (not zero
// either, unless zero sleeps are allowed). A missing grace period, already
// reported, is not reported again.
func validateSleepAction(sleep *schema.SleepAction, grace *int64, p *field.Path, opts podOptions) field.ErrorList {
	if grace == nil {
		return nil
	}
	if opts.AllowPodLifecycleSleepActionZeroValue {
		if sleep.Seconds < 0 || sleep.Seconds > *grace {
			return field.ErrorList{field.InvalidInt(p, sleep.Seconds, fmt.Sprintf("must be non-negative and less than terminationGracePeriodSeconds (%d)", *grace))}
		}
		return nil
	}
	if sleep.Seconds <= 0 || sleep.Seconds > *grace {
		return field.ErrorList{field.InvalidInt(p, sleep.Seconds, fmt.Sprintf("must be greater than 0 and less than terminationGracePeriodSeconds (%d). Enable AllowPodLifecycleSleepActionZeroValue feature gate for zero sleep.", *grace))}
	}
	return nil
}

// validateLifecycle is upstream's validateLifecycle: valid postStart and
// preStop hooks, and a stop signal the pod's OS knows.
func validateLifecycle(l *schema.Lifecycle, grace *int64, p *field.Path, opts podOptions, os *schema.PodOS) field.ErrorList {
	var errs field.ErrorList
	for _, hook := range []struct {
		name string
		h    *schema.LifecycleHandler
	}{{"postStart", l.PostStart}, {"preStop", l.PreStop}} {
		if h := hook.h; h != nil {
			errs = append(errs, validateHandler(handler{exec: h.Exec, httpGet: h.HTTPGet, tcpSocket: h.TCPSocket, sleep: h.Sleep}, grace, p.Child(hook.name), opts)...)
		}
	}
	if l.StopSignal != nil {
		errs = append(errs, validateStopSignal(*l.StopSignal, p.Child("stopSignal"), os)...)
	}
	return errs
}

// The stop signals each OS supports, sorted.
var (
	linuxStopSignals = []string{
		"SIGABRT", "SIGALRM", "SIGBUS", "SIGCHLD", "SIGCLD", "SIGCONT", "SIGFPE", "SIGHUP",
		"SIGILL", "SIGINT", "SIGIO", "SIGIOT", "SIGKILL", "SIGPIPE", "SIGPOLL", "SIGPROF",
		"SIGPWR", "SIGQUIT", "SIGRTMAX", "SIGRTMAX-1", "SIGRTMAX-10", "SIGRTMAX-11", "SIGRTMAX-12",
		"SIGRTMAX-13", "SIGRTMAX-14", "SIGRTMAX-2", "SIGRTMAX-3", "SIGRTMAX-4", "SIGRTMAX-5",
		"SIGRTMAX-6", "SIGRTMAX-7", "SIGRTMAX-8", "SIGRTMAX-9", "SIGRTMIN", "SIGRTMIN+1",
		"SIGRTMIN+10", "SIGRTMIN+11", "SIGRTMIN+12", "SIGRTMIN+13", "SIGRTMIN+14", "SIGRTMIN+15",
		"SIGRTMIN+2", "SIGRTMIN+3", "SIGRTMIN+4", "SIGRTMIN+5", "SIGRTMIN+6", "SIGRTMIN+7",
		"SIGRTMIN+8", "SIGRTMIN+9", "SIGSEGV", "SIGSTKFLT", "SIGSTOP", "SIGSYS", "SIGTERM",
		"SIGTRAP", "SIGTSTP", "SIGTTIN", "SIGTTOU", "SIGURG", "SIGUSR1", "SIGUSR2", "SIGVTALRM",
		"SIGWINCH", "SIGXCPU", "SIGXFSZ",
	}
	windowsStopSignals = []string{"SIGKILL", "SIGTERM"}
)

// validateStopSignal is upstream's validateStopSignal: a stop signal needs
// the pod's OS, and must be one that OS supports.
func validateStopSignal(signal string, p *field.Path, os *schema.PodOS) field.ErrorList {
	var supported []string
	switch {
	case os == nil:
		return field.ErrorList{field.ForbiddenField(p, "may not be set for containers with empty `spec.os.name`")}
	case os.Name == "windows":
		supported = windowsStopSignals
	case os.Name == "linux":
		supported = linuxStopSignals
	default:
		return nil
	}
	if !slices.Contains(supported, signal) {
		return field.ErrorList{field.NotSupported(p, signal, supported)}
	}
	return nil
}
