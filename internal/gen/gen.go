// Package gen holds the rapid generators that the tests of package rollout
// share: valid Deployments, the ReplicaSets they own, and whole sync
// states. It is imported only from _test.go files.
//
// Every generator draws values that [rollout.Validate] and
// [rollout.ValidateReplicaSet] accept. Deployments are named "web" in
// namespace "default", select {app: web}, and are created at [Epoch];
// their ReplicaSets are created at or after Epoch, often at the same
// second, and a State's Now is never before the newest of them.
package gen

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"time"

	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/hash"
	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/surge"
)

// Names shared by every generated object.
const (
	Name      = "web"
	Namespace = "default"
	UID       = "dep-uid"
)

// Epoch returns the creation time of generated Deployments:
// 2026-01-01T00:00:00Z.
func Epoch() time.Time { return time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC) }

// Selector returns the selector of generated Deployments, {app: web}, in a
// new map.
func Selector() rollout.LabelSelector {
	return rollout.LabelSelector{MatchLabels: map[string]string{"app": Name}}
}

// Strategy draws a valid deployment strategy: Recreate about one time in
// five, otherwise RollingUpdate with maxSurge and maxUnavailable each a
// count or a percent (25% and small counts common, maxSurge percents up to
// 200%, maxUnavailable percents up to 100%), never both zero.
func Strategy() *rapid.Generator[rollout.Strategy] {
	return rapid.Custom(func(t *rapid.T) rollout.Strategy {
		if rapid.IntRange(0, 4).Draw(t, "recreate") == 0 {
			return rollout.Strategy{Type: rollout.RecreateStrategy}
		}
		ms := limit(200).Draw(t, "maxSurge")
		mu := limit(100).Draw(t, "maxUnavailable")
		if ms.IsZero() && mu.IsZero() {
			// The API server refuses both zero; draw a non-zero one.
			mu = rapid.SampledFrom([]surge.Value{surge.Count(1), surge.Percent(1), surge.Percent(25), surge.Percent(100)}).Draw(t, "maxUnavailable (non-zero)")
		}
		return rollout.Strategy{Type: rollout.RollingUpdateStrategy, RollingUpdate: rollout.RollingUpdate{MaxSurge: ms, MaxUnavailable: mu}}
	})
}

// limit draws a non-negative count or a percent no greater than maxPercent.
func limit(maxPercent int64) *rapid.Generator[surge.Value] {
	return rapid.OneOf(
		rapid.SampledFrom([]surge.Value{surge.Percent(25), surge.Count(0), surge.Count(1), surge.Percent(0)}),
		rapid.Map(rapid.Int32Range(0, 12), surge.Count),
		rapid.Map(rapid.Int64Range(0, maxPercent), surge.Percent),
	)
}

// Replicas draws a replica count: 0 to 50 in about 2 of 3 draws, 100,
// 1000 or 100000 in about 1 of 12, and near math.MaxInt32 in about 1 of 4
// ([NearMaxInt32]), where replicas + maxSurge passes int32 and the sizes
// of two ReplicaSets sum past it.
func Replicas() *rapid.Generator[int32] {
	return rapid.Custom(func(t *rapid.T) int32 {
		switch rapid.IntRange(0, 11).Draw(t, "replicas kind") {
		case 0, 1, 2:
			return NearMaxInt32().Draw(t, "replicas")
		case 3:
			return rapid.SampledFrom([]int32{100, 1000, 100_000}).Draw(t, "replicas")
		}
		return rapid.Int32Range(0, 50).Draw(t, "replicas")
	})
}

// NearMaxInt32 draws a count at the top of int32: math.MaxInt32 itself,
// within 16 below it, or 2^30 (whose sum with itself is 2^31, one past
// MaxInt32).
func NearMaxInt32() *rapid.Generator[int32] {
	return rapid.OneOf(
		rapid.SampledFrom([]int32{math.MaxInt32, math.MaxInt32 - 1, 1 << 30}),
		rapid.Int32Range(math.MaxInt32-16, math.MaxInt32),
	)
}

// Template draws a pod template for image: labels {app: web}, a main
// container "app" running image, sometimes sidecar containers, container
// ports and environment variables, and sometimes a template annotation.
// The spec carries the API server's pod defaults in canonical JSON, so it
// survives a JSON round trip through [rollout.Decode] unchanged. Two
// templates with different images are never equal.
func Template(image string) *rapid.Generator[rollout.PodTemplate] {
	return rapid.Custom(func(t *rapid.T) rollout.PodTemplate {
		containers := []any{container("app", image,
			rapid.IntRange(0, 2).Draw(t, "ports"), rapid.IntRange(0, 3).Draw(t, "env"))}
		for i := range rapid.IntRange(0, 2).Draw(t, "sidecars") {
			containers = append(containers, container(fmt.Sprintf("sidecar-%d", i), fmt.Sprintf("sidecar:%d.0", i+1), 0, 1))
		}
		tmpl := rollout.PodTemplate{Labels: map[string]string{"app": Name}, Spec: PodSpec(containers...)}
		if rapid.IntRange(0, 3).Draw(t, "template annotation") == 0 {
			tmpl.Annotations = map[string]string{"example.com/team": "payments"}
		}
		return tmpl
	})
}

// container returns a defaulted container as JSON-ready data.
func container(name, image string, ports, env int) map[string]any {
	c := map[string]any{
		"name": name, "image": image, "imagePullPolicy": "IfNotPresent",
		"resources":              map[string]any{"requests": map[string]any{"cpu": "100m", "memory": "128Mi"}},
		"terminationMessagePath": "/dev/termination-log", "terminationMessagePolicy": "File",
	}
	if ports > 0 {
		var ps []any
		for i := range ports {
			ps = append(ps, map[string]any{"containerPort": 8080 + i, "name": fmt.Sprintf("port-%d", i), "protocol": "TCP"})
		}
		c["ports"] = ps
	}
	if env > 0 {
		var es []any
		for i := range env {
			es = append(es, map[string]any{"name": fmt.Sprintf("VAR_%d", i), "value": strconv.Itoa(i)})
		}
		c["env"] = es
	}
	return c
}

// PodSpec returns a pod spec with the given containers (maps as built for
// encoding/json) and the API server's pod defaults.
func PodSpec(containers ...any) rollout.PodSpec {
	spec := map[string]any{
		"containers": containers, "dnsPolicy": "ClusterFirst", "restartPolicy": "Always",
		"schedulerName": "default-scheduler", "securityContext": map[string]any{},
		"terminationGracePeriodSeconds": 30,
	}
	b, err := json.Marshal(spec)
	if err != nil {
		panic(err) // only maps, slices, strings and ints
	}
	return rollout.MustParsePodSpec(string(b))
}

// Deployment draws a Deployment that [rollout.Validate] accepts: named
// "web" with UID "dep-uid", selector {app: web} matching its template's
// labels, an image "app:v<n>", [Replicas] replicas, a [Strategy],
// sometimes minReadySeconds, a revision history limit (absent, 0 to 10 or
// Unlimited), a progress deadline above minReadySeconds (absent, 600, a
// short one or Unlimited), paused about one time in six, and a status
// with non-negative counts, an observed generation no later than its
// generation and sometimes Available and Progressing conditions.
func Deployment() *rapid.Generator[rollout.Deployment] {
	return rapid.Custom(func(t *rapid.T) rollout.Deployment {
		image := fmt.Sprintf("app:v%d", rapid.IntRange(1, 9).Draw(t, "image"))
		gen := rapid.Int64Range(1, 5).Draw(t, "generation")
		d := rollout.Deployment{
			ObjectMeta: rollout.ObjectMeta{
				Name: Name, Namespace: Namespace, UID: UID, Generation: gen, CreationTimestamp: Epoch(),
			},
			Spec: rollout.DeploymentSpec{
				Replicas: Replicas().Draw(t, "replicas"),
				Selector: Selector(),
				Template: Template(image).Draw(t, "template"),
				Strategy: Strategy().Draw(t, "strategy"),
				Paused:   rapid.IntRange(0, 5).Draw(t, "paused") == 0,
			},
		}
		if rapid.IntRange(0, 3).Draw(t, "has minReadySeconds") == 0 {
			d.Spec.MinReadySeconds = rapid.Int32Range(1, 10).Draw(t, "minReadySeconds")
		}
		switch rapid.IntRange(0, 5).Draw(t, "revisionHistoryLimit kind") {
		case 0:
		case 1:
			d.Spec.RevisionHistoryLimit = rollout.Int32(rollout.Unlimited)
		default:
			d.Spec.RevisionHistoryLimit = rollout.Int32(rapid.Int32Range(0, 10).Draw(t, "revisionHistoryLimit"))
		}
		switch rapid.IntRange(0, 4).Draw(t, "progressDeadline kind") {
		case 0:
		case 1:
			d.Spec.ProgressDeadlineSeconds = rollout.Int32(rollout.Unlimited)
		case 2:
			d.Spec.ProgressDeadlineSeconds = rollout.Int32(d.Spec.MinReadySeconds + rapid.Int32Range(1, 60).Draw(t, "progressDeadline"))
		default:
			d.Spec.ProgressDeadlineSeconds = rollout.Int32(rollout.DefaultProgressDeadlineSeconds)
		}
		d.Status = status(t, d)
		return d
	})
}

// ReplicaSets draws 0 to 6 ReplicaSets controlled by d, oldest first: each
// with a distinct name "web-<hash of its template>" and a template with a
// distinct image "app:r<i>", except that one of them may carry d's template
// (it is then d's new ReplicaSet). Creation times are whole minutes after
// [Epoch], often tied. Revisions grow with creation order and are
// sometimes absent; the desired- and max-replicas annotations usually
// match d and are sometimes stale or absent. Sizes are 0 to twice d's
// replicas plus 3 (saturating at math.MaxInt32), and each status has
// 0 <= available <= ready <= replicas, status.replicas being the size or
// near it, and an observed generation no later than the generation.
func ReplicaSets(d rollout.Deployment) *rapid.Generator[[]rollout.ReplicaSet] {
	return rapid.Custom(func(t *rapid.T) []rollout.ReplicaSet {
		n := rapid.IntRange(0, 6).Draw(t, "sets")
		newAt := -1
		if n > 0 && rapid.IntRange(0, 3).Draw(t, "has new") != 0 {
			newAt = rapid.IntRange(0, n-1).Draw(t, "new index")
		}
		offsets := make([]int, n)
		for i := range offsets {
			offsets[i] = rapid.IntRange(0, n).Draw(t, "created (minutes)")
		}
		slices.Sort(offsets)
		replicas := int64(d.Spec.Replicas)
		maxSize := int32(min(2*replicas+3, math.MaxInt32))
		maxTotal := replicas + int64(rollout.MaxSurge(d))
		var sets []rollout.ReplicaSet
		names := map[string]bool{}
		rev := int64(0)
		for i := range n {
			tmpl := d.Spec.Template
			if i != newAt {
				tmpl = Template(fmt.Sprintf("app:r%d", i)).Draw(t, "template")
			}
			tmpl = tmpl.DeepCopy()
			h := rollout.PodTemplateHash(rollout.Deployment{Spec: rollout.DeploymentSpec{Template: tmpl}})
			name := hash.Name(d.Name, h)
			for names[name] { // a hash collision between two drawn templates
				name += "x"
			}
			names[name] = true
			tmpl.Labels[rollout.PodTemplateHashLabel] = h
			rev += rapid.Int64Range(1, 2).Draw(t, "revision step")
			rs := rollout.ReplicaSet{
				ObjectMeta: rollout.ObjectMeta{
					Name: name, Namespace: d.Namespace, UID: "uid-" + name,
					Generation:        rapid.Int64Range(1, 3).Draw(t, "generation"),
					CreationTimestamp: Epoch().Add(time.Duration(offsets[i]) * time.Minute),
					Labels:            maps.Clone(tmpl.Labels),
					Annotations:       replicaSetAnnotations(t, rev, d.Spec.Replicas, maxTotal),
					OwnerReferences: []rollout.OwnerReference{{
						APIVersion: "apps/v1", Kind: "Deployment", Name: d.Name, UID: d.UID,
						Controller: true, BlockOwnerDeletion: true,
					}},
				},
				Spec: rollout.ReplicaSetSpec{
					Replicas:        rapid.OneOf(rapid.Just(int32(0)), rapid.Int32Range(0, maxSize)).Draw(t, "size"),
					MinReadySeconds: rapid.SampledFrom([]int32{d.Spec.MinReadySeconds, 0}).Draw(t, "minReadySeconds"),
					Selector:        rollout.LabelSelector{MatchLabels: map[string]string{"app": Name, rollout.PodTemplateHashLabel: h}},
					Template:        tmpl,
				},
			}
			rs.Status = replicaSetStatus(t, rs)
			sets = append(sets, rs)
		}
		return sets
	})
}

// replicaSetAnnotations draws a ReplicaSet's annotations: the revision
// (sometimes absent), and desired- and max-replicas usually current.
func replicaSetAnnotations(t *rapid.T, rev int64, replicas int32, maxTotal int64) map[string]string {
	a := map[string]string{}
	if rapid.IntRange(0, 7).Draw(t, "revision absent") != 0 {
		a[rollout.RevisionAnnotation] = strconv.FormatInt(rev, 10)
	}
	switch rapid.IntRange(0, 5).Draw(t, "replica annotations") {
	case 0: // absent
	case 1: // stale: the Deployment was resized since
		desired := rapid.Int32Range(0, 60).Draw(t, "stale desired-replicas")
		a[rollout.DesiredReplicasAnnotation] = strconv.Itoa(int(desired))
		a[rollout.MaxReplicasAnnotation] = strconv.Itoa(int(desired) + rapid.IntRange(0, 5).Draw(t, "stale surge"))
	default:
		a[rollout.DesiredReplicasAnnotation] = strconv.Itoa(int(replicas))
		a[rollout.MaxReplicasAnnotation] = strconv.FormatInt(maxTotal, 10)
	}
	if len(a) == 0 {
		return nil
	}
	return a
}

// Pods draws pods for sets: none, or for each ReplicaSet up to three pods it
// controls (never more than its status.replicas plus one terminating one),
// named after it, in any phase, Running most often.
func Pods(sets []rollout.ReplicaSet) *rapid.Generator[[]rollout.Pod] {
	return rapid.Custom(func(t *rapid.T) []rollout.Pod {
		var pods []rollout.Pod
		if !rapid.Bool().Draw(t, "has pods") {
			return nil
		}
		for _, rs := range sets {
			n := rapid.IntRange(0, int(min(3, int64(rs.Status.Replicas)+1))).Draw(t, "pods")
			for i := range n {
				pods = append(pods, rollout.Pod{
					ObjectMeta: rollout.ObjectMeta{
						Name: fmt.Sprintf("%s-%d", rs.Name, i), Namespace: rs.Namespace, UID: fmt.Sprintf("pod-%s-%d", rs.Name, i),
						Labels: maps.Clone(rs.Spec.Template.Labels),
						OwnerReferences: []rollout.OwnerReference{{
							APIVersion: "apps/v1", Kind: "ReplicaSet", Name: rs.Name, UID: rs.UID, Controller: true, BlockOwnerDeletion: true,
						}},
					},
					Phase: rapid.SampledFrom([]rollout.PodPhase{rollout.PodRunning, rollout.PodRunning, rollout.PodPending,
						rollout.PodSucceeded, rollout.PodFailed, rollout.PodUnknown}).Draw(t, "phase"),
				})
			}
		}
		return pods
	})
}

// State draws a sync state: a [Deployment], its [ReplicaSets] and their
// [Pods], Now between the newest creation time and an hour later, and
// Options.OmitTerminatingReplicas sometimes. In a fair share of states a
// ReplicaSet is near math.MaxInt32, squats the new ReplicaSet's name,
// carries revision math.MaxInt64 or a desired-replicas annotation beyond
// int32 (see edges), so that every overflow path of rollout.Plan is
// reached. The Deployment's revision annotation is the highest ReplicaSet
// revision or absent, and about one time in eight it asks for a rollback
// to revision 0 or to one of 0..4.
func State() *rapid.Generator[rollout.State] {
	return rapid.Custom(func(t *rapid.T) rollout.State {
		d := Deployment().Draw(t, "deployment")
		sets := edges(t, &d, ReplicaSets(d).Draw(t, "replicaSets"))
		s := rollout.State{Deployment: d, ReplicaSets: sets, Pods: Pods(sets).Draw(t, "pods")}
		newest := Epoch()
		for _, rs := range sets {
			if rs.CreationTimestamp.After(newest) {
				newest = rs.CreationTimestamp
			}
		}
		s.Now = newest.Add(time.Duration(rapid.IntRange(0, 3600).Draw(t, "now (seconds after newest)")) * time.Second)
		s.Options.OmitTerminatingReplicas = rapid.IntRange(0, 4).Draw(t, "omit terminating") == 0
		if r := rollout.MaxRevision(sets); r > 0 && rapid.Bool().Draw(t, "deployment revision") {
			s.Deployment.Annotations = map[string]string{rollout.RevisionAnnotation: strconv.FormatInt(r, 10)}
		}
		if rapid.IntRange(0, 7).Draw(t, "rollback requested") == 0 {
			if s.Deployment.Annotations == nil {
				s.Deployment.Annotations = map[string]string{}
			}
			s.Deployment.Annotations[rollout.RollbackToAnnotation] = strconv.Itoa(rapid.IntRange(0, 4).Draw(t, "rollback to"))
		}
		return s
	})
}
