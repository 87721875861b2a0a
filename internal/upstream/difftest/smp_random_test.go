package difftest

import (
	"bytes"
	"encoding/json"
	"math/rand"
	"os"
	"strconv"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/kubernetes/pkg/api/legacyscheme"

	smp "github.com/rolloutmath/rolloutmath/internal/strategicpatch"
)

// smpCount is a number of random cases: the environment variable env, or
// n.
func smpCount(env string, n int) int {
	if v, err := strconv.Atoi(os.Getenv(env)); err == nil && v > 0 {
		return v
	}
	return n
}

// storedForm is the live object kubectl would read back after creating
// body: decoded into apps/v1 and defaulted when it decodes, as it is
// otherwise (so that odd manifests make odd live objects too).
func storedForm(body []byte) doc {
	var d appsv1.Deployment
	if err := json.Unmarshal(body, &d); err != nil {
		return parseDoc(string(body))
	}
	legacyscheme.Scheme.Default(&d)
	d.Namespace = "default"
	d.Generation = 1
	d.UID = "uid-web"
	d.ResourceVersion = "1"
	d.Status.ObservedGeneration = 1
	d.Status.Replicas = 3
	b, err := json.Marshal(&d)
	if err != nil {
		panic(err)
	}
	return parseDoc(string(Canonical(b)))
}

// triple is one random kubectl apply: the manifest applied last, the live
// object, the new manifest, and the original document (the last-applied
// annotation, or nothing).
type triple struct {
	last, manifest  doc
	live            []byte
	original        []byte
	modified        []byte
	overwrite       bool
	annotationMatch bool // original is the live object's annotation
}

func (g *mgen) triple(t *testing.T) triple {
	var tr triple
	base := g.deployment()
	tr.last = base.clone()
	for range g.r.Intn(3) {
		g.edit(tr.last)
	}
	created, err := realCreated(tr.last.bytes(), "default")
	if err != nil {
		t.Fatal(err)
	}
	live := storedForm(created)
	if g.chance(0.1) { // made by kubectl create: no annotation
		live = storedForm(tr.last.bytes())
	}
	for range g.r.Intn(4) {
		g.liveEdit(live)
	}
	tr.live = live.bytes()
	tr.manifest = tr.last.clone()
	for range 1 + g.r.Intn(4) {
		g.edit(tr.manifest)
	}
	if tr.modified, err = realModified(tr.manifest.bytes(), "default"); err != nil {
		t.Fatal(err)
	}
	if tr.original, err = realOriginal(tr.live); err != nil {
		t.Fatal(err)
	}
	tr.annotationMatch = true
	if g.chance(0.1) { // an original that is not the live object's annotation
		other := base.clone()
		g.edit(other)
		tr.original, tr.annotationMatch = other.bytes(), false
	}
	tr.overwrite = !g.chance(0.2)
	return tr
}

// TestApplyRandomTriples compares CreateThreeWayMergePatch and
// StrategicMergePatch (and, when the original is the live object's
// annotation, the whole of kubectl apply, with the modified configuration
// and the created object) with upstream's on random realistic triples:
// the same patch value, the same patched bytes, the same refusals.
// SMP_CASES=10000 runs more.
func TestApplyRandomTriples(t *testing.T) {
	n := smpCount("SMP_CASES", 1000)
	g := &mgen{r: rand.New(rand.NewSource(20260314))}
	start := time.Now()
	var patched, refused, empty, conflicts int
	for i := range n {
		tr := g.triple(t)
		real, err := compareThreeWay(tr.original, tr.modified, tr.live, tr.overwrite)
		if err != nil {
			t.Fatalf("case %d: %v\noriginal %s\nmodified %s\ncurrent  %s", i, err, tr.original, tr.modified, tr.live)
		}
		switch {
		case real.PatchErr != nil && !tr.overwrite:
			conflicts++
		case real.PatchErr != nil || real.ResultErr != nil:
			refused++
		case string(real.Patch) == "{}":
			empty++
		default:
			patched++
		}
		ours, err := smp.ModifiedConfiguration(tr.manifest.bytes(), "default")
		if err != nil || !bytes.Equal(ours, tr.modified) {
			t.Fatalf("case %d: modified configuration (%v):\nupstream %s\nours     %s", i, err, tr.modified, ours)
		}
		created, _ := realCreated(tr.manifest.bytes(), "default")
		if ours, err := smp.CreatedObject(tr.manifest.bytes(), "default"); err != nil || !bytes.Equal(ours, created) {
			t.Fatalf("case %d: created object (%v):\nupstream %s\nours     %s", i, err, created, ours)
		}
		if tr.annotationMatch {
			if _, _, _, err := compareApply(tr.live, tr.manifest.bytes(), tr.overwrite); err != nil {
				t.Fatalf("case %d: %v", i, err)
			}
		}
	}
	t.Logf("%d triples in %v: %d patched, %d empty patches, %d refused, %d refused with overwrite=false; %d comparisons needed upstream to run again",
		n, time.Since(start).Round(time.Millisecond), patched, empty, refused, conflicts, rerun.Load())
	if patched < n/2 {
		t.Errorf("only %d of %d triples gave a patch: the generator is too tame", patched, n)
	}
}

// TestMergeRandomPatches compares StrategicMergePatch with upstream's on
// the live objects of random triples and patches that are kubectl's
// three-way and two-way patches changed the way a hand-written patch
// could be: every directive in odd places, order and retainKeys lists
// that disagree with the patch, nulls, values of other types. The
// results must be the same bytes, or both refused.
func TestMergeRandomPatches(t *testing.T) {
	n := smpCount("SMP_CASES", 1000)
	g := &mgen{r: rand.New(rand.NewSource(7))}
	var refused int
	for i := range n {
		tr := g.triple(t)
		seeds := [][]byte{}
		if p, err := realThreeWay(tr.original, tr.modified, tr.live, true); err == nil {
			seeds = append(seeds, p)
		}
		edited := parseDoc(string(tr.live))
		g.liveEdit(edited)
		g.edit(edited)
		op, oerr := smp.CreateTwoWayMergePatch(tr.live, edited.bytes(), ourSchema)
		rp, err := match("two-way patch", outcome{op, oerr}, true, func() outcome {
			p, err := realTwoWay(tr.live, edited.bytes())
			return outcome{p, err}
		})
		if err != nil {
			t.Fatalf("case %d: %v\noriginal %s\nmodified %s", i, err, tr.live, edited.bytes())
		}
		if rp.err == nil {
			seeds = append(seeds, rp.out)
		}
		for _, seed := range seeds {
			patch := parseDoc(string(seed))
			for range 1 + g.r.Intn(3) {
				g.perturbPatch(patch)
			}
			real, err := compareMerge(tr.live, patch.bytes())
			if err != nil {
				t.Fatalf("case %d: %v\nlive  %s\npatch %s", i, err, tr.live, patch.bytes())
			}
			if real == nil {
				refused++
			}
		}
	}
	t.Logf("%d cases, %d patches refused; %d comparisons needed upstream to run again", n, refused, rerun.Load())
}

// TestThreeWayOddDocuments compares CreateThreeWayMergePatch (and the
// patched object) with upstream's on triples whose documents have odd
// parts: merge keys missing or of other types, lists of lists, objects as
// merge keys, directives written in a manifest, values of other types.
// Both must refuse the same triples and agree on the others.
func TestThreeWayOddDocuments(t *testing.T) {
	n := smpCount("SMP_CASES", 1000)
	g := &mgen{r: rand.New(rand.NewSource(99))}
	var refused int
	for i := range n {
		tr := g.triple(t)
		docs := []doc{parseDoc(string(tr.modified)), parseDoc(string(tr.live)), tr.last.clone()}
		for range 1 + g.r.Intn(2) {
			g.perturbDocument(docs[g.r.Intn(len(docs))])
		}
		original := docs[2].bytes()
		if len(tr.original) == 0 && g.chance(0.5) {
			original = nil
		}
		real, err := compareThreeWay(original, docs[0].bytes(), docs[1].bytes(), tr.overwrite)
		if err != nil {
			t.Fatalf("case %d: %v\noriginal %s\nmodified %s\ncurrent  %s", i, err, original, docs[0].bytes(), docs[1].bytes())
		}
		if real.PatchErr != nil || real.ResultErr != nil {
			refused++
		}
	}
	t.Logf("%d cases, %d refused; %d comparisons needed upstream to run again", n, refused, rerun.Load())
}
