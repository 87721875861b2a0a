package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// The page's calls take and return JSON, and answer a bad argument with
// an error rather than a panic.
func TestJSONCalls(t *testing.T) {
	var res Result
	if err := json.Unmarshal([]byte(playJSON("{")), &res); err != nil || res.OK || len(res.Errors) != 1 || !strings.Contains(res.Errors[0].Message, "not JSON") {
		t.Errorf("playJSON of bad JSON: %+v %v", res, err)
	}
	b, _ := json.Marshal(DefaultState())
	res = Result{}
	if err := json.Unmarshal([]byte(playJSON(string(b))), &res); err != nil || !res.OK {
		t.Errorf("playJSON of the default: %+v %v", res.Errors, err)
	}
	if f := fragmentJSON(string(b)); f != Fragment(DefaultState()) {
		t.Errorf("fragmentJSON = %q", f)
	}
	if f := fragmentJSON("nope"); f != "" {
		t.Errorf("fragmentJSON of bad JSON = %q, want \"\"", f)
	}
	for _, tt := range []struct {
		fragment, wantErr string
		want              State
	}{
		{"", "", DefaultState()},
		{"#", "", DefaultState()},
		{"#manifest=YQ&replicas=3", "", State{Manifest: "a", Replicas: "3"}},
		{"#manifest=!", "not base64url", DefaultState()},
	} {
		var p parsed
		if err := json.Unmarshal([]byte(parseJSON(tt.fragment)), &p); err != nil {
			t.Fatal(err)
		}
		if p.State != tt.want || !strings.Contains(p.Error, tt.wantErr) || (tt.wantErr == "") != (p.Error == "") {
			t.Errorf("parseJSON(%q) = %+v", tt.fragment, p)
		}
	}
	var found []Problem
	hpa, _ := json.Marshal(examples()[3].State)
	if err := json.Unmarshal([]byte(checkJSON(string(hpa))), &found); err != nil || len(found) != 1 || found[0].Rule != "hpa-replicas" || found[0].Line != 10 {
		t.Errorf("checkJSON(hpa example) = %+v, %v", found, err)
	}
	for _, bad := range []string{"{", `{"replicas": "x"}`, `{"manifest": "kind: Nope"}`} {
		if got := checkJSON(bad); got != "[]" {
			t.Errorf("checkJSON(%q) = %s, want []", bad, got)
		}
	}
	var ex []Example
	if err := json.Unmarshal([]byte(examplesJSON()), &ex); err != nil || len(ex) != 5 || ex[0].State != DefaultState() {
		t.Errorf("examplesJSON: %d examples, %v", len(ex), err)
	}
}
