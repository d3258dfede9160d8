package project

import (
	"strings"
	"testing"
)

// TestDbtProjectFlags: dbt_project.yml's flags: (a real dbt 1.12 project's
// send_anonymous_usage_stats: false; dbt-utils' integration tests'
// use_colors: True): fail_fast and warn_error are applied (warn_error_options
// naming dbt's events is warned), a flag whose value docket already
// has is taken silently, the others are warned at their line. It was one
// warning for the whole block ("flags: is a dbt setting docket does not act
// on"), fail_fast not applied.
func TestDbtProjectFlags(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "dbt_project.yml", "name: fl\nprofile: fl\nconfig-version: 2\nflags:\n  send_anonymous_usage_stats: false\n  use_colors: false\n"+
		"  fail_fast: true\n  warn_error: true\n  use_colors_file: true\n  warn_error_options: {include: [NoNodesForSelectionCriteria]}\n")
	p, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if p.DBT == nil || !p.DBT.FailFast || !p.DBT.WarnError {
		t.Errorf("flags: fail_fast: true, warn_error: true not applied")
	}
	var got []string
	for _, w := range p.Warnings {
		if strings.Contains(w.Msg, "flag") {
			got = append(got, w.String())
		}
	}
	want := "dbt_project.yml:9: flags: use_colors_file is a dbt flag docket does not act on|" +
		"dbt_project.yml:10: flags: warn_error_options: names dbt events (NoNodesForSelectionCriteria) that docket does not emit: its warnings stay warnings (include: all makes every one an error)"
	for i := range got {
		got[i] = got[i][strings.Index(got[i], "dbt_project.yml"):]
	}
	if g := strings.Join(got, "|"); g != want {
		t.Errorf("warnings:\n%s\nwant\n%s", g, want)
	}
}
