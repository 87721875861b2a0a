package browsertest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/google/go-cmp/cmp"

	"github.com/rolloutmath/rolloutmath/rollout/check"
	"github.com/rolloutmath/rolloutmath/rollout/manifest"
	"github.com/rolloutmath/rolloutmath/rollout/sim"
	"github.com/rolloutmath/rolloutmath/rollout/sim/render"
)

// repoRoot is the rolloutmath module, where the server builds the page's
// WebAssembly module and rolloutctl runs.
const repoRoot = "../../.."

// maxGzip is the budget for the module, gzipped: 3 MB.
const maxGzip = 3_000_000

// chromium returns Debian's chromium (or another Chrome), or skips.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("no chromium on PATH: install it (apt-get install -y chromium) to run the playground's browser test")
	return ""
}

// serve builds and starts the playground's server on a free port, and
// returns the page's URL; the server stops with the test.
func serve(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "playground")
	build := exec.Command("go", "build", "-o", bin, "./examples/playground")
	build.Dir = repoRoot
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./examples/playground: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "--addr", "127.0.0.1:0")
	cmd.Dir = repoRoot
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		cmd.Wait()
	})
	url := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if u, ok := strings.CutPrefix(sc.Text(), "rollout playground: "); ok {
				url <- u
			}
		}
		close(url)
	}()
	select {
	case u, ok := <-url:
		if !ok {
			t.Fatalf("the server stopped without a URL: %s", stderr.String())
		}
		return u
	case <-time.After(8 * time.Minute): // a cold build of the module
		t.Fatalf("no URL from the server after 8 minutes: %s", stderr.String())
	}
	return ""
}

// screenshots returns the directory for the screenshots: $PLAYGROUND_SCREENSHOTS
// or a temporary one.
func screenshots(t *testing.T) string {
	dir := os.Getenv("PLAYGROUND_SCREENSHOTS")
	if dir == "" {
		dir = t.TempDir()
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// expected is the timeline the library gives for a manifest read as
// standard input and a change: check.Simulate rendered by render.Table,
// under the page's model (that of rolloutctl simulate, --max-work 20000).
func expected(t *testing.T, text string, c check.Change) string {
	t.Helper()
	in, _ := check.Read(manifest.Options{Stdin: strings.NewReader(text)}, check.LoadOptions{}, "-")
	if p := in.Problems(); len(p) > 0 {
		t.Fatalf("problems: %v", p)
	}
	d, err := in.Pick("")
	if err != nil {
		t.Fatal(err)
	}
	c.Config = sim.Config{Model: sim.ModelControllers, Controllers: sim.Controllers{QPS: sim.DefaultQPS, Burst: sim.DefaultBurst},
		Pods: c.Config.Pods, MaxWork: 20_000}
	run, err := check.Simulate(in, d, c)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	render.Table(&b, render.Head{Title: run.Title, Version: check.Kubernetes(c.Options.Version.Resolve(), c.Options.Version.Resolve()),
		Model: run.Model, Times: run.Times, Notes: run.Notes}, run.State, run.Result)
	return b.String()
}

// rolloutctl runs `rolloutctl simulate` with args on a manifest given on
// standard input, and returns its standard output.
func rolloutctl(t *testing.T, text string, args ...string) string {
	t.Helper()
	cmd := exec.Command("go", append([]string{"run", "./examples/rolloutctl", "simulate"}, args...)...)
	cmd.Dir = repoRoot
	cmd.Stdin = strings.NewReader(text)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("rolloutctl simulate %q: %v\n%s", args, err, stderr.String())
	}
	return string(out)
}

// The shared link's manifest: a Deployment the page has no example of,
// 100 replicas, maxSurge 10%, maxUnavailable 0, a startup probe.
const sharedManifest = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: api
  namespace: shop
spec:
  replicas: 100
  strategy:
    rollingUpdate:
      maxSurge: 10%
      maxUnavailable: 0
  selector:
    matchLabels: {app: api}
  template:
    metadata:
      labels: {app: api}
    spec:
      containers:
      - name: api
        image: registry.example/shop/api:1.4.0
      - name: sidecar
        image: envoy:1.30
`

// sources reads the playground's files, which the server builds from
// but this module does not import, so that go test's cache sees a change
// of any of them.
func sources(t *testing.T) {
	t.Helper()
	err := filepath.WalkDir(filepath.Join(repoRoot, "examples/playground"), func(path string, e os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() && e.Name() == "browsertest" {
			return filepath.SkipDir
		}
		if !e.IsDir() {
			_, err = os.ReadFile(path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestPlayground(t *testing.T) {
	sources(t)
	exe := chromium(t)
	url := serve(t)
	shots := screenshots(t)

	// The module's size, as the server sends it to a browser.
	resp, err := (&http.Client{Transport: &http.Transport{DisableCompression: true}}).Do(mustRequest(t, url+"play.wasm"))
	if err != nil {
		t.Fatal(err)
	}
	gz, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.Header.Get("Content-Encoding") != "gzip" || len(gz) > maxGzip {
		t.Errorf("play.wasm: %d bytes (encoding %q), want gzip and at most %d", len(gz), resp.Header.Get("Content-Encoding"), maxGzip)
	}
	t.Logf("play.wasm gzipped: %d bytes", len(gz))

	opts := append(slices.Clone(chromedp.DefaultExecAllocatorOptions[:]),
		chromedp.ExecPath(exe), chromedp.NoSandbox, chromedp.DisableGPU, chromedp.WindowSize(1400, 1000))
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancel()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	ctx, cancel = context.WithTimeout(ctx, 4*time.Minute)
	defer cancel()

	shot := func(name string) {
		t.Helper()
		var png []byte
		if err := chromedp.Run(ctx, chromedp.FullScreenshot(&png, 100)); err != nil {
			t.Fatalf("screenshot %s: %v", name, err)
		}
		path := filepath.Join(shots, name+".png")
		if err := os.WriteFile(path, png, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("screenshot: %s", path)
	}
	text := func(sel string) string {
		t.Helper()
		var s string
		if err := chromedp.Run(ctx, chromedp.Evaluate(fmt.Sprintf(`document.querySelector(%q).textContent`, sel), &s)); err != nil {
			t.Fatalf("%s: %v", sel, err)
		}
		return s
	}
	renders := func() int {
		var n int
		chromedp.Run(ctx, chromedp.Evaluate(`window.renders || 0`, &n))
		return n
	}
	// set types into a field as a person would (an input event), and
	// waits for the page to show the result.
	set := func(sel, value string) {
		t.Helper()
		before := renders()
		js := fmt.Sprintf(`(() => { const e = document.querySelector(%q); e.value = %q; e.dispatchEvent(new Event("input", {bubbles: true})); })()`, sel, value)
		if err := chromedp.Run(ctx, chromedp.Evaluate(js, nil)); err != nil {
			t.Fatalf("set %s: %v", sel, err)
		}
		if err := chromedp.Run(ctx, chromedp.Poll(fmt.Sprintf(`(window.renders || 0) > %d`, before), nil, chromedp.WithPollingTimeout(time.Minute))); err != nil {
			t.Fatalf("after setting %s, the page did not update: %v", sel, err)
		}
	}
	load := func(u string) {
		t.Helper()
		if err := chromedp.Run(ctx, chromedp.Navigate(u), chromedp.WaitVisible(`body[data-ready="true"]`, chromedp.ByQuery)); err != nil {
			t.Fatalf("load %s: %v", u, err)
		}
	}

	// 1. The default: rolloutctl simulate without arguments, byte for byte.
	load(url)
	golden, err := os.ReadFile(filepath.Join(repoRoot, "examples/rolloutctl/testdata/simulate-default.golden"))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(golden), text("#timeline")); diff != "" {
		t.Errorf("default timeline differs from rolloutctl simulate's golden (-want +got):\n%s", diff)
	}
	if s := text("#summary"); !strings.HasPrefix(s, "outcome:       complete: 10 of 10 replicas updated and available") {
		t.Errorf("default summary %q", s)
	}
	if n := countSelector(t, ctx, "#chart svg polygon.ready"); n != 2 {
		t.Errorf("the chart has %d ReplicaSet areas, want 2", n)
	}
	shot("1-default")

	// 2. Edit the manifest: 4 replicas.
	var manifestText string
	chromedp.Run(ctx, chromedp.Evaluate(`document.querySelector("#manifest").value`, &manifestText))
	set("#manifest", strings.Replace(manifestText, "replicas: 10", "replicas: 4", 1))
	if tl := text("#timeline"); !strings.Contains(tl, "replicas 4, maxSurge 25% (1), maxUnavailable 25% (1)") {
		t.Errorf("after editing the manifest, the timeline reads:\n%.400s", tl)
	}

	// 3. Change the image; the link follows.
	set("#image", "nginx=nginx:1.25")
	if tl := text("#timeline"); !strings.Contains(tl, "then image nginx=nginx:1.25") {
		t.Errorf("after changing the image, the timeline reads:\n%.300s", tl)
	}
	var hash string
	chromedp.Run(ctx, chromedp.Evaluate(`location.hash`, &hash))
	if !strings.Contains(hash, "&image=nginx=nginx:1.25") || !strings.HasPrefix(hash, "#manifest=") {
		t.Errorf("the URL's fragment is %q", hash)
	}
	shot("2-edited")

	// 4. A shared link, opened fresh: the same timeline and summary as
	// the library's simulation and as rolloutctl simulate.
	link := url + "#manifest=" + base64.RawURLEncoding.EncodeToString([]byte(sharedManifest)) + "&image=api=registry.example/shop/api:1.5.0&readyAfter=5s"
	if err := chromedp.Run(ctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatal(err)
	}
	load(link)
	want := expected(t, sharedManifest, check.Change{Images: []check.Image{{Container: "api", Image: "registry.example/shop/api:1.5.0"}},
		Config: sim.Config{Pods: sim.PodModel{ReadyAfter: 5 * time.Second}}, FixedReady: true})
	got := text("#timeline")
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("shared link: timeline differs from check.Simulate's (-want +got):\n%s", diff)
	}
	cli := rolloutctl(t, sharedManifest, "--image", "api=registry.example/shop/api:1.5.0", "--ready-after", "5s", "--max-work", "20000")
	if diff := cmp.Diff(cli, got); diff != "" {
		t.Errorf("shared link: timeline differs from rolloutctl simulate's (-want +got):\n%s", diff)
	}
	summary := text("#summary")
	if !strings.HasSuffix(cli, summary) || !strings.HasPrefix(summary, "outcome:") {
		t.Errorf("shared link: summary %q is not the end of rolloutctl simulate's output", summary)
	}
	shot("3-shared-link")
	// The README's picture: the viewport at 1200x760, scaled to 0.75.
	var small []byte
	if err := chromedp.Run(ctx, chromedp.EmulateViewport(1200, 760, chromedp.EmulateScale(0.75)),
		chromedp.CaptureScreenshot(&small), chromedp.EmulateViewport(1400, 1000)); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(shots, "readme.png"), small, 0o644); err != nil {
		t.Fatal(err)
	}

	// 5. How fast a change of a 100-replica rollout is computed and drawn.
	var times []float64
	for _, ready := range []string{"6s", "7s", "8s", "9s", "10s"} {
		set("#readyAfter", ready)
		var ms float64
		chromedp.Run(ctx, chromedp.Evaluate(`window.lastRenderMs`, &ms))
		times = append(times, ms)
	}
	slices.Sort(times)
	t.Logf("a change of the 100-replica rollout, computed and drawn: median %.0f ms (of %.0f..%.0f ms)", times[len(times)/2], times[0], times[len(times)-1])

	// The model control: a sync every 30s, as the golden recordings.
	set("#model", "interval")
	if tl := text("#timeline"); !strings.Contains(tl, "a sync every 30s") {
		t.Errorf("after choosing the interval model, the timeline reads:\n%.500s", tl)
	}
	chromedp.Run(ctx, chromedp.Evaluate(`location.hash`, &hash))
	if !strings.Contains(hash, "&model=interval") {
		t.Errorf("the URL's fragment is %.80q...", hash)
	}

	// 6. What the API server refuses shows at its line.
	load(url)
	set("#manifest", strings.Replace(manifestText, "replicas: 10", "replicas: -1", 1))
	msg := text(`#problems li.error[data-line="13"]`)
	if !strings.Contains(msg, "spec.replicas: Invalid value: -1: must be greater than or equal to 0") {
		t.Errorf("the error at line 13 reads %q", msg)
	}
	if n := countSelector(t, ctx, `#gutter span.error[data-line="13"]`); n != 1 {
		t.Errorf("line 13 of the editor is not marked")
	}
	if tl := text("#timeline"); tl != "" {
		t.Errorf("a timeline for a refused manifest: %.100q", tl)
	}
	shot("4-api-server-error")

	// 7. An example with a finding at its line.
	if err := chromedp.Run(ctx, chromedp.SetValue("#example", "quota", chromedp.ByQuery),
		chromedp.Evaluate(`document.querySelector("#example").dispatchEvent(new Event("change"))`, nil)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Run(ctx, chromedp.Poll(`window.checked === true`, nil, chromedp.WithPollingTimeout(time.Minute))); err != nil {
		t.Fatalf("the check did not finish: %v", err)
	}
	if f := text(`#problems li.warning[data-line="13"]`); !strings.Contains(f, "quota-throttles") {
		t.Errorf("the quota example's finding reads %q", f)
	}
	shot("5-quota-example")
}

func mustRequest(t *testing.T, url string) *http.Request {
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept-Encoding", "gzip")
	return req
}

func countSelector(t *testing.T, ctx context.Context, sel string) int {
	t.Helper()
	var n int
	if err := chromedp.Run(ctx, chromedp.Evaluate(fmt.Sprintf(`document.querySelectorAll(%q).length`, sel), &n)); err != nil {
		t.Fatal(err)
	}
	return n
}
