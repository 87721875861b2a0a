package sim_test

import (
	"testing"

	"pgregory.net/rapid"
)

// FuzzRun is TestRunAnyState under the fuzzer's guidance: any state the
// generators draw, any pod model, and the run ends within its limits with
// an outcome.
func FuzzRun(f *testing.F) { f.Fuzz(rapid.MakeFuzz(runAnyState)) }
