package difftest

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

// podCase is one rule of the pod-level area: a change to a valid
// Deployment's template and the problems the real API server reports for
// it ("field: type", relative to spec.template.spec unless the field
// starts with "spec."); no problems means the server accepts it.
type podCase struct {
	name  string
	edit  func(t *v1.PodTemplateSpec)
	patch func(spec map[string]any) // optional, on the JSON of the pod spec
	want  []string
}

// spec wraps an edit of the pod spec alone.
func spec(f func(s *v1.PodSpec)) func(t *v1.PodTemplateSpec) {
	return func(t *v1.PodTemplateSpec) { f(&t.Spec) }
}

// annotate sets template annotations, then edits the spec.
func annotate(a map[string]string, f func(s *v1.PodSpec)) func(t *v1.PodTemplateSpec) {
	return func(t *v1.PodTemplateSpec) {
		t.Annotations = a
		if f != nil {
			f(&t.Spec)
		}
	}
}

func podSC(f func(sc *v1.PodSecurityContext)) func(t *v1.PodTemplateSpec) {
	return spec(func(s *v1.PodSpec) {
		s.SecurityContext = &v1.PodSecurityContext{}
		f(s.SecurityContext)
	})
}

func containerSC(f func(sc *v1.SecurityContext)) func(s *v1.PodSpec) {
	return func(s *v1.PodSpec) {
		s.Containers[0].SecurityContext = &v1.SecurityContext{}
		f(s.Containers[0].SecurityContext)
	}
}

func windows(f func(s *v1.PodSpec)) func(t *v1.PodTemplateSpec) {
	return spec(func(s *v1.PodSpec) {
		s.OS = &v1.PodOS{Name: v1.Windows}
		f(s)
	})
}

func q(s string) resource.Quantity { return resource.MustParse(s) }

func rl(kv ...string) v1.ResourceList {
	l := v1.ResourceList{}
	for i := 0; i < len(kv); i += 2 {
		l[v1.ResourceName(kv[i])] = q(kv[i+1])
	}
	return l
}

// runPodCases checks each case against the real server and against ours.
func runPodCases(t *testing.T, cases []podCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := podBase()
			c.edit(&d.Spec.Template)
			data := podJSON(d, c.patch)
			real, _ := RealCreateDeployment(data)
			if real.Decode != "" {
				t.Fatalf("real decode error: %s", real.Decode)
			}
			var got []string
			for _, p := range real.Problems {
				f, ok := strings.CutPrefix(p.Field, specPrefix)
				if !ok {
					f = p.Field
				}
				got = append(got, f+": "+p.Type)
			}
			want := slices.Clone(c.want)
			for i, w := range want {
				if !strings.HasPrefix(w, "spec.") {
					continue
				}
				if f, ok := strings.CutPrefix(w, specPrefix); ok {
					want[i] = f
				}
			}
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("the real server reports\n%s\nnot\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			if err := compareCreate(data); err != nil {
				t.Error(err)
			}
			realLines, _ := realDetails(data)
			oursLines, _ := oursDetails(data)
			r, o := inAreaDetail(realLines), inAreaDetail(oursLines)
			if onlyReal, onlyOurs := without(r, o), without(o, r); len(onlyReal)+len(onlyOurs) > 0 {
				t.Errorf("messages differ:\nonly real %q\nonly ours %q", onlyReal, onlyOurs)
			}
		})
	}
}

// TestPodAnnotationRules: ValidatePodSpecificAnnotations and the checks
// that annotations agree with fields.
func TestPodAnnotationRules(t *testing.T) {
	mirror := "spec.template.annotations[kubernetes.io/config.mirror]: Invalid value"
	tolerations := "spec.template.annotations.scheduler.alpha.kubernetes.io/tolerations"
	cost := "spec.template.annotations[controller.kubernetes.io/pod-deletion-cost]: Invalid value"
	seccompPod := "spec.template.annotations.seccomp.security.alpha.kubernetes.io/pod: Invalid value"
	apparmor := "spec.template.annotations[container.apparmor.security.beta.kubernetes.io/app]: Invalid value"
	runtimeDefault := &v1.SeccompProfile{Type: v1.SeccompProfileTypeRuntimeDefault}
	localhost := &v1.SeccompProfile{Type: v1.SeccompProfileTypeLocalhost, LocalhostProfile: new("a.json")}
	runPodCases(t, []podCase{
		{name: "mirror pod: nodeName required", edit: annotate(map[string]string{"kubernetes.io/config.mirror": "x"}, nil), want: []string{mirror}},
		{name: "mirror pod: with a nodeName", edit: annotate(map[string]string{"kubernetes.io/config.mirror": "x"}, func(s *v1.PodSpec) { s.NodeName = "n1" })},
		{name: "tolerations annotation: not JSON", edit: annotate(map[string]string{"scheduler.alpha.kubernetes.io/tolerations": "[{"}, nil),
			want: []string{"spec.template.annotations: Invalid value"}},
		{name: "tolerations annotation: wrong type", edit: annotate(map[string]string{"scheduler.alpha.kubernetes.io/tolerations": `[{"key":1}]`}, nil),
			want: []string{"spec.template.annotations: Invalid value"}},
		{name: "tolerations annotation: invalid toleration", edit: annotate(map[string]string{"scheduler.alpha.kubernetes.io/tolerations": `[{"operator":"Equal"}]`}, nil),
			want: []string{tolerations + "[0].operator: Invalid value"}},
		{name: "tolerations annotation: keys in any case, unknown ones ignored", edit: annotate(map[string]string{"scheduler.alpha.kubernetes.io/tolerations": `[{"KEY":"a","OPERATOR":"Exists","extra":1}]`}, nil)},
		{name: "tolerations annotation: null", edit: annotate(map[string]string{"scheduler.alpha.kubernetes.io/tolerations": `null`}, nil)},
		{name: "deletion cost: plus sign", edit: annotate(map[string]string{"controller.kubernetes.io/pod-deletion-cost": "+10"}, nil), want: []string{cost}},
		{name: "deletion cost: leading zero", edit: annotate(map[string]string{"controller.kubernetes.io/pod-deletion-cost": "010"}, nil), want: []string{cost}},
		{name: "deletion cost: past int32", edit: annotate(map[string]string{"controller.kubernetes.io/pod-deletion-cost": "2147483648"}, nil), want: []string{cost}},
		{name: "deletion cost: empty", edit: annotate(map[string]string{"controller.kubernetes.io/pod-deletion-cost": ""}, nil), want: []string{cost}},
		{name: "deletion cost: int32 extremes", edit: annotate(map[string]string{"controller.kubernetes.io/pod-deletion-cost": "-2147483648"}, nil)},
		{name: "seccomp pod annotation: unknown profile", edit: annotate(map[string]string{"seccomp.security.alpha.kubernetes.io/pod": "foo"}, nil), want: []string{seccompPod}},
		{name: "seccomp pod annotation: absolute localhost path", edit: annotate(map[string]string{"seccomp.security.alpha.kubernetes.io/pod": "localhost//a"}, nil), want: []string{seccompPod}},
		{name: "seccomp pod annotation: backsteps", edit: annotate(map[string]string{"seccomp.security.alpha.kubernetes.io/pod": "localhost/a/../b"}, nil), want: []string{seccompPod}},
		{name: "seccomp pod annotation: docker/default", edit: annotate(map[string]string{"seccomp.security.alpha.kubernetes.io/pod": "docker/default"}, nil)},
		{name: "seccomp container annotation: unknown profile", edit: annotate(map[string]string{"container.seccomp.security.alpha.kubernetes.io/any": "x"}, nil),
			want: []string{"spec.template.annotations.container.seccomp.security.alpha.kubernetes.io/any: Invalid value"}},
		{name: "apparmor annotation: unknown container", edit: annotate(map[string]string{"container.apparmor.security.beta.kubernetes.io/other": "runtime/default"}, nil),
			want: []string{"spec.template.annotations[container.apparmor.security.beta.kubernetes.io/other]: Invalid value"}},
		{name: "apparmor annotation: bad profile", edit: annotate(map[string]string{"container.apparmor.security.beta.kubernetes.io/app": "foo"}, nil), want: []string{apparmor}},
		{name: "apparmor annotation: empty profile", edit: annotate(map[string]string{"container.apparmor.security.beta.kubernetes.io/app": ""}, nil)},
		{name: "seccomp match: pod field and annotation differ", edit: annotate(map[string]string{"seccomp.security.alpha.kubernetes.io/pod": "unconfined"},
			func(s *v1.PodSpec) { s.SecurityContext = &v1.PodSecurityContext{SeccompProfile: runtimeDefault} }),
			want: []string{"securityContext.seccompProfile.type: Forbidden"}},
		{name: "seccomp match: docker/default is RuntimeDefault", edit: annotate(map[string]string{"seccomp.security.alpha.kubernetes.io/pod": "docker/default"},
			func(s *v1.PodSpec) { s.SecurityContext = &v1.PodSecurityContext{SeccompProfile: runtimeDefault} })},
		{name: "seccomp match: localhost profiles differ", edit: annotate(map[string]string{"seccomp.security.alpha.kubernetes.io/pod": "localhost/b.json"},
			func(s *v1.PodSpec) { s.SecurityContext = &v1.PodSecurityContext{SeccompProfile: localhost} }),
			want: []string{"securityContext.seccompProfile.localhostProfile: Forbidden"}},
		{name: "seccomp match: container field and annotation differ", edit: annotate(map[string]string{"container.seccomp.security.alpha.kubernetes.io/app": "runtime/default"},
			containerSC(func(sc *v1.SecurityContext) { sc.SeccompProfile = localhost })),
			want: []string{"containers[0].securityContext.seccompProfile.type: Forbidden"}},
		{name: "apparmor match: pod profile and annotation differ", edit: annotate(map[string]string{"container.apparmor.security.beta.kubernetes.io/app": "unconfined"},
			func(s *v1.PodSpec) {
				s.SecurityContext = &v1.PodSecurityContext{AppArmorProfile: &v1.AppArmorProfile{Type: v1.AppArmorProfileTypeRuntimeDefault}}
			}),
			want: []string{"containers[0].securityContext.appArmorProfile.type: Forbidden"}},
		{name: "apparmor match: localhost profiles differ", edit: annotate(map[string]string{"container.apparmor.security.beta.kubernetes.io/app": "localhost/b"},
			containerSC(func(sc *v1.SecurityContext) {
				sc.AppArmorProfile = &v1.AppArmorProfile{Type: v1.AppArmorProfileTypeLocalhost, LocalhostProfile: new("a")}
			})),
			want: []string{"containers[0].securityContext.appArmorProfile.localhostProfile: Forbidden"}},
		{name: "apparmor match: not checked on windows", edit: annotate(map[string]string{"container.apparmor.security.beta.kubernetes.io/app": "unconfined"},
			func(s *v1.PodSpec) {
				s.OS = &v1.PodOS{Name: v1.Windows}
				s.SecurityContext = &v1.PodSecurityContext{AppArmorProfile: &v1.AppArmorProfile{Type: v1.AppArmorProfileTypeRuntimeDefault}}
			}),
			want: []string{"securityContext.appArmorProfile: Forbidden"}},
	})
}

// runAsUserNames are Windows user names and how many problems each has.
var runAsUserNames = []struct {
	name     string
	problems int
}{
	{"", 1}, {"a\x01", 1}, {`a\b\c`, 1}, {strings.Repeat("d", 256) + `\u`, 2}, {`.bad\u`, 1}, {`dom\`, 1},
	{strings.Repeat("u", 105), 1}, {"..", 1}, {". .", 1}, {`a"b`, 1}, {"a@b", 1}, {`NT AUTHORITY\NETWORK SERVICE`, 0},
	{"ContainerUser", 0}, {`example.com\u`, 0}, {strings.Repeat("d", 256) + `\..`, 3},
}

// TestPodSecurityContextRules: validatePodSpecSecurityContext.
func TestPodSecurityContextRules(t *testing.T) {
	sc := "securityContext."
	var users []podCase
	for _, u := range runAsUserNames {
		users = append(users, podCase{name: fmt.Sprintf("windowsOptions: runAsUserName %.20q", u.name),
			edit: podSC(func(sc *v1.PodSecurityContext) {
				sc.WindowsOptions = &v1.WindowsSecurityContextOptions{RunAsUserName: new(u.name)}
			}),
			want: slices.Repeat([]string{sc + "windowsOptions.runAsUserName: Invalid value"}, u.problems)})
	}
	runPodCases(t, users)
	runPodCases(t, []podCase{
		{name: "runAsUser: negative", edit: podSC(func(sc *v1.PodSecurityContext) { sc.RunAsUser = new(int64(-1)) }), want: []string{sc + "runAsUser: Invalid value"}},
		{name: "runAsUser: MaxInt32", edit: podSC(func(sc *v1.PodSecurityContext) { sc.RunAsUser = new(int64(math.MaxInt32)) })},
		{name: "runAsGroup: past MaxInt32", edit: podSC(func(sc *v1.PodSecurityContext) { sc.RunAsGroup = new(int64(math.MaxInt32 + 1)) }), want: []string{sc + "runAsGroup: Invalid value"}},
		{name: "fsGroup: negative", edit: podSC(func(sc *v1.PodSecurityContext) { sc.FSGroup = new(int64(-1)) }), want: []string{sc + "fsGroup: Invalid value"}},
		{name: "supplementalGroups: out of range", edit: podSC(func(sc *v1.PodSecurityContext) { sc.SupplementalGroups = []int64{0, -2, 1 << 40} }),
			want: []string{sc + "supplementalGroups[1]: Invalid value", sc + "supplementalGroups[2]: Invalid value"}},
		{name: "shareProcessNamespace: with hostPID", edit: spec(func(s *v1.PodSpec) { s.HostPID = true; s.ShareProcessNamespace = new(true) }),
			want: []string{sc + "shareProcessNamespace: Invalid value"}},
		{name: "shareProcessNamespace: false with hostPID", edit: spec(func(s *v1.PodSpec) { s.HostPID = true; s.ShareProcessNamespace = new(false) })},
		{name: "sysctls: name required", edit: podSC(func(sc *v1.PodSecurityContext) { sc.Sysctls = []v1.Sysctl{{Value: "1"}} }), want: []string{sc + "sysctls[0].name: Required value"}},
		{name: "sysctls: bad name", edit: podSC(func(sc *v1.PodSecurityContext) {
			sc.Sysctls = []v1.Sysctl{{Name: "Net.A"}, {Name: "a..b"}, {Name: strings.Repeat("a", 254)}}
		}),
			want: []string{sc + "sysctls[0].name: Invalid value", sc + "sysctls[1].name: Invalid value", sc + "sysctls[2].name: Invalid value"}},
		{name: "sysctls: duplicate", edit: podSC(func(sc *v1.PodSecurityContext) { sc.Sysctls = []v1.Sysctl{{Name: "kernel.x"}, {Name: "kernel.x"}} }),
			want: []string{sc + "sysctls[1].name: Duplicate value"}},
		{name: "sysctls: slashes and underscores", edit: podSC(func(sc *v1.PodSecurityContext) { sc.Sysctls = []v1.Sysctl{{Name: "net/ipv4/conf/eno2.100/rp_filter"}} })},
		{name: "sysctls: net with hostNetwork", edit: spec(func(s *v1.PodSpec) {
			s.HostNetwork = true
			s.SecurityContext = &v1.PodSecurityContext{Sysctls: []v1.Sysctl{{Name: "net.core.somaxconn"}, {Name: "net/ipv4/ip_forward"}, {Name: "kernel.shmmax"}}}
		}), want: []string{sc + "sysctls[0].name: Invalid value", sc + "sysctls[1].name: Invalid value"}},
		{name: "sysctls: ipc with hostIPC", edit: spec(func(s *v1.PodSpec) {
			s.HostIPC = true
			s.SecurityContext = &v1.PodSecurityContext{Sysctls: []v1.Sysctl{{Name: "kernel.shm_rmid_forced"}, {Name: "fs.mqueue.msg_max"}, {Name: "kernel.msgmax"}, {Name: "net.core.somaxconn"}, {Name: "kernel.shmx"}}}
		}), want: []string{sc + "sysctls[0].name: Invalid value", sc + "sysctls[1].name: Invalid value", sc + "sysctls[2].name: Invalid value"}},
		{name: "fsGroupChangePolicy: unknown", edit: podSC(func(sc *v1.PodSecurityContext) { sc.FSGroupChangePolicy = new(v1.PodFSGroupChangePolicy("Sometimes")) }),
			want: []string{sc + "fsGroupChangePolicy: Unsupported value"}},
		{name: "seccompProfile: type required", edit: podSC(func(sc *v1.PodSecurityContext) { sc.SeccompProfile = &v1.SeccompProfile{} }), want: []string{sc + "seccompProfile.type: Required value"}},
		{name: "seccompProfile: unknown type", edit: podSC(func(sc *v1.PodSecurityContext) { sc.SeccompProfile = &v1.SeccompProfile{Type: "Strict"} }), want: []string{sc + "seccompProfile.type: Unsupported value"}},
		{name: "seccompProfile: localhost without a profile", edit: podSC(func(sc *v1.PodSecurityContext) { sc.SeccompProfile = &v1.SeccompProfile{Type: "Localhost"} }),
			want: []string{sc + "seccompProfile.localhostProfile: Required value"}},
		{name: "seccompProfile: localhost absolute with backsteps", edit: podSC(func(sc *v1.PodSecurityContext) {
			sc.SeccompProfile = &v1.SeccompProfile{Type: "Localhost", LocalhostProfile: new("/a/../b")}
		}), want: []string{sc + "seccompProfile.localhostProfile: Invalid value", sc + "seccompProfile.localhostProfile: Invalid value"}},
		{name: "seccompProfile: profile with another type", edit: podSC(func(sc *v1.PodSecurityContext) {
			sc.SeccompProfile = &v1.SeccompProfile{Type: "RuntimeDefault", LocalhostProfile: new("a")}
		}), want: []string{sc + "seccompProfile.localhostProfile: Invalid value"}},
		{name: "appArmorProfile: type required", edit: podSC(func(sc *v1.PodSecurityContext) { sc.AppArmorProfile = &v1.AppArmorProfile{} }), want: []string{sc + "appArmorProfile.type: Required value"}},
		{name: "appArmorProfile: unknown type", edit: podSC(func(sc *v1.PodSecurityContext) { sc.AppArmorProfile = &v1.AppArmorProfile{Type: "x"} }), want: []string{sc + "appArmorProfile.type: Unsupported value"}},
		{name: "appArmorProfile: localhost without a profile", edit: podSC(func(sc *v1.PodSecurityContext) { sc.AppArmorProfile = &v1.AppArmorProfile{Type: "Localhost"} }),
			want: []string{sc + "appArmorProfile.localhostProfile: Required value"}},
		{name: "appArmorProfile: localhost padded", edit: podSC(func(sc *v1.PodSecurityContext) {
			sc.AppArmorProfile = &v1.AppArmorProfile{Type: "Localhost", LocalhostProfile: new(" a")}
		}), want: []string{sc + "appArmorProfile.localhostProfile: Invalid value"}},
		{name: "appArmorProfile: localhost empty", edit: podSC(func(sc *v1.PodSecurityContext) {
			sc.AppArmorProfile = &v1.AppArmorProfile{Type: "Localhost", LocalhostProfile: new("")}
		}), want: []string{sc + "appArmorProfile.localhostProfile: Required value"}},
		{name: "appArmorProfile: localhost too long", edit: podSC(func(sc *v1.PodSecurityContext) {
			sc.AppArmorProfile = &v1.AppArmorProfile{Type: "Localhost", LocalhostProfile: new(strings.Repeat("a", 4096))}
		}), want: []string{sc + "appArmorProfile.localhostProfile: Too long"}},
		{name: "appArmorProfile: profile with another type", edit: podSC(func(sc *v1.PodSecurityContext) {
			sc.AppArmorProfile = &v1.AppArmorProfile{Type: "Unconfined", LocalhostProfile: new("a")}
		}), want: []string{sc + "appArmorProfile.localhostProfile: Invalid value"}},
		{name: "windowsOptions: bad gmsaCredentialSpecName", edit: podSC(func(sc *v1.PodSecurityContext) {
			sc.WindowsOptions = &v1.WindowsSecurityContextOptions{GMSACredentialSpecName: new("A_B")}
		}), want: []string{sc + "windowsOptions.gmsaCredentialSpecName: Invalid value"}},
		{name: "windowsOptions: empty and huge gmsaCredentialSpec", edit: podSC(func(sc *v1.PodSecurityContext) {
			sc.WindowsOptions = &v1.WindowsSecurityContextOptions{GMSACredentialSpec: new("")}
		}), want: []string{sc + "windowsOptions.gmsaCredentialSpec: Invalid value"}},
		{name: "windowsOptions: gmsaCredentialSpec past 64 KiB", edit: podSC(func(sc *v1.PodSecurityContext) {
			sc.WindowsOptions = &v1.WindowsSecurityContextOptions{GMSACredentialSpec: new(strings.Repeat("a", 64*1024+1))}
		}), want: []string{sc + "windowsOptions.gmsaCredentialSpec: Invalid value"}},
		{name: "supplementalGroupsPolicy: unknown", edit: podSC(func(sc *v1.PodSecurityContext) {
			sc.SupplementalGroupsPolicy = new(v1.SupplementalGroupsPolicy("Loose"))
		}),
			want: []string{sc + "supplementalGroupsPolicy: Unsupported value"}},
		{name: "seLinuxChangePolicy: unknown", edit: podSC(func(sc *v1.PodSecurityContext) { sc.SELinuxChangePolicy = new(v1.PodSELinuxChangePolicy("x")) }),
			want: []string{sc + "seLinuxChangePolicy: Unsupported value"}},
		{name: "seLinuxChangePolicy: MountOption while SELinuxMount is off", edit: podSC(func(sc *v1.PodSecurityContext) { sc.SELinuxChangePolicy = new(v1.SELinuxChangePolicyMountOption) }),
			want: []string{sc + "seLinuxChangePolicy: Unsupported value"}},
		{name: "seLinuxChangePolicy: Recursive", edit: podSC(func(sc *v1.PodSecurityContext) { sc.SELinuxChangePolicy = new(v1.SELinuxChangePolicyRecursive) })},
	})
}
