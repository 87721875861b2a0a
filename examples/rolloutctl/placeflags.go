package main

import (
	"flag"
	"fmt"

	"github.com/rolloutmath/rolloutmath/rollout/check"
)

// placeFlags are check's flags of placement: --nodes N identical nodes
// with --node-allocatable each, instead of the input's Nodes.
type placeFlags struct {
	nodes       int
	allocatable allocatableFlag
}

func (p *placeFlags) add(fs *flag.FlagSet) {
	fs.IntVar(&p.nodes, "nodes", 0, "place the pods on `N` identical nodes instead of the input's Nodes (0: the input's; none: no placement)")
	fs.Var(&p.allocatable, "node-allocatable", "what each of --nodes offers, as `cpu=4,memory=16Gi,pods=110` (pods 110 when left out; other resources left out are not limited)")
}

// check refuses a negative --nodes, and --node-allocatable without
// --nodes.
func (p *placeFlags) check() error {
	switch {
	case p.nodes < 0:
		return fmt.Errorf("--nodes %d: must not be negative", p.nodes)
	case p.allocatable.set && p.nodes == 0:
		return fmt.Errorf("--node-allocatable %s: needs --nodes N", p.allocatable.v)
	}
	return nil
}

// allocatableFlag is --node-allocatable.
type allocatableFlag struct {
	v   check.Allocatable
	set bool
}

func (a *allocatableFlag) String() string { return a.v.String() }

func (a *allocatableFlag) Set(s string) error {
	v, err := check.ParseAllocatable(s)
	if err != nil {
		return err
	}
	a.v, a.set = v, true
	return nil
}
