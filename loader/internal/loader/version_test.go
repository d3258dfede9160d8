package loader_test

import (
	"context"
	"os"
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
	if n := count(t, dir, `select count(*) from ops.document_events where run_id = `+last+` and event = 'reextracted' and source_hash = `+doc); n != docs || docs != 2 || runs() != before+1 {
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

// TestReusedParentOfOutdatedAttachmentIsExtracted: a new file whose bytes
// are those of a known email (the email renamed, or copied) is not reused
// as it is when one of its attachments' contents is outdated: the email
// is extracted again, every attachment lands with pages (none quarantined
// for want of an extraction) and the outdated one is extracted at the
// current version. The rename fails without the fix whenever no other
// file has the attachment's bytes (the twin service-agreement-scan.pdf
// removed: extracting them first, it could mask the bug).
func TestReusedParentOfOutdatedAttachmentIsExtracted(t *testing.T) {
	for _, c := range []struct {
		name         string
		byCopy, twin bool
	}{{"rename", false, false}, {"copy", true, false}, {"rename-with-twin", false, true}} {
		t.Run(c.name, func(t *testing.T) { reusedParentOfOutdated(t, c.byCopy, c.twin) })
	}
}

func reusedParentOfOutdated(t *testing.T, byCopy, twin bool) {
	dir := project(t)
	inbox := filepath.Join(dir, "inbox")
	if !twin {
		if err := os.Remove(filepath.Join(inbox, "service-agreement-scan.pdf")); err != nil {
			t.Fatal(err)
		}
	}
	mustLoad(t, dir)
	const att = `(select source_hash from raw.documents where rel_path = 'agreement-mail.eml#service-agreement.pdf')`
	if v := versionOf(t, dir, att); !version.Current(v) {
		t.Fatalf("the attachment's content records %q, not a current version", v)
	}
	db, err := warehouse.Open(context.Background(), filepath.Join(dir, "warehouse.duckdb"), warehouse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`update staging.extractions set extractor_version = 'pdf-mupdf1.24.9-v4' where source_hash = ` + att,
		`update staging.pages set extractor_version = 'pdf-mupdf1.24.9-v4' where source_hash = ` + att,
	} {
		if _, err := db.SQL().Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	db.Close()
	from, to := filepath.Join(inbox, "agreement-mail.eml"), filepath.Join(inbox, "agreement-mail-renamed.eml")
	if byCopy {
		b, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		err = os.WriteFile(to, b, 0o644)
	} else {
		err = os.Rename(from, to)
	}
	if err != nil {
		t.Fatal(err)
	}
	mustLoad(t, dir)
	const kidsD = `from raw.documents d where status <> 'deleted' and rel_path like 'agreement-mail-renamed.eml#%'`
	const kids = `from raw.documents where status <> 'deleted' and rel_path like 'agreement-mail-renamed.eml#%'`
	n := count(t, dir, `select count(*) `+kids)
	if n == 0 {
		t.Fatal("the renamed email has no attachments")
	}
	if q := count(t, dir, `select count(*) `+kids+` and status <> 'landed'`); q != 0 {
		out, _ := docket(t, dir, nil, "sql", "select rel_path, status, error_kind, error_message "+kids)
		t.Errorf("%d of %d attachments of the renamed email are not landed\n%s", q, n, out)
	}
	if p := count(t, dir, `select count(*) from (select d.doc_id `+kidsD+` and exists (select 1 from staging.pages p where p.source_hash = d.source_hash))`); p != n {
		t.Errorf("%d of %d attachments of the renamed email have pages", p, n)
	}
	const renamed = `(select source_hash from raw.documents where rel_path = 'agreement-mail-renamed.eml#service-agreement.pdf')`
	v := versionOf(t, dir, renamed)
	if !version.Current(v) {
		t.Errorf("the outdated attachment records %q: it should be extracted again at the current version", v)
	}
	if n := count(t, dir, `select count(*) from staging.pages where source_hash = `+renamed+` and extractor_version <> '`+v+`'`); n != 0 {
		t.Errorf("%d pages of the attachment still carry the old version", n)
	}
}

// versionOf is the extractor version of the landed content hash (a
// subquery) records.
func versionOf(t *testing.T, dir, hash string) string {
	t.Helper()
	db, err := warehouse.Open(context.Background(), filepath.Join(dir, "warehouse.duckdb"), warehouse.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var v string
	if err := db.SQL().QueryRow(`select extractor_version from staging.extractions where status = 'landed' and source_hash = ` + hash).Scan(&v); err != nil {
		t.Fatalf("version of %s: %v", hash, err)
	}
	return v
}

// TestUnsupportedWithAnExtractorNowIsRetried: a content an older docket
// quarantined unsupported_type ("no extractor for type odp yet", before
// office/10 routed ODP) is extracted again by the next plain load once its
// type has an extractor, instead of staying quarantined until someone
// thinks of --retry-quarantined. The DOCX stands in for the ODP: its
// rows are made what such a docket left (quarantined, no pages).
func TestUnsupportedWithAnExtractorNowIsRetried(t *testing.T) {
	dir := project(t)
	mustLoad(t, dir)
	const doc = `(select source_hash from raw.documents where rel_path = 'travel-guideline.docx')`
	db, err := warehouse.Open(context.Background(), filepath.Join(dir, "warehouse.duckdb"), warehouse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`update raw.documents set status = 'quarantined', error_kind = 'unsupported_type', error_message = 'no extractor for type "docx" yet' where source_hash = ` + doc,
		`update staging.extractions set status = 'quarantined', error_kind = 'unsupported_type', error_message = 'no extractor for type "docx" yet', page_count = null, extractor_version = '' where source_hash = ` + doc,
		`delete from staging.elements where source_hash = ` + doc,
		`delete from staging.pages where source_hash = ` + doc,
	} {
		if _, err := db.SQL().Exec(q); err != nil {
			db.Close()
			t.Fatalf("%s: %v", q, err)
		}
	}
	db.Close()
	mustLoad(t, dir)
	last := `(select run_id from ops.load_runs order by started_at desc limit 1)`
	if n := count(t, dir, `select count(*) from ops.document_events where run_id = `+last+` and event = 'retried' and source_hash = `+doc); n != 1 {
		t.Fatalf("the DOCX quarantined unsupported_type should be retried by a plain load (%d retried events)", n)
	}
	if n := count(t, dir, `select count(*) from raw.documents where status = 'landed' and source_hash = `+doc); n != 1 {
		t.Fatalf("the DOCX should land once retried")
	}
	if n := count(t, dir, `select count(*) from staging.pages where source_hash = `+doc); n == 0 {
		t.Fatalf("the retried DOCX landed no pages")
	}
	mustLoad(t, dir)
	if n := count(t, dir, `select count(*) from ops.document_events where run_id = `+last); n != 0 {
		t.Errorf("the load after it should have nothing to do, %d events", n)
	}
}
