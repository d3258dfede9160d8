package runner

import (
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/runner/compiler"
)

// TestSelectorOperators: dbt's depth-limited graph operators, @,
// config.KEY:VALUE, test_type: and exposure: select what dbt selects
// (exposure: was an unknown method).
func TestSelectorOperators(t *testing.T) {
	m := parseFixture(t, "testdata/selectors.fixture")
	for sel, want := range map[string]string{
		"1+c":                       "b c x",
		"+c":                        "a b c x",
		"c+1":                       "c d",
		"2+d":                       "b c d x",
		"b+":                        "b c d",
		"@b":                        "a b c d x",
		"config.materialized:table": "a x",
		"config.unique_key:id":      "c",
		"config.tags:t1":            "a",
		// exposure: (a leaf docket does not run) selects its parents
		"+exposure:page_c":  "a b c x",
		"1+exposure:page_c": "c",
		"2+exposure:page_c": "b c x",
		"exposure:page_c":   "",
		"1+exposure:page_*": "b c d",
		"@exposure:page_bd": "a b c d x",
	} {
		ids, err := m.Select([]string{sel}, nil, compiler.Model)
		if err != nil {
			t.Errorf("%s: %v", sel, err)
			continue
		}
		var names []string
		for _, id := range ids {
			names = append(names, m.Nodes[id].Name)
		}
		if got := strings.Join(names, " "); got != want {
			t.Errorf("-s %s selected %q, want %q", sel, got, want)
		}
	}
	for sel, want := range map[string]string{
		"test_type:singular": "test.sel.d_not_empty",
		"test_type:generic":  "test.sel.unique_c_id",
	} {
		ids, err := m.Select([]string{sel}, nil, compiler.Test)
		if err != nil || strings.Join(ids, " ") != want {
			t.Errorf("-s %s selected %v (%v), want %s", sel, ids, err, want)
		}
	}
	if _, err := m.Select([]string{"test_type:nope"}, nil); err == nil {
		t.Errorf("test_type:nope should be an error")
	}
	if _, err := m.Select([]string{"+exposure:nope"}, nil); err == nil || !strings.Contains(err.Error(), "no exposure") {
		t.Errorf("+exposure:nope: %v, want an error naming it", err)
	}
}

// TestSelectExposures: with the exposure resource type asked for (docket
// ls), a selection holds exposures as dbt's does: exposure:x is the
// exposure itself (it selected nothing, so `docket ls -s exposure:x`
// printed nothing), +exposure:x the exposure and its ancestors, c+ the
// exposures downstream of c (c+1: those on c itself, an exposure being a
// level of the graph as in dbt), resource_type:exposure and no selection every exposure.
// Commands that run nodes never get one.
func TestSelectExposures(t *testing.T) {
	m := parseFixture(t, "testdata/selectors.fixture")
	for sel, want := range map[string]string{
		"exposure:page_c":        "exposure.sel.page_c",
		"exposure:page_*":        "exposure.sel.page_bd exposure.sel.page_c",
		"+exposure:page_c":       "exposure.sel.page_c model.sel.a model.sel.b model.sel.c model.sel.x",
		"c+":                     "exposure.sel.page_bd exposure.sel.page_c model.sel.c model.sel.d",
		"x+1":                    "model.sel.c model.sel.x",
		"c+1":                    "exposure.sel.page_c model.sel.c model.sel.d",
		"a+1":                    "model.sel.a model.sel.b",
		"d":                      "model.sel.d",
		"resource_type:exposure": "exposure.sel.page_bd exposure.sel.page_c",
		"":                       "exposure.sel.page_bd exposure.sel.page_c model.sel.a model.sel.b model.sel.c model.sel.d model.sel.x",
	} {
		var inc []string
		if sel != "" {
			inc = []string{sel}
		}
		ids, err := m.Select(inc, nil, compiler.Model, compiler.Exposure)
		if got := strings.Join(ids, " "); err != nil || got != want {
			t.Errorf("-s %q selected %q (%v), want %q", sel, got, err, want)
		}
	}
	if ids, err := m.Select([]string{"+exposure:page_c"}, []string{"exposure:page_c"}, compiler.Model, compiler.Exposure); err != nil ||
		strings.Join(ids, " ") != "model.sel.a model.sel.b model.sel.c model.sel.x" {
		t.Errorf("--exclude exposure:page_c: %v %v", ids, err)
	}
	if ids, err := m.Select([]string{"exposure:page_c"}, nil, compiler.Model, compiler.Test); err != nil || len(ids) != 0 {
		t.Errorf("exposure:page_c for a run: %v %v, want nothing", ids, err)
	}
	if ids, err := m.Select(nil, nil); err != nil || strings.Contains(strings.Join(ids, " "), "exposure.") {
		t.Errorf("no types: %v %v, want no exposure (only ls asks for them)", ids, err)
	}
}
