package sim

import (
	"encoding/binary"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"time"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/surge"
)

// The plan cache: under ModelControllers the three orders of a Run (see
// runRacesWith) differ only where work due at one instant is taken in another
// order, and about half of their Deployment syncs see a state that an
// earlier sync of the Run saw already (measured on check's small
// rollouts: 37 of 55 syncs of one order, 34 of 39 of another, for 6
// replicas at maxSurge 1). Plan is a pure function of its State, so
// those syncs take the plan computed before.
//
// The key holds every field of the State exactly: numbers, strings, maps
// (by the number of their content, nil told from empty), times (instant
// and location), the objects' names, UIDs, times and owner references by
// the number of their combination (appendMeta), and the pod templates'
// specs and other metadata by identity (rollout.PodSpec.Same, rollout.TemplateMeta.Same: the runs
// copy templates, never re-parse them, so the orders' templates are the
// same objects). A state with pods (Recreate) or a time with a monotonic
// clock reading, which the key does not hold, is planned afresh.
//
// A map's content is encoded once, when the cache first sees the map:
// during a run no map of the objects is changed in place (ApplyTo and the
// pod model replace maps), except by the functions of Config.Edits, so a
// Run with edits has no cache. The cache keeps every map it numbered, so
// that no other map can take its address. Code that changes a map of the
// runner's state in place (a fast-forward writing numbers into
// annotations, say) must replace the map instead, or run without the
// cache: TestPlanCacheChangesNothing checks the Results.

// planCacheMode is how a Run uses its plan cache: the default, not at all
// (tests compare the two), or checking every plan it takes from the cache
// against a fresh Plan.
type planCacheMode uint8

const (
	planCacheOn planCacheMode = iota
	planCacheOff
	planCacheVerify
)

// maxCachedPlans and maxCachedMaps bound what a Run keeps (about 1 KB a
// plan): past either, a long run, which repeats few states, plans every
// sync afresh.
const (
	maxCachedPlans = 4096
	maxCachedMaps  = 1 << 15
)

// planCache holds the plans of a Run's syncs by the key of their State.
type planCache struct {
	mode  planCacheMode
	plans map[string]cachedPlan
	key   []byte   // the key being built
	names []string // the sorted keys of a map being encoded
	enc   []byte   // a map's content being encoded
	// mapIDs numbers the maps seen (by address) with the number of their
	// content in contents; mapKeep holds them.
	mapIDs   map[uintptr]uint64
	mapKeep  []map[string]string
	recent   [16]mapID // some of mapIDs, by address modulo 16 words (see appendMap)
	contents map[string]uint64
	locs     []*time.Location       // the locations seen, numbered in the keys
	idents   []objectIdentity       // the objects' identities seen (see appendMeta)
	specs    []rollout.PodSpec      // the pod specs seen, by identity
	metas    []rollout.TemplateMeta // the templates' other metadata seen
	// hits counts the plans taken from the cache; under planCacheVerify,
	// mismatch describes the first that differs from a fresh Plan.
	hits     int
	mismatch string
	// lookupOnly is set while the Run's last order runs: it takes plans
	// from the cache but keeps none, as no later order would read them.
	lookupOnly bool
}

// mapID is a map's address and the number of its content.
type mapID struct {
	at uintptr
	id uint64
}

type cachedPlan struct {
	actions []rollout.Action
	err     error
}

// newPlanCache returns the plan cache of a Run under cfg, or nil for
// none.
func newPlanCache(cfg Config) *planCache {
	if cfg.planCache == planCacheOff || len(cfg.Edits) > 0 {
		return nil
	}
	// Sized for a rollout of the kind check runs (BenchmarkRunControllersVaried:
	// 48 plans kept on average, up to 124; 23 maps of 7 contents): a
	// Run's maps start at half that, which the many short runs fill
	// without growing and the others reach in one step, for fewer bytes
	// in all than starting at the average (measured: 2.6% fewer a Run).
	return &planCache{mode: cfg.planCache, plans: make(map[string]cachedPlan, 32), mapIDs: make(map[uintptr]uint64, 16), contents: make(map[string]uint64, 8)}
}

// plan returns rollout.Plan(s), from the cache when a sync of the Run
// planned the same state before. The actions may be shared with other
// steps of the Run, which only read them.
func (r *runner) plan(s rollout.State) ([]rollout.Action, error) {
	c := r.ctl.plans
	if c == nil || len(c.plans) >= maxCachedPlans || len(c.mapKeep) >= maxCachedMaps {
		return r.planFresh(s)
	}
	key, ok := c.appendState(c.key[:0], s)
	c.key = key
	if !ok {
		return r.planFresh(s)
	}
	if p, found := c.plans[string(key)]; found {
		c.hits++
		if c.mode == planCacheVerify && c.mismatch == "" {
			fresh, err := rollout.Plan(s)
			if !sameActions(fresh, p.actions) || !sameError(err, p.err) {
				c.mismatch = "at " + s.Now.String() + ": cached " + actionsText(p.actions) + ", fresh " + actionsText(fresh)
			}
		}
		return p.actions, p.err
	}
	actions, err := r.planFresh(s)
	if !c.lookupOnly {
		c.plans[string(key)] = cachedPlan{actions, err}
	}
	return actions, err
}

// planFresh plans s: rollout.PlanShared, whose actions share maps and
// slices with s, since the run and its steps only read them and replace
// its objects' maps and slices rather than write to them; or, in a run
// with Config.Edits, whose functions may write to the Deployment in
// place, rollout.Plan, whose actions own theirs.
func (r *runner) planFresh(s rollout.State) ([]rollout.Action, error) {
	if len(r.cfg.Edits) > 0 {
		return rollout.Plan(s)
	}
	return rollout.PlanShared(s)
}

// appendState appends the key of s to b, and reports whether s can be
// cached (none of its times has a monotonic clock reading).
func (c *planCache) appendState(b []byte, s rollout.State) ([]byte, bool) {
	b, ok := c.appendNow(b, s)
	o := s.Options
	b = appendBools(b, o.OmitTerminatingReplicas, o.SkipValidation, o.RefreshStaleAnnotations)
	b = appendInt(b, int64(o.Version))
	d := s.Deployment
	b, ok = c.appendMeta(b, &d.ObjectMeta, ok)
	b = appendInt(b, int64(d.Spec.Replicas))
	b = c.appendSelector(b, d.Spec.Selector)
	b = c.appendTemplate(b, d.Spec.Template)
	b = appendStrings(b, string(d.Spec.Strategy.Type))
	b = appendSurge(b, d.Spec.Strategy.RollingUpdate.MaxSurge)
	b = appendSurge(b, d.Spec.Strategy.RollingUpdate.MaxUnavailable)
	b = appendInt(b, int64(d.Spec.MinReadySeconds))
	b = appendOptional(b, d.Spec.RevisionHistoryLimit)
	b = appendBools(b, d.Spec.Paused)
	b = appendOptional(b, d.Spec.ProgressDeadlineSeconds)
	st := d.Status
	for _, n := range []int64{st.ObservedGeneration, int64(st.Replicas), int64(st.UpdatedReplicas), int64(st.ReadyReplicas), int64(st.AvailableReplicas), int64(st.UnavailableReplicas)} {
		b = appendInt(b, n)
	}
	b = appendOptional(b, st.TerminatingReplicas)
	b = appendOptional(b, st.CollisionCount)
	b = appendBools(b, st.Conditions == nil)
	b = appendInt(b, int64(len(st.Conditions)))
	for _, cd := range st.Conditions {
		b = appendStrings(b, string(cd.Type), string(cd.Status), cd.Reason, cd.Message)
		b, ok = c.appendTime(b, cd.LastUpdateTime, ok)
		b, ok = c.appendTime(b, cd.LastTransitionTime, ok)
	}
	b = appendBools(b, s.ReplicaSets == nil, s.Pods == nil)
	b = appendInt(b, int64(len(s.ReplicaSets)))
	for _, rs := range s.ReplicaSets {
		b, ok = c.appendMeta(b, &rs.ObjectMeta, ok)
		b = appendInt(b, int64(rs.Spec.Replicas))
		b = appendInt(b, int64(rs.Spec.MinReadySeconds))
		b = c.appendSelector(b, rs.Spec.Selector)
		b = c.appendTemplate(b, rs.Spec.Template)
		rst := rs.Status
		for _, n := range []int64{int64(rst.Replicas), int64(rst.FullyLabeledReplicas), int64(rst.ReadyReplicas), int64(rst.AvailableReplicas), rst.ObservedGeneration} {
			b = appendInt(b, n)
		}
		b = appendOptional(b, rst.TerminatingReplicas)
		b = appendBools(b, rst.Conditions == nil)
		b = appendInt(b, int64(len(rst.Conditions)))
		for _, cd := range rst.Conditions {
			b = appendStrings(b, string(cd.Type), string(cd.Status), cd.Reason, cd.Message)
			b, ok = c.appendTime(b, cd.LastTransitionTime, ok)
		}
	}
	// A Recreate sync gets the pods, which the key does not hold.
	return b, ok && len(s.Pods) == 0
}

// appendNow appends what Plan reads of s.Now. Plan stamps the conditions
// it writes with s.Now truncated to the second, and compares s.Now with
// the progress deadline of the Progressing condition it finds (from its
// lastUpdateTime, which is one of the Deployment's conditions' or that
// second): whether the deadline has passed (DeploymentTimedOut), and
// whether it is a second or more away (the progress re-check is then at
// the deadline plus a second, otherwise at s.Now). Where every deadline
// Plan may compare with is a second or more after s.Now, both answers
// are the same for every instant of that second up to s.Now, and the
// key holds the second alone: the syncs of a Run's orders at different
// instants of one second, on the same objects, share a plan (a third of
// the Deployment syncs of check's small rollouts were planned again for
// that alone). Otherwise, and for the zero time (which Plan refuses), it
// holds s.Now itself.
func (c *planCache) appendNow(b []byte, s rollout.State) ([]byte, bool) {
	sec := s.Now.Truncate(time.Second)
	if s.Now.IsZero() || nearDeadline(&s.Deployment, s.Now, sec) {
		return c.appendTime(append(b, 0), s.Now, true)
	}
	b, _ = c.appendTime(append(b, 1), sec, true)
	return b, wallOnly(s.Now)
}

// nearDeadline reports whether a progress deadline of d that Plan may
// compare now with is less than a second after now (or before it): that
// of each Progressing condition of d's status, and that of one Plan
// would write at sec, now's second.
func nearDeadline(d *rollout.Deployment, now, sec time.Time) bool {
	if !rollout.HasProgressDeadline(*d) {
		return false
	}
	limit := time.Duration(d.Spec.ProgressDeadlineSeconds.Value) * time.Second
	if sec.Add(limit).Sub(now) < time.Second {
		return true
	}
	for i := range d.Status.Conditions {
		if cd := &d.Status.Conditions[i]; cd.Type == rollout.Progressing && cd.LastUpdateTime.Add(limit).Sub(now) < time.Second {
			return true
		}
	}
	return false
}

// appendTemplate appends t's labels and annotations, and its other
// metadata and spec by their number among those the cache has seen (the
// same objects, see rollout.PodSpec.Same).
func (c *planCache) appendTemplate(b []byte, t rollout.PodTemplate) []byte {
	b = c.appendMap(b, t.Labels)
	b = c.appendMap(b, t.Annotations)
	m := slices.IndexFunc(c.metas, t.Meta.Same)
	if m < 0 {
		m = len(c.metas)
		c.metas = append(c.metas, t.Meta)
	}
	sp := slices.IndexFunc(c.specs, t.Spec.Same)
	if sp < 0 {
		sp = len(c.specs)
		c.specs = append(c.specs, t.Spec)
	}
	return appendInt(appendInt(b, int64(m)), int64(sp))
}

// appendMeta appends m: its identity (name, namespace, UID, times and
// owner references, which a run's objects keep from sync to sync) by its
// number among those the cache has seen, its generation, and its maps.
func (c *planCache) appendMeta(b []byte, m *rollout.ObjectMeta, ok bool) ([]byte, bool) {
	ok = ok && wallOnly(m.CreationTimestamp) && wallOnly(m.DeletionTimestamp)
	id := slices.IndexFunc(c.idents, func(o objectIdentity) bool { return o.is(m) })
	if id < 0 {
		id = len(c.idents)
		c.idents = append(c.idents, objectIdentity{m.Name, m.Namespace, m.UID, m.CreationTimestamp, m.DeletionTimestamp, m.OwnerReferences})
	}
	b = appendInt(b, int64(id))
	b = appendInt(b, m.Generation)
	b = c.appendMap(b, m.Labels)
	b = c.appendMap(b, m.Annotations)
	return b, ok
}

// objectIdentity is what the key of an object's metadata holds by
// number: the fields a run's objects keep from sync to sync.
type objectIdentity struct {
	name, namespace, uid string
	created, deleted     time.Time
	owners               []rollout.OwnerReference
}

// is reports whether m has identity o exactly: the same strings, times
// at the same instant in the same location (as appendTime tells them
// apart), and the same owner references, nil told from empty. The cache
// keeps o.owners, a slice of the run's objects that no run changes in
// place (see the doc above).
func (o objectIdentity) is(m *rollout.ObjectMeta) bool {
	return o.name == m.Name && o.namespace == m.Namespace && o.uid == m.UID &&
		sameTime(o.created, m.CreationTimestamp) && sameTime(o.deleted, m.DeletionTimestamp) &&
		(o.owners == nil) == (m.OwnerReferences == nil) && slices.Equal(o.owners, m.OwnerReferences)
}

// sameTime reports whether a and b are the same instant in the same
// location.
func sameTime(a, b time.Time) bool { return a.Equal(b) && a.Location() == b.Location() }

func (c *planCache) appendSelector(b []byte, s rollout.LabelSelector) []byte {
	b = c.appendMap(b, s.MatchLabels)
	b = appendBools(b, s.MatchExpressions == nil)
	b = appendInt(b, int64(len(s.MatchExpressions)))
	for _, e := range s.MatchExpressions {
		b = appendStrings(b, e.Key, e.Operator)
		b = appendBools(b, e.Values == nil)
		b = appendInt(b, int64(len(e.Values)))
		b = appendStrings(b, e.Values...)
	}
	return b
}

// appendMap appends whether m is nil and the number of its content: maps
// with the same entries have the same number.
func (c *planCache) appendMap(b []byte, m map[string]string) []byte {
	if m == nil {
		return append(b, 0)
	}
	at := reflect.ValueOf(m).Pointer()
	// Most keys name the maps the last keys named: recent remembers the
	// number of a few of them by address, in front of mapIDs (whose
	// entries never change, and whose maps mapKeep keeps alive, so that
	// an address is never another map's).
	slot := &c.recent[at/8%uintptr(len(c.recent))]
	if slot.at == at {
		return binary.AppendUvarint(append(b, 1), slot.id)
	}
	id, ok := c.mapIDs[at]
	if !ok {
		c.names = slices.AppendSeq(c.names[:0], maps.Keys(m))
		slices.Sort(c.names)
		c.enc = c.enc[:0]
		for _, k := range c.names {
			c.enc = appendStrings(c.enc, k, m[k])
		}
		if id, ok = c.contents[string(c.enc)]; !ok {
			id = uint64(len(c.contents))
			c.contents[string(c.enc)] = id
		}
		c.mapIDs[at] = id
		c.mapKeep = append(c.mapKeep, m)
	}
	slot.at, slot.id = at, id
	return binary.AppendUvarint(append(b, 1), id)
}

// appendTime appends t exactly: its instant, and its location by the
// order in which the cache first saw it. ok becomes false when t has a
// monotonic clock reading, which the key does not hold.
func (c *planCache) appendTime(b []byte, t time.Time, ok bool) ([]byte, bool) {
	loc := slices.Index(c.locs, t.Location())
	if loc < 0 {
		loc = len(c.locs)
		c.locs = append(c.locs, t.Location())
	}
	b = appendInt(b, t.Unix())
	b = appendInt(b, int64(t.Nanosecond()))
	b = appendInt(b, int64(loc))
	return b, ok && wallOnly(t)
}

// wallOnly reports whether t has no monotonic clock reading, which a key
// does not hold (a state with one is planned afresh).
func wallOnly(t time.Time) bool { return t == t.Round(0) }

func appendInt(b []byte, n int64) []byte { return binary.AppendVarint(b, n) }

// appendBools appends up to eight flags as one byte.
func appendBools(b []byte, vs ...bool) []byte {
	var f byte
	for i, v := range vs {
		if v {
			f |= 1 << i
		}
	}
	return append(b, f)
}

// appendStrings appends each string with its length, so that no two lists
// of strings give the same bytes.
func appendStrings(b []byte, ss ...string) []byte {
	for _, s := range ss {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	return b
}

func appendOptional(b []byte, v rollout.OptionalInt32) []byte {
	return appendInt(appendBools(b, v.Valid), int64(v.Value))
}

func appendSurge(b []byte, v surge.Value) []byte {
	return appendInt(appendBools(b, v.IsPercent()), v.Int())
}

// sameActions reports whether two plans are the same values.
func sameActions(a, b []rollout.Action) bool { return reflect.DeepEqual(a, b) }

// sameError reports whether two errors of Plan are the same: both nil, or
// of one type with one message.
func sameError(a, b error) bool {
	if a == nil || b == nil {
		return a == b
	}
	return reflect.TypeOf(a) == reflect.TypeOf(b) && a.Error() == b.Error()
}

func actionsText(as []rollout.Action) string { return fmt.Sprint(as) }
