package chart

import (
	"math"
	"testing"
)

// For every top from 1 (the chart's least) to 5,000 pods: the axis reaches above it with room
// (yMax >= 1.05*top), on whole steps that are round, in at most 8 ticks
// labelled from 0.
func TestYScaleExhaustive(t *testing.T) {
	for top := 1; top <= 5000; top++ {
		step, yMax := YScale(float64(top))
		if yMax < 1.05*float64(top) || step < 1 || math.Mod(yMax, step) != 0 {
			t.Fatalf("YScale(%d) = %v, %v", top, step, yMax)
		}
		ticks := Ticks(step, yMax)
		if len(ticks) < 2 || len(ticks) > 8 || ticks[0].Text != "0" || ticks[len(ticks)-1].V != yMax {
			t.Fatalf("Ticks(YScale(%d)) = %v", top, ticks)
		}
	}
}

func TestCount(t *testing.T) {
	for _, tt := range []struct {
		v    float64
		want string
	}{{0, "0"}, {950, "950"}, {1500, "1.5k"}, {1234, "1234"}, {25000, "25k"}, {1.5e6, "1.5M"}, {2.1e9, "2.1G"}} {
		if got := Count(tt.v); got != tt.want {
			t.Errorf("Count(%v) = %q, want %q", tt.v, got, tt.want)
		}
	}
}

// TimeStep gives at most 10 labels over the axis, each with its room.
func TestTimeStep(t *testing.T) {
	for _, end := range []float64{0.5, 1, 59, 61, 3600, 86400, 3e7} {
		s := TimeStep(end, 880)
		if s <= 0 || end/s > 10 {
			t.Errorf("TimeStep(%v, 880) = %v", end, s)
		}
	}
}
