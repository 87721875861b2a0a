package hash

// Label is the label key under which the controller records the template
// hash on a ReplicaSet, its selector and its pod template (R-HASH-1).
const Label = "pod-template-hash"

// safeDigits maps a decimal digit to upstream's "safe encoding" of it
// (k8s.io/apimachinery's rand.SafeEncodeString, which maps characters of
// "0123456789" to "456789bcdf").
const safeDigits = "456789bcdf"

// Encode renders a 32-bit sum as upstream's ComputeHash does: its decimal
// digits without leading zeros (1 to 10 of them), each mapped 0→4 1→5 2→6
// 3→7 4→8 5→9 6→b 7→c 8→d 9→f.
func Encode(sum uint32) string {
	var buf [10]byte
	i := len(buf)
	for sum >= 10 {
		i--
		buf[i] = safeDigits[sum%10]
		sum /= 10
	}
	i--
	buf[i] = safeDigits[sum]
	return string(buf[i:])
}

// maxNameLen is the longest valid ReplicaSet name (a DNS-1123 subdomain).
const maxNameLen = 253

// Name returns the ReplicaSet name prefix + "-" + hash (R-NAME-1). When
// 253-1-len(hash) is positive and prefix is longer than that, prefix is cut
// to that many bytes, so the name is at most 253 bytes. The hash is never
// cut: with a hash of 252 bytes or more the prefix is kept whole.
//
// Name does not check that the result is a valid name; a cut that leaves a
// trailing '.' or '-' yields a name the API rejects, as upstream's does.
func Name(prefix, hash string) string {
	if limit := maxNameLen - 1 - len(hash); limit > 0 && len(prefix) > limit {
		prefix = prefix[:limit]
	}
	return prefix + "-" + hash
}
