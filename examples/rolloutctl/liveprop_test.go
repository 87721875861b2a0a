package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/rollout/apply"
	"github.com/rolloutmath/rolloutmath/rollout/manifest"
)

// TestLiveIsApplyThenCommand checks what --live means, for manifests
// edited the way people edit them (an image bump, replicas changed or
// removed, an env var added, the CPU written in millicores, the
// containers swapped) applied onto each live fixture of web:
//
//   - diff prints "default/web: " and apply.Apply's Summary, and exits 1
//     exactly when Result.Rollout();
//   - plan --live prints that line and a blank line, then what plan prints
//     for the state after the apply given as plain input: the Deployment
//     the API server stores with the live ReplicaSets and Pods.
func TestLiveIsApplyThenCommand(t *testing.T) {
	base := readLive(t, "applied/web.yaml")
	lives := map[string][]manifest.Document{}
	for _, name := range []string{"web.yaml", "web-hpa-scaled.yaml", "web-restarted.yaml"} {
		docs, err := manifest.Read(manifest.Options{}, livePath("cluster/"+name))
		if err != nil {
			t.Fatal(err)
		}
		lives[name] = docs
	}
	rapid.Check(t, func(t *rapid.T) {
		liveName := rapid.SampledFrom([]string{"web.yaml", "web-hpa-scaled.yaml", "web-restarted.yaml"}).Draw(t, "live")
		m := editWeb(t, base)
		docs := lives[liveName]
		want, err := apply.Apply(docs[0].JSON, []byte(mustYAMLToJSON(t, m)), apply.Options{})
		if err != nil {
			t.Fatalf("apply: %v", err)
		}
		line := "default/web: " + want.Summary() + "\n"

		livePathArg := livePath("cluster/" + liveName)
		code, out, _ := runRaw(m, "diff", "--live", livePathArg)
		wantCode := exitOK
		if want.Rollout() {
			wantCode = exitRollout
		}
		if code != wantCode || out != line {
			t.Fatalf("diff: exit %d, printed %q; want %d and %q", code, out, wantCode, line)
		}

		code, got, errOut := runRaw(m, "plan", "--live", livePathArg, "--now", liveNow)
		if code != exitOK {
			t.Fatalf("plan --live: exit %d: %s", code, errOut)
		}
		var state bytes.Buffer
		after, err := json.Marshal(want.After)
		if err != nil {
			t.Fatal(err)
		}
		state.Write(after)
		for _, d := range docs[1:] {
			state.Write(d.JSON)
		}
		code, plain, errOut := runRaw(state.String(), "plan", "--now", liveNow)
		if code != exitOK {
			t.Fatalf("plan of the state after the apply: exit %d: %s", code, errOut)
		}
		header, rest, _ := strings.Cut(plain, "\n")
		if got != header+"\n"+line+"\n"+rest {
			t.Fatalf("plan --live printed\n%s\nwant the version, the answer, a blank line and plan of the state after the apply:\n%s\n%s\n%s", got, header, line, rest)
		}
	})
}

// editWeb returns applied/web.yaml edited as people edit it, the edits
// drawn by t.
func editWeb(t *rapid.T, m string) string {
	replace := func(label, old, new string) {
		if rapid.Bool().Draw(t, label) {
			if !strings.Contains(m, old) {
				t.Fatalf("applied/web.yaml lacks %q", old)
			}
			m = strings.Replace(m, old, new, 1)
		}
	}
	replace("image bump", "web:2.14.0", "web:2.15.0")
	replace("cpu in millicores", `cpu: "1"`, "cpu: 1000m")
	replace("env var added", "        - name: LOG_LEVEL\n", "        - name: FEATURE_CHECKOUT_V2\n          value: \"true\"\n        - name: LOG_LEVEL\n")
	switch rapid.IntRange(0, 2).Draw(t, "replicas: kept, removed, changed") {
	case 1:
		m = strings.Replace(m, "  replicas: 3\n", "", 1)
	case 2:
		m = strings.Replace(m, "  replicas: 3\n", fmt.Sprintf("  replicas: %d\n", rapid.IntRange(0, 9).Draw(t, "replicas")), 1)
	}
	if rapid.Bool().Draw(t, "containers swapped") {
		i, j, k := strings.Index(m, "      - name: app\n"), strings.Index(m, "      - name: log-shipper\n"), strings.Index(m, "      volumes:\n")
		m = m[:i] + m[j:k] + m[i:j] + m[k:]
	}
	return m
}

func mustYAMLToJSON(t *rapid.T, y string) string {
	docs, err := manifest.Parse("manifest", []byte(y))
	if err != nil || len(docs) != 1 {
		t.Fatalf("the edited manifest: %v", err)
	}
	return string(docs[0].JSON)
}

// runRaw runs the command with stdin piped in, for property tests, whose
// *rapid.T is not a testing.TB.
func runRaw(stdin string, args ...string) (int, string, string) {
	var out, errOut bytes.Buffer
	var in io.Reader = strings.NewReader(stdin)
	code := run(args, in, &out, &errOut)
	return code, out.String(), errOut.String()
}
