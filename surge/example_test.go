package surge_test

import (
	"errors"
	"fmt"

	"github.com/rolloutmath/rolloutmath/surge"
)

// A Deployment of 10 replicas with the default maxSurge and maxUnavailable
// of 25% may run 3 extra pods and have 2 of its 10 unavailable during a
// rollout: surge rounds 2.5 up, unavailable rounds it down.
func ExampleResolve() {
	l := surge.Resolve(surge.Percent(25), surge.Percent(25), 10)
	fmt.Printf("surge %d, unavailable %d\n", l.Surge, l.Unavailable)

	// With 3 replicas and no surge, 25% unavailable rounds down to 0; both
	// are then 0, so Resolve allows 1 unavailable pod to make progress.
	l = surge.Resolve(surge.Count(0), surge.Percent(25), 3)
	fmt.Printf("surge %d, unavailable %d\n", l.Surge, l.Unavailable)
	// Output:
	// surge 3, unavailable 2
	// surge 0, unavailable 1
}

func ExampleParse() {
	for _, s := range []string{"3", "25%", "25 %", "+5%"} {
		v, err := surge.Parse(s)
		if err != nil {
			fmt.Println(err, errors.Is(err, surge.ErrSyntax))
			continue
		}
		fmt.Println(v, v.IsPercent())
	}
	// Output:
	// 3 false
	// 25% true
	// surge: parsing "25 %": invalid syntax true
	// surge: parsing "+5%": invalid syntax true
}

func ExampleValidate() {
	fmt.Println(surge.Validate(surge.Percent(150), surge.Percent(25)))
	fmt.Println(surge.Validate(surge.Count(0), surge.Percent(0)))
	fmt.Println(surge.Validate(surge.Count(-1), surge.Percent(125)))
	// Output:
	// <nil>
	// maxUnavailable: Invalid value: "0%": may not be 0 when `maxSurge` is 0
	// maxSurge: Invalid value: -1: must be greater than or equal to 0
	// maxUnavailable: Invalid value: "125%": must not be greater than 100%
}
