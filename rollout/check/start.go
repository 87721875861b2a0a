package check

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/rolloutmath/rolloutmath/rollout"
	"github.com/rolloutmath/rolloutmath/rollout/sim"
)

// start returns the state a simulation of d starts from, and how it was
// built: the input's ReplicaSets when it has d's, or d fully rolled out on
// its template (its ReplicaSet named as opts.Version's controller names
// it); then the images' changes, if any. The state's Options are opts.
func start(in *Input, d rollout.Deployment, images []Image, opts rollout.Options) (rollout.State, string, error) {
	now := in.start()
	var s rollout.State
	var from string
	if len(in.ownSets(d)) > 0 {
		s = in.state(d, now)
		from = "the ReplicaSets in the input"
	} else {
		s = sim.FromDeploymentWith(d, now, opts)
		from = "fully rolled out on its template"
	}
	s.Options = opts
	if len(images) == 0 {
		return s, from, nil
	}
	// Regular containers first: a bare --image sets the first of them.
	var names []string
	for _, init := range []bool{false, true} {
		for _, c := range d.Spec.Template.Spec.Images() {
			if c.Init == init {
				names = append(names, c.Name)
			}
		}
	}
	for i, image := range images {
		c := image.Container
		switch {
		case len(names) == 0:
			return rollout.State{}, "", fmt.Errorf("--image %s: Deployment %q has no containers", image, d.Name)
		case c == "":
			c = names[0]
		case !slices.Contains(names, c):
			return rollout.State{}, "", fmt.Errorf("--image %s: Deployment %q has no container %q (it has %s)", image, d.Name, c, strings.Join(names, ", "))
		}
		var err error
		if s, err = sim.WithImage(s, c, image.Image); err != nil {
			return rollout.State{}, "", fmt.Errorf("--image %s: %w", image, err)
		}
		sep := ", then image "
		if i > 0 {
			sep = ", "
		}
		from += fmt.Sprintf("%s%s=%s", sep, c, image.Image)
	}
	return s, from, nil
}

// An Image is a container's new image: Container "" is the first
// regular container.
type Image struct {
	Container, Image string
}

// String is "CONTAINER=IMAGE", or "IMAGE" for the first container.
func (i Image) String() string {
	if i.Container == "" {
		return i.Image
	}
	return i.Container + "=" + i.Image
}

// defaultStart is when a simulation starts if the input records no time.
func defaultStart() time.Time { return time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC) }

// templateImages lists the images of a pod template's init containers,
// then its containers.
func templateImages(t rollout.PodTemplate) []string {
	var out []string
	for _, c := range t.Spec.Images() {
		out = append(out, c.Image)
	}
	return out
}
