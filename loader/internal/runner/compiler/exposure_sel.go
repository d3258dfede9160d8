package compiler

import "strings"

// Exposure is the resource type of a YAML exposure in a selection: docket
// runs nothing for one, but `docket ls` lists the exposures a selection
// holds as dbt ls does (exposure:x is the exposure itself, x+ takes the
// exposures downstream of x). Only a caller that asks for this type
// (Select(..., Exposure)) gets their ids, exposure.<project>.<name> as in
// manifest.json.
const Exposure = "exposure"

// exposureRef is one exposure as a selection sees it.
type exposureRef struct {
	id, name string
	parents  []string // the nodes and sources its depends_on names
}

// exposureRefs is the project's exposures that have a name.
func (m *Manifest) exposureRefs() []exposureRef {
	var out []exposureRef
	for _, it := range m.Unacted["exposures"] {
		name := ystrAny(it.Item["name"])
		if name == "" {
			continue
		}
		_, _, nodes := m.refDeps(strList(it.Item["depends_on"]))
		out = append(out, exposureRef{id: "exposure." + m.Name + "." + name, name: name, parents: nodes})
	}
	return out
}

// IsExposure reports whether id is one of the project's exposures.
func (m *Manifest) IsExposure(id string) bool {
	if !strings.HasPrefix(id, Exposure+".") {
		return false
	}
	for _, e := range m.exposureRefs() {
		if e.id == id {
			return true
		}
	}
	return false
}

// ExposureType is the exposure's type as manifest.json gives it
// (dashboard, notebook, analysis, ml or application).
func (m *Manifest) ExposureType(id string) string {
	for _, it := range m.Unacted["exposures"] {
		if "exposure."+m.Name+"."+ystrAny(it.Item["name"]) == id {
			t, _ := oneOf(it.Item["type"], []string{"dashboard", "notebook", "analysis", "ml", "application"}, "application").(string)
			return t
		}
	}
	return ""
}

// addExposures adds to out the exposures of exps (m.exposureRefs())
// within depth levels below id (-1 all): an exposure is a child of the
// nodes it depends on, so one on id itself is at level 1.
func (m *Manifest) addExposures(out map[string]bool, exps []exposureRef, id string, depth int) {
	if len(exps) == 0 || depth == 0 {
		return
	}
	near := map[string]bool{id: true}
	if depth != 1 {
		d := depth - 1
		if depth < 0 {
			d = -1
		}
		for x := range m.walkDepth(id, m.Children, d) {
			near[x] = true
		}
	}
	for _, e := range exps {
		for _, p := range e.parents {
			if near[p] {
				out[e.id] = true
				break
			}
		}
	}
}
