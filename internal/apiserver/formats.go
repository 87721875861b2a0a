package apiserver

import "strings"

// The string formats of names.go are matched by hand, a byte at a time,
// without regular expressions: each match function reports whether all of
// v matches its format's regular expression (the Fmt constant its
// messages quote), as a regexp anchored with ^ and $ does.
// TestFormatsMatchTheirRegexps checks each against its regexp.

func isLowerAlnum(c byte) bool { return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' }

func isAlnum(c byte) bool { return isLowerAlnum(c) || 'A' <= c && c <= 'Z' }

// allOf reports whether every byte of v is one that in accepts.
func allOf(v string, in func(byte) bool) bool {
	for i := 0; i < len(v); i++ {
		if !in(v[i]) {
			return false
		}
	}
	return true
}

// endsIn reports whether v is not empty and its first and last bytes are
// ones that ends accepts, and all of v ones that in accepts.
func endsIn(v string, ends, in func(byte) bool) bool {
	return v != "" && ends(v[0]) && ends(v[len(v)-1]) && allOf(v, in)
}

// matchDNS1123Label: dns1123LabelFmt.
func matchDNS1123Label(v string) bool {
	return endsIn(v, isLowerAlnum, func(c byte) bool { return isLowerAlnum(c) || c == '-' })
}

// matchDNS1123Subdomain: dns1123SubdomainFmt, labels joined by dots.
func matchDNS1123Subdomain(v string) bool {
	for {
		label, rest, more := strings.Cut(v, ".")
		if !matchDNS1123Label(label) {
			return false
		}
		if !more {
			return true
		}
		v = rest
	}
}

// matchLabelKey: labelKeyFmt.
func matchLabelKey(v string) bool {
	return endsIn(v, isAlnum, func(c byte) bool { return isAlnum(c) || c == '-' || c == '_' || c == '.' })
}

// matchLabelValue: labelValueFmt, empty or a label key's form.
func matchLabelValue(v string) bool { return v == "" || matchLabelKey(v) }

// matchPercent: percentFmt.
func matchPercent(v string) bool {
	digits, ok := strings.CutSuffix(v, "%")
	return ok && digits != "" && allOf(digits, func(c byte) bool { return '0' <= c && c <= '9' })
}

// matchHTTPHeaderName: httpHeaderNameFmt.
func matchHTTPHeaderName(v string) bool {
	return v != "" && allOf(v, func(c byte) bool { return isAlnum(c) || c == '-' })
}

// matchEnvVarName: envVarNameFmt, which does not start with a digit.
func matchEnvVarName(v string) bool {
	return v != "" && !('0' <= v[0] && v[0] <= '9') && matchConfigMapKey(v)
}

// matchConfigMapKey: configMapKeyFmt.
func matchConfigMapKey(v string) bool {
	return v != "" && allOf(v, func(c byte) bool { return isAlnum(c) || c == '-' || c == '.' || c == '_' })
}

// matchPortNameCharset: an IANA service name's characters, ^[-a-z0-9]+$.
func matchPortNameCharset(v string) bool {
	return v != "" && allOf(v, func(c byte) bool { return isLowerAlnum(c) || c == '-' })
}

// hasPortNameLetter: an IANA service name's letter, [a-z] anywhere.
func hasPortNameLetter(v string) bool {
	return strings.IndexFunc(v, func(r rune) bool { return 'a' <= r && r <= 'z' }) >= 0
}
