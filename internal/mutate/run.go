package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/types"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"
)

// A status is what became of a mutant.
type status int

const (
	invalid  status = iota // it does not compile
	killed                 // a test failed (or timed out)
	byNet                  // only a net test failed: the replay, not a named test
	survived               // every test passed
)

func (s status) String() string {
	return [...]string{"not compiling", "killed", "killed by a net only", "survived"}[s]
}

// An outcome is a mutant's status and what decided it: the first failing
// test, or the compiler's first complaint.
type outcome struct {
	Mutant Mutant
	Status status
	By     string
}

// A runner tests the mutants of one package.
type runner struct {
	root    string         // the module root
	rel     string         // the package's directory, relative to root
	dir     string         // the package's directory, absolute
	nets    string         // a regexp of tests run only when the others pass, "" for none
	netRE   *regexp.Regexp // nets compiled, nil for none
	timeout time.Duration  // for one run of the test binary
	tmp     string         // a scratch directory of the runner's own
}

var failLine = regexp.MustCompile(`(?m)^\s*--- FAIL: (\S+)`)

// baseline builds and runs the package's tests without a mutant: they must
// pass. It returns how long the run took.
func (r *runner) baseline(ctx context.Context) (time.Duration, error) {
	bin := filepath.Join(r.tmp, "baseline.test")
	if out, err := r.goTest(ctx, "", bin); err != nil {
		return 0, fmt.Errorf("building the tests of %s: %v\n%s", r.dir, err, out)
	}
	start := time.Now()
	if out, err := r.exec(ctx, bin, nil, 10*time.Minute); err != nil {
		return 0, fmt.Errorf("the tests of %s fail without a mutant: %v\n%s", r.dir, err, out)
	}
	return time.Since(start), nil
}

// test builds the package's tests with m applied and runs them, or those
// of tests when it is not nil (judge).
func (r *runner) test(ctx context.Context, m Mutant, src []byte, n int, tests []string) outcome {
	work := filepath.Join(r.tmp, fmt.Sprint(n))
	if err := os.MkdirAll(work, 0o755); err != nil {
		return outcome{m, invalid, err.Error()}
	}
	defer os.RemoveAll(work)
	bin := filepath.Join(work, "pkg.test")
	if out, err := r.build(ctx, work, bin, map[string][]byte{m.File: m.Apply(src)}); err != nil {
		return outcome{m, invalid, firstLine(out)}
	}
	st, by := r.judge(ctx, bin, nil, tests)
	return outcome{m, st, by}
}

// build compiles the package's tests to bin with the files of srcs (by
// path relative to the module root) replacing or adding to the package's,
// through an overlay written in work.
func (r *runner) build(ctx context.Context, work, bin string, srcs map[string][]byte) ([]byte, error) {
	replace := map[string]string{}
	for name, src := range srcs {
		f := filepath.Join(work, strings.ReplaceAll(name, "/", "_"))
		if err := os.WriteFile(f, src, 0o644); err != nil {
			return nil, err
		}
		replace[filepath.Join(r.root, filepath.FromSlash(name))] = f
	}
	overlay, err := json.Marshal(map[string]map[string]string{"Replace": replace})
	if err != nil {
		return nil, err
	}
	ovFile := filepath.Join(work, "overlay.json")
	if err := os.WriteFile(ovFile, overlay, 0o644); err != nil {
		return nil, err
	}
	return r.goTest(ctx, ovFile, bin)
}

// judge runs the test binary bin with env added to the environment: the
// tests other than the nets first, stopping at the first failure, then the
// nets. With tests not nil, only those run (none when it is empty).
func (r *runner) judge(ctx context.Context, bin string, env, tests []string) (status, string) {
	var named, nets []string
	for _, t := range tests {
		if r.netRE != nil && r.netRE.MatchString(t) {
			nets = append(nets, t)
		} else {
			named = append(named, t)
		}
	}
	args := []string{"-test.failfast"}
	switch {
	case tests == nil && r.nets != "":
		args = append(args, "-test.skip", r.nets)
	case tests != nil:
		args = append(args, "-test.run", "^("+strings.Join(named, "|")+")$")
	}
	if tests == nil || len(named) > 0 {
		if out, err := r.exec(ctx, bin, env, r.timeout, args...); err != nil {
			return killed, killer(out, err)
		}
	}
	run := r.nets
	if tests != nil {
		if len(nets) == 0 {
			return survived, ""
		}
		run = "^(" + strings.Join(nets, "|") + ")$"
	}
	if run == "" {
		return survived, ""
	}
	if out, err := r.exec(ctx, bin, env, r.timeout, "-test.failfast", "-test.run", run); err != nil {
		return byNet, killer(out, err)
	}
	return survived, ""
}

// goTest compiles the package's test binary to bin, with an overlay file
// unless it is "".
func (r *runner) goTest(ctx context.Context, overlay, bin string) ([]byte, error) {
	args := []string{"test", "-c", "-vet=off", "-o", bin}
	if overlay != "" {
		args = append(args, "-overlay", overlay)
	}
	args = append(args, ".")
	ctx, cancel := context.WithTimeout(ctx, 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = r.dir
	return cmd.CombinedOutput()
}

// exec runs the test binary bin in the package's directory.
func (r *runner) exec(ctx context.Context, bin string, env []string, timeout time.Duration, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout+30*time.Second)
	defer cancel()
	args = append([]string{"-test.timeout", timeout.String()}, args...)
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = r.dir
	if env != nil {
		cmd.Env = append(os.Environ(), env...)
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if ctx.Err() != nil {
		err = errors.Join(err, ctx.Err())
	}
	return out.Bytes(), err
}

// killer names the test that failed in out.
func killer(out []byte, err error) string {
	if bytes.Contains(out, []byte("panic: test timed out")) || errors.Is(err, context.DeadlineExceeded) {
		return "timeout"
	}
	if m := failLine.FindSubmatch(out); m != nil {
		return string(m[1])
	}
	if bytes.Contains(out, []byte("panic:")) {
		return "panic"
	}
	return firstLine(out)
}

func firstLine(out []byte) string {
	for _, l := range strings.Split(string(out), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			return l
		}
	}
	return "(no output)"
}

// schemata builds the package's tests with the mutants use switched at run
// time (see schemaVar) and checks that the tests pass with none switched
// on. It returns the test binary and the mutants it holds: those whose
// schema does not type-check are left out, to be built one by one.
func (r *runner) schemata(ctx context.Context, chk *checker, ms []Mutant, sources map[string][]byte, use []int) (string, []int, error) {
	info := &types.Info{
		Types:     map[ast.Expr]types.TypeAndValue{},
		Defs:      map[*ast.Ident]types.Object{},
		Implicits: map[ast.Node]types.Object{},
	}
	if err := chk.check("", nil, info); err != nil {
		return "", nil, err
	}
	pkg := chk.files[chk.names[0]].Name.Name
	decl := schemaDecl(pkg)
	in := slices.Clone(use)
	var srcs map[string][]byte
	for round := 0; ; round++ {
		byFile := map[string][]int{}
		for _, i := range in {
			byFile[ms[i].File] = append(byFile[ms[i].File], i)
		}
		srcs = map[string][]byte{}
		spans := map[string][]span{}
		out := map[int]bool{}
		for name, idx := range byFile {
			src, sp, rejected := fileSchemata(chk.files[name], sources[name], info, chk.path, ms, idx)
			srcs[name], spans[name] = src, sp
			for _, i := range rejected {
				out[i] = true
			}
		}
		errs, err := chk.checkAll(srcs, decl)
		if err != nil {
			return "", nil, err
		}
		if len(errs) == 0 && len(out) == 0 {
			break
		}
		if round == 50 {
			return "", nil, fmt.Errorf("the schemata still do not type-check: %v", errs[0])
		}
		for _, e := range errs {
			p := e.Fset.Position(e.Pos)
			ids := innermost(spans[p.Filename], p.Offset)
			if ids == nil {
				ids = byFile[p.Filename] // not in a schema: give up on the file
			}
			for _, i := range ids {
				out[i] = true
			}
		}
		in = slices.DeleteFunc(in, func(i int) bool { return out[i] })
	}
	srcs[filepath.ToSlash(filepath.Join(r.rel, "zz_mutate_schema.go"))] = decl
	work := filepath.Join(r.tmp, "schemata")
	if err := os.MkdirAll(work, 0o755); err != nil {
		return "", nil, err
	}
	bin := filepath.Join(work, "pkg.test")
	if out, err := r.build(ctx, work, bin, srcs); err != nil {
		return "", nil, fmt.Errorf("building the schemata: %v\n%s", err, out)
	}
	if st, by := r.judge(ctx, bin, []string{schemaEnv + "=-1"}, nil); st != survived {
		return "", nil, fmt.Errorf("with the schemata and no mutant, %s fails", by)
	}
	return bin, in, nil
}
