package runner

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/docket-dev/docket/loader/internal/project"
	"github.com/docket-dev/docket/loader/internal/runner/compiler"
	"github.com/docket-dev/docket/loader/internal/runner/executor"
	"github.com/docket-dev/docket/loader/internal/warehouse"
)

// TestShippedStaging builds the repository's models/sources.yml and
// models/staging over a small landed warehouse and runs their tests.
func TestShippedStaging(t *testing.T) {
	ctx := context.Background()
	repo, _ := filepath.Abs("../../..")
	src := filepath.Join(repo, "models")
	if _, err := os.Stat(filepath.Join(src, "staging")); err != nil {
		t.Skip("no models/staging in the repository")
	}
	dir := t.TempDir()
	copyFile := func(rel string) {
		b, err := os.ReadFile(filepath.Join(src, rel))
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(dir, "models", rel), b)
	}
	copyFile("sources.yml")
	entries, _ := os.ReadDir(filepath.Join(src, "staging"))
	for _, e := range entries {
		copyFile(filepath.Join("staging", e.Name()))
	}
	writeFile(t, filepath.Join(dir, "project.yaml"), []byte("version: 1\nname: shipped\nmodels:\n  staging: {+materialized: view}\n"))
	p, err := project.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	m, diags, err := compiler.Parse(p, compiler.ParseOptions{Owned: testOwned, UDFs: testFuncs})
	if err != nil || len(diags) > 0 {
		t.Fatalf("parse: %v %v", err, diags)
	}
	db, err := warehouse.Open(ctx, p.Warehouse, warehouse.Options{UDFs: testUDFs})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.EnsureSchema(ctx); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		// d1 and d2 share content h1; d3 is a tombstone of h1; d4 is quarantined
		`insert into raw.documents (doc_id, source_name, rel_path, source_uri, source_hash, status, first_seen_at, last_seen_at, last_run_id) values
			('d1','s','a.pdf','file:///a.pdf','h1','landed',now(),now(),'r1'),
			('d2','s','copy.pdf','file:///copy.pdf','h1','landed',now(),now(),'r1'),
			('d3','s','gone.pdf','file:///gone.pdf','h1','deleted',now(),now(),'r1'),
			('d4','s','bad.pdf','file:///bad.pdf','h9','quarantined',now(),now(),'r1'),
			('d5','s','old.pdf','file:///old.pdf','h3','landed',now(),now(),'r1')`,
		// Load runs write only the documents they act on: r3, a later
		// completed load of source s, saw every live document of s; r4
		// failed; r5 loaded another source.
		`insert into ops.load_runs (run_id, started_at, status, options) values
			('r3', now() + interval 1 hour, 'completed', '{"sources":["s"]}'),
			('r4', now() + interval 2 hour, 'failed', '{"sources":["s"]}'),
			('r5', now() + interval 3 hour, 'completed', '{"sources":["other"]}')`,
		`insert into raw.document_versions values ('d1','h1',now(),'r1',now(),'r1',1), ('d5','h2',now(),'r1',now(),'r1',1), ('d5','h3',now(),'r2',now(),'r2',1)`,
		`insert into staging.pages (source_hash, page_number, text, char_count, method, needs_ocr, extractor_version, extracted_at) values
			('h1',1,'one',3,'text_layer',false,'1',now()), ('h1',2,'two',3,'ocr',false,'1',now()),
			('h2',1,'old version',11,'text_layer',false,'1',now()), ('h3',1,'new version',11,'text_layer',false,'1',now())`,
		// element_id is stored since schema version 13 (the loader
		// computes it; here SQL does, as the migration does)
		`insert into staging.elements (source_hash, seq, page_number, category, text, char_start, char_end) values
			('h1',0,1,'Title','one',0,3), ('h2',0,1,'NarrativeText','old',0,3), ('h3',0,1,'NarrativeText','new',0,3)`,
		`update staging.elements set element_id = sha256(source_hash || chr(0) || 'element' || chr(0) || seq::varchar || chr(0))`,
		`insert into staging.tables (table_id, source_hash, table_seq, page_number, header, cells, n_rows, n_cols) values
			('t1','h1',0,1,['a','b'],[['1','2']],1,2)`,
	} {
		if _, err := db.SQL().ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	for round := 0; round < 2; round++ {
		rr, err := executor.Execute(ctx, m, db, executor.RunOptions{Command: "build", Threads: 2})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("round %d: %d results", round, len(rr.Results))
		for _, r := range rr.Results {
			t.Logf("%s %s", r.UniqueID, r.Status)
			if r.Status != executor.StatusSuccess && r.Status != executor.StatusPass {
				t.Errorf("round %d: %s %s: %s %v", round, r.UniqueID, r.Status, r.Message, r.Sample)
			}
		}
	}
	for q, want := range map[string]int{
		"select count(*) from staging.stg_documents": 4,
		"select count(*) from staging.stg_document_sightings where last_run_id = 'r3' and last_seen_at > now() + interval 30 minute": 4,
		"select count(*) from staging.stg_documents where last_written_run_id = 'r1'":                                                4,
		"select count(*) from staging.stg_pages":                                                                                     5, // 2 pages x (d1, d2) + d5's current page
		"select count(*) from staging.stg_pages where text = 'old version'":                                                          0,
		"select count(*) from staging.stg_elements":                                                                                  3,
		"select count(*) from staging.stg_tables":                                                                                    2,
	} {
		var got int
		if err := db.SQL().QueryRowContext(ctx, q).Scan(&got); err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("%s = %d, want %d", q, got, want)
		}
	}
	for _, n := range m.Nodes {
		if n.ResourceType == compiler.Model && m.UDFCalled(n.CompiledCode) != "" {
			t.Errorf("%s calls a Go UDF", n.Name)
		}
	}
}
