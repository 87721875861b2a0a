package rollout_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

var (
	// citedRule matches a rule id, or a range of them (R-NEW-6..9), as
	// comments, tests and documents cite them.
	citedRule = regexp.MustCompile(`\b(R-[A-Z]+-)([0-9]+)[a-c]?(?:\.\.([0-9]+))?\b|\bQ-[0-9]+\b`)
	// citedSection matches a section citation such as "spec §5.6".
	citedSection = regexp.MustCompile(`spec §([0-9]+(?:\.[0-9]+)*)`)
	// definedRule matches a rule's definition in SPEC.md.
	definedRule = regexp.MustCompile(`^- \*\*((?:R-[A-Z]+-|Q-)[0-9]+)\*\* · upstream[ :]`)
	// definedSection matches a section heading of SPEC.md.
	definedSection = regexp.MustCompile(`^#+ §([0-9]+(?:\.[0-9]+)*) `)
)

// TestSpecResolves walks the repository's Go and Markdown files and checks
// that every rule id (R-SCALE-3, ranges such as R-NEW-6..9 included, Q-1)
// and every "spec §N" section they cite is defined in SPEC.md, that every
// rule there is defined once, and that each definition names the upstream
// function it describes ("· upstream `X`").
func TestSpecResolves(t *testing.T) {
	spec, err := os.ReadFile("SPEC.md")
	if err != nil {
		t.Fatal(err)
	}
	rules, sections := map[string]bool{}, map[string]bool{}
	for i, line := range strings.Split(string(spec), "\n") {
		if m := definedSection.FindStringSubmatch(line); m != nil {
			sections[m[1]] = true
		}
		if !strings.HasPrefix(line, "- **R-") && !strings.HasPrefix(line, "- **Q-") {
			continue
		}
		m := definedRule.FindStringSubmatch(line)
		if m == nil {
			t.Errorf("SPEC.md:%d: a rule that does not name its upstream function: %.60s", i+1, line)
			continue
		}
		if rules[m[1]] {
			t.Errorf("SPEC.md:%d: %s defined twice", i+1, m[1])
		}
		rules[m[1]] = true
	}
	if len(rules) < 150 {
		t.Fatalf("SPEC.md defines %d rules; the walk below would prove little", len(rules))
	}

	cited := 0
	err = filepath.WalkDir("..", func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() {
			if name := e.Name(); name == "testdata" || (strings.HasPrefix(name, ".") && name != "..") {
				return filepath.SkipDir
			}
			return nil
		}
		if ext := filepath.Ext(path); ext != ".go" && ext != ".md" {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for n, line := range strings.Split(string(b), "\n") {
			for _, id := range citedRules(line) {
				cited++
				if !rules[id] {
					t.Errorf("%s:%d cites %s, which SPEC.md does not define", path, n+1, id)
				}
			}
			for _, m := range citedSection.FindAllStringSubmatch(line, -1) {
				cited++
				if s := strings.TrimSuffix(m[1], "."); !sections[s] {
					t.Errorf("%s:%d cites spec §%s, which SPEC.md has no section for", path, n+1, s)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if cited < 300 {
		t.Errorf("found %d citations in the repository; the walk missed files", cited)
	}
}

// citedRules returns the rule ids line cites, with ranges expanded.
func citedRules(line string) []string {
	var out []string
	for _, m := range citedRule.FindAllStringSubmatch(line, -1) {
		if m[1] == "" {
			out = append(out, m[0])
			continue
		}
		from, _ := strconv.Atoi(m[2])
		to := from
		if m[3] != "" {
			to, _ = strconv.Atoi(m[3])
		}
		for n := from; n <= to; n++ {
			out = append(out, m[1]+strconv.Itoa(n))
		}
	}
	return slices.Compact(out)
}
