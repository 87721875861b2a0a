//go:build js && wasm

package main

import (
	"encoding/json"
	"strings"
	"syscall/js"
	"testing"
)

// The functions the page calls exist on the global object once register
// ran, take strings and return JSON, as app.js uses them.
func TestRegister(t *testing.T) {
	g := js.Global().Get("Object").New()
	register(g)
	if !g.Get("rolloutReady").Bool() {
		t.Fatal("rolloutReady is not true")
	}
	state, _ := json.Marshal(DefaultState())
	var res Result
	if err := json.Unmarshal([]byte(g.Call("rolloutPlay", string(state)).String()), &res); err != nil {
		t.Fatal(err)
	}
	if !res.OK || !strings.HasPrefix(res.Summary, "outcome:       complete") || !strings.Contains(res.Chart, "<svg") {
		t.Errorf("rolloutPlay(default): %q %+v", res.Summary, res.Errors)
	}
	if res.Timeline != Play(DefaultState()).Timeline {
		t.Errorf("rolloutPlay's timeline differs from Play's")
	}
	if f := g.Call("rolloutCheck", string(state)).String(); f != "[]" {
		t.Errorf("rolloutCheck(default) = %s, want []", f)
	}
	frag := g.Call("rolloutFragment", string(state)).String()
	if !strings.HasPrefix(frag, "manifest=") || !strings.Contains(frag, "&image=nginx:1.9.3") {
		t.Errorf("rolloutFragment = %.60q", frag)
	}
	var p parsed
	if err := json.Unmarshal([]byte(g.Call("rolloutParseFragment", "#"+frag).String()), &p); err != nil || p.State != DefaultState() {
		t.Errorf("rolloutParseFragment(rolloutFragment(default)) = %+v, %v", p, err)
	}
	var ex []Example
	if err := json.Unmarshal([]byte(g.Call("rolloutExamples").String()), &ex); err != nil || len(ex) == 0 {
		t.Errorf("rolloutExamples: %v", err)
	}
	// A call without a string argument is a bad state, not a crash.
	if err := json.Unmarshal([]byte(g.Call("rolloutPlay").String()), &res); err != nil || res.OK {
		t.Errorf("rolloutPlay(): %+v %v", res, err)
	}
	if err := json.Unmarshal([]byte(g.Call("rolloutPlay", 42).String()), &res); err != nil || res.OK {
		t.Errorf("rolloutPlay(42): %+v %v", res, err)
	}
}
