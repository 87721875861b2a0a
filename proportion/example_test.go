package proportion_test

import (
	"fmt"
	"slices"
	"time"

	"github.com/rolloutmath/rolloutmath/proportion"
)

// A Deployment of 10 replicas with maxSurge 3 is in the middle of a rollout:
// the old ReplicaSet has 8 pods and the new one 5, both annotated with the
// maximum of 13 they were sized against. The Deployment is resized to 50
// replicas with maxSurge 6, so up to 56 pods may exist (R-SCALE-7).
func ExampleDistribute() {
	t := time.Date(2016, 5, 20, 0, 0, 0, 0, time.UTC)
	sets := []proportion.Set{ // old sets newest first, then the new set
		{Name: "web-v1", Created: t, Replicas: 8, MaxReplicas: 13},
		{Name: "web-v2", Created: t.Add(time.Hour), Replicas: 5, MaxReplicas: 13},
	}
	r := proportion.Resize{Replicas: 50, MaxReplicas: 50 + 6}
	for _, c := range proportion.Distribute(sets, r) {
		fmt.Println(sets[c.Index].Name, c.Replicas)
	}
	// Output:
	// web-v1 34
	// web-v2 22
}

func ExampleFraction() {
	// 50 of a maximum of 110 (100 replicas + 10 surge), resized to 120
	// replicas + 10 surge: 50·130/110 = 59.09 rounds to 59.
	s := proportion.Set{Replicas: 50, MaxReplicas: 110}
	fmt.Println(proportion.Fraction(s, proportion.Resize{Replicas: 120, MaxReplicas: 130}))

	// A tie rounds away from zero: 2·5/4 = 2.5 rounds to 3.
	s = proportion.Set{Replicas: 2, MaxReplicas: 4}
	fmt.Println(proportion.Fraction(s, proportion.Resize{Replicas: 5, MaxReplicas: 5}))

	// Without an annotation the Deployment's status replicas are the
	// denominator; with neither, the set does not move.
	s = proportion.Set{Replicas: 50}
	fmt.Println(proportion.Fraction(s, proportion.Resize{Replicas: 120, MaxReplicas: 120, StatusReplicas: 100}))
	fmt.Println(proportion.Fraction(s, proportion.Resize{Replicas: 120, MaxReplicas: 120}))

	// Exact where upstream's int32 product wraps (it gives -77899).
	s = proportion.Set{Replicas: 40000, MaxReplicas: 50000}
	fmt.Println(proportion.Fraction(s, proportion.Resize{Replicas: 60000, MaxReplicas: 60000}))
	// Output:
	// 9
	// 1
	// 10
	// 0
	// 8000
}

// Sorting with the scaling orders: largest first, then newer first for a
// scale-up or older first for a scale-down.
func ExampleCompareSizeNewer() {
	t := time.Date(2016, 5, 20, 0, 0, 0, 0, time.UTC)
	sets := []proportion.Set{
		{Name: "a", Created: t, Replicas: 2},
		{Name: "b", Created: t.Add(time.Hour), Replicas: 2},
		{Name: "c", Created: t, Replicas: 5},
	}
	up := slices.SortedFunc(slices.Values(sets), proportion.CompareSizeNewer)
	down := slices.SortedFunc(slices.Values(sets), proportion.CompareSizeOlder)
	for i := range sets {
		fmt.Println(up[i].Name, down[i].Name)
	}
	// Output:
	// c c
	// b a
	// a b
}
