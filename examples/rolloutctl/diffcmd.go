package main

import (
	"errors"
	"io"
	"slices"
)

const diffHelp = `rolloutctl diff [-f FILE]... --live FILE... [-n NAMESPACE] [-o text|json|yaml]

Says, for each Deployment of the manifests (-f, or standard input), what
'kubectl apply' would do to the live Deployment of the same namespace and
name in --live (what 'kubectl get deploy,rs,pods -o yaml' or -o json
prints): kubectl's three-way merge of its last-applied configuration, the
live object and the manifest, then the API server's defaults,
normalization and validation. One line per Deployment:

  default/web: rollout: spec.template.spec.containers[name=app].image changed
  default/web: no rollout: the template is unchanged once defaulted; spec.replicas changed: 7 -> 1
  default/web: no change: kubectl sends no patch
  default/worker: rollout: a new Deployment

A manifest that matches no live Deployment is a first apply. A manifest
without a namespace is in -n's, or default. -o json prints {"rollout",
"apply": [{"deployment", "summary", "rollout", "created", "changes":
[{"path", "from", "to"}]}]}, from and to being JSON values.

Exit 0 when no Deployment rolls out, 1 when one does (as 'kubectl diff'
and 'flux diff' exit 1 on a difference), 2 on bad input or an apply that
kubectl or the API server refuses (a changed selector, an invalid
result), each problem on a line naming the file and the field.
`

// diffJSON is diff -o json.
type diffJSON struct {
	Rollout bool         `json:"rollout"`
	Apply   []answerJSON `json:"apply"`
}

func runDiff(e *env, args []string) int {
	var (
		input   inputFlags
		live    liveFlags
		outputs outputFlags
	)
	fs := newFlagSet("diff")
	input.add(fs, "", false)
	live.add(fs)
	outputs.addOutputs(fs, "text", "json", "yaml")
	if code := parse(e, fs, diffHelp, args); code >= 0 {
		return code
	}
	outs, err := outputs.resolve(fs)
	if err != nil {
		return fail(e, "diff", err)
	}
	if len(live.files) == 0 {
		return fail(e, "diff", errors.New("no live objects: name them with --live FILE (what 'kubectl get deploy,rs,pods -o yaml' prints)"))
	}
	_, answers, err := live.load(e, &input, "diff")
	if err != nil {
		return fail(e, "diff", err)
	}
	rolls := slices.ContainsFunc(answers, func(a answer) bool { return a.result.Rollout() })
	code := exitOK
	if rolls {
		code = exitRollout
	}
	out := diffJSON{Rollout: rolls, Apply: make([]answerJSON, len(answers))}
	for i, a := range answers {
		out.Apply[i] = a.json()
	}
	if c := writeReports(e, "diff", outs, func(format string, w io.Writer) error {
		if format != "text" {
			return encodeData(format, w, out, nil)
		}
		noteAnswers(w, answers)
		return nil
	}); c != exitOK {
		return c
	}
	return code
}

// exitRollout is diff's exit code when a Deployment rolls out.
const exitRollout = 1
