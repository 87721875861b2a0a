package apiserver

import (
	"net/netip"

	"github.com/rolloutmath/rolloutmath/internal/field"
)

// IP addresses in the legacy fields of a pod spec (DNS nameservers, host
// aliases): k8s.io/apimachinery's IsValidIPForLegacyField over
// k8s.io/utils' ParseIPSloppy, a fork of Go 1.16's net.ParseIP.

// validateLegacyIP is upstream's IsValidIPForLegacyField: an address that
// k8s.io/utils' ParseIPSloppy parses and, with strict validation (the
// StrictIPCIDRValidation gate, off by default in v1.35 and on from v1.36),
// without leading zeros in IPv4 octets and not an IPv4-mapped IPv6
// address.
func validateLegacyIP(v string, p *field.Path, strict bool) field.ErrorList {
	if !parseIPSloppy(v) {
		return field.ErrorList{field.InvalidString(p, v, "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)")}
	}
	if !strict {
		return nil
	}
	var errs field.ErrorList
	addr, err := netip.ParseAddr(v)
	if err != nil {
		errs = append(errs, field.InvalidString(p, v, "must not have leading 0s"))
	}
	if addr.Is4In6() {
		errs = append(errs, field.InvalidString(p, v, "must not be an IPv4-mapped IPv6 address"))
	}
	return errs
}

// parseIPSloppy reports whether k8s.io/utils' ParseIPSloppy (Go 1.16's
// net.ParseIP) parses v: the first '.' or ':' picks IPv4 or IPv6; IPv4
// octets may have leading zeros; IPv6 groups may have more than four hex
// digits while their value fits 16 bits; no zone.
func parseIPSloppy(v string) bool {
	for i := 0; i < len(v); i++ {
		switch v[i] {
		case '.':
			return sloppyParseIPv4(v)
		case ':':
			return sloppyParseIPv6(v)
		}
	}
	return false
}

// sloppyBig is the forked parser's cap on a parsed number.
const sloppyBig = 0xFFFFFF

// sloppyDecimal reads decimal digits from the front of s: the number, the
// digits read, and false when there are none or the number reaches the
// cap.
func sloppyDecimal(s string) (n, read int, ok bool) {
	for read < len(s) && '0' <= s[read] && s[read] <= '9' {
		n = n*10 + int(s[read]-'0')
		if n >= sloppyBig {
			return sloppyBig, read, false
		}
		read++
	}
	return n, read, read > 0
}

// sloppyHex reads hex digits from the front of s, as sloppyDecimal.
func sloppyHex(s string) (n, read int, ok bool) {
	for ; read < len(s); read++ {
		c := s[read]
		switch {
		case '0' <= c && c <= '9':
			n = n*16 + int(c-'0')
		case 'a' <= c && c <= 'f':
			n = n*16 + int(c-'a') + 10
		case 'A' <= c && c <= 'F':
			n = n*16 + int(c-'A') + 10
		default:
			return n, read, read > 0
		}
		if n >= sloppyBig {
			return 0, read, false
		}
	}
	return n, read, read > 0
}

// sloppyParseIPv4 is the forked parseIPv4: four dot-separated decimal
// octets, each at most 255.
func sloppyParseIPv4(s string) bool {
	for i := 0; i < 4; i++ {
		if s == "" {
			return false
		}
		if i > 0 {
			if s[0] != '.' {
				return false
			}
			s = s[1:]
		}
		n, read, ok := sloppyDecimal(s)
		if !ok || n > 0xFF {
			return false
		}
		s = s[read:]
	}
	return s == ""
}

// sloppyParseIPv6 is the forked parseIPv6: 16-bit groups with at most one
// "::", optionally ending in an embedded IPv4 address.
func sloppyParseIPv6(s string) bool {
	ellipsis := -1
	if len(s) >= 2 && s[0] == ':' && s[1] == ':' {
		ellipsis = 0
		s = s[2:]
		if s == "" {
			return true
		}
	}
	i := 0
	for i < 16 {
		n, read, ok := sloppyHex(s)
		if !ok || n > 0xFFFF {
			return false
		}
		if read < len(s) && s[read] == '.' {
			if ellipsis < 0 && i != 12 || i+4 > 16 || !sloppyParseIPv4(s) {
				return false
			}
			s = ""
			i += 4
			break
		}
		i += 2
		s = s[read:]
		if s == "" {
			break
		}
		if s[0] != ':' || len(s) == 1 {
			return false
		}
		s = s[1:]
		if s[0] == ':' {
			if ellipsis >= 0 {
				return false
			}
			ellipsis = i
			s = s[1:]
			if s == "" {
				break
			}
		}
	}
	if s != "" {
		return false
	}
	if i < 16 {
		return ellipsis >= 0
	}
	return ellipsis < 0
}
