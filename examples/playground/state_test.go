package main

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// The link of the issue: the manifest in base64url without padding, then
// the image as CONTAINER=IMAGE, the replicas and the readiness time.
func TestParseFragmentIssueLink(t *testing.T) {
	m := "apiVersion: apps/v1\nkind: Deployment # ünïcode?>>\n"
	link := "#manifest=" + base64.RawURLEncoding.EncodeToString([]byte(m)) + "&image=nginx=nginx:1.25&replicas=100&readyAfter=5s"
	got, err := ParseFragment(link)
	if err != nil {
		t.Fatal(err)
	}
	want := State{Manifest: m, Image: "nginx=nginx:1.25", Replicas: "100", ReadyAfter: "5s"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ParseFragment() mismatch (-want +got):\n%s", diff)
	}
	if f := Fragment(want); "#"+f != link {
		t.Errorf("Fragment() = %q, want %q", f, link[1:])
	}
}

func TestFragment(t *testing.T) {
	for _, tt := range []struct {
		name string
		s    State
		want string
	}{
		{"nothing set", State{}, "manifest="},
		{"every control, in a fixed order", State{Manifest: "a", Deployment: "ns/web", Version: "1.36", Model: "event", QPS: "-1", Terminating: "10s",
			ReadyAfter: "1m30s", MaxUnavailable: "0", MaxSurge: "25%", Replicas: "3", Image: "app=reg.example:5000/app@sha256:ab"},
			"manifest=YQ&image=app=reg.example:5000/app@sha256:ab&replicas=3&maxSurge=25%25&maxUnavailable=0&readyAfter=1m30s&terminating=10s&qps=-1&model=event&version=1.36&deployment=ns/web"},
		{"separators escaped", State{Image: "a&b#c d%"}, "manifest=&image=a%26b%23c%20d%25"},
		{"manifest bytes that base64 pads", State{Manifest: "ab\xff"}, "manifest=YWL_"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := Fragment(tt.s); got != tt.want {
				t.Errorf("Fragment() = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestParseFragmentLenient(t *testing.T) {
	for _, tt := range []struct {
		name, fragment string
		want           State
	}{
		{"padded base64url", "manifest=YQ==", State{Manifest: "a"}},
		{"standard base64", "manifest=" + base64.StdEncoding.EncodeToString([]byte("??>>")), State{Manifest: "??>>"}},
		{"keys in any order, unknown ones left out", "replicas=2&future=x&manifest=YQ", State{Manifest: "a", Replicas: "2"}},
		{"empty parts", "&&manifest=YQ&", State{Manifest: "a"}},
		{"plus kept", "image=a+b", State{Image: "a+b"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseFragment(tt.fragment)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ParseFragment(%q) mismatch (-want +got):\n%s", tt.fragment, diff)
			}
		})
	}
}

func TestParseFragmentErrors(t *testing.T) {
	for _, tt := range []struct {
		name, fragment, want string
	}{
		{"not base64", "manifest=a!b", "not base64url"},
		{"not UTF-8", "manifest=" + base64.RawURLEncoding.EncodeToString([]byte{0xff, 0xfe}), "not UTF-8"},
		{"bad escape", "image=%zz", "image in the link"},
		{"a key twice", "replicas=1&replicas=2", `"replicas" given twice`},
		{"too large", "manifest=" + strings.Repeat("A", maxFragment), "more than"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseFragment(tt.fragment)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("ParseFragment(%.40q) = %v, want an error with %q", tt.fragment, err, tt.want)
			}
		})
	}
}

func stateGen() *rapid.Generator[State] {
	text := rapid.String()
	return rapid.Custom(func(t *rapid.T) State {
		return State{
			Manifest: text.Draw(t, "manifest"), Image: text.Draw(t, "image"), Replicas: text.Draw(t, "replicas"),
			MaxSurge: text.Draw(t, "maxSurge"), MaxUnavailable: text.Draw(t, "maxUnavailable"),
			ReadyAfter: text.Draw(t, "readyAfter"), Terminating: text.Draw(t, "terminating"), QPS: text.Draw(t, "qps"), Model: text.Draw(t, "model"),
			Version: text.Draw(t, "version"), Deployment: text.Draw(t, "deployment"),
		}
	})
}

// Every state with UTF-8 text survives the link; the link holds no
// character a URL fragment must escape, nor a second '#'.
func TestFragmentRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := stateGen().Draw(t, "state")
		f := Fragment(s)
		if strings.ContainsAny(f, "# \"<>`{}|\\^") {
			t.Fatalf("Fragment(%+v) = %q: characters a URL escapes", s, f)
		}
		got, err := ParseFragment(f)
		if err != nil {
			t.Fatalf("ParseFragment(Fragment(%+v)): %v", s, err)
		}
		if diff := cmp.Diff(s, got); diff != "" {
			t.Fatalf("round trip mismatch (-want +got):\n%s", diff)
		}
	})
}

func FuzzParseFragment(f *testing.F) {
	for _, seed := range []string{"", "#", "manifest=YQ", "manifest=YQ==&image=a=b:1", "replicas=%zz", "a=b=c&&", "manifest=!!"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, fragment string) {
		s, err := ParseFragment(fragment)
		if err != nil {
			return
		}
		again, err := ParseFragment(Fragment(s))
		if err != nil {
			t.Fatalf("ParseFragment(Fragment(%+v)): %v", s, err)
		}
		if again != s {
			t.Fatalf("round trip of %q: %+v, then %+v", fragment, s, again)
		}
	})
}
