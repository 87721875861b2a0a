package manifest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"
)

// Options say what Read may read.
type Options struct {
	// Stdin is what the name "-" reads; with a nil Stdin, "-" is an error.
	Stdin io.Reader
	// MaxBytes is the most bytes one input (a file, or standard input)
	// may hold (0: DefaultMaxBytes). A larger one is refused, with
	// ErrTooLarge, as soon as it passes the cap.
	MaxBytes int64
	// MaxTotalBytes, if positive, is the most bytes all the inputs may
	// hold together: an input that passes it is refused with ErrTooLarge,
	// as soon as it does, and no input after it is read.
	MaxTotalBytes int64
	// Exclude are glob patterns (path.Match syntax) of files and
	// directories that ReadNotes leaves out, matched against the path as
	// found and against its base name.
	Exclude []string
}

// DefaultMaxBytes caps an input when Options.MaxBytes is 0: 256 MiB, five
// times `kubectl get deploy,rs,pods -A -o json` of a cluster with 20,000
// Deployments.
const DefaultMaxBytes = 256 << 20

// Problems of a whole input, wrapped in an *Error naming it.
var (
	// ErrTooLarge: the input holds more than Options.MaxBytes.
	ErrTooLarge = errors.New("input too large")
	// ErrBinary: the input holds a NUL byte or is not UTF-8, so it is
	// neither YAML nor JSON.
	ErrBinary = errors.New("binary data: not YAML or JSON")
	// ErrNotObject: a document is not a Kubernetes object (not an object,
	// or without a kind), such as a Helm values.yaml or a package.json.
	ErrNotObject = errors.New("not a Kubernetes object")
)

// Extensions are the file name extensions Read takes from a directory,
// as kubectl does.
var extensions = []string{".json", ".yaml", ".yml"}

// Read reads the named inputs, in order, and returns their documents (see
// Parse): a file; a directory, whose files with a .json, .yaml or .yml
// extension are read in lexical order, subdirectories included; "-", which
// reads opts.Stdin (at most once). It reads every input and returns every
// problem, each an *Error naming its input, joined. Read is ReadNotes
// without its notes.
func Read(opts Options, names ...string) ([]Document, error) {
	docs, _, err := ReadNotes(opts, names...)
	return docs, err
}

// ReadNotes is Read that also leaves out, each with a note (one line
// naming the path): a file named twice, or found again in a directory
// named (read once, where first named); in a directory, its hidden files
// and directories (a name starting with "."), the files and directories
// that opts.Exclude matches, and the files that hold no Kubernetes object
// (every document ErrNotObject, such as a Helm values.yaml); a file named
// on its own is always read. A directory that holds a kustomization.yaml
// gets a note too: its files are kustomize's input, which `kustomize
// build` turns into manifests.
func ReadNotes(opts Options, names ...string) ([]Document, []string, error) {
	limit := opts.MaxBytes
	if limit <= 0 {
		limit = DefaultMaxBytes
	}
	var (
		docs      []Document
		notes     []string
		errs      []error
		stdinRead bool
		seen      = map[string]string{} // cleaned path -> as first named
		total     int64
		full      bool // the inputs passed MaxTotalBytes
	)
	add := func(source string, r io.Reader, size int64, walked bool) {
		cap := limit
		if opts.MaxTotalBytes > 0 {
			cap = min(cap, opts.MaxTotalBytes-total)
		}
		data, err := readInput(r, cap, size)
		if err != nil && errors.Is(err, ErrTooLarge) && cap < limit {
			full = true
			err = fmt.Errorf("%w: the inputs together hold more than %d bytes", ErrTooLarge, opts.MaxTotalBytes)
		}
		if err != nil {
			errs = append(errs, &Error{Source: source, Item: -1, Err: err})
			return
		}
		total += int64(len(data))
		d, err := parseText(source, bytes.TrimPrefix(data, []byte("\ufeff"))) // readInput checked that it is text
		if walked && len(d) == 0 && err != nil && onlyNotObjects(err) {
			notes = append(notes, fmt.Sprintf("%s: skipped: no Kubernetes object in it (%s)", source, firstLine(err)))
			return
		}
		docs = append(docs, d...)
		if err != nil {
			errs = append(errs, err)
		}
	}
	if len(names) == 0 {
		return nil, nil, errors.New("manifest: no input named")
	}
	for _, name := range names {
		if full {
			break
		}
		switch {
		case name == "-" && opts.Stdin == nil:
			errs = append(errs, &Error{Source: Stdin, Item: -1, Err: errors.New("standard input is not available")})
		case name == "-" && stdinRead:
			errs = append(errs, &Error{Source: Stdin, Item: -1, Err: errors.New("named twice: standard input can be read once")})
		case name == "-":
			stdinRead = true
			add(Stdin, opts.Stdin, 0, false)
		default:
			files, walkNotes, err := expand(name, opts.Exclude)
			notes = append(notes, walkNotes...)
			if err != nil {
				errs = append(errs, &Error{Source: name, Item: -1, Err: err})
			}
			for _, file := range files {
				if full {
					break
				}
				key := filepath.Clean(file)
				if abs, err := filepath.Abs(file); err == nil {
					key = abs
				}
				if first, dup := seen[key]; dup {
					notes = append(notes, fmt.Sprintf("%s: read once: named again (as %s)", first, file))
					continue
				}
				seen[key] = file
				f, err := os.Open(file)
				if err != nil {
					errs = append(errs, &Error{Source: file, Item: -1, Err: pathless(err)})
					continue
				}
				var size int64
				if info, err := f.Stat(); err == nil && info.Mode().IsRegular() {
					size = info.Size()
				}
				add(file, f, size, file != name)
				f.Close()
			}
		}
	}
	return docs, notes, errors.Join(errs...)
}

// Size returns the bytes of the files [ReadNotes] would read for names
// with opts: each file once, and in a directory only the files it takes
// (not hidden, not excluded, with a manifest's extension). It is false
// when a name is standard input ("-"), whose size is not known before
// reading it, or a name cannot be read.
func Size(opts Options, names ...string) (int64, bool) {
	var total int64
	seen := map[string]bool{}
	for _, name := range names {
		if name == "-" {
			return 0, false
		}
		files, _, err := expand(name, opts.Exclude)
		if err != nil {
			return 0, false
		}
		for _, file := range files {
			key := filepath.Clean(file)
			if abs, err := filepath.Abs(file); err == nil {
				key = abs
			}
			if seen[key] {
				continue
			}
			seen[key] = true
			info, err := os.Stat(file)
			if err != nil {
				return 0, false
			}
			if info.Mode().IsRegular() {
				total += info.Size()
			}
		}
	}
	return total, true
}

// onlyNotObjects reports whether every problem of err is ErrNotObject.
func onlyNotObjects(err error) bool {
	errs := []error{err}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		errs = j.Unwrap()
	}
	for _, e := range errs {
		if !errors.Is(e, ErrNotObject) {
			return false
		}
	}
	return true
}

// firstLine returns the message of the first problem of err, without
// its place.
func firstLine(err error) string {
	errs := []error{err}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		errs = j.Unwrap()
	}
	var e *Error
	if errors.As(errs[0], &e) {
		return e.Err.Error()
	}
	return errs[0].Error()
}

// excluded reports whether path matches one of the patterns, as written
// or by its base name.
func excluded(path string, patterns []string) bool {
	for _, p := range patterns {
		if ok, _ := filepath.Match(p, path); ok {
			return true
		}
		if ok, _ := filepath.Match(p, filepath.Base(path)); ok {
			return true
		}
	}
	return false
}

// kustomizations are the file names kustomize reads in a directory.
var kustomizations = []string{"kustomization.yaml", "kustomization.yml", "Kustomization"}

// expand returns name if it is a file, and the files Read takes from it
// if it is a directory, with notes on what it leaves out.
func expand(name string, exclude []string) ([]string, []string, error) {
	info, err := os.Stat(name)
	if err != nil {
		return nil, nil, pathless(err)
	}
	if !info.IsDir() {
		return []string{name}, nil, nil
	}
	var files, notes []string
	err = filepath.WalkDir(name, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if path != name {
			base := d.Name()
			switch {
			case strings.HasPrefix(base, ".") && d.IsDir():
				notes = append(notes, fmt.Sprintf("%s: skipped: a hidden directory (name it with -f to read it)", path))
				return fs.SkipDir
			case strings.HasPrefix(base, "."):
				return nil
			case excluded(path, exclude) && d.IsDir():
				notes = append(notes, fmt.Sprintf("%s: skipped: excluded", path))
				return fs.SkipDir
			case excluded(path, exclude):
				if hasExtension(path) {
					notes = append(notes, fmt.Sprintf("%s: skipped: excluded", path))
				}
				return nil
			}
		}
		if d.IsDir() {
			for _, k := range kustomizations {
				if _, err := os.Stat(filepath.Join(path, k)); err == nil {
					notes = append(notes, fmt.Sprintf("%s: a kustomize directory (%s): its files are kustomize's input, not manifests; pipe 'kustomize build %s' (or 'kubectl kustomize %s') in with -f - instead", path, k, path, path))
					break
				}
			}
			return nil
		}
		if hasExtension(path) && !slices.Contains(kustomizations, d.Name()) {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		return files, notes, pathless(err)
	}
	if len(files) == 0 {
		return nil, notes, fmt.Errorf("directory without %s files", strings.Join(extensions, ", "))
	}
	return files, notes, nil
}

func hasExtension(path string) bool {
	ext := filepath.Ext(path)
	for _, e := range extensions {
		if strings.EqualFold(ext, e) {
			return true
		}
	}
	return false
}

// pathless drops the path from an *fs.PathError, which the *Error names.
func pathless(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("cannot read: %w", pe.Err)
	}
	return err
}

// sniffBytes is how much of an input is looked at before the rest is
// read: enough to tell text from binary at once.
const sniffBytes = 4096

// readInput reads r whole, refusing binary data as soon as its first bytes
// show it, and an input beyond limit as soon as it passes it. size, if
// known (a regular file's), saves growing the buffer.
func readInput(r io.Reader, limit, size int64) ([]byte, error) {
	head := make([]byte, sniffBytes)
	n, err := io.ReadFull(r, head)
	head = head[:n]
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return nil, pathless(err)
	}
	if at := binaryAt(head, err == nil); at >= 0 {
		return nil, fmt.Errorf("%w (byte %d)", ErrBinary, at)
	}
	if int64(n) > limit {
		return nil, fmt.Errorf("%w: more than %d bytes", ErrTooLarge, limit)
	}
	if err != nil { // all of it is in head
		return head, nil
	}
	var buf bytes.Buffer
	buf.Grow(int(min(max(size, int64(n)), limit) + 1))
	buf.Write(head)
	if _, err := buf.ReadFrom(io.LimitReader(r, limit+1-int64(n))); err != nil {
		return nil, pathless(err)
	}
	data := buf.Bytes()
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%w: more than %d bytes", ErrTooLarge, limit)
	}
	if at := binaryAt(data, false); at >= 0 {
		return nil, fmt.Errorf("%w (byte %d)", ErrBinary, at)
	}
	return data, nil
}

// binaryAt returns the offset of the first NUL byte or invalid UTF-8 in
// b, or -1. With more to come, a rune cut at the end of b is not invalid.
func binaryAt(b []byte, more bool) int {
	if i := bytes.IndexByte(b, 0); i >= 0 {
		return i
	}
	if utf8.Valid(b) {
		return -1
	}
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size <= 1 {
			if more && !utf8.FullRune(b[i:]) {
				return -1
			}
			return i
		}
		i += size
	}
	return -1
}
