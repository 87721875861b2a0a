package difftest

import (
	"math/rand"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestSharedManifestsApply runs kubectl apply on the real manifests of
// ../shared/manifests (when present), each first applied as it is, then
// edited the way people edit manifests (image bumps, env, sidecars,
// replicas, resources in other units, reordering) while other writers
// change the live object: the patch and the patched object must be
// upstream's. SMP_SHARED_EDITS sets the number of edits per manifest.
func TestSharedManifestsApply(t *testing.T) {
	ms := sharedManifests(t)
	names := make([]string, 0, len(ms))
	for n, m := range ms {
		if strings.Contains(string(m), `"kind":"Deployment"`) {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	perManifest := smpCount("SMP_SHARED_EDITS", 10)
	g := &mgen{r: rand.New(rand.NewSource(181))}
	cases := 0
	for _, n := range names {
		name := filepath.Base(filepath.Dir(n)) + "/" + filepath.Base(n)
		created, err := realCreated(ms[n], "default")
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for range perManifest {
			live := storedForm(created)
			for range g.r.Intn(3) {
				g.liveEdit(live)
			}
			manifest := parseDoc(string(ms[n]))
			for range 1 + g.r.Intn(3) {
				g.edit(manifest)
			}
			overwrite := !g.chance(0.1)
			if _, _, _, err := compareApply(live.bytes(), manifest.bytes(), overwrite); err != nil {
				t.Fatalf("%s: %v\nlive %s\nmanifest %s", name, err, live.bytes(), manifest.bytes())
			}
			cases++
		}
	}
	t.Logf("%d manifests, %d applies", len(names), cases)
}
