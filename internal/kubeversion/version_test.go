package kubeversion

import (
	"slices"
	"testing"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Version
	}{
		{"", Latest}, {"1.35", V1_35}, {"v1.36", V1_36}, {"1.37.2", V1_37}, {"v1.35.0", V1_35},
	} {
		got, err := Parse(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("Parse(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{"1.34", "1.38", "2.36", "1", "1.36.x", "1.036", "1.36.3.1", "latest", "v"} {
		if v, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q) = %v, want an error", bad, v)
		}
	}
}

func TestNames(t *testing.T) {
	var got []string
	for _, v := range Supported() {
		got = append(got, v.String()+"="+v.Patch())
	}
	want := []string{"1.35=v1.35.4", "1.36=v1.36.3", "1.37=v1.37.2"}
	if !slices.Equal(got, want) {
		t.Errorf("Supported() = %v, want %v", got, want)
	}
	if Latest.Resolve() != Newest || Latest.String() != "1.37" || Latest.Minor() != 37 {
		t.Errorf("Latest resolves to %v (%s, %d), want 1.37", Latest.Resolve(), Latest, Latest.Minor())
	}
	if bad := Version(200); bad.Valid() || bad.String() != "Version(200)" || bad.Minor() != 0 {
		t.Errorf("Version(200): Valid %v, String %q, Minor %d", bad.Valid(), bad.String(), bad.Minor())
	}
}
