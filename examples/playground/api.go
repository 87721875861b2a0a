package main

import (
	"encoding/json"
	"fmt"
)

// The calls the page makes into the module, with JSON in and out, so
// that they are tested natively as well as under WebAssembly (see
// main_js.go, which exposes them to JavaScript).

// playJSON runs Play on a State in JSON and returns the Result in JSON.
// It never panics: a bad argument, or a panic in the library (a bug to
// report), comes back as a Result with one error.
func playJSON(state string) (out string) {
	defer func() {
		if r := recover(); r != nil {
			out = mustJSON(Result{Versions: versions(), Errors: []Problem{{Message: fmt.Sprintf("playground: internal error (please report it with this link): %v", r)}}})
		}
	}()
	var st State
	if err := json.Unmarshal([]byte(state), &st); err != nil {
		return mustJSON(Result{Versions: versions(), Errors: []Problem{{Message: "playground: the page sent a state that is not JSON: " + err.Error()}}})
	}
	return mustJSON(Play(st))
}

// checkJSON runs Check on a State in JSON and returns the findings in
// JSON ([] for none), with the same care as playJSON.
func checkJSON(state string) (out string) {
	defer func() {
		if r := recover(); r != nil {
			out = mustJSON([]Problem{{Severity: "error", Message: fmt.Sprintf("playground: internal error in the check (please report it with this link): %v", r)}})
		}
	}()
	var st State
	if err := json.Unmarshal([]byte(state), &st); err != nil {
		return "[]"
	}
	f := Check(st)
	if f == nil {
		return "[]"
	}
	return mustJSON(f)
}

// fragmentJSON returns the URL fragment of a State in JSON (see
// Fragment), "" when it is not JSON.
func fragmentJSON(state string) string {
	var st State
	if err := json.Unmarshal([]byte(state), &st); err != nil {
		return ""
	}
	return Fragment(st)
}

// A parsed fragment, for the page: the State, or why the link is broken.
type parsed struct {
	State State  `json:"state"`
	Error string `json:"error,omitempty"`
}

// parseJSON reads a URL fragment (see ParseFragment); an empty one is
// the default state (see DefaultState).
func parseJSON(fragment string) string {
	if fragment == "" || fragment == "#" {
		return mustJSON(parsed{State: DefaultState()})
	}
	st, err := ParseFragment(fragment)
	if err != nil {
		return mustJSON(parsed{State: DefaultState(), Error: err.Error()})
	}
	return mustJSON(parsed{State: st})
}

// examplesJSON lists the examples (see examples).
func examplesJSON() string { return mustJSON(examples()) }

// mustJSON encodes v, whose types encode without fail.
func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic("playground: encoding a result: " + err.Error()) // strings and numbers only: not reached
	}
	return string(b)
}
