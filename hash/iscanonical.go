package hash

// IsCanonical reports whether b is already in canonical form, that is
// whether Canonical(nil, b) succeeds and returns b itself. The empty input
// is not canonical (its canonical encoding is {}).
//
// IsCanonical only scans b: it does not allocate.
func IsCanonical(b []byte) bool {
	end, ok := scanCanonical(b, 0, 0)
	return ok && end == len(b)
}

// scanCanonical returns the end of the canonical value that starts at b[i].
func scanCanonical(b []byte, i, depth int) (int, bool) {
	if i >= len(b) {
		return i, false
	}
	switch b[i] {
	case '{':
		return scanCanonicalObject(b, i, depth+1)
	case '[':
		return scanCanonicalArray(b, i, depth+1)
	case '"':
		return scanCanonicalString(b, i)
	case 't':
		return i + 4, hasPrefix(b[i:], "true")
	case 'f':
		return i + 5, hasPrefix(b[i:], "false")
	case 'n':
		return i + 4, hasPrefix(b[i:], "null")
	default:
		return scanNumber(b, i)
	}
}

func scanCanonicalObject(b []byte, i, depth int) (int, bool) {
	if depth > maxDepth {
		return i, false
	}
	i++ // '{'
	if i < len(b) && b[i] == '}' {
		return i + 1, true
	}
	var prev []byte // previous key, escaped, without quotes
	for {
		if i >= len(b) || b[i] != '"' {
			return i, false
		}
		start := i
		var ok bool
		if i, ok = scanCanonicalString(b, i); !ok {
			return i, false
		}
		key := b[start+1 : i-1]
		if prev != nil && compareKeys(prev, key) >= 0 {
			return i, false
		}
		prev = key
		if i >= len(b) || b[i] != ':' {
			return i, false
		}
		i++
		start = i
		if i, ok = scanCanonical(b, i, depth); !ok || dropped(b[start:i]) {
			return i, false
		}
		if i >= len(b) {
			return i, false
		}
		switch b[i] {
		case ',':
			i++
		case '}':
			return i + 1, true
		default:
			return i, false
		}
	}
}

func scanCanonicalArray(b []byte, i, depth int) (int, bool) {
	if depth > maxDepth {
		return i, false
	}
	i++ // '['
	if i < len(b) && b[i] == ']' {
		return i + 1, true
	}
	for {
		var ok bool
		if i, ok = scanCanonical(b, i, depth); !ok || i >= len(b) {
			return i, false
		}
		switch b[i] {
		case ',':
			i++
		case ']':
			return i + 1, true
		default:
			return i, false
		}
	}
}
