// Package golden reads the replay corpus in testdata/golden: syncs of the
// real Deployment controller (Kubernetes v1.36.3), each the state it saw and
// the plan it carried out, in the plan contract of rollout.NewReport. It is
// shared by the replays of package rollout and of module rollout/kube.
package golden

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"
)

// A Case is one sync of the real controller.
type Case struct {
	Name  string          // <scenario>/step-NN, or random-NNNNN
	State json.RawMessage // a kind: List holding the Deployment, ReplicaSets and Pods
	Plan  json.RawMessage // upstream's plan, in the plan contract
	Now   time.Time       // the time of the sync, the plan's now
}

// Scenarios returns the steps of the named scenarios under dir, ordered by
// name.
func Scenarios(dir string) ([]Case, error) {
	steps, err := filepath.Glob(filepath.Join(dir, "scenarios", "*", "step-*.state.json"))
	if err != nil {
		return nil, err
	}
	if len(steps) == 0 {
		return nil, fmt.Errorf("golden: no scenarios under %s", dir)
	}
	sort.Strings(steps)
	var cases []Case
	for _, f := range steps {
		state, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		plan, err := os.ReadFile(strings.TrimSuffix(f, ".state.json") + ".plan.json")
		if err != nil {
			return nil, err
		}
		rel, err := filepath.Rel(filepath.Join(dir, "scenarios"), f)
		if err != nil {
			return nil, err
		}
		c := Case{Name: filepath.ToSlash(strings.TrimSuffix(rel, ".state.json")), State: state, Plan: plan}
		if c.Now, err = now(plan); err != nil {
			return nil, fmt.Errorf("golden: %s: %w", c.Name, err)
		}
		cases = append(cases, c)
	}
	return cases, nil
}

// Load returns every case under dir: the scenarios, then the random states
// of random.jsonl.gz in their order.
func Load(dir string) ([]Case, error) {
	cases, err := Scenarios(dir)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(filepath.Join(dir, "random.jsonl.gz"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, err
	}
	sc := bufio.NewScanner(zr)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var c Case
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			return nil, fmt.Errorf("golden: random.jsonl.gz: %w", err)
		}
		if c.Now, err = now(c.Plan); err != nil {
			return nil, fmt.Errorf("golden: %s: %w", c.Name, err)
		}
		cases = append(cases, c)
	}
	return cases, sc.Err()
}

// now reads a plan's time.
func now(plan []byte) (time.Time, error) {
	var p struct {
		Now time.Time `json:"now"`
	}
	err := json.Unmarshal(plan, &p)
	return p.Now, err
}

// Normalize turns a plan in the contract into comparable data: the leading
// adoptions and releases are sorted, since upstream issues them in its
// cache's order, and recheckAt, which the corpus does not record, is
// dropped. Names are kept: the ReplicaSets a sync creates carry upstream's
// pod-template-hash, which rolloutmath computes bit for bit.
func Normalize(plan []byte) (map[string]any, error) {
	text := string(plan)
	var out map[string]any
	if err := json.Unmarshal([]byte(text), &out); err != nil {
		return nil, err
	}
	actions, _ := out["actions"].([]any)
	n := 0
	for n < len(actions) {
		ty := actions[n].(map[string]any)["type"]
		if ty != "AdoptReplicaSet" && ty != "ReleaseReplicaSet" {
			break
		}
		n++
	}
	slices.SortFunc(actions[:n], func(a, b any) int {
		return strings.Compare(fmt.Sprint(a), fmt.Sprint(b))
	})
	delete(out, "recheckAt")
	return out, nil
}
