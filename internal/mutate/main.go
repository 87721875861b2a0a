// Command mutate is rolloutmath's mutation tester: it makes one deliberate
// bug at a time in a package's source (see [Mutants] for the kinds), runs
// the package's own tests against it, and reports the mutants no test
// catches. It needs only Go and the standard library; the source files are
// never written to, each mutant goes to the compiler through an -overlay.
//
// Usage, from the module root:
//
//	go run ./internal/mutate [flags] [package directory ...]
//
// The packages default to surge, proportion, revision, hash and rollout.
// The tests matching -nets (default TestGolden, the replay of the real
// controller) run only when every other test passed: a mutant that only
// they catch has no named test that says what it breaks, and is reported
// as such. Surviving mutants that the -equivalent list names, with the
// reason they change no behaviour, are set aside.
//
// The exit status is 0 when every mutant is killed by a named test or
// listed as equivalent and every listed mutant exists and survives; 1
// otherwise; 2 when the tool cannot run.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/rolloutmath/rolloutmath/internal/workers"
)

// defaultPackages are the packages whose arithmetic and planning the
// mutation score covers.
var defaultPackages = []string{"surge", "proportion", "revision", "hash", "rollout"}

func main() {
	code, err := run(os.Args[1:], os.Stdout, os.Stderr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "mutate:", err)
	}
	os.Exit(code)
}

type config struct {
	jobs       int
	match      *regexp.Regexp
	ids        map[string]bool // when not nil, only these mutants
	nets       string
	equivalent string
	list       bool
	verbose    bool
	pkgs       []string
}

func parseFlags(args []string, stderr io.Writer) (config, error) {
	fs := flag.NewFlagSet("mutate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var c config
	var match, ids string
	fs.IntVar(&c.jobs, "j", 1, "mutants tested at once")
	fs.StringVar(&match, "run", "", "test only the mutants whose ID matches this regexp")
	fs.StringVar(&ids, "ids", "", "test only the mutants named in this file: IDs alone, \"mutant: <ID>\" lines, or the tool's output")
	fs.StringVar(&c.nets, "nets", "^TestGolden$", "tests run only when the others pass (a regexp; empty for none)")
	fs.StringVar(&c.equivalent, "equivalent", "testdata/mutation/equivalent.txt", "the list of equivalent mutants, relative to the module root")
	fs.BoolVar(&c.list, "list", false, "print the mutants' IDs without testing them")
	fs.BoolVar(&c.verbose, "v", false, "print every mutant's outcome, not only the ones that need attention")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: go run ./internal/mutate [flags] [package directory ...]\n\n"+
			"Tests one mutant at a time of each package (default: %s) against its own tests.\n\n", strings.Join(defaultPackages, " "))
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if c.jobs < 1 {
		return c, fmt.Errorf("-j %d: want at least 1", c.jobs)
	}
	re, err := regexp.Compile(match)
	if err != nil {
		return c, fmt.Errorf("-run: %v", err)
	}
	c.match = re
	if ids != "" {
		b, err := os.ReadFile(ids)
		if err != nil {
			return c, fmt.Errorf("-ids: %v", err)
		}
		c.ids = parseIDs(string(b))
	}
	if c.nets != "" {
		if _, err := regexp.Compile(c.nets); err != nil {
			return c, fmt.Errorf("-nets: %v", err)
		}
	}
	c.pkgs = fs.Args()
	if len(c.pkgs) == 0 {
		c.pkgs = defaultPackages
	}
	return c, nil
}

func run(args []string, stdout, stderr io.Writer) (int, error) {
	c, err := parseFlags(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0, nil
	}
	if err != nil {
		return 2, err
	}
	root, err := moduleRoot()
	if err != nil {
		return 2, err
	}
	var equivalents []equivalent
	if !c.list {
		f, err := os.Open(filepath.Join(root, c.equivalent))
		if err != nil {
			return 2, err
		}
		equivalents, err = parseEquivalents(f)
		f.Close()
		if err != nil {
			return 2, fmt.Errorf("%s: %v", c.equivalent, err)
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	var all []outcome
	for _, pkg := range c.pkgs {
		mutants, sources, chk, err := packageMutants(ctx, root, pkg, c.match)
		if err != nil {
			return 2, err
		}
		if c.ids != nil {
			mutants = slices.DeleteFunc(mutants, func(m Mutant) bool { return !c.ids[m.ID()] })
			if len(mutants) == 0 {
				continue
			}
		}
		if c.list {
			for _, m := range mutants {
				fmt.Fprintln(stdout, m.ID())
			}
			continue
		}
		outs, err := testPackage(ctx, c, root, pkg, chk, mutants, sources, stdout)
		if err != nil {
			return 2, err
		}
		fmt.Fprintln(stdout, summary(pkg, outs, equivalents))
		all = append(all, outs...)
	}
	if c.list {
		return 0, nil
	}
	return report(stdout, all, equivalents, c.match.String() == "" && c.ids == nil && slices.Equal(c.pkgs, defaultPackages)), nil
}

// parseIDs reads the mutant IDs of a list: IDs alone, "mutant: <ID>"
// lines of an equivalent list, or the tool's own output (progress and
// report lines). Blank lines and # comments are skipped.
func parseIDs(text string) map[string]bool {
	ids := map[string]bool{}
	for _, line := range strings.Split(text, "\n") {
		switch {
		case strings.HasPrefix(line, "SURVIVED "), strings.HasPrefix(line, "ONLY BY "):
			_, line, _ = strings.Cut(line, ".go:") // "SURVIVED rollout/x.go:12: <ID>"
			_, line, _ = strings.Cut(line, ": ")
		case strings.Contains(line, "] survived: "):
			_, line, _ = strings.Cut(line, "] survived: ") // a progress line
		case strings.Contains(line, "] killed by a net only ("):
			_, line, _ = strings.Cut(line, "): ")
		}
		line = strings.TrimPrefix(strings.TrimSpace(line), "mutant: ")
		if line != "" && !strings.HasPrefix(line, "#") {
			ids[line] = true
		}
	}
	return ids
}

// moduleRoot is the directory holding go.mod, from the working directory up.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod in the working directory or above it")
		}
		dir = parent
	}
}

// packageMutants returns the mutants of the non-test, non-generated Go
// files of the package in dir (relative to root) whose IDs match, the
// files' sources by path, and the package's checker.
func packageMutants(ctx context.Context, root, dir string, match *regexp.Regexp) ([]Mutant, map[string][]byte, *checker, error) {
	files, err := filepath.Glob(filepath.Join(root, dir, "*.go"))
	if err != nil {
		return nil, nil, nil, err
	}
	sources := map[string][]byte{}
	for _, f := range files {
		base := filepath.Base(f)
		if strings.HasSuffix(base, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			return nil, nil, nil, err
		}
		sources[filepath.ToSlash(filepath.Join(dir, base))] = src
	}
	if len(sources) == 0 {
		return nil, nil, nil, fmt.Errorf("%s: no Go files", dir)
	}
	chk, err := newChecker(ctx, root, dir, sources)
	if err != nil {
		return nil, nil, nil, err
	}
	var out []Mutant
	for _, name := range chk.names {
		if strings.HasPrefix(filepath.Base(name), "zz_generated") {
			continue
		}
		for _, m := range fileMutants(chk.fset, name, chk.files[name], sources[name]) {
			if match.MatchString(m.ID()) {
				out = append(out, m)
			}
		}
	}
	return out, sources, chk, nil
}

// testPackage tests the mutants of one package, c.jobs at a time, and
// returns their outcomes in the mutants' order. Mutants that do not
// type-check are not compiled; the others run in one build of mutant
// schemata where they can, in a build of their own otherwise.
func testPackage(ctx context.Context, c config, root, pkg string, chk *checker, mutants []Mutant, sources map[string][]byte, progress io.Writer) ([]outcome, error) {
	tmp, err := os.MkdirTemp("", "mutate-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	r := &runner{root: root, rel: pkg, dir: filepath.Join(root, pkg), nets: c.nets, tmp: tmp}
	if c.nets != "" {
		r.netRE = regexp.MustCompile(c.nets) // checked by parseFlags
	}
	took, err := r.baseline(ctx)
	if err != nil {
		return nil, err
	}
	r.timeout = max(time.Minute, 10*took)
	cov, err := r.coverage(ctx)
	if err != nil {
		fmt.Fprintf(progress, "%s: no coverage (%v); every mutant runs every test\n", pkg, err)
	}
	testsFor := func(m Mutant) []string {
		if cov == nil {
			return nil
		}
		return cov.testsFor(m)
	}
	outs := make([]outcome, len(mutants))
	var use, alone []int
	for i, m := range mutants {
		if err := chk.check(m.File, m.Apply(sources[m.File]), nil); err != nil {
			outs[i] = outcome{m, invalid, err.Error()}
			continue
		}
		if m.schema {
			use = append(use, i)
		} else {
			alone = append(alone, i)
		}
	}
	bin, in, err := r.schemata(ctx, chk, mutants, sources, use)
	if err != nil {
		fmt.Fprintf(progress, "%s: no schemata (%v); one build per mutant\n", pkg, err)
		in = nil
	}
	inSchema := map[int]bool{}
	for _, i := range in {
		inSchema[i] = true
	}
	for _, i := range use {
		if !inSchema[i] {
			alone = append(alone, i)
		}
	}
	jobs := append(slices.Clone(in), alone...)
	fmt.Fprintf(progress, "%s: %d mutants, %d not compiling, %d in one build, %d built one by one; the tests take %v\n",
		pkg, len(mutants), len(mutants)-len(jobs), len(in), len(alone), took.Round(10*time.Millisecond))
	var mu sync.Mutex
	done := 0
	workers.Each(len(jobs), c.jobs, func(j int) {
		if ctx.Err() != nil {
			return
		}
		i := jobs[j]
		var o outcome
		tests := testsFor(mutants[i])
		switch {
		case tests != nil && len(tests) == 0:
			o = outcome{mutants[i], survived, "no test runs it"}
		case inSchema[i]:
			st, by := r.judge(ctx, bin, []string{fmt.Sprintf("%s=%d", schemaEnv, i)}, tests)
			o = outcome{mutants[i], st, by}
		default:
			o = r.test(ctx, mutants[i], sources[mutants[i].File], i, tests)
		}
		mu.Lock()
		outs[i] = o
		done++
		if c.verbose || o.Status == survived || o.Status == byNet {
			fmt.Fprintf(progress, "  [%d/%d] %s%s: %s\n", done, len(jobs), o.Status, by(o), o.Mutant.ID())
		}
		mu.Unlock()
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return outs, nil
}

func by(o outcome) string {
	if o.By == "" {
		return ""
	}
	return " (" + o.By + ")"
}

// counts are the outcomes of a set of mutants.
type counts struct {
	all, invalid, killed, byNet, survived, equivalent int
}

func count(outs []outcome, equivalents []equivalent) counts {
	listed := map[string]bool{}
	for _, e := range equivalents {
		listed[e.ID] = true
	}
	var c counts
	for _, o := range outs {
		c.all++
		switch o.Status {
		case invalid:
			c.invalid++
		case killed:
			c.killed++
		case byNet:
			c.byNet++
		case survived:
			if listed[o.Mutant.ID()] {
				c.equivalent++
			} else {
				c.survived++
			}
		}
	}
	return c
}

// score is the killed share of the mutants that compile and are not
// listed as equivalent, in percent.
func (c counts) score() float64 {
	n := c.all - c.invalid - c.equivalent
	if n == 0 {
		return 100
	}
	return 100 * float64(c.killed+c.byNet) / float64(n)
}

func summary(pkg string, outs []outcome, equivalents []equivalent) string {
	c := count(outs, equivalents)
	return fmt.Sprintf("%s: %d mutants, %d not compiling, %d killed (%d only by a net), %d equivalent, %d survived: score %.1f%%",
		pkg, c.all, c.invalid, c.killed+c.byNet, c.byNet, c.equivalent, c.survived, c.score())
}

// report prints the totals and what needs attention, and returns the exit
// status. Listed mutants that no longer exist are reported only when every
// mutant of the default packages was tested (complete).
func report(w io.Writer, outs []outcome, equivalents []equivalent, complete bool) int {
	c := count(outs, equivalents)
	fmt.Fprintf(w, "total: %d mutants, %d not compiling, %d killed (%d only by a net), %d equivalent, %d survived: score %.1f%% (%d of %d)\n",
		c.all, c.invalid, c.killed+c.byNet, c.byNet, c.equivalent, c.survived, c.score(), c.killed+c.byNet, c.all-c.invalid-c.equivalent)
	code := 0
	byID := map[string]outcome{}
	for _, o := range outs {
		byID[o.Mutant.ID()] = o
	}
	for _, e := range equivalents {
		o, ok := byID[e.ID]
		switch {
		case !ok && complete:
			fmt.Fprintf(w, "STALE (listed on line %d, no such mutant): %s\n", e.Line, e.ID)
			code = 1
		case ok && o.Status != survived:
			fmt.Fprintf(w, "LISTED BUT %s%s (line %d): %s\n", strings.ToUpper(o.Status.String()), by(o), e.Line, e.ID)
			code = 1
		}
	}
	listed := map[string]bool{}
	for _, e := range equivalents {
		listed[e.ID] = true
	}
	for _, o := range outs {
		switch {
		case o.Status == survived && !listed[o.Mutant.ID()]:
			fmt.Fprintf(w, "SURVIVED %s:%d: %s\n", o.Mutant.File, o.Mutant.Line, o.Mutant.ID())
			code = 1
		case o.Status == byNet:
			fmt.Fprintf(w, "ONLY BY %s %s:%d: %s\n", o.By, o.Mutant.File, o.Mutant.Line, o.Mutant.ID())
			code = 1
		}
	}
	return code
}
