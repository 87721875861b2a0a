//go:build !(js && wasm)

package main

import (
	"bytes"
	"compress/gzip"
	"embed"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
)

// The page: index.html, style.css and app.js.
//
//go:embed static
var static embed.FS

// modulePath is the package the server compiles to WebAssembly: this one.
const modulePath = "github.com/rolloutmath/rolloutmath/examples/playground"

const usage = `usage: go run ./examples/playground [--addr HOST:PORT] [--out DIR] [--wasm FILE]

Builds the rollout playground (this package for GOOS=js GOARCH=wasm, with
Go's wasm_exec.js) and serves it on --addr, printing its URL; or, with
--out, writes the static site into DIR for any static host and exits.
It runs 'go build', so it runs inside the rolloutmath module.
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("playground", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, usage); fs.PrintDefaults() }
	addr := fs.String("addr", "127.0.0.1:8080", "serve on `HOST:PORT` (port 0: any free port)")
	out := fs.String("out", "", "write the static site into `DIR` and exit, instead of serving")
	wasm := fs.String("wasm", "", "take the module from `FILE` instead of building it")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "playground: unexpected arguments %q\n", fs.Args())
		fs.Usage()
		return 2
	}
	if *out != "" {
		if err := writeSite(*out, *wasm); err != nil {
			fmt.Fprintf(stderr, "playground: %v\n", err)
			return 1
		}
		fmt.Fprintf(stdout, "playground: wrote the site into %s\n", *out)
		return 0
	}
	dir, err := os.MkdirTemp("", "rollout-playground-")
	if err != nil {
		fmt.Fprintf(stderr, "playground: %v\n", err)
		return 1
	}
	defer os.RemoveAll(dir)
	if err := writeSite(dir, *wasm); err != nil {
		fmt.Fprintf(stderr, "playground: %v\n", err)
		return 1
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(stderr, "playground: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "rollout playground: http://%s/\n", ln.Addr())
	done := make(chan os.Signal, 1)
	signal.Notify(done, os.Interrupt, syscall.SIGTERM)
	srv := &http.Server{Handler: handler(dir)}
	go func() {
		<-done
		srv.Close()
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintf(stderr, "playground: %v\n", err)
		return 1
	}
	return 0
}

// handler serves the site in dir, play.wasm gzipped from play.wasm.gz
// to a browser that accepts it.
func handler(dir string) http.Handler {
	files := http.FileServer(http.Dir(dir))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		if r.URL.Path == "/play.wasm" && strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
			if f, err := os.Open(filepath.Join(dir, "play.wasm.gz")); err == nil {
				defer f.Close()
				w.Header().Set("Content-Type", "application/wasm")
				w.Header().Set("Content-Encoding", "gzip")
				io.Copy(w, f)
				return
			}
		}
		files.ServeHTTP(w, r)
	})
}

// writeSite writes the static site into dir: the page's files, play.wasm
// (built, or copied from wasm when it is not ""), play.wasm.gz, and Go's
// wasm_exec.js of the same toolchain.
func writeSite(dir, wasm string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	err := fs.WalkDir(static, "static", func(path string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		b, err := static.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, strings.TrimPrefix(path, "static/")), b, 0o644)
	})
	if err != nil {
		return err
	}
	target := filepath.Join(dir, "play.wasm")
	if wasm != "" {
		b, err := os.ReadFile(wasm)
		if err != nil {
			return err
		}
		if err := os.WriteFile(target, b, 0o644); err != nil {
			return err
		}
	} else if err := buildWasm(target); err != nil {
		return err
	}
	b, err := os.ReadFile(target)
	if err != nil {
		return err
	}
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	zw.Write(b)
	if err := zw.Close(); err != nil {
		return err
	}
	if err := os.WriteFile(target+".gz", gz.Bytes(), 0o644); err != nil {
		return err
	}
	root, err := goEnv("GOROOT")
	if err != nil {
		return err
	}
	js, err := os.ReadFile(filepath.Join(root, "lib", "wasm", "wasm_exec.js"))
	if err != nil {
		return fmt.Errorf("the wasm_exec.js of Go: %w", err)
	}
	return os.WriteFile(filepath.Join(dir, "wasm_exec.js"), js, 0o644)
}

// buildWasm compiles this package for GOOS=js GOARCH=wasm into target:
// without the symbol table and debug information (-s -w), and without
// inlining (-l) in the generated API types and validation (internal/...),
// the YAML parsers, the manifest loader, the gate's rules and the
// renderers (rollout/manifest, rollout/check/..., rollout/sim/render),
// and in the packages that read a manifest once (sigs.k8s.io/yaml,
// encoding/..., regexp, text/..., math/big) or do little on a sync's path
// (unicode/..., strconv, fmt: their own calls), and in this package, which
// runs once a change, which keeps the module
// under 3 MB gzipped, where the simulation and
// Plan (rollout, rollout/sim), which inlining makes about three times
// faster, keep it (see README.md).
func buildWasm(target string) error {
	const m = "github.com/rolloutmath/rolloutmath/"
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w",
		"-gcflags="+m+"internal/...=-l", "-gcflags=go.yaml.in/...=-l",
		"-gcflags="+m+"rollout/manifest=-l", "-gcflags="+m+"rollout/check/...=-l", "-gcflags="+m+"rollout/sim/render=-l",
		"-gcflags=sigs.k8s.io/...=-l", "-gcflags=encoding/...=-l", "-gcflags=regexp/...=-l",
		"-gcflags=text/...=-l", "-gcflags=math/big=-l", "-gcflags=unicode/...=-l", "-gcflags=strconv=-l",
		"-gcflags="+m+"examples/playground=-l", "-gcflags=fmt=-l",
		"-o", target, modulePath)
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go build of the WebAssembly module (run it inside the rolloutmath module): %v\n%s", err, stderr.String())
	}
	return nil
}

// goEnv returns the go command's value of the environment variable name.
func goEnv(name string) (string, error) {
	out, err := exec.Command("go", "env", name).Output()
	if err != nil {
		return "", fmt.Errorf("go env %s: %w", name, err)
	}
	return strings.TrimSpace(string(out)), nil
}
