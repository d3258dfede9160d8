package runner

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/project"
	"github.com/docket-dev/docket/loader/internal/runner/compiler"
	"github.com/docket-dev/docket/loader/internal/runner/executor"
	"github.com/docket-dev/docket/loader/internal/warehouse"
)

var scopedProject = map[string]string{
	"project.yaml":   "version: 1\nname: fixture\n",
	"seeds/docs.csv": "doc_id\nd1\nd2\nd3\nd4\nd5\n",
	// an incremental model keyed by document: each build writes the chunks
	// of documents it has not seen
	"models/curated/chunks.sql": `{{ config(materialized='incremental', incremental_strategy='delete+insert', unique_key='doc_id') }}
select doc_id, chunk_id, val from main.src
{% if is_incremental() %}where doc_id not in (select doc_id from {{ this }}){% endif %}
`,
	"models/curated/schema.yml": `version: 2
models:
  - name: chunks
    columns:
      - name: chunk_id
        tests: [unique, not_null]
      - name: val
        tests:
          - accepted_values: {values: [a, b]}
      - name: doc_id
        tests:
          - relationships: {to: ref('docs'), field: doc_id}
`,
	"tests/no_bad_vals.sql": "{{ config(scoped_to = 'chunks') }}\nselect * from {{ ref('chunks') }} where val = 'bad'\n",
	"tests/whole.sql":       "select * from {{ ref('chunks') }} where val = 'never'\n",
}

// TestScopedTestsCheckWrittenRows: after a test passed, `docket build`
// checks tests of an incremental model against only the rows the model
// wrote since (a new row repeating an old key is still caught by unique,
// a new null or bad value by not_null/accepted_values/the scoped singular
// test); a defect planted in an old row is outside the scope and found by
// --force; a failed test is checked whole next time; relationships is
// scoped while its parent is unchanged; a test that does not declare a
// scope is always checked whole.
func TestScopedTestsCheckWrittenRows(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	for name, body := range scopedProject {
		writeFile(t, filepath.Join(dir, name), []byte(body))
	}
	p, err := project.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	db, err := warehouse.Open(ctx, p.Warehouse, warehouse.Options{UDFs: testUDFs})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	exec := func(q string) {
		t.Helper()
		if _, err := db.SQL().ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	build := func(opts executor.RunOptions) map[string]executor.Result {
		t.Helper()
		m, diags, err := compiler.Parse(p, compiler.ParseOptions{Owned: testOwned, UDFs: testFuncs})
		if err != nil || len(diags) > 0 {
			t.Fatalf("parse: %v %v", err, diags)
		}
		opts.Command, opts.Threads = "build", 2
		rr, err := executor.Execute(ctx, m, db, opts)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]executor.Result{}
		for _, r := range rr.Results {
			if r.Status == executor.StatusError || r.Status == executor.StatusSkipped {
				t.Fatalf("%s %s: %s", r.UniqueID, r.Status, r.Message)
			}
			out[r.Name] = r
		}
		return out
	}
	const (
		unique   = "unique_chunks_chunk_id"
		notNull  = "not_null_chunks_chunk_id"
		accepted = "accepted_values_chunks_val__a__b"
		rel      = "relationships_chunks_doc_id__doc_id__ref_docs_"
		single   = "no_bad_vals"
		whole    = "whole"
	)
	scoped := func(r executor.Result) bool { return r.Scoped != "" && strings.Contains(r.Message, "scoped: ") }
	expect := func(step string, rs map[string]executor.Result, want map[string]string) {
		t.Helper()
		for name, w := range want {
			r, ok := rs[name]
			if !ok {
				t.Fatalf("%s: no result for %s", step, name)
			}
			got := r.Status
			if scoped(r) {
				got += " scoped"
			}
			if got != w {
				t.Errorf("%s: %s = %s (%q), want %s", step, name, got, r.Message, w)
			}
		}
	}

	exec("create table main.src (doc_id varchar, chunk_id varchar, val varchar)")
	exec("insert into main.src values ('d1', 'c1', 'a'), ('d1', 'c2', 'a')")
	expect("first build", build(executor.RunOptions{}), map[string]string{unique: "pass", notNull: "pass", accepted: "pass", rel: "pass", single: "pass", whole: "pass"})

	exec("insert into main.src values ('d2', 'c3', 'b')")
	expect("one document more", build(executor.RunOptions{}), map[string]string{unique: "pass scoped", notNull: "pass scoped",
		accepted: "pass scoped", rel: "pass scoped", single: "pass scoped", whole: "pass"})

	// an old row goes bad behind the model's back (outside every scope);
	// a new document repeats an old chunk id, has a null id, a bad value
	exec("update curated.chunks set val = 'zzz' where chunk_id = 'c1'")
	exec("insert into main.src values ('d3', 'c2', 'a'), ('d3', null, 'bad')")
	rs := build(executor.RunOptions{})
	expect("defects in new rows", rs, map[string]string{unique: "fail scoped", notNull: "fail scoped",
		accepted: "fail scoped", rel: "pass scoped", single: "fail scoped"})
	if f := rs[accepted].Failures; f == nil || *f != 1 {
		t.Errorf("accepted_values scoped: %v failures, want 1 (the new 'bad'; the old 'zzz' is outside the scope)", f)
	}
	if s := rs[unique].Sample; s == nil || len(s.Rows) != 1 || s.Rows[0][0] != "c2" {
		t.Errorf("unique scoped sample: %+v, want c2 (a new row repeating an old key)", s)
	}

	// fix the new rows; the tests that failed are checked whole, which
	// finds the old row too; --force checks everything whole
	exec("delete from main.src where doc_id = 'd3'")
	exec("delete from curated.chunks where doc_id = 'd3'")
	exec("insert into main.src values ('d4', 'c4', 'a')")
	rs = build(executor.RunOptions{})
	expect("after the failures", rs, map[string]string{unique: "pass", notNull: "pass", accepted: "fail", single: "pass", rel: "pass scoped"})
	rs = build(executor.RunOptions{Force: true})
	expect("--force", rs, map[string]string{unique: "pass", notNull: "pass", accepted: "fail", rel: "pass", single: "pass", whole: "pass"})

	exec("update curated.chunks set val = 'a' where chunk_id = 'c1'")
	expect("repaired", build(executor.RunOptions{Force: true}), map[string]string{accepted: "pass"})
	exec("insert into main.src values ('d5', 'c5', 'b')")
	expect("scoped again", build(executor.RunOptions{}), map[string]string{unique: "pass scoped", accepted: "pass scoped", rel: "pass scoped"})

	// the parent of relationships changes: checked whole
	writeFile(t, filepath.Join(dir, "seeds/docs.csv"), []byte("doc_id\nd1\nd2\nd4\nd5\nd6\n"))
	exec("insert into main.src values ('d6', 'c6', 'a')")
	expect("parent changed", build(executor.RunOptions{}), map[string]string{rel: "pass", unique: "pass scoped"})

	// a full refresh of the model alone breaks the chain: the next build
	// checks whole, and the one after is scoped again
	build(executor.RunOptions{FullRefresh: true, Selected: []string{"model.fixture.chunks"}})
	exec("insert into main.src values ('d7', 'c7', 'a')")
	expect("after a full refresh", build(executor.RunOptions{}), map[string]string{unique: "pass", accepted: "pass", single: "pass"})
	exec("insert into main.src values ('d8', 'c8', 'a')")
	expect("chain again", build(executor.RunOptions{}), map[string]string{unique: "pass scoped", accepted: "pass scoped"})
}

// TestRunnerTablesAreProtected: a model landing on the runner's own
// records (ops.build_state, ops.build_deltas) is a parse error.
func TestRunnerTablesAreProtected(t *testing.T) {
	for _, name := range []string{"build_state", "build_deltas"} {
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, "project.yaml"), []byte("version: 1\nname: fixture\n"))
		writeFile(t, filepath.Join(dir, "models/ops/"+name+".sql"), []byte("{{ config(materialized='table') }}\nselect 1 as x\n"))
		p, err := project.Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		_, diags, err := compiler.Parse(p, compiler.ParseOptions{Owned: testOwned, UDFs: testFuncs})
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, d := range diags {
			found = found || strings.Contains(d.Msg, "would replace ops."+name)
		}
		if !found {
			t.Errorf("a model named ops.%s was not refused: %v", name, diags)
		}
	}
}
