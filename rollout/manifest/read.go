package manifest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
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
)

// Extensions are the file name extensions Read takes from a directory,
// as kubectl does.
var extensions = []string{".json", ".yaml", ".yml"}

// Read reads the named inputs, in order, and returns their documents (see
// Parse): a file; a directory, whose files with a .json, .yaml or .yml
// extension are read in lexical order, subdirectories included; "-", which
// reads opts.Stdin (at most once). It reads every input and returns every
// problem, each an *Error naming its input, joined.
func Read(opts Options, names ...string) ([]Document, error) {
	limit := opts.MaxBytes
	if limit <= 0 {
		limit = DefaultMaxBytes
	}
	var docs []Document
	var errs []error
	stdinRead := false
	add := func(source string, r io.Reader, size int64) {
		data, err := readInput(r, limit, size)
		if err != nil {
			errs = append(errs, &Error{Source: source, Item: -1, Err: err})
			return
		}
		d, err := parseText(source, bytes.TrimPrefix(data, []byte("\ufeff"))) // readInput checked that it is text
		docs = append(docs, d...)
		if err != nil {
			errs = append(errs, err)
		}
	}
	if len(names) == 0 {
		return nil, errors.New("manifest: no input named")
	}
	for _, name := range names {
		switch {
		case name == "-" && opts.Stdin == nil:
			errs = append(errs, &Error{Source: Stdin, Item: -1, Err: errors.New("standard input is not available")})
		case name == "-" && stdinRead:
			errs = append(errs, &Error{Source: Stdin, Item: -1, Err: errors.New("named twice: standard input can be read once")})
		case name == "-":
			stdinRead = true
			add(Stdin, opts.Stdin, 0)
		default:
			files, err := expand(name)
			if err != nil {
				errs = append(errs, &Error{Source: name, Item: -1, Err: err})
			}
			for _, file := range files {
				f, err := os.Open(file)
				if err != nil {
					errs = append(errs, &Error{Source: file, Item: -1, Err: pathless(err)})
					continue
				}
				var size int64
				if info, err := f.Stat(); err == nil && info.Mode().IsRegular() {
					size = info.Size()
				}
				add(file, f, size)
				f.Close()
			}
		}
	}
	return docs, errors.Join(errs...)
}

// expand returns name if it is a file, and the files Read takes from it
// if it is a directory.
func expand(name string) ([]string, error) {
	info, err := os.Stat(name)
	if err != nil {
		return nil, pathless(err)
	}
	if !info.IsDir() {
		return []string{name}, nil
	}
	var files []string
	err = filepath.WalkDir(name, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && hasExtension(path) {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		return files, pathless(err)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("directory without %s files", strings.Join(extensions, ", "))
	}
	return files, nil
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
