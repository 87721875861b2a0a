package apiserver

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/internal/field"
	"github.com/rolloutmath/rolloutmath/internal/schema"
)

// Properties of the containers' rules.

// TestPathNoBackstepsProperty: a path is refused exactly when one of its
// '/'-separated steps is "..", with one error however many there are; a
// descending path is also refused when absolute.
func TestPathNoBackstepsProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		steps := rapid.SliceOfN(rapid.SampledFrom([]string{"", ".", "..", "a", "..a", "a..", "b.c"}), 1, 5).Draw(t, "steps")
		target := strings.Join(steps, "/")
		p := field.NewPath("p")
		errs := validatePathNoBacksteps(target, p)
		if want := slices.Contains(steps, ".."); (len(errs) == 1) != want || len(errs) > 1 {
			t.Fatalf("%q: %d errors, backstep %v", target, len(errs), want)
		}
		desc := validateLocalDescendingPath(target, p)
		if want := len(errs); strings.HasPrefix(target, "/") {
			want++
			if len(desc) != want {
				t.Fatalf("%q: %d errors, want %d", target, len(desc), want)
			}
		} else if len(desc) != want {
			t.Fatalf("%q: %d errors, want %d", target, len(desc), want)
		}
	})
}

// TestHostPortConflictsProperty: the conflicts reported are the ports
// with a host port beyond the first claim of each protocol, host IP and
// host port, each at the later port's path.
func TestHostPortConflictsProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 3).Draw(t, "containers")
		cs := make([]schema.Container, n)
		claims, keys := 0, map[string]bool{}
		for i := range cs {
			for range rapid.IntRange(0, 3).Draw(t, "ports") {
				port := schema.ContainerPort{
					ContainerPort: 80,
					HostPort:      rapid.SampledFrom([]int32{0, 80, 81}).Draw(t, "hostPort"),
					Protocol:      rapid.SampledFrom([]string{"TCP", "UDP"}).Draw(t, "protocol"),
					HostIP:        rapid.SampledFrom([]string{"", "10.0.0.1"}).Draw(t, "hostIP"),
				}
				cs[i].Ports = append(cs[i].Ports, port)
				if port.HostPort != 0 {
					claims++
					keys[port.Protocol+"/"+port.HostIP+"/"+strconv.Itoa(int(port.HostPort))] = true
				}
			}
		}
		errs := checkHostPortConflicts(cs, field.NewPath("containers"))
		if len(errs) != claims-len(keys) {
			t.Fatalf("%d conflicts, want %d", len(errs), claims-len(keys))
		}
		for _, e := range errs {
			if e.Type != field.Duplicate || !strings.HasSuffix(e.Field, ".hostPort") {
				t.Fatalf("unexpected %v", e)
			}
		}
	})
}

// TestRequestAtMostLimitProperty: a cpu request is refused exactly when it
// exceeds the limit, and an extended resource's exactly when it differs.
func TestRequestAtMostLimitProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		req := rapid.Int64Range(0, 5000).Draw(t, "request")
		lim := rapid.Int64Range(0, 5000).Draw(t, "limit")
		name := rapid.SampledFrom([]string{"cpu", "example.com/gpu"}).Draw(t, "name")
		q := func(v int64) schema.Quantity { return schema.MustParseQuantity(strconv.FormatInt(v, 10)) }
		r := &schema.ResourceRequirements{Limits: schema.ResourceList{{Name: name, Quantity: q(lim)}}, Requests: schema.ResourceList{{Name: name, Quantity: q(req)}}}
		errs := validateContainerResourceRequirements(r, nil, field.NewPath("resources"), podOptions{})
		refused := req > lim || (name != "cpu" && req != lim)
		if (len(errs) == 1) != refused || len(errs) > 1 {
			t.Fatalf("%s request %d limit %d: %v", name, req, lim, errs)
		}
		if refused && errs[0].Field != "resources.requests" {
			t.Fatalf("reported at %s", errs[0].Field)
		}
	})
}

// TestContainerErrorsUnderTheContainer: whatever a container holds, its
// problems are reported under its own path, and validation never panics.
func TestContainerErrorsUnderTheContainer(t *testing.T) {
	str := func(pool ...string) *rapid.Generator[string] { return rapid.SampledFrom(pool) }
	rapid.Check(t, func(t *rapid.T) {
		c := schema.Container{
			Name:                     str("", "app", "App", "a.b").Draw(t, "name"),
			Image:                    str("", "nginx", " x").Draw(t, "image"),
			ImagePullPolicy:          str("", "Always", "Bad").Draw(t, "pull"),
			TerminationMessagePolicy: str("", "File", "Bad").Draw(t, "tmp"),
			Ports:                    []schema.ContainerPort{{Name: str("", "http", "HTTP").Draw(t, "port"), ContainerPort: rapid.Int32().Draw(t, "num"), HostPort: rapid.Int32().Draw(t, "host")}},
			Env:                      []schema.EnvVar{{Name: str("", "A", "a=b").Draw(t, "env"), ValueFrom: &schema.EnvVarSource{}}},
			VolumeMounts:             []schema.VolumeMount{{Name: str("", "v").Draw(t, "mount"), SubPath: str("", "/a", "../b").Draw(t, "sub")}},
			VolumeDevices:            []schema.VolumeDevice{{Name: str("", "v").Draw(t, "dev"), DevicePath: str("", "/dev/../x").Draw(t, "devPath")}},
			ResizePolicy:             []schema.ContainerResizePolicy{{ResourceName: str("", "cpu", "gpu").Draw(t, "resize")}},
			SecurityContext:          &schema.SecurityContext{RunAsUser: ptr(rapid.Int64().Draw(t, "uid")), ProcMount: ptr(str("Default", "Bad").Draw(t, "proc"))},
		}
		p := field.NewPath("spec", "containers").Index(2)
		vols := map[string]*schema.VolumeSource{"v": {}}
		for _, e := range validateContainerCommon(&c, vols, nil, p, createPodOptions(v136), "Always", true) {
			if !strings.HasPrefix(e.Field, "spec.containers[2]") {
				t.Fatalf("problem outside the container: %v", e)
			}
		}
	})
}
