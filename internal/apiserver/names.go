package apiserver

import (
	"fmt"
	"strings"
)

// The string formats of the API (k8s.io/apimachinery's
// pkg/util/validation and pkg/api/validate/content): each function returns
// the problems with a value, in upstream's words, or nil.

const (
	dns1123LabelFmt     = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
	dns1123SubdomainFmt = dns1123LabelFmt + "(\\." + dns1123LabelFmt + ")*"
	labelKeyFmt         = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
	labelValueFmt       = "(" + labelKeyFmt + ")?"
	percentFmt          = "[0-9]+%"
	httpHeaderNameFmt   = "[-A-Za-z0-9]+"
	envVarNameFmt       = "[-._a-zA-Z][-._a-zA-Z0-9]*"
	configMapKeyFmt     = `[-._a-zA-Z0-9]+`
)

func maxLenError(n int) string { return fmt.Sprintf("must be no more than %d characters", n) }

func maxBytesError(n int) string { return fmt.Sprintf("must be no more than %d bytes", n) }

func emptyError() string { return "must be non-empty" }

func inclusiveRangeError(lo, hi int64) string {
	return fmt.Sprintf("must be between %d and %d, inclusive", lo, hi)
}

// regexError is a format's message with its examples and the regular
// expression.
func regexError(msg, re string, examples ...string) string {
	if len(examples) == 0 {
		return msg + " (regex used for validation is '" + re + "')"
	}
	msg += " (e.g. "
	for i, e := range examples {
		if i > 0 {
			msg += " or "
		}
		msg += "'" + e + "', "
	}
	return msg + "regex used for validation is '" + re + "')"
}

// isDNS1123Label: a lowercase RFC 1123 label of at most 63 characters.
func isDNS1123Label(v string) []string {
	var errs []string
	if len(v) > 63 {
		errs = append(errs, maxLenError(63))
	}
	if !matchDNS1123Label(v) {
		if matchDNS1123Subdomain(v) {
			errs = append(errs, "must not contain dots")
		} else {
			errs = append(errs, regexError("a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character", dns1123LabelFmt, "my-name", "123-abc"))
		}
	}
	return errs
}

// isDNS1123Subdomain: a lowercase RFC 1123 subdomain of at most 253
// characters (util/validation's wording).
func isDNS1123Subdomain(v string) []string {
	return dns1123Subdomain(v, maxLenError)
}

// contentDNS1123Subdomain is the same rule in the words of the content
// package, which label-key prefixes are checked with: "bytes".
func contentDNS1123Subdomain(v string) []string {
	return dns1123Subdomain(v, maxBytesError)
}

func dns1123Subdomain(v string, tooLong func(int) string) []string {
	var errs []string
	if len(v) > 253 {
		errs = append(errs, tooLong(253))
	}
	if !matchDNS1123Subdomain(v) {
		errs = append(errs, regexError("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character", dns1123SubdomainFmt, "example.com"))
	}
	return errs
}

// isQualifiedName: a label key, a name with an optional DNS subdomain
// prefix and '/'.
func isQualifiedName(v string) []string {
	const msg = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"
	var errs []string
	var name string
	switch strings.Count(v, "/") {
	case 0:
		name = v
	case 1:
		var prefix string
		prefix, name, _ = strings.Cut(v, "/")
		if prefix == "" {
			errs = append(errs, "prefix part "+emptyError())
		} else {
			for _, m := range contentDNS1123Subdomain(prefix) {
				errs = append(errs, "prefix part "+m)
			}
		}
	default:
		return append(errs, "a valid label key "+regexError(msg, labelKeyFmt, "MyName", "my.name", "123-abc")+
			" with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')")
	}
	if name == "" {
		errs = append(errs, "name part "+emptyError())
	} else if len(name) > 63 {
		errs = append(errs, "name part "+maxBytesError(63))
	}
	if !matchLabelKey(name) {
		errs = append(errs, "name part "+regexError(msg, labelKeyFmt, "MyName", "my.name", "123-abc"))
	}
	return errs
}

// isValidLabelValue: empty, or at most 63 characters of a label's form.
func isValidLabelValue(v string) []string {
	var errs []string
	if len(v) > 63 {
		errs = append(errs, maxBytesError(63))
	}
	if !matchLabelValue(v) {
		errs = append(errs, regexError("a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character", labelValueFmt, "MyValue", "my_value", "12345"))
	}
	return errs
}

// isValidPortNum: 1 to 65535.
func isValidPortNum(p int64) []string {
	if 1 <= p && p <= 65535 {
		return nil
	}
	return []string{inclusiveRangeError(1, 65535)}
}

// isInRange: lo to hi inclusive.
func isInRange(v, lo, hi int64) []string {
	if lo <= v && v <= hi {
		return nil
	}
	return []string{inclusiveRangeError(lo, hi)}
}

// isValidPortName: an IANA service name.
func isValidPortName(p string) []string {
	var errs []string
	if len(p) > 15 {
		errs = append(errs, maxLenError(15))
	}
	if !matchPortNameCharset(p) {
		errs = append(errs, "must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)")
	}
	if !hasPortNameLetter(p) {
		errs = append(errs, "must contain at least one letter (a-z)")
	}
	if strings.Contains(p, "--") {
		errs = append(errs, "must not contain consecutive hyphens")
	}
	if len(p) > 0 && (p[0] == '-' || p[len(p)-1] == '-') {
		errs = append(errs, "must not begin or end with a hyphen")
	}
	return errs
}

// isValidPercent: digits and a final %.
func isValidPercent(v string) []string {
	if !matchPercent(v) {
		return []string{regexError("a valid percent string must be a numeric string followed by an ending '%'", percentFmt, "1%", "93%")}
	}
	return nil
}

// isHTTPHeaderName: letters, digits and '-'.
func isHTTPHeaderName(v string) []string {
	if !matchHTTPHeaderName(v) {
		return []string{regexError("a valid HTTP header must consist of alphanumeric characters or '-'", httpHeaderNameFmt, "X-Header-Name")}
	}
	return nil
}

// isEnvVarName: the strict form of an environment variable's name.
func isEnvVarName(v string) []string {
	var errs []string
	if !matchEnvVarName(v) {
		errs = append(errs, regexError("a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit", envVarNameFmt, "my.env-name", "MY_ENV.NAME", "MyEnvName1"))
	}
	return append(errs, hasChDirPrefix(v)...)
}

// isRelaxedEnvVarName: printable ASCII but '='.
func isRelaxedEnvVarName(v string) []string {
	var errs []string
	if v == "" {
		errs = append(errs, "environment variable name "+emptyError())
	}
	for _, r := range v {
		if r > 126 || r < 32 || r == '=' {
			errs = append(errs, "a valid environment variable name must consist only of printable ASCII characters other than '='")
			break
		}
	}
	return errs
}

// isConfigMapKey: a key of a ConfigMap or Secret.
func isConfigMapKey(v string) []string {
	var errs []string
	if len(v) > 253 {
		errs = append(errs, maxLenError(253))
	}
	if !matchConfigMapKey(v) {
		errs = append(errs, regexError("a valid config key must consist of alphanumeric characters, '-', '_' or '.'", configMapKeyFmt, "key.name", "KEY_NAME", "key-name"))
	}
	return append(errs, hasChDirPrefix(v)...)
}

func hasChDirPrefix(v string) []string {
	switch {
	case v == ".":
		return []string{`must not be '.'`}
	case v == "..":
		return []string{`must not be '..'`}
	case strings.HasPrefix(v, ".."):
		return []string{`must not start with '..'`}
	}
	return nil
}

// nameIsDNSSubdomain is ValidateNameFunc for DNS subdomain names: a
// generateName prefix may end in '-'.
func nameIsDNSSubdomain(name string, prefix bool) []string {
	if prefix {
		name = maskTrailingDash(name)
	}
	return isDNS1123Subdomain(name)
}

// nameIsDNSLabel is ValidateNameFunc for DNS label names.
func nameIsDNSLabel(name string, prefix bool) []string {
	if prefix {
		name = maskTrailingDash(name)
	}
	return isDNS1123Label(name)
}

// maskTrailingDash replaces a final '-' by 'a', for generateName.
func maskTrailingDash(name string) string {
	if len(name) > 1 && strings.HasSuffix(name, "-") {
		return name[:len(name)-2] + "a"
	}
	return name
}
