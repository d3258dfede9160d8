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
