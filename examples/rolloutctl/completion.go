package main

import (
	"bytes"
	"fmt"
	"io"
	"regexp"
	"strings"
)

const completionHelp = `rolloutctl completion bash|zsh|fish

Prints a script that completes rolloutctl's commands, flags, report
formats and files in that shell. Load it with, for example:

  source <(rolloutctl completion bash)          # in ~/.bashrc
  source <(rolloutctl completion zsh)           # in ~/.zshrc
  rolloutctl completion fish | source           # in ~/.config/fish/config.fish
`

// commandFlags are a command's flags and report formats, read from its
// own help, so that completion never disagrees with the flags.
type commandFlags struct {
	name    string
	flags   []string // without dashes
	formats []string
}

var (
	helpFlag    = regexp.MustCompile(`(?m)^  -(\S+)`)
	helpFormats = regexp.MustCompile(`report format on standard output: ([a-z, ]+)`)
)

// completionCommands reads every command's flags from its help.
func completionCommands() []commandFlags {
	var out []commandFlags
	for _, c := range commands() {
		var help bytes.Buffer
		c.run(&env{stdout: &help, stderr: io.Discard}, []string{"-h"})
		cf := commandFlags{name: c.name}
		for _, m := range helpFlag.FindAllStringSubmatch(help.String(), -1) {
			cf.flags = append(cf.flags, m[1])
		}
		if m := helpFormats.FindStringSubmatch(help.String()); m != nil {
			cf.formats = strings.Split(m[1], ", ")
		}
		out = append(out, cf)
	}
	return out
}

func runCompletion(e *env, args []string) int {
	fs := newFlagSet("completion")
	if len(args) == 1 && !strings.HasPrefix(args[0], "-") {
		args = []string{args[0]}
	} else if code := parse(e, fs, completionHelp, args); code >= 0 {
		return code
	}
	if len(args) != 1 {
		return fail(e, "completion", fmt.Errorf("name one shell: bash, zsh or fish"))
	}
	cmds := completionCommands()
	switch args[0] {
	case "bash":
		writeBashCompletion(e.stdout, cmds)
	case "zsh":
		io.WriteString(e.stdout, "autoload -U +X bashcompinit && bashcompinit\n")
		writeBashCompletion(e.stdout, cmds)
	case "fish":
		writeFishCompletion(e.stdout, cmds)
	default:
		return fail(e, "completion", fmt.Errorf("%q: want bash, zsh or fish", args[0]))
	}
	return exitOK
}

// dashed gives a flag its dashes: -f and -o, --the-others.
func dashed(f string) string {
	if len(f) == 1 {
		return "-" + f
	}
	return "--" + f
}

func writeBashCompletion(w io.Writer, cmds []commandFlags) {
	var names []string
	for _, c := range cmds {
		names = append(names, c.name)
	}
	fmt.Fprintf(w, `# bash completion for rolloutctl
_rolloutctl() {
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
	if [ "$COMP_CWORD" -eq 1 ]; then
		COMPREPLY=($(compgen -W %q -- "$cur"))
		return
	fi
	case "$prev" in
	-f|--output) COMPREPLY=($(compgen -f -- "$cur")); compopt -o filenames 2>/dev/null; return ;;
	esac
	case "${COMP_WORDS[1]}" in
`, strings.Join(names, " "))
	for _, c := range cmds {
		var flags []string
		for _, f := range c.flags {
			flags = append(flags, dashed(f))
		}
		fmt.Fprintf(w, "\t%s)\n", c.name)
		if len(c.formats) > 0 {
			fmt.Fprintf(w, "\t\tcase \"$prev\" in -o|--format) COMPREPLY=($(compgen -W %q -- \"$cur\")); return ;; esac\n", strings.Join(c.formats, " "))
		}
		fmt.Fprintf(w, "\t\tCOMPREPLY=($(compgen -W %q -- \"$cur\")) ;;\n", strings.Join(flags, " "))
	}
	io.WriteString(w, "\tesac\n}\ncomplete -o default -F _rolloutctl rolloutctl\n")
}

func writeFishCompletion(w io.Writer, cmds []commandFlags) {
	var names []string
	for _, c := range cmds {
		names = append(names, c.name)
	}
	io.WriteString(w, "# fish completion for rolloutctl\ncomplete -c rolloutctl -f\n")
	for _, c := range commands() {
		fmt.Fprintf(w, "complete -c rolloutctl -n 'not __fish_seen_subcommand_from %s' -a %s -d %q\n", strings.Join(names, " "), c.name, c.summary)
	}
	for _, c := range cmds {
		for _, f := range c.flags {
			opt := "-l " + f
			if len(f) == 1 {
				opt = "-s " + f
			}
			extra := ""
			switch {
			case f == "f" || f == "output":
				extra = " -r -F"
			case (f == "o" || f == "format") && len(c.formats) > 0:
				extra = fmt.Sprintf(" -x -a %q", strings.Join(c.formats, " "))
			}
			fmt.Fprintf(w, "complete -c rolloutctl -n '__fish_seen_subcommand_from %s' %s%s\n", c.name, opt, extra)
		}
	}
}
