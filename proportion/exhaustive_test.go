package proportion_test

import (
	"math"
	"slices"
	"sort"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutmath/rolloutmath/proportion"
)

// upstreamScale is a direct transcription of the upstream controller's
// proportional scaling (scale in sync.go, GetReplicaSetProportion and
// getReplicaSetFraction in deployment_util.go): int32 arithmetic, a float64
// quotient and math.Round, sort.Sort with the BySizeNewer / BySizeOlder
// comparators. It filters the active sets itself, as scale does. Over small
// numbers its int32 products cannot wrap and its float64 quotient rounds
// exactly, so it is the reference for Distribute there.
func upstreamScale(sets []proportion.Set, replicas, surge, status int32) []sized {
	var all []proportion.Set
	for _, s := range sets {
		if s.Replicas > 0 { // FilterActiveReplicaSets
			all = append(all, s)
		}
	}
	var current int32
	for _, s := range all {
		current += s.Replicas
	}
	allowed := int32(0)
	if replicas > 0 {
		allowed = replicas + surge
	}
	toAdd := allowed - current

	byCreation := func(a, b proportion.Set) bool {
		if a.Created.Equal(b.Created) {
			return a.Name < b.Name
		}
		return a.Created.Before(b.Created)
	}
	switch {
	case toAdd > 0: // ReplicaSetsBySizeNewer
		sort.Sort(lessFunc{all, func(a, b proportion.Set) bool {
			if a.Replicas == b.Replicas {
				return byCreation(b, a)
			}
			return a.Replicas > b.Replicas
		}})
	case toAdd < 0: // ReplicaSetsBySizeOlder
		sort.Sort(lessFunc{all, func(a, b proportion.Set) bool {
			if a.Replicas == b.Replicas {
				return byCreation(a, b)
			}
			return a.Replicas > b.Replicas
		}})
	}

	fraction := func(s proportion.Set) int32 {
		if replicas == 0 {
			return -s.Replicas
		}
		newMax := replicas + surge
		oldMax := s.MaxReplicas
		if oldMax == 0 {
			oldMax = status
			if oldMax == 0 {
				return 0
			}
		}
		size := float64(s.Replicas*newMax) / float64(oldMax)
		return int32(math.Round(size)) - s.Replicas
	}
	proportionOf := func(s proportion.Set, added int32) int32 {
		if s.Replicas == 0 || toAdd == 0 || toAdd == added {
			return 0
		}
		f := fraction(s)
		left := toAdd - added
		if toAdd > 0 {
			return min(f, left)
		}
		return max(f, left)
	}

	sizes := make([]int32, len(all))
	var added int32
	for i, s := range all {
		if toAdd != 0 {
			p := proportionOf(s, added)
			sizes[i] = s.Replicas + p
			added += p
		} else {
			sizes[i] = s.Replicas
		}
	}
	var out []sized
	for i, s := range all {
		if i == 0 && toAdd != 0 {
			sizes[i] += toAdd - added
			if sizes[i] < 0 {
				sizes[i] = 0
			}
		}
		out = append(out, sized{s.Name, int64(sizes[i])})
	}
	return out
}

// lessFunc adapts a less function to sort.Interface, as upstream's sort
// types do.
type lessFunc struct {
	s    []proportion.Set
	less func(a, b proportion.Set) bool
}

func (l lessFunc) Len() int           { return len(l.s) }
func (l lessFunc) Swap(i, j int)      { l.s[i], l.s[j] = l.s[j], l.s[i] }
func (l lessFunc) Less(i, j int) bool { return l.less(l.s[i], l.s[j]) }

// TestDistributeExhaustive compares Distribute with the upstream algorithm
// for every pair of sets with sizes 0..8 and annotations 0..10, every
// Deployment size 0..12 with surge 0..3, three status replica counts and
// the three creation orders (a older, b older, same instant: the name
// decides). As the controller does, only the active sets (size > 0) are
// passed to Distribute.
func TestDistributeExhaustive(t *testing.T) {
	t0 := time.Date(2016, 5, 20, 0, 0, 0, 0, time.UTC)
	creations := [][2]time.Time{
		{t0, t0.Add(time.Second)},
		{t0.Add(time.Second), t0},
		{t0, t0},
	}
	statuses := []int32{0, 4, 11}
	if testing.Short() {
		creations = creations[:1]
		statuses = statuses[:1]
	}
	var cases, failures int
	for _, created := range creations {
		for sa := int32(0); sa <= 8; sa++ {
			for sb := int32(0); sb <= 8; sb++ {
				for ma := int32(0); ma <= 10; ma++ {
					for mb := int32(0); mb <= 10; mb++ {
						pair := []proportion.Set{
							{Name: "a", Created: created[0], Replicas: sa, MaxReplicas: ma},
							{Name: "b", Created: created[1], Replicas: sb, MaxReplicas: mb},
						}
						var active []proportion.Set
						for _, s := range pair {
							if s.Replicas > 0 {
								active = append(active, s)
							}
						}
						for _, status := range statuses {
							for replicas := int32(0); replicas <= 12; replicas++ {
								for surge := int32(0); surge <= 3; surge++ {
									cases++
									want := upstreamScale(pair, replicas, surge, status)
									got := named(active, proportion.Distribute(active, resize(replicas, surge, status)))
									if slices.Equal(want, got) { // cmp.Diff is too slow for millions of cases
										continue
									}
									failures++
									if failures <= 10 {
										t.Errorf("Distribute(%+v, replicas %d, surge %d, status %d) mismatch (-want +got):\n%s",
											active, replicas, surge, status, cmp.Diff(want, got))
									}
								}
							}
						}
					}
				}
			}
		}
	}
	if failures > 0 {
		t.Errorf("%d of %d cases differ from upstream", failures, cases)
	}
}
