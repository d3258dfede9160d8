package cli_test

import (
	"database/sql"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/extract/version"
	"github.com/docket-dev/docket/loader/internal/warehouse/whtest"
)

// A project as `docket init` scaffolded it before schema version 13 (the
// shipped models, macros and tests, which read staging.elements by rowid
// and select element_id) builds unchanged on a warehouse main's docket
// loaded at schema version 12, before and after the load that migrates it
// (element_id stored): a content the load did not extract again (same
// extractor version) keeps its chunks and elements, and every stored
// element_id is sha256(source_hash, 'element', seq).
func TestScaffoldedProjectBuildsAcrossSchema13(t *testing.T) {
	dir := shipped(t)
	// the fixture's documents as the project's inbox (the same source name
	// and paths)
	inbox := filepath.Join(dir, "examples", "inbox")
	os.RemoveAll(inbox)
	if err := os.CopyFS(inbox, os.DirFS(filepath.Join(whtest.Testdata(), "v12-inbox"))); err != nil {
		t.Fatal(err)
	}
	whtest.WriteSchema12(t, filepath.Join(dir, "warehouse.duckdb"))
	// the fixture's text content counts as the current text extractor's
	// output, so the load keeps it whatever text/N is now: the test needs
	// one content the load does not extract again, and each extractor bump
	// took one away (text/7 took the last: every content was extracted
	// again, nothing to compare; review42, session 43)
	markCurrent(t, filepath.Join(dir, "warehouse.duckdb"), "text/", version.Text)
	// per content: extractor version, md5 of its chunk ids, md5 of its elements' ids
	state := `select x.source_hash[1:16] as h, x.extractor_version as v, coalesce(c.m, '-') as c, coalesce(e.m, '-') as e
		from staging.extractions x
		left join (select source_hash, md5(string_agg(chunk_id, ',' order by chunk_id)) m from curated.doc_chunks group by 1) c using (source_hash)
		left join (select source_hash, md5(string_agg(doc_element_id || element_id, ',' order by doc_element_id)) m from staging.stg_elements group by 1) e using (source_hash)
		order by 1`
	read := func() map[string][]string {
		out := must(t, dir, "sql", state)
		m := map[string][]string{}
		for _, line := range strings.Split(out, "\n") {
			if f := strings.Fields(line); len(f) == 4 && len(f[0]) == 16 && f[0] != "h" {
				m[f[0]] = f[1:]
			}
		}
		return m
	}
	out := must(t, dir, "build", "-s", "+doc_chunks", "+stg_elements")
	if n := rows(t, out, "curated.doc_chunks"); n == 0 {
		t.Fatalf("doc_chunks chunked nothing of the schema-12 warehouse:\n%s", out)
	}
	before := read()
	if len(before) != 4 {
		t.Fatalf("fixture: %d contents, want 4: %v", len(before), before)
	}
	must(t, dir, "load", "--quiet")
	must(t, dir, "build", "--full-refresh", "-s", "+doc_chunks", "+stg_elements")
	after := read()
	same := 0
	for h, b := range before {
		a := after[h]
		if len(a) == 3 && a[0] == b[0] {
			same++
			if a[1] != b[1] || a[2] != b[2] {
				t.Errorf("content %s (not extracted again): chunks %s -> %s, elements %s -> %s", h, b[1], a[1], b[2], a[2])
			}
		}
	}
	t.Logf("%d of %d contents not extracted again: %v -> %v", same, len(before), before, after)
	if same == 0 {
		t.Errorf("every content was extracted again; nothing to compare: %v -> %v", before, after)
	}
	got := must(t, dir, "sql", `select count(*) filter (where element_id is distinct from sha256(source_hash || chr(0) || 'element' || chr(0) || seq::varchar || chr(0))) as wrong,
		(select count(*) from duckdb_tables() where schema_name = 'staging' and table_name = 'elements' and sql ilike '%generated%') as generated from staging.elements`)
	if !regexp.MustCompile(`(?m)^0\s+0\s*$`).MatchString(got) {
		t.Errorf("after the load, element_id should be stored and right:\n%s", got)
	}
}

// markCurrent records the contents of path's warehouse extracted by an
// extractor version starting with prefix (e.g. "text/") as extracted by
// current (that extractor's version now); exactly one must match.
func markCurrent(t *testing.T, path, prefix, current string) {
	t.Helper()
	db, err := sql.Open("duckdb", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, table := range []string{"staging.extractions", "staging.pages"} {
		res, err := db.Exec("update "+table+" set extractor_version = ? where extractor_version like ?", current, prefix+"%")
		if err != nil {
			t.Fatalf("%s: %v", table, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			t.Fatalf("%s: no row extracted by %s*", table, prefix)
		}
	}
	var n int
	if err := db.QueryRow("select count(distinct source_hash) from staging.extractions where extractor_version = ?", current).Scan(&n); err != nil || n != 1 {
		t.Fatalf("%d contents at %s, want 1 (%v)", n, current, err)
	}
}
