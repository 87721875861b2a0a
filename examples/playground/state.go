package main

import (
	"encoding/base64"
	"fmt"
	"net/url"
	"strings"
	"unicode/utf8"
)

// A State is everything the page shows a result for: the manifest and the
// change, each control as its text. An empty control is unset: the
// manifest's value (or the template's pod times) holds. The field names
// are the keys of the URL fragment (see Fragment) and of the JSON the
// page exchanges with the WebAssembly module.
type State struct {
	Manifest string `json:"manifest"`
	// Image is [CONTAINER=]IMAGE, several separated by commas.
	Image          string `json:"image"`
	Replicas       string `json:"replicas"`
	MaxSurge       string `json:"maxSurge"`
	MaxUnavailable string `json:"maxUnavailable"`
	ReadyAfter     string `json:"readyAfter"`
	Terminating    string `json:"terminating"`
	QPS            string `json:"qps"`
	// Model is that of the controllers: controllers (the default, ""),
	// event, or interval (a sync every 30s, as the golden recordings).
	Model string `json:"model"`
	// Version is the Kubernetes minor ("1.36"); empty is the newest.
	Version string `json:"version"`
	// Deployment names the Deployment when the manifest holds several.
	Deployment string `json:"deployment"`
}

// fields lists the State's fragment keys in the order Fragment writes
// them, each with its field.
func (s *State) fields() []struct {
	key string
	v   *string
} {
	return []struct {
		key string
		v   *string
	}{
		{"image", &s.Image}, {"replicas", &s.Replicas}, {"maxSurge", &s.MaxSurge}, {"maxUnavailable", &s.MaxUnavailable},
		{"readyAfter", &s.ReadyAfter}, {"terminating", &s.Terminating}, {"qps", &s.QPS}, {"model", &s.Model},
		{"version", &s.Version}, {"deployment", &s.Deployment},
	}
}

// maxFragment bounds a fragment that ParseFragment reads: 4 MiB, more
// than a browser keeps in a URL.
const maxFragment = 4 << 20

// Fragment encodes s as a URL fragment (without the '#'):
// "manifest=" and the manifest's UTF-8 text in base64url without padding
// (RFC 4648 §5), then "&key=value" for each control that is set, in a
// fixed order (image, replicas, maxSurge, maxUnavailable, readyAfter,
// terminating, qps, model, version, deployment). Values are percent-encoded
// except for letters, digits and -._~:/@=,+ so that image=nginx=nginx:1.25
// reads as it is. ParseFragment(Fragment(s)) == s for every s whose
// manifest is valid UTF-8.
func Fragment(s State) string {
	var b strings.Builder
	b.WriteString("manifest=")
	b.WriteString(base64.RawURLEncoding.EncodeToString([]byte(s.Manifest)))
	for _, f := range s.fields() {
		if *f.v != "" {
			b.WriteString("&" + f.key + "=" + escape(*f.v))
		}
	}
	return b.String()
}

// escape percent-encodes the bytes of v outside the set Fragment keeps.
func escape(v string) string {
	const keep = "-._~:/@=,+"
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		c := v[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte(keep, c) >= 0 {
			b.WriteByte(c)
			continue
		}
		fmt.Fprintf(&b, "%%%02X", c)
	}
	return b.String()
}

// ParseFragment reads a URL fragment (with or without its '#') as
// Fragment writes it. It also takes a manifest in base64url with padding
// or in standard base64, keys in any order, and leaves out keys it does
// not know, so that links keep working as controls are added. It fails
// on a fragment larger than 4 MiB, a manifest that is not base64 or not
// UTF-8, a value that is not percent-encoded correctly, or a key given
// twice.
func ParseFragment(fragment string) (State, error) {
	var s State
	fragment = strings.TrimPrefix(fragment, "#")
	if len(fragment) > maxFragment {
		return s, fmt.Errorf("playground: the link's state is %d bytes, more than %d", len(fragment), maxFragment)
	}
	seen := map[string]bool{}
	for part := range strings.SplitSeq(fragment, "&") {
		if part == "" {
			continue
		}
		key, value, _ := strings.Cut(part, "=")
		if seen[key] {
			return State{}, fmt.Errorf("playground: %q given twice in the link", key)
		}
		seen[key] = true
		if key == "manifest" {
			m, err := decodeManifest(value)
			if err != nil {
				return State{}, err
			}
			s.Manifest = m
			continue
		}
		for _, f := range s.fields() {
			if f.key != key {
				continue
			}
			v, err := url.PathUnescape(value)
			if err != nil {
				return State{}, fmt.Errorf("playground: %s in the link: %w", key, err)
			}
			*f.v = v
		}
	}
	return s, nil
}

// decodeManifest decodes the manifest of a link: base64url (or standard
// base64), with or without padding, of UTF-8 text.
func decodeManifest(v string) (string, error) {
	v = strings.TrimRight(v, "=")
	v = strings.NewReplacer("+", "-", "/", "_").Replace(v)
	b, err := base64.RawURLEncoding.DecodeString(v)
	if err != nil {
		return "", fmt.Errorf("playground: the manifest in the link is not base64url: %w", err)
	}
	if !utf8.Valid(b) {
		return "", fmt.Errorf("playground: the manifest in the link is not UTF-8 text")
	}
	return string(b), nil
}
