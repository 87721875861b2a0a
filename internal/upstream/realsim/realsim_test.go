package realsim_test

import (
	"testing"
	"time"

	"github.com/rolloutmath/rolloutmath/internal/upstream/realsim"
)

func TestSmoke(t *testing.T) {
	for _, c := range []realsim.Case{
		{Name: "10", Replicas: 10, ReadyAfter: 5 * time.Second},
		{Name: "10-0s", Replicas: 10},
		{Name: "100", Replicas: 100, ReadyAfter: 5 * time.Second},
	} {
		start := time.Now()
		m, err := realsim.Run(t, c)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %+v (wall %v)", c.Name, m, time.Since(start))
	}
}
