package apiserver

import (
	"github.com/rolloutmath/rolloutmath/internal/field"
	"github.com/rolloutmath/rolloutmath/internal/schema"
)

// Validation of a pod's volumes: upstream's ValidateVolumes and the
// validation of each volume source (pkg/apis/core/validation).

// validateVolumes is ValidateVolumes: unique DNS-label names and exactly
// one valid source each. It returns the volumes by name, for the
// containers' mounts.
func validateVolumes(volumes []schema.Volume, meta *schema.ObjectMeta, p *field.Path, opts podOptions) (map[string]*schema.VolumeSource, field.ErrorList) {
	var errs field.ErrorList
	byName := map[string]*schema.VolumeSource{}
	for i := range volumes {
		v := &volumes[i]
		vp := p.Index(i)
		namePath := vp.Child("name")
		var el field.ErrorList
		if v.Name == "" {
			el = append(el, field.RequiredValue(namePath, ""))
		} else {
			el = append(el, validateDNS1123Label(v.Name, namePath)...)
		}
		if _, dup := byName[v.Name]; dup {
			el = append(el, field.DuplicateValue(namePath, field.Quote(v.Name)))
		}
		if len(el) == 0 {
			byName[v.Name] = &v.VolumeSource
		} else {
			errs = append(errs, el...)
		}
	}
	return byName, errs
}
