package runner

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/project"
	"github.com/docket-dev/docket/loader/internal/runner/compiler"
	"github.com/docket-dev/docket/loader/internal/runner/executor"
	"github.com/docket-dev/docket/loader/internal/warehouse"
)

// hookRun parses a dbt project of files, runs `run` on the selected nodes
// (nil: all) and writes its artifacts under dir/target; it returns the
// results, Execute's error and the project folder.
func hookRun(t *testing.T, files map[string]string, selected ...string) (*executor.RunResults, error, string) {
	t.Helper()
	dir := writeProbe(t, files)
	rr, err := runDir(t, dir, selected...)
	return rr, err, dir
}

// runDir runs `run` in the project folder dir (again: its warehouse is
// kept) as hookRun does.
func runDir(t *testing.T, dir string, selected ...string) (*executor.RunResults, error) {
	t.Helper()
	db := shapeDB(t, dir)
	defer db.Close()
	return executeDir(t, dir, db, executor.RunOptions{Command: "run", Threads: 1, Selected: selected})
}

// executeDir parses the project folder dir and executes it on db with
// opts, writing and validating target/'s artifacts.
func executeDir(t *testing.T, dir string, db *warehouse.DB, opts executor.RunOptions) (*executor.RunResults, error) {
	t.Helper()
	p, err := project.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	m, diags, err := compiler.Parse(p, compiler.ParseOptions{Owned: testOwned})
	if err != nil || len(diags) > 0 {
		t.Fatal(err, diags)
	}
	rr, err := executor.Execute(context.Background(), m, db, opts)
	if rr == nil {
		t.Fatalf("no results: %v", err)
	}
	if werr := executor.WriteArtifacts(m, filepath.Join(dir, "target"), rr); werr != nil {
		t.Fatal(werr)
	}
	validateTarget(t, filepath.Join(dir, "target"))
	return rr, err
}

func idStatuses(rr *executor.RunResults) string {
	var out []string
	for _, r := range rr.Results {
		out = append(out, r.UniqueID+" "+r.Status)
	}
	return strings.Join(out, "\n")
}

// TestRunHookResults: on-run-start and on-run-end hooks are results as dbt
// 1.8+ writes them (operation.<project>.<project>-on-run-end-<i>, thread
// main, compile and execute timings) and nodes of manifest.json; the
// invocation_id the hooks and models rendered is run_results.json's, which
// carries dbt_version and a generated_at in dbt's format.
func TestRunHookResults(t *testing.T) {
	files := shapeProject("hk", map[string]string{"models/m.sql": "{{ config(materialized='table') }} select '{{ invocation_id }}' as id"})
	files["dbt_project.yml"] += "on-run-start: [\"create table {{ target.schema }}.started as select '{{ invocation_id }}' as id\"]\n" +
		"on-run-end:\n  - \"create table {{ target.schema }}.ended as select 1 as n\"\n  - \"select 1\"\n"
	rr, err, dir := hookRun(t, files)
	if err != nil {
		t.Fatal(err)
	}
	want := "operation.hk.hk-on-run-start-0 success\nmodel.hk.m success\noperation.hk.hk-on-run-end-0 success\noperation.hk.hk-on-run-end-1 success"
	if got := idStatuses(rr); got != want {
		t.Fatalf("results:\n%s\nwant:\n%s", got, want)
	}
	if h := rr.Results[0]; h.ThreadID != "main" || len(h.Timing) != 2 || h.Timing[0].Name != "compile" || h.Message != "hk.on-run-start.0 passed" {
		t.Errorf("hook result %+v", h)
	}
	var doc struct {
		Metadata map[string]any `json:"metadata"`
	}
	b, _ := os.ReadFile(filepath.Join(dir, "target", "run_results.json"))
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	db := shapeDB(t, dir)
	var fromHook, fromModel string
	if err := db.SQL().QueryRowContext(context.Background(), "select s.id, m.id from test_schema.started s, test_schema.m m").Scan(&fromHook, &fromModel); err != nil {
		t.Fatal(err)
	}
	if id := doc.Metadata["invocation_id"]; id != fromHook || id != fromModel {
		t.Errorf("run_results invocation_id %v; the hook saw %q, the model %q", id, fromHook, fromModel)
	}
	if doc.Metadata["dbt_version"] != compiler.DbtVersion {
		t.Errorf("dbt_version %v", doc.Metadata["dbt_version"])
	}
	if at, _ := doc.Metadata["generated_at"].(string); !regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$`).MatchString(at) {
		t.Errorf("generated_at %q is not dbt's format", at)
	}
	var man struct {
		Nodes map[string]map[string]any `json:"nodes"`
	}
	b, _ = os.ReadFile(filepath.Join(dir, "target", "manifest.json"))
	json.Unmarshal(b, &man)
	if h := man.Nodes["operation.hk.hk-on-run-end-1"]; h == nil || h["resource_type"] != "operation" || h["raw_code"] != "select 1" {
		t.Errorf("manifest node of the second on-run-end hook: %v", h)
	}
}

// TestRunStartHookFails: after an on-run-start hook fails, the hooks after
// it are skipped, the nodes are not run (each skipped) and the run's error
// is the hook's; the results are there to write (they were nil). The
// on-run-end hooks still run, as dbt's after_run runs them
// (Test__StartHookFail__SelectedNodesSkip__EndHookPass in dbt-core).
func TestRunStartHookFails(t *testing.T) {
	files := shapeProject("hk", map[string]string{"models/m.sql": "select 1 as id"})
	files["dbt_project.yml"] += "on-run-start: [\"select 1\", \"insert into no_such_table values (1)\", \"select 2\"]\n" +
		"on-run-end: [\"create table {{ target.schema }}.ended as select 1 as n\"]\n"
	rr, err, dir := hookRun(t, files)
	if err == nil || !strings.Contains(err.Error(), "on-run-start hook 2") {
		t.Errorf("error %v, want the second on-run-start hook's", err)
	}
	want := "operation.hk.hk-on-run-start-0 success\noperation.hk.hk-on-run-start-1 error\noperation.hk.hk-on-run-start-2 skipped\nmodel.hk.m skipped\n" +
		"operation.hk.hk-on-run-end-0 success"
	if got := idStatuses(rr); got != want {
		t.Fatalf("results:\n%s\nwant:\n%s", got, want)
	}
	if got := queryStrings(t, shapeDB(t, dir).SQL(), "select n::varchar from test_schema.ended"); len(got) != 1 || got[0] != "1" {
		t.Errorf("the on-run-end hook's table: %v", got)
	}
	if !strings.Contains(rr.Results[1].Message, "no_such_table") {
		t.Errorf("hook error message %q", rr.Results[1].Message)
	}
}

// TestGraphAtRun: a model reading graph and an on-run-end hook reading
// selected_resources render at run time with the whole graph and this
// run's selection (at parse they saw dbt's empty ones).
func TestGraphAtRun(t *testing.T) {
	files := shapeProject("g", map[string]string{"models/a.sql": "select 1 as id",
		"models/b.sql": "{{ config(materialized='table') }} select {{ graph.nodes.values() | selectattr('resource_type', 'equalto', 'model') | list | length }} as n"})
	files["dbt_project.yml"] += "on-run-end: [\"create table {{ target.schema }}.sel as select '{{ selected_resources | join(',') }}' as s\"]\n"
	rr, err, dir := hookRun(t, files, "model.g.b")
	if err != nil {
		t.Fatal(err)
	}
	if want := "model.g.b success\noperation.g.g-on-run-end-0 success"; idStatuses(rr) != want {
		t.Fatalf("results:\n%s", idStatuses(rr))
	}
	if got := queryStrings(t, shapeDB(t, dir).SQL(), "select n || ' ' || s from test_schema.b, test_schema.sel"); len(got) != 1 || got[0] != "2 model.g.b" {
		t.Errorf("models in graph, selected_resources: %v, want [2 model.g.b]", got)
	}
}
