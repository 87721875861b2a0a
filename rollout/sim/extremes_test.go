package sim_test

import (
	"reflect"
	"testing"

	"github.com/rolloutmath/rolloutmath/rollout/sim"
)

// TestSummaryExtremesByName: Summary.Extremes gives each field of
// Extremes the Summary field of the same name, every field set to a value
// of its own so that no two could be swapped.
func TestSummaryExtremesByName(t *testing.T) {
	var sm sim.Summary
	sv := reflect.ValueOf(&sm).Elem()
	et := reflect.TypeFor[sim.Extremes]()
	for i := range et.NumField() {
		f := sv.FieldByName(et.Field(i).Name)
		if !f.IsValid() {
			t.Fatalf("Extremes.%s has no Summary field of its name", et.Field(i).Name)
		}
		switch f.Kind() {
		case reflect.Int32, reflect.Int64:
			f.SetInt(int64(i + 1))
		default:
			t.Fatalf("Summary.%s is a %s: the test sets integers and durations only", et.Field(i).Name, f.Type())
		}
	}
	e := reflect.ValueOf(sm.Extremes())
	for i := range et.NumField() {
		if got, want := e.Field(i).Int(), int64(i+1); got != want {
			t.Errorf("Extremes().%s = %d, want the Summary's %d", et.Field(i).Name, got, want)
		}
	}
}
