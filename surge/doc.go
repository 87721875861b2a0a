// Package surge resolves a rolling update's maxSurge and maxUnavailable into
// replica counts, as the Kubernetes Deployment controller does.
//
// # Values
//
// A [Value] is a count of replicas ([Count]) or a percentage of the desired
// replica count ([Percent]): the API's int-or-string. [Parse] reads "3" or
// "25%", and [Value.MarshalJSON] and [Value.UnmarshalJSON] use the API's JSON
// form (3 or "25%"). The zero Value is Count(0). Parse follows the API
// server's grammar for percents, ^[0-9]+%$, so a Value that came from Parse
// is one the API server would also accept as a string; what it refuses
// beyond syntax (negative counts, maxUnavailable above 100%, both zero) is
// reported by [Validate].
//
// # Rounding
//
// [Resolve] scales a percent p against the desired replica count d:
//
//	Surge       = ceil(p*d/100)
//	Unavailable = floor(p*d/100)
//
// Surge rounds up so that any positive percentage of a non-empty deployment
// allows at least one extra pod, and a rollout can start. Unavailable rounds
// down so that the deployment never has fewer available pods than the
// percentage promises. 25% of 10 gives a surge of 3 and an unavailable of 2.
// A count is used as it is, whatever d is. [Value.ScaleUp] and
// [Value.ScaleDown] expose the two directions for one value.
//
// # Both zero
//
// If Surge and Unavailable are both 0 after rounding, Unavailable becomes 1,
// so a rollout can always make progress: Surge+Unavailable >= 1. The rule
// looks at the rounded numbers, not at the values, so a small deployment may
// get one unavailable pod although its percentage rounds to none: maxSurge
// 0% and maxUnavailable 25% of 3 replicas round to 0 and floor(0.75) = 0, and
// Resolve returns Surge 0, Unavailable 1. With 1% and 1% of 2 replicas
// surge rounds up to 1, so Unavailable stays 0.
//
// Resolve does not limit Unavailable to d (at d = 0 it returns Unavailable 1).
// The controller does, when it computes how many pods may be unavailable:
// that is [Limits.Clamped], and d minus the clamped Unavailable is the
// minimum number of available pods.
//
// # Range
//
// The arithmetic is exact: p*d is computed in 128 bits, so there is no
// float64 rounding and no overflow for any int64 percent and int32 count.
// Results above math.MaxInt32 saturate at math.MaxInt32 (upstream truncates
// them to int32, which can turn a huge maxSurge percentage negative).
// Negative values and a negative d, which the API server refuses, resolve
// as 0.
package surge
