package rollout_test

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/surge"
)

// TestResolveFenceposts ports upstream's TestResolveFenceposts (B.5) at the
// rollout level. Upstream's values are strings or nil: nil is the count 0
// (upstream's default), and the two malformed strings fail in surge.Parse,
// before any resolution.
func TestResolveFenceposts(t *testing.T) {
	tests := []struct {
		name                       string
		maxSurge, maxUnavailable   string // "" is nil
		desired                    int32
		wantSurge, wantUnavailable int32
		wantErr                    bool
	}{
		{name: "0", maxSurge: "0%", maxUnavailable: "0%", desired: 0, wantSurge: 0, wantUnavailable: 1},
		{name: "1", maxSurge: "39%", maxUnavailable: "39%", desired: 10, wantSurge: 4, wantUnavailable: 3},
		{name: "2", maxSurge: "oops", maxUnavailable: "39%", desired: 10, wantErr: true},
		{name: "3", maxSurge: "55%", maxUnavailable: "urg", desired: 10, wantErr: true},
		{name: "4", maxUnavailable: "39%", desired: 10, wantSurge: 0, wantUnavailable: 3},
		{name: "5", maxSurge: "39%", desired: 10, wantSurge: 4, wantUnavailable: 0},
		{name: "6", desired: 10, wantSurge: 0, wantUnavailable: 1},
	}
	parse := func(s string) (surge.Value, error) {
		if s == "" {
			return surge.Value{}, nil
		}
		return surge.Parse(s)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ms, err1 := parse(tt.maxSurge)
			mu, err2 := parse(tt.maxUnavailable)
			if gotErr := err1 != nil || err2 != nil; gotErr != tt.wantErr {
				t.Fatalf("surge.Parse(%q, %q) errors = %v, %v; want an error: %t", tt.maxSurge, tt.maxUnavailable, err1, err2, tt.wantErr)
			}
			if tt.wantErr {
				return
			}
			s, u := rollout.ResolveFenceposts(ms, mu, tt.desired)
			if diff := cmp.Diff([2]int32{tt.wantSurge, tt.wantUnavailable}, [2]int32{s, u}); diff != "" {
				t.Errorf("ResolveFenceposts() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestFencepostVectors ports vectors D.1: ResolveFenceposts, MaxSurge,
// MaxUnavailable and MinAvailable of RollingUpdate Deployments, as computed
// by upstream's code.
func TestFencepostVectors(t *testing.T) {
	tests := []struct {
		name                     string
		maxSurge, maxUnavailable surge.Value
		replicas                 int32
		want                     [5]int32 // resolved surge, unavailable; MaxSurge, MaxUnavailable, MinAvailable
	}{
		{name: `"25%" "25%" of 10`, maxSurge: surge.Percent(25), maxUnavailable: surge.Percent(25), replicas: 10, want: [5]int32{3, 2, 3, 2, 8}},
		{name: `"25%" "25%" of 1`, maxSurge: surge.Percent(25), maxUnavailable: surge.Percent(25), replicas: 1, want: [5]int32{1, 0, 1, 0, 1}},
		{name: `"25%" "25%" of 0`, maxSurge: surge.Percent(25), maxUnavailable: surge.Percent(25), replicas: 0, want: [5]int32{0, 1, 0, 0, 0}},
		{name: `0 "25%" of 3`, maxSurge: surge.Count(0), maxUnavailable: surge.Percent(25), replicas: 3, want: [5]int32{0, 1, 0, 1, 2}},
		{name: `"0%" "0%" of 5`, maxSurge: surge.Percent(0), maxUnavailable: surge.Percent(0), replicas: 5, want: [5]int32{0, 1, 0, 1, 4}},
		{name: `"1%" "1%" of 2`, maxSurge: surge.Percent(1), maxUnavailable: surge.Percent(1), replicas: 2, want: [5]int32{1, 0, 1, 0, 2}},
		{name: `"100%" "100%" of 7`, maxSurge: surge.Percent(100), maxUnavailable: surge.Percent(100), replicas: 7, want: [5]int32{7, 7, 7, 7, 0}},
		{name: `3 0 of 10`, maxSurge: surge.Count(3), maxUnavailable: surge.Count(0), replicas: 10, want: [5]int32{3, 0, 3, 0, 10}},
		{name: `"30%" "30%" of 7`, maxSurge: surge.Percent(30), maxUnavailable: surge.Percent(30), replicas: 7, want: [5]int32{3, 2, 3, 2, 5}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := rollout.RollingDeployment(tt.replicas, tt.maxSurge, tt.maxUnavailable)
			s, u := rollout.ResolveFenceposts(tt.maxSurge, tt.maxUnavailable, tt.replicas)
			got := [5]int32{s, u, rollout.MaxSurge(d), rollout.MaxUnavailable(d), rollout.MinAvailable(d)}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ResolveFenceposts(), MaxSurge(), MaxUnavailable(), MinAvailable() mismatch (-want +got):\n%s", diff)
			}
			l := rollout.Limits(d)
			if diff := cmp.Diff([2]int32{tt.want[2], tt.want[3]}, [2]int32{l.Surge, l.Unavailable}); diff != "" {
				t.Errorf("Limits() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestNewRSNewReplicas ports upstream's TestNewRSNewReplicas (B.6): the
// new ReplicaSet is not among allRSs, which hold one ReplicaSet of 5.
func TestNewRSNewReplicas(t *testing.T) {
	tests := []struct {
		name          string
		strategy      rollout.StrategyType
		depReplicas   int32
		newRSReplicas int32
		maxSurge      int32
		want          int32
		wantErr       bool
	}{
		{name: "can not scale up - to newRSReplicas", strategy: rollout.RollingUpdateStrategy, depReplicas: 1, newRSReplicas: 5, maxSurge: 1, want: 5},
		{name: "scale up - to depReplicas", strategy: rollout.RollingUpdateStrategy, depReplicas: 6, newRSReplicas: 2, maxSurge: 10, want: 6},
		{name: "recreate - to depReplicas", strategy: rollout.RecreateStrategy, depReplicas: 3, newRSReplicas: 1, maxSurge: 1, want: 3},
		// Not upstream: the total exactly at replicas + maxSurge keeps a new
		// ReplicaSet above replicas as it is (upstream's >= check).
		{name: "at the maximum - to newRSReplicas", strategy: rollout.RollingUpdateStrategy, depReplicas: 3, newRSReplicas: 7, maxSurge: 2, want: 7},
		// Not upstream: an unknown strategy is an error, as upstream's.
		{name: "no strategy type", strategy: "", depReplicas: 3, newRSReplicas: 1, maxSurge: 1, wantErr: true},
	}
	d := rollout.UpstreamGenerateDeployment("nginx")
	newRS := rollout.UpstreamGenerateRS(d, "nginx-new", "uid-new")
	rs5 := rollout.UpstreamGenerateRS(d, "nginx-5", "uid-5")
	rs5.Spec.Replicas = 5
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := d.DeepCopy()
			d.Spec.Replicas = tt.depReplicas
			d.Spec.Strategy = rollout.Strategy{Type: tt.strategy, RollingUpdate: rollout.RollingUpdate{
				MaxUnavailable: surge.Count(1), MaxSurge: surge.Count(tt.maxSurge),
			}}
			n := newRS.DeepCopy()
			n.Spec.Replicas = tt.newRSReplicas
			all := []rollout.ReplicaSet{rs5}
			before := rollout.DeepCopies(all)
			got, err := rollout.NewRSNewReplicas(&d, []*rollout.ReplicaSet{&all[0]}, &n)
			if (err != nil) != tt.wantErr {
				t.Fatalf("NewRSNewReplicas() error = %v, want an error: %t", err, tt.wantErr)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("NewRSNewReplicas() mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(before, all); diff != "" {
				t.Errorf("NewRSNewReplicas() modified its input (-before +after):\n%s", diff)
			}
		})
	}
}

// TestMaxUnavailable ports upstream's TestMaxUnavailable (B.11).
func TestMaxUnavailable(t *testing.T) {
	tests := []struct {
		name string
		d    rollout.Deployment
		want int32
	}{
		{name: "maxUnavailable less than replicas", d: rollout.RollingDeployment(10, surge.Count(1), surge.Count(5)), want: 5},
		{name: "maxUnavailable equal replicas", d: rollout.RollingDeployment(10, surge.Count(1), surge.Count(10)), want: 10},
		{name: "maxUnavailable greater than replicas", d: rollout.RollingDeployment(5, surge.Count(1), surge.Count(10)), want: 5},
		{name: "maxUnavailable with replicas is 0", d: rollout.RollingDeployment(0, surge.Count(1), surge.Count(10)), want: 0},
		{name: "maxUnavailable with Recreate deployment strategy", d: rollout.Deployment{Spec: rollout.DeploymentSpec{Strategy: rollout.Strategy{Type: rollout.RecreateStrategy}}}, want: 0},
		{name: "maxUnavailable less than replicas with percents", d: rollout.RollingDeployment(10, surge.Count(1), surge.Percent(50)), want: 5},
		{name: "maxUnavailable equal replicas with percents", d: rollout.RollingDeployment(10, surge.Count(1), surge.Percent(100)), want: 10},
		{name: "maxUnavailable greater than replicas with percents", d: rollout.RollingDeployment(5, surge.Count(1), surge.Percent(100)), want: 5},
		// Not upstream (R-FENCE-2): a Recreate Deployment with replicas and
		// leftover RollingUpdate limits still has none.
		{name: "Recreate with replicas", d: func() rollout.Deployment {
			d := rollout.RollingDeployment(10, surge.Count(1), surge.Count(5))
			d.Spec.Strategy.Type = rollout.RecreateStrategy
			return d
		}(), want: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, rollout.MaxUnavailable(tt.d)); diff != "" {
				t.Errorf("MaxUnavailable() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestMinAvailable ports upstream's TestMinAvailable (B.12).
func TestMinAvailable(t *testing.T) {
	tests := []struct {
		name string
		d    rollout.Deployment
		want int32
	}{
		{name: "replicas greater than maxUnavailable", d: rollout.RollingDeployment(10, surge.Count(1), surge.Count(5)), want: 5},
		{name: "replicas equal maxUnavailable", d: rollout.RollingDeployment(10, surge.Count(1), surge.Count(10)), want: 0},
		{name: "replicas less than maxUnavailable", d: rollout.RollingDeployment(5, surge.Count(1), surge.Count(10)), want: 0},
		{name: "replicas is 0", d: rollout.RollingDeployment(0, surge.Count(1), surge.Count(10)), want: 0},
		{name: "minAvailable with Recreate deployment strategy", d: rollout.Deployment{Spec: rollout.DeploymentSpec{Replicas: 10, Strategy: rollout.Strategy{Type: rollout.RecreateStrategy}}}, want: 0},
		{name: "replicas greater than maxUnavailable with percents", d: rollout.RollingDeployment(10, surge.Count(1), surge.Percent(60)), want: 4},
		{name: "replicas equal maxUnavailable with percents", d: rollout.RollingDeployment(10, surge.Count(1), surge.Percent(100)), want: 0},
		{name: "replicas less than maxUnavailable with percents", d: rollout.RollingDeployment(5, surge.Count(1), surge.Percent(100)), want: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, rollout.MinAvailable(tt.d)); diff != "" {
				t.Errorf("MinAvailable() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestMaxSurgeCapped: MaxSurge is 0 for a Recreate Deployment whatever
// rollingUpdate holds, and is capped so that replicas + maxSurge fits
// int32, for one replica as for MaxInt32 of them; with no replicas there
// is nothing to cap against.
func TestMaxSurgeCapped(t *testing.T) {
	recreate := rollout.RollingDeployment(10, surge.Percent(25), surge.Percent(25))
	recreate.Spec.Strategy.Type = rollout.RecreateStrategy
	tests := []struct {
		name string
		d    rollout.Deployment
		want int32
	}{
		{"Recreate with leftover limits", recreate, 0},
		{"1 replica, maxSurge MaxInt32", rollout.RollingDeployment(1, surge.Count(math.MaxInt32), surge.Count(0)), math.MaxInt32 - 1},
		{"MaxInt32 - 2 replicas, maxSurge 100%", rollout.RollingDeployment(math.MaxInt32-2, surge.Percent(100), surge.Count(0)), 2},
		{"0 replicas, maxSurge MaxInt32", rollout.RollingDeployment(0, surge.Count(math.MaxInt32), surge.Count(0)), math.MaxInt32},
	}
	for _, tt := range tests {
		if got := rollout.MaxSurge(tt.d); got != tt.want {
			t.Errorf("%s: MaxSurge() = %d, want %d", tt.name, got, tt.want)
		}
		if got := rollout.Limits(tt.d).Surge; got != tt.want {
			t.Errorf("%s: Limits().Surge = %d, want %d", tt.name, got, tt.want)
		}
	}
}
