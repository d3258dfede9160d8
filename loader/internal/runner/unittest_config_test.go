package runner

import (
	"slices"
	"strings"
	"testing"
)

// TestProjectUnitTestsConfig: dbt_project.yml's unit_tests: configs apply
// by the unit test's fqn (its YAML file's folders under models/, the
// model, the test's name), below the test's own config: tags add up,
// meta merges, enabled: false leaves it out; any other +key is warned at
// its line. Before, unit_tests: was an unknown key, warned and not applied.
func TestProjectUnitTestsConfig(t *testing.T) {
	ut := func(name, model, cfg string) string {
		return "  - name: " + name + "\n    model: " + model + "\n" + cfg +
			"    given: []\n    expect:\n      rows: [{id: 1}]\n"
	}
	dir := writeProbe(t, map[string]string{
		"dbt_project.yml": "name: shop\nversion: '1'\nconfig-version: 2\nprofile: p\n" +
			"unit_tests:\n  shop:\n    +tags: [unit]\n    +materialized: table\n    staging:\n      +meta: {owner: ana, tier: 2}\n" +
			"      off:\n        +enabled: false\n",
		"profiles.yml":            "p:\n  target: dev\n  outputs:\n    dev: {type: duckdb, path: shop.duckdb, schema: main}\n",
		"models/staging/stg.sql":  "select 1 as id",
		"models/staging/off.sql":  "select 1 as id",
		"models/marts/m.sql":      "select 1 as id",
		"models/staging/unit.yml": "unit_tests:\n" + ut("t_stg", "stg", "    config: {tags: [mine], meta: {tier: 3}}\n") + ut("t_off", "off", ""),
		"models/marts/unit.yml":   "unit_tests:\n" + ut("t_m", "m", ""),
	})
	m, diags := parseProbe(t, dir)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	stg, mart := m.Nodes["unit_test.shop.stg.t_stg"], m.Nodes["unit_test.shop.m.t_m"]
	if stg == nil || mart == nil {
		t.Fatalf("unit tests missing: %v %v", stg, mart)
	}
	if n := m.Nodes["unit_test.shop.off.t_off"]; n != nil {
		t.Errorf("t_off is built, but +enabled: false covers models/staging/off")
	}
	if got := stg.Config.Tags; !slices.Equal(got, []string{"unit", "mine"}) {
		t.Errorf("t_stg tags %v, want [unit mine]", got)
	}
	if got := stg.Config.Meta.Vals; got["owner"] != "ana" || got["tier"] != 3 {
		t.Errorf("t_stg meta %v, want owner ana, tier 3 (its own)", got)
	}
	if got := mart.Config.Tags; !slices.Equal(got, []string{"unit"}) || mart.Config.Meta.Len() != 0 {
		t.Errorf("t_m tags %v meta %v, want [unit] and no meta", got, mart.Config.Meta)
	}
	var warns []string
	for _, w := range m.Warnings {
		warns = append(warns, w.String())
	}
	all := strings.Join(warns, "\n")
	if !strings.Contains(all, "unit_tests: +materialized is not a unit test config") || !strings.Contains(all, "dbt_project.yml:8:") || strings.Contains(all, "unit_tests: is") {
		t.Errorf("warnings:\n%s", all)
	}
}
