package realsim_test

import (
	"testing"
	"time"

	"github.com/rolloutmath/rolloutmath/internal/upstream/realsim"
)

// TestRequestLog checks the request log against the run it logs: 10
// replicas at 25%/25% ready after 1s, each old pod terminating for 1s.
// It is in time order from the change, the Deployment controller's first
// request creates the new ReplicaSet, the ReplicaSet controller creates
// the 10 new pods and deletes the 10 old ones, the kubelet binds and
// readies each new pod and removes each old one, every request went
// through a client (the controllers') or is the kubelet's, the refusals
// are the Measurement's conflicts (and creates of names taken), and the counts after each request
// reach the Measurement's peak and fewest available.
func TestRequestLog(t *testing.T) {
	c := realsim.Case{Name: "requests", Replicas: 10, ReadyAfter: time.Second, Terminating: time.Second, Requests: true}
	m, err := realsim.Run(t, c)
	if err != nil {
		t.Fatal(err)
	}
	log := m.Requests
	if len(log) == 0 {
		t.Fatal("no request logged")
	}
	if first := log[0]; first.Who != "deployment" || first.Verb != "create" || first.Resource != "replicasets" || first.Detail != "new 3" {
		t.Errorf("first request %+v, want the Deployment controller's create of the new ReplicaSet at 3", first)
	}
	count := map[[3]string]int{}
	conflicts := 0
	peak, fewest := int32(0), int32(c.Replicas)
	for i, r := range log {
		if r.At < 0 || i > 0 && r.At < log[i-1].At {
			t.Errorf("request %d at %v, after %v", i, r.At, log[max(i-1, 0)].At)
		}
		switch r.Who {
		case "deployment", "replicaset", "kubelet":
		default:
			t.Errorf("request %d from %q", i, r.Who)
		}
		if r.Err == "Conflict" {
			conflicts++
		} else if r.Err != "" && r.Err != "AlreadyExists" {
			// AlreadyExists: the event sink's create of an event whose
			// name (the object's and the time's) is taken, which it then
			// patches; the Deployment controller's second create of the
			// new ReplicaSet from a cache that has yet to see the first.
			t.Errorf("request %d refused: %+v", i, r)
		}
		if r.Err == "" {
			count[[3]string{r.Who, r.Verb, r.Resource}]++
		}
		peak, fewest = max(peak, r.Pods), min(fewest, r.Available)
	}
	for k, want := range map[[3]string]int{
		{"replicaset", "create", "pods"}: 10,
		{"replicaset", "delete", "pods"}: 10,
		{"kubelet", "bind", "pods"}:      10,
		{"kubelet", "ready", "pods"}:     10,
		{"kubelet", "remove", "pods"}:    10,
	} {
		if count[k] != want {
			t.Errorf("%v: %d, want %d", k, count[k], want)
		}
	}
	want := 0
	for _, n := range m.Conflicts {
		want += n
	}
	if conflicts != want {
		t.Errorf("%d conflicts logged, the measurement counts %d", conflicts, want)
	}
	if peak != m.PeakPods || fewest != m.MinAvailable {
		t.Errorf("log: peak %d, fewest available %d; measurement %d, %d", peak, fewest, m.PeakPods, m.MinAvailable)
	}
	if last := log[len(log)-1]; last.At > m.LastChange+time.Second {
		t.Errorf("last request at %v, the last change at %v", last.At, m.LastChange)
	}
}
