//go:build !(js && wasm)

package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// --out writes the page, the module (here a stand-in, as building it is
// the browser test's part), its gzipped copy and Go's wasm_exec.js.
func TestWriteSite(t *testing.T) {
	dir := t.TempDir()
	fake := filepath.Join(t.TempDir(), "fake.wasm")
	module := []byte("\x00asm\x01\x00\x00\x00 stand-in")
	if err := os.WriteFile(fake, module, 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"--out", dir, "--wasm", fake}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	for _, f := range []string{"index.html", "style.css", "app.js", "wasm_exec.js", "play.wasm", "play.wasm.gz"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	gz, err := os.ReadFile(filepath.Join(dir, "play.wasm.gz"))
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := io.ReadAll(zr); !bytes.Equal(got, module) {
		t.Errorf("play.wasm.gz holds %q, want the module", got)
	}
	index, _ := os.ReadFile(filepath.Join(dir, "index.html"))
	for _, id := range []string{`id="timeline"`, `id="summary"`, `id="manifest"`, `src="wasm_exec.js"`, `src="app.js"`} {
		if !bytes.Contains(index, []byte(id)) {
			t.Errorf("index.html has no %s", id)
		}
	}
	if bytes.Contains(index, []byte("http://")) || bytes.Contains(index, []byte("https://")) {
		t.Errorf("index.html loads something from the network")
	}
}

// The server sends the module gzipped to a browser that takes it.
func TestHandlerGzip(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "play.wasm"), []byte("plain"), 0o644)
	os.WriteFile(filepath.Join(dir, "play.wasm.gz"), []byte("zipped"), 0o644)
	srv := httptest.NewServer(handler(dir))
	defer srv.Close()
	for _, tt := range []struct{ accept, want, encoding string }{{"gzip, deflate", "zipped", "gzip"}, {"", "plain", ""}} {
		req, _ := http.NewRequest("GET", srv.URL+"/play.wasm", nil)
		req.Header.Set("Accept-Encoding", tt.accept)
		resp, err := http.DefaultTransport.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if string(body) != tt.want || resp.Header.Get("Content-Encoding") != tt.encoding || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/wasm") {
			t.Errorf("Accept-Encoding %q: %q, encoding %q, type %q", tt.accept, body, resp.Header.Get("Content-Encoding"), resp.Header.Get("Content-Type"))
		}
	}
}

func TestRunArguments(t *testing.T) {
	for _, tt := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"extra"}, 2, "unexpected arguments"},
		{[]string{"--nope"}, 2, "flag provided but not defined"},
		{[]string{"-h"}, 0, "usage: go run ./examples/playground"},
		{[]string{"--out", t.TempDir(), "--wasm", "/nonexistent.wasm"}, 1, "nonexistent"},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(tt.args, &stdout, &stderr); code != tt.code || !strings.Contains(stderr.String(), tt.want) {
			t.Errorf("run(%q) = %d, stderr %q; want %d and %q", tt.args, code, stderr.String(), tt.code, tt.want)
		}
	}
}
