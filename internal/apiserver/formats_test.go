package apiserver

import (
	"regexp"
	"testing"
)

// TestFormatsMatchTheirRegexps: each hand-written matcher accepts exactly
// the strings its format's regular expression matches in full, over every
// string of up to five bytes drawn from the bytes that the formats tell
// apart (letters of both cases, digits at both ends, each punctuation
// mark they name, and bytes none of them allows, non-ASCII included).
func TestFormatsMatchTheirRegexps(t *testing.T) {
	anchored := func(re string) *regexp.Regexp { return regexp.MustCompile("^" + re + "$") }
	formats := []struct {
		name  string
		re    *regexp.Regexp
		match func(string) bool
	}{
		{"dns1123Label", anchored(dns1123LabelFmt), matchDNS1123Label},
		{"dns1123Subdomain", anchored(dns1123SubdomainFmt), matchDNS1123Subdomain},
		{"labelKey", anchored(labelKeyFmt), matchLabelKey},
		{"labelValue", anchored(labelValueFmt), matchLabelValue},
		{"percent", anchored(percentFmt), matchPercent},
		{"httpHeaderName", anchored(httpHeaderNameFmt), matchHTTPHeaderName},
		{"envVarName", anchored(envVarNameFmt), matchEnvVarName},
		{"configMapKey", anchored(configMapKeyFmt), matchConfigMapKey},
		{"portNameCharset", regexp.MustCompile("^[-a-z0-9]+$"), matchPortNameCharset},
		{"portNameLetter", regexp.MustCompile("[a-z]"), hasPortNameLetter},
	}
	alphabet := []string{"a", "z", "A", "Z", "0", "9", "-", ".", "_", "%", "/", " ", "\u00e9", "\xff"}
	var all []string
	var grow func(prefix string, n int)
	grow = func(prefix string, n int) {
		all = append(all, prefix)
		if n == 0 {
			return
		}
		for _, c := range alphabet {
			grow(prefix+c, n-1)
		}
	}
	grow("", 4)
	all = append(all, "a.b-c_d.e", "a..b", ".a", "a.", "-a", "a-", "9%", "%", "12%3%", "x--y", "1abc", "Ab_c.D-9")
	for _, f := range formats {
		for _, v := range all {
			if got, want := f.match(v), f.re.MatchString(v); got != want {
				t.Errorf("%s(%q) = %v, regexp %s says %v", f.name, v, got, f.re, want)
			}
		}
	}
}
