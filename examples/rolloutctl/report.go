package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"

	"github.com/rolloutmath/rolloutmath/internal/workers"
)

// Reports: every command writes its answer in one or more formats, each
// to standard output or a file, as kube-linter's --format and --output
// pairs do. Standard output holds a report alone: progress and warnings go
// to standard error.

// An output is one report: its format and its file ("" for standard
// output).
type output struct{ format, file string }

// outputFlags are a command's report flags: -o F (the format on standard
// output), and any number of --format F, each with the --output FILE that
// follows it, if any.
type outputFlags struct {
	formats []string // what the command writes; the first is the default
	aliases map[string]string
	list    []output
	short   string // -o
	// outputFormat is set when an --output before any --format named a
	// format ("--output json", as kubectl's), which then is -o's.
	outputFormat bool
}

// addOutputs registers the report flags, for a command writing formats
// (the first is the default). "table" stands for "text".
func (o *outputFlags) addOutputs(fs *flag.FlagSet, formats ...string) {
	o.formats = formats
	o.aliases = map[string]string{"table": "text"}
	list := strings.Join(formats, ", ")
	fs.StringVar(&o.short, "o", formats[0], "report `format` on standard output: "+list)
	fs.Var(formatValue{o}, "format", "a report `F` ("+list+"), to standard output or to the --output that follows it; repeatable")
	fs.Var(outputValue{o}, "output", "write the report of the --format before it to `FILE`; without a --format before it, a format name is -o's, as kubectl's --output")
}

type formatValue struct{ o *outputFlags }

func (formatValue) repeatable()    {}
func (formatValue) String() string { return "" }
func (v formatValue) Set(s string) error {
	v.o.list = append(v.o.list, output{format: s})
	return nil
}

type outputValue struct{ o *outputFlags }

func (outputValue) repeatable()    {}
func (outputValue) String() string { return "" }
func (v outputValue) Set(s string) error {
	n := len(v.o.list)
	format := s
	if a, ok := v.o.aliases[s]; ok {
		format = a
	}
	switch {
	case s == "":
		return errors.New("empty file name")
	case n == 0 && slices.Contains(v.o.formats, format):
		// kubectl's --output FORMAT: unambiguous, as no --format came
		// before to write to a file.
		v.o.short, v.o.outputFormat = s, true
		return nil
	case n == 0 || v.o.list[n-1].file != "":
		return fmt.Errorf("%s: give --format F before each --output FILE", s)
	}
	v.o.list[n-1].file = s
	return nil
}

// resolve checks the reports asked for and returns them: -o's alone when
// no --format is given, else the --format ones (and -o's, if it was given
// too). At most one goes to standard output, and no file twice.
func (o *outputFlags) resolve(fs *flag.FlagSet) ([]output, error) {
	out := slices.Clone(o.list)
	shortGiven := false
	fs.Visit(func(f *flag.Flag) { shortGiven = shortGiven || f.Name == "o" })
	if o.outputFormat {
		if shortGiven {
			return nil, fmt.Errorf("--output %s and -o %s: give the format once", o.short, o.short)
		}
		shortGiven = true
	}
	if shortGiven || len(out) == 0 {
		out = append([]output{{format: o.short}}, out...)
	}
	stdout, files := 0, map[string]bool{}
	for i := range out {
		f := &out[i]
		if a, ok := o.aliases[f.format]; ok && slices.Contains(o.formats, a) {
			f.format = a
		}
		if !slices.Contains(o.formats, f.format) {
			flagName := "--format"
			if i == 0 && (shortGiven || len(o.list) == 0) {
				flagName = "-o"
			}
			return nil, fmt.Errorf("%s %q: want %s", flagName, f.format, orList(o.formats))
		}
		if f.file == "" {
			stdout++
		} else if files[f.file] {
			return nil, fmt.Errorf("--output %s given twice", f.file)
		}
		files[f.file] = true
	}
	if stdout > 1 {
		return nil, errors.New("two reports for standard output: give all but one an --output FILE")
	}
	return out, nil
}

// orList joins words as "a, b or c".
func orList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// writeReports renders each report with render, to standard output or
// its file. It returns exitOK, or exitBadInput after reporting a file that
// cannot be written.
func writeReports(e *env, name string, outs []output, render func(format string, w io.Writer) error) int {
	for _, out := range outs {
		w := e.stdout
		var f *os.File
		if out.file != "" {
			var err error
			if f, err = os.Create(out.file); err != nil {
				return fail(e, name, fmt.Errorf("--output %s: %w", out.file, pathless(err)))
			}
			w = f
		}
		bw := bufio.NewWriter(w)
		err := render(out.format, bw)
		if err == nil {
			err = bw.Flush()
		}
		if f != nil {
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}
		if err != nil {
			return fail(e, name, fmt.Errorf("writing the %s report: %w", out.format, err))
		}
	}
	return exitOK
}

// pathless drops the path from an *os.PathError, which the message names.
func pathless(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// stepsHole is the string a stepList marshals as while encodeJSON or
// encodeYAML writes its document, to be replaced by its steps.
const stepsHole = "rolloutctl: the steps of run 0"

// encodeJSON writes v as indented JSON, as json.MarshalIndent gives it.
// The steps of list (a stepList v holds, or nil) are written one step
// at a time rather than built into the document: v is marshaled with
// the list as a string that stands for it, and the list's steps go
// where that string is (TestStreamedStepsAsMarshaled).
func encodeJSON(w io.Writer, v any, list *stepList) error {
	if list == nil {
		b, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			return err
		}
		_, err = w.Write(append(b, '\n'))
		return err
	}
	list.hole = stepsHole
	quoted, _ := json.Marshal(list.hole)
	b, err := json.MarshalIndent(v, "", "  ")
	list.hole = ""
	if err != nil {
		return err
	}
	hole := bytes.Index(b, quoted)
	if hole < 0 || bytes.Count(b, quoted) != 1 {
		// Not in the document once (the data holds the words): the whole
		// document at once.
		return encodeJSON(w, v, nil)
	}
	line := b[bytes.LastIndexByte(b[:hole], '\n')+1 : hole]
	indent := line[:len(line)-len(bytes.TrimLeft(line, " "))]
	if _, err := w.Write(b[:hole]); err != nil {
		return err
	}
	if err := writeSteps(w, *list, string(indent)); err != nil {
		return err
	}
	_, err = w.Write(append(b[hole+len(quoted):], '\n'))
	return err
}

// writeSteps writes l as json.MarshalIndent writes an array of stepJSON
// whose key's line is indented by indent, one step at a time.
func writeSteps(w io.Writer, l stepList, indent string) error {
	if len(l.steps) == 0 {
		_, err := io.WriteString(w, "[]")
		return err
	}
	if _, err := io.WriteString(w, "[\n"); err != nil {
		return err
	}
	inner := indent + "  "
	for i, st := range l.steps {
		b, err := json.MarshalIndent(newStepJSON(st, l.now), inner, "  ")
		if err != nil {
			return err
		}
		sep := ",\n"
		if i == len(l.steps)-1 {
			sep = "\n"
		}
		if _, err := io.WriteString(w, inner+string(b)+sep); err != nil {
			return err
		}
	}
	_, err := io.WriteString(w, indent+"]")
	return err
}

// encodeYAML writes v as YAML: its JSON, converted as kubectl -o yaml
// converts it. As encodeJSON does, it writes the steps of list (a
// stepList v holds, or nil) one step at a time, each converted on its
// own, where the string that stands for the list is in the converted
// document; the bytes are those of the whole document converted at once
// (TestStreamedStepsAsConverted).
func encodeYAML(w io.Writer, v any, list *stepList) error {
	if list == nil {
		y, err := toYAML(v)
		if err != nil {
			return err
		}
		_, err = w.Write(y)
		return err
	}
	list.hole = stepsHole
	y, err := toYAML(v)
	list.hole = ""
	if err != nil {
		return err
	}
	// The hole as the conversion writes a string value: quoted, since it
	// holds ": ".
	form, err := toYAML(map[string]string{"k": stepsHole})
	if err != nil {
		return err
	}
	hole := append([]byte{' '}, bytes.TrimSuffix(bytes.TrimPrefix(form, []byte("k: ")), []byte("\n"))...)
	hole = append(hole, '\n')
	at := bytes.Index(y, hole)
	if at < 0 || bytes.Count(y, hole) != 1 {
		// Not in the document once (the data holds the words): the whole
		// document at once.
		return encodeYAML(w, v, nil)
	}
	// A sequence under a key starts at the key's column, and the
	// conversion folds a long string by the column it starts at: each
	// step is converted in a sequence under keys as deep as the hole's, of
	// which its lines are kept.
	line := y[bytes.LastIndexByte(y[:at], '\n')+1 : at]
	col := len(line) - len(bytes.TrimLeft(line, " -"))
	if col%2 != 0 {
		return encodeYAML(w, v, nil)
	}
	if _, err := w.Write(y[:at]); err != nil {
		return err
	}
	if len(list.steps) == 0 {
		if _, err := io.WriteString(w, " []\n"); err != nil {
			return err
		}
	} else if _, err := io.WriteString(w, "\n"); err != nil {
		return err
	}
	// The steps are converted on every core (the conversion takes some
	// 100µs a step, the writing next to nothing) and written in order.
	type converted struct {
		item []byte
		err  error
	}
	workers.InOrder(int64(len(list.steps)), runtime.GOMAXPROCS(0), func(i int64) converted {
		var nested any = []stepJSON{newStepJSON(list.steps[i], list.now)}
		for range col/2 + 1 {
			nested = map[string]any{"k": nested}
		}
		item, err := toYAML(nested)
		if err != nil {
			return converted{err: err}
		}
		for range col/2 + 1 {
			item = item[bytes.IndexByte(item, '\n')+1:]
		}
		return converted{item: item}
	}, func(_ int64, c converted) bool { // the first error stops the work
		if err = c.err; err == nil {
			_, err = w.Write(c.item)
		}
		return err == nil
	})
	if err != nil {
		return err
	}
	_, err = w.Write(y[at+len(hole):])
	return err
}

// encodeData writes v in a data format: json or yaml; list is the step
// list v holds, if any (nil if none), which both write a step at a time
// (encodeJSON, encodeYAML).
func encodeData(format string, w io.Writer, v any, list *stepList) error {
	if format == "yaml" {
		return encodeYAML(w, v, list)
	}
	return encodeJSON(w, v, list)
}
