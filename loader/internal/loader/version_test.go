package loader_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/docket-dev/docket/loader/internal/extract/version"
	"github.com/docket-dev/docket/loader/internal/warehouse"
)

// TestOutdatedExtractionsAreRedone: a content landed by an extractor
// version that is no longer current (here: the PDF extractor's version
// before extract/version, as an older docket recorded it) is extracted
// again by the next load, recorded as 'reextracted' for every document
// with those bytes, and then stays
// unchanged; the contents of current versions are not touched.
func TestOutdatedExtractionsAreRedone(t *testing.T) {
	dir := project(t)
	mustLoad(t, dir)
	const doc = `(select source_hash from raw.documents where rel_path = 'remote-work-policy.pdf')`
	exec := func(q string) {
		t.Helper()
		db, err := warehouse.Open(context.Background(), filepath.Join(dir, "warehouse.duckdb"), warehouse.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if _, err := db.SQL().Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if n := count(t, dir, `select count(*) from staging.extractions where status = 'landed' and extractor_version = '`+version.PDF+`+`+version.MuPDF+`' and source_hash = `+doc); n != 1 {
		t.Fatalf("the PDF's content should record %s+%s", version.PDF, version.MuPDF)
	}
	exec(`update staging.extractions set extractor_version = 'pdf-mupdf1.24.9-v4' where source_hash = ` + doc)
	exec(`update staging.pages set extractor_version = 'pdf-mupdf1.24.9-v4' where source_hash = ` + doc)
	runs := func() int { return count(t, dir, `select count(*) from ops.load_runs`) }
	before := runs()
	mustLoad(t, dir)
	last := `(select run_id from ops.load_runs order by started_at desc limit 1)`
	// examples/inbox holds the PDF twice (once in archive/): both
	// documents are re-extracted, their one content once.
	docs := count(t, dir, `select count(*) from raw.documents where source_hash = `+doc)
	if n := count(t, dir, `select count(*) from ops.document_events where run_id = `+last+` and event = 'reextracted' and source_hash = `+doc); n != docs || docs < 1 || runs() != before+1 {
		t.Fatalf("the %d documents of the outdated PDF should be re-extracted (%d events)", docs, n)
	}
	if n := count(t, dir, `select count(*) from ops.document_events where run_id = `+last+` and event <> 'reextracted'`); n != 0 {
		out, _ := docket(t, dir, nil, "sql", "select doc_id, event, error_message from ops.document_events where run_id = "+last)
		t.Errorf("%d other documents had events: only the outdated one should\n%s", n, out)
	}
	if n := count(t, dir, `select count(*) from staging.pages where source_hash = `+doc+` and extractor_version <> '`+version.PDF+`+`+version.MuPDF+`'`); n != 0 {
		t.Errorf("%d pages still carry the old version", n)
	}
	mustLoad(t, dir)
	if n := count(t, dir, `select count(*) from ops.document_events where run_id = `+last); n != 0 {
		t.Errorf("the load after it should have nothing to do, %d events", n)
	}
}
