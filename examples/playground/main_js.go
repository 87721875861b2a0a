//go:build js && wasm

package main

import "syscall/js"

// main exposes the module's calls to the page as global functions, each
// taking and returning strings (JSON), then waits for calls:
//
//	rolloutPlay(stateJSON) -> resultJSON       (see Play)
//	rolloutCheck(stateJSON) -> [finding] JSON  (see Check)
//	rolloutFragment(stateJSON) -> fragment     (see Fragment)
//	rolloutParseFragment(fragment) -> {state, error} in JSON
//	rolloutExamples() -> [{name, title, state}] in JSON
//
// and sets rolloutReady to true.
func main() {
	register(js.Global())
	select {}
}

// register sets the module's functions on g.
func register(g js.Value) {
	str := func(f func(string) string) js.Func {
		return js.FuncOf(func(_ js.Value, args []js.Value) any {
			if len(args) == 0 || args[0].Type() != js.TypeString {
				return f("")
			}
			return f(args[0].String())
		})
	}
	g.Set("rolloutPlay", str(playJSON))
	g.Set("rolloutCheck", str(checkJSON))
	g.Set("rolloutFragment", str(fragmentJSON))
	g.Set("rolloutParseFragment", str(parseJSON))
	g.Set("rolloutExamples", js.FuncOf(func(js.Value, []js.Value) any { return examplesJSON() }))
	g.Set("rolloutReady", true)
}
