package runner

import (
	"context"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/project"
	"github.com/docket-dev/docket/loader/internal/runner/compiler"
	"github.com/docket-dev/docket/loader/internal/runner/executor"
)

// TestFailFast: dbt's --fail-fast (-x, in real projects' CI scripts): after
// the first node that errors, no other starts; they are skipped, saying
// why. docket refused the flag ("flag provided but not defined").
func TestFailFast(t *testing.T) {
	files := shapeProject("ff", map[string]string{
		"models/a_bad.sql": "{{ config(materialized='table') }}\nselect * from no_such_table",
		"models/b.sql":     "{{ config(materialized='table') }}\nselect 1 as id",
		"models/c.sql":     "{{ config(materialized='table') }}\nselect 2 as id",
	})
	dir := writeProbe(t, files)
	db := shapeDB(t, dir)
	p, err := project.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	m, diags, err := compiler.Parse(p, compiler.ParseOptions{Owned: testOwned})
	if err != nil || len(diags) > 0 {
		t.Fatal(err, diags)
	}
	for _, ff := range []bool{false, true} {
		rr, err := executor.Execute(context.Background(), m, db, executor.RunOptions{Command: "run", Threads: 1, FailFast: ff, Force: true})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range rr.Results {
			got = append(got, r.Name+":"+r.Status)
			if r.Status == StatusSkipped && r.Message != "skipped: --fail-fast: model a_bad errored" {
				t.Errorf("%s: %q", r.Name, r.Message)
			}
		}
		want := "a_bad:error b:success c:success"
		if ff {
			want = "a_bad:error b:skipped c:skipped"
		}
		if g := strings.Join(got, " "); g != want {
			t.Errorf("fail-fast %v: %s, want %s", ff, g, want)
		}
	}
}
