package schema

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/rolloutmath/rolloutmath/hash"
	"github.com/rolloutmath/rolloutmath/internal/kubeversion"
	"github.com/rolloutmath/rolloutmath/internal/vectors"
)

// tb is what the checks need of *testing.T and *rapid.T.
type tb interface {
	Helper()
	Fatalf(format string, args ...any)
}

// spewAgree fails unless, for every minor, the hashing rendering of x is
// the hash of its text rendering.
func spewAgree(t tb, x *PodTemplateSpec) {
	t.Helper()
	for _, v := range append(kubeversion.Supported(), kubeversion.Latest) {
		text := SpewText(nil, x, v)
		if got, want := SpewPodTemplateSpec(hash.NewFNV32a(), x, v), hash.NewFNV32a().Write(text); got != want {
			t.Fatalf("%s: the hashing rendering gives %d, the text's hash is %d; text:\n%s", v, got, want, text)
		}
	}
}

func decodeTemplate(t tb, doc string) *PodTemplateSpec {
	t.Helper()
	x, res := DecodePodTemplateSpec([]byte(doc), DecodeOptions{EveryMinor: true})
	if len(res.Errs) > 0 {
		t.Fatalf("%s: %v", doc, res.Errs)
	}
	return x
}

// TestSpewVariantsAgree holds the two generated renderings equal on the
// paths where the hashing one takes a shortcut: fields at their typical
// (defaulted) values, beside them, and unset; resource lists of common
// names in every combination, with other names, empty and absent;
// quantities with scales inside and outside the prepared ones, with big
// decimal amounts, and in each format.
func TestSpewVariantsAgree(t *testing.T) {
	for _, doc := range []string{
		`{}`,
		`{"spec":{"containers":[{"name":"a"}]}}`,
		`{"spec":{"restartPolicy":"Always","dnsPolicy":"ClusterFirst","schedulerName":"default-scheduler","terminationGracePeriodSeconds":30,
			"containers":[{"name":"a","terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File","imagePullPolicy":"IfNotPresent",
			"ports":[{"containerPort":80,"protocol":"TCP"}]}]}}`,
		`{"spec":{"restartPolicy":"Never","dnsPolicy":"Default","schedulerName":"x","terminationGracePeriodSeconds":0,
			"containers":[{"name":"a","terminationMessagePath":"/t","terminationMessagePolicy":"FallbackToLogsOnError","imagePullPolicy":"Always",
			"ports":[{"containerPort":80,"protocol":"UDP"}]}]}}`,
		`{"spec":{"containers":[{"name":"a","livenessProbe":{"httpGet":{"port":80,"scheme":"HTTP"},"timeoutSeconds":1,"periodSeconds":10,"successThreshold":1,"failureThreshold":3},
			"readinessProbe":{"grpc":{"port":1,"service":""},"timeoutSeconds":2,"periodSeconds":0},
			"startupProbe":{"grpc":{"port":1,"service":"s"}},
			"env":[{"name":"E","valueFrom":{"fieldRef":{"fieldPath":"metadata.name","apiVersion":"v1"}}},{"name":"F","valueFrom":{"fieldRef":{"fieldPath":"x"}}}]}]}}`,
		`{"spec":{"volumes":[{"name":"a","configMap":{"name":"c","defaultMode":420}},{"name":"b","secret":{"defaultMode":256}},{"name":"c","projected":{}},
			{"name":"d","downwardAPI":{"defaultMode":420}},{"name":"e","hostPath":{"path":"/","type":""}},{"name":"f","hostPath":{"path":"/","type":"Directory"}},{"name":"g","hostPath":{"path":"/"}}]}}`,
		`{"spec":{"overhead":{},"containers":[{"name":"a","resources":{"limits":{},"requests":{"cpu":"1"}}}]}}`,
		`{"spec":{"overhead":{"cpu":"1e3","memory":"1.5Gi","ephemeral-storage":"0.5"}}}`,
		`{"spec":{"overhead":{"memory":"12345678901234567890123","cpu":"1e-20"}}}`,
		`{"spec":{"overhead":{"cpu":"100m","nvidia.com/gpu":"1"}}}`,
		`{"spec":{"overhead":{"a":"1","b":"2Ki","c":"3e12","d":"4n"}}}`,
		`{"spec":{"overhead":{"cpu":"1e18","memory":"1E","ephemeral-storage":"1Ei"}}}`,
		`{"spec":{"overhead":{"ephemeral-storage":"1k"}}}`,
		// Fields that some minors do not have: unset, set, first and last.
		`{"spec":{"workloadRef":{"name":"w"},"schedulingGroup":{"podGroupName":"g"}}}`,
		`{"spec":{"evictionResponders":[{"name":"r"}],"containers":[{"name":"a","volumeMounts":[{"name":"v","mountPath":"/m","bindMountOptions":["rbind"]}],
			"livenessProbe":{"httpGet":{"port":80,"protocol":"HTTP"}},"readinessProbe":{"grpc":{"port":1,"mode":"x"}}}],
			"volumes":[{"name":"e","emptyDir":{"mode":493}},{"name":"c","configMap":{"name":"c","defaultUser":1,"items":[{"key":"k","path":"p","user":2}]}}]}}`,
	} {
		spewAgree(t, decodeTemplate(t, doc))
	}
}

// TestSpewVariantsAgreeOnVectors holds the two renderings equal on the
// templates of testdata/apiserver/vectors.json.gz, as decoded and as the
// API server stores them.
func TestSpewVariantsAgreeOnVectors(t *testing.T) {
	vs := vectors.Load(t, "../..")
	n := 0
	for _, v := range vs {
		for _, doc := range []json.RawMessage{v.Input, v.Stored} {
			d, res := DecodeDeployment(doc, DecodeOptions{Lenient: true})
			if d == nil || len(res.Errs) > 0 {
				continue
			}
			spewAgree(t, &d.Spec.Template)
			n++
		}
	}
	if n < 150 {
		t.Fatalf("only %d templates compared", n)
	}
}

// TestSpewVariantsAgreeProperty: on random resource lists and typical
// fields, the two renderings agree.
func TestSpewVariantsAgreeProperty(t *testing.T) {
	names := []string{"cpu", "memory", "ephemeral-storage", "nvidia.com/gpu", "a", "pods", "hugepages-2Mi"}
	amounts := []string{"0", "1", "100m", "0.5", "1.5Gi", "512Mi", "1e3", "1E", "1Ei", "1e-9", "1n", "123456789012345678901234567890", "1e20", "7Ki", "2.5", "-1", "999999999999999999"}
	resources := rapid.Custom(func(t *rapid.T) string {
		if rapid.IntRange(0, 5).Draw(t, "absent") == 0 {
			return "null"
		}
		m := map[string]string{}
		for range rapid.IntRange(0, 4).Draw(t, "n") {
			m[rapid.SampledFrom(names).Draw(t, "name")] = rapid.SampledFrom(amounts).Draw(t, "amount")
		}
		b, _ := json.Marshal(m)
		return string(b)
	})
	pick := func(t *rapid.T, label string, values ...string) string {
		return rapid.SampledFrom(values).Draw(t, label)
	}
	rapid.Check(t, func(t *rapid.T) {
		var c []string
		for i := range rapid.IntRange(0, 3).Draw(t, "containers") {
			c = append(c, fmt.Sprintf(`{"name":"c%d","imagePullPolicy":%s,"terminationMessagePath":%s,"ports":[{"containerPort":1,"protocol":%s}],
				"resources":{"limits":%s,"requests":%s},"readinessProbe":{"exec":{},"timeoutSeconds":%s,"failureThreshold":%s}}`, i,
				pick(t, "pull", `"IfNotPresent"`, `"Always"`, `""`), pick(t, "path", `"/dev/termination-log"`, `"/x"`, `""`),
				pick(t, "protocol", `"TCP"`, `"UDP"`, `""`), resources.Draw(t, "limits"), resources.Draw(t, "requests"),
				pick(t, "timeout", "0", "1", "2"), pick(t, "failure", "0", "3", "4")))
		}
		doc := fmt.Sprintf(`{"spec":{"terminationGracePeriodSeconds":%s,"overhead":%s,"containers":[%s]}}`,
			pick(t, "grace", "null", "30", "0", "31"), resources.Draw(t, "overhead"), strings.Join(c, ","))
		spewAgree(t, decodeTemplate(t, doc))
	})
}

// TestHashNumbers: the hashing variant's numbers, booleans and big
// naturals hash what the text variant writes.
func TestHashNumbers(t *testing.T) {
	h0 := hash.NewFNV32a()
	for _, v := range []int64{math.MinInt64, math.MinInt64 + 1, -100, -99, -10, -9, -1, 0, 1, 9, 10, 11, 99, 100, 101, 999, 1000, 123456789, math.MaxInt64} {
		if got, want := hashInt(h0, v), h0.WriteString(strconv.FormatInt(v, 10)); got != want {
			t.Errorf("hashInt(%d) = %d, want %d", v, got, want)
		}
		if v >= 0 {
			if got, want := hashUint(h0, uint64(v)), h0.WriteString(strconv.FormatInt(v, 10)); got != want {
				t.Errorf("hashUint(%d) = %d, want %d", v, got, want)
			}
		}
	}
	if got, want := hashUint(h0, math.MaxUint64), h0.WriteString(strconv.FormatUint(math.MaxUint64, 10)); got != want {
		t.Errorf("hashUint(MaxUint64) = %d, want %d", got, want)
	}
	for _, b := range []bool{false, true} {
		if got, want := hashBool(h0, b), h0.WriteString(strconv.FormatBool(b)); got != want {
			t.Errorf("hashBool(%v) = %d, want %d", b, got, want)
		}
	}
	for _, s := range []string{"0", "1", "-5", "18446744073709551616", "-340282366920938463463374607431768211457"} {
		x, _ := new(big.Int).SetString(s, 10)
		if got, want := hashNat(h0, x), h0.Write(appendNat(nil, x)); got != want {
			t.Errorf("hashNat(%s) = %d, want %d", s, got, want)
		}
	}
	if got := string(appendNat(nil, new(big.Int).Lsh(big.NewInt(1), 64))); got != "[0 1]" {
		t.Errorf("appendNat(2^64) = %s, want [0 1]", got)
	}
}

// TestHashAllocatesNothing pins the hashing variant's allocations at zero
// on a defaulted three-container template with resource lists, labels and
// environment (once its tables are built).
func TestHashAllocatesNothing(t *testing.T) {
	c := `{"name":"%s","image":"%[1]s:1","ports":[{"name":"http","containerPort":8080,"protocol":"TCP"}],
		"env":[{"name":"A","value":"1"},{"name":"B","value":"2"}],
		"resources":{"limits":{"cpu":"1","memory":"512Mi"},"requests":{"cpu":"250m","memory":"256Mi","nvidia.com/gpu":"1"}},
		"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File","imagePullPolicy":"IfNotPresent"}`
	x := decodeTemplate(t, `{"metadata":{"labels":{"app":"web","tier":"front"},"annotations":{"a":"b"}},"spec":{"containers":[`+
		fmt.Sprintf(c, "app")+","+fmt.Sprintf(c, "sidecar")+","+fmt.Sprintf(c, "proxy")+
		`],"restartPolicy":"Always","terminationGracePeriodSeconds":30,"dnsPolicy":"ClusterFirst","schedulerName":"default-scheduler","securityContext":{}}}`)
	var sum hash.FNV32a
	if n := testing.AllocsPerRun(100, func() { sum ^= SpewPodTemplateSpec(hash.NewFNV32a(), x, kubeversion.V1_36) }); n != 0 {
		t.Errorf("hashing a template allocates %v times, want 0", n)
	}
}
