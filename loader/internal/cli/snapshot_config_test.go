package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSnapshotConfigFromDbtProject: dbt_project.yml's snapshots: key sets
// snapshot configs per folder (+strategy, +unique_key, +check_cols,
// +target_schema, +tags), a snapshot's own config() wins, and docket ls
// lists snapshots (--resource-type snapshot, -s resource_type:snapshot).
func TestSnapshotConfigFromDbtProject(t *testing.T) {
	dir := tinyProject(t)
	write := func(rel, body string) {
		p := filepath.Join(dir, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(body), 0o644)
	}
	write("dbt_project.yml", `name: tiny
version: '1.0'
profile: tiny
snapshots:
  tiny:
    +target_schema: history
    +tags: [hist]
    people:
      +strategy: check
      +unique_key: id
      +check_cols: all
`)
	write("models/marts/people.sql", "{{ config(materialized='table') }}\nselect 1 as id, 'ada' as name, timestamp '2026-01-01' as ts\n")
	write("snapshots/people/people_history.sql", "{% snapshot people_history %}\nselect * from {{ ref('people') }}\n{% endsnapshot %}\n")
	write("snapshots/other.sql", "{% snapshot other_history %}\n{{ config(strategy='timestamp', unique_key='id', updated_at='ts', target_schema='elsewhere') }}\nselect * from {{ ref('people') }}\n{% endsnapshot %}\n")

	want := "snapshot\telsewhere.other_history\ttimestamp\nsnapshot\thistory.people_history\tcheck"
	for _, args := range [][]string{{"ls", "--resource-type", "snapshot"}, {"ls", "-s", "resource_type:snapshot"}, {"ls", "-s", "tag:hist"}} {
		if got := strings.TrimSpace(must(t, dir, args...)); got != want {
			t.Errorf("docket %v:\n%s\nwant:\n%s", args, got, want)
		}
	}
	if out := must(t, dir, "ls"); !strings.Contains(out, "snapshot\thistory.people_history\tcheck") || !strings.Contains(out, "model\tmain.people") {
		t.Errorf("docket ls lists models and snapshots:\n%s", out)
	}
	must(t, dir, "build")
	out := must(t, dir, "sql", "select (select count(*) from history.people_history where dbt_valid_to is null) || '/' || (select count(*) from elsewhere.other_history)")
	if !strings.Contains(out, "1/1") {
		t.Fatalf("both snapshots should hold the one person, in their schemas:\n%s", out)
	}
	// without the folder config, the people snapshot has no strategy
	write("dbt_project.yml", "name: tiny\nversion: '1.0'\nprofile: tiny\n")
	if out, code := run(t, dir, "ls", "--resource-type", "snapshot"); code != 2 || !strings.Contains(out, "people_history: strategy is required") {
		t.Fatalf("a snapshot without a strategy anywhere is a usage error, got %d:\n%s", code, out)
	}
}
