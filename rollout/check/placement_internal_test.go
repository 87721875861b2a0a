package check

import (
	"testing"

	"github.com/rolloutmath/rolloutmath/internal/schema"
)

// TestTolerated carries the toleration rules of upstream's
// v1helper.TolerationsTolerateTaint (ToleratesTaint): an empty effect
// matches every effect, Exists with an empty key matches every taint,
// Equal (or no operator) needs the key and value.
func TestTolerated(t *testing.T) {
	taint := schema.Taint{Key: "dedicated", Value: "gpu", Effect: "NoSchedule"}
	tests := []struct {
		name string
		ts   []schema.Toleration
		want bool
	}{
		{"no tolerations", nil, false},
		{"equal key and value", []schema.Toleration{{Key: "dedicated", Operator: "Equal", Value: "gpu", Effect: "NoSchedule"}}, true},
		{"no operator is Equal", []schema.Toleration{{Key: "dedicated", Value: "gpu"}}, true},
		{"other value", []schema.Toleration{{Key: "dedicated", Value: "db"}}, false},
		{"exists on the key", []schema.Toleration{{Key: "dedicated", Operator: "Exists"}}, true},
		{"exists with an empty key tolerates everything", []schema.Toleration{{Operator: "Exists"}}, true},
		{"other effect", []schema.Toleration{{Key: "dedicated", Operator: "Exists", Effect: "NoExecute"}}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tolerated(tt.ts, taint); got != tt.want {
				t.Errorf("tolerated() = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestTermMatches carries upstream's node selector requirement
// operators (nodeaffinity.NewNodeSelector): In, NotIn (true without the
// label), Exists, DoesNotExist, Gt and Lt on integers, matchFields on
// metadata.name, and a term with no requirement matching no node.
func TestTermMatches(t *testing.T) {
	n := node{name: "n1", labels: map[string]string{"zone": "a", "gen": "5"}}
	req := func(key, op string, values ...string) schema.NodeSelectorRequirement {
		return schema.NodeSelectorRequirement{Key: key, Operator: op, Values: values}
	}
	tests := []struct {
		name string
		term schema.NodeSelectorTerm
		want bool
	}{
		{"In", schema.NodeSelectorTerm{MatchExpressions: []schema.NodeSelectorRequirement{req("zone", "In", "a", "b")}}, true},
		{"In, other value", schema.NodeSelectorTerm{MatchExpressions: []schema.NodeSelectorRequirement{req("zone", "In", "b")}}, false},
		{"NotIn without the label", schema.NodeSelectorTerm{MatchExpressions: []schema.NodeSelectorRequirement{req("disk", "NotIn", "hdd")}}, true},
		{"Exists", schema.NodeSelectorTerm{MatchExpressions: []schema.NodeSelectorRequirement{req("zone", "Exists")}}, true},
		{"DoesNotExist", schema.NodeSelectorTerm{MatchExpressions: []schema.NodeSelectorRequirement{req("zone", "DoesNotExist")}}, false},
		{"Gt", schema.NodeSelectorTerm{MatchExpressions: []schema.NodeSelectorRequirement{req("gen", "Gt", "4")}}, true},
		{"Lt", schema.NodeSelectorTerm{MatchExpressions: []schema.NodeSelectorRequirement{req("gen", "Lt", "4")}}, false},
		{"Gt on a word", schema.NodeSelectorTerm{MatchExpressions: []schema.NodeSelectorRequirement{req("zone", "Gt", "4")}}, false},
		{"all expressions", schema.NodeSelectorTerm{MatchExpressions: []schema.NodeSelectorRequirement{req("zone", "In", "a"), req("gen", "In", "4")}}, false},
		{"matchFields metadata.name", schema.NodeSelectorTerm{MatchFields: []schema.NodeSelectorRequirement{req("metadata.name", "In", "n1")}}, true},
		{"empty term", schema.NodeSelectorTerm{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := termMatches(tt.term, n); got != tt.want {
				t.Errorf("termMatches() = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestSpreadPlaces checks the count of a DoNotSchedule spread over
// domains of given room: sum of min(room, emptiest + maxSkew), with the
// emptiest 0 when minDomains exceeds the domains (upstream's
// PodTopologySpread filter, placing one pod at a time in the emptiest
// domain).
func TestSpreadPlaces(t *testing.T) {
	tests := []struct {
		name       string
		room       []int64 // per zone, one node each
		maxSkew    int32
		minDomains int32
		want       int64
	}{
		{"even zones", []int64{4, 4, 4}, 1, 0, 12},
		{"one small zone", []int64{16, 16, 2}, 1, 0, 8},
		{"a zone with no room", []int64{16, 16, 0}, 1, 0, 2},
		{"maxSkew 3", []int64{16, 16, 2}, 3, 0, 12},
		{"minDomains beyond the zones", []int64{16, 16}, 2, 3, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var nodes []node
			fits := map[string]int64{}
			for i, r := range tt.room {
				name := string(rune('a' + i))
				nodes = append(nodes, node{name: name, labels: map[string]string{"zone": name}})
				fits[name] = r
			}
			m := &placeModel{pod: &schema.Pod{}}
			c := schema.TopologySpreadConstraint{MaxSkew: tt.maxSkew, TopologyKey: "zone", WhenUnsatisfiable: "DoNotSchedule"}
			if tt.minDomains > 0 {
				c.MinDomains = &tt.minDomains
			}
			l, ok := m.spread(nodes, fits, c, "f")
			if !ok || l.places != tt.want {
				t.Errorf("spread() = %d, %v, want %d", l.places, ok, tt.want)
			}
		})
	}
}
