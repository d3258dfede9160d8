package loader

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/warehouse"
)

// TestFreshBatchesLandOnce: a first load's Writer, one document a batch,
// into a real warehouse: a document landed again later in the same load
// (its content changed) and a content extracted again (another document
// with its bytes, a retry) are not Fresh, so the warehouse merges them;
// every key keeps one row, the document its last content and both
// versions. A landing
// marked Fresh wrongly is inserted without a look-up and leaves a second
// row (checked: markFresh setting Fresh on every landing of a fresh run
// fails here with raw.documents, staging.extractions and staging.pages
// duplicated; without its landedDocs test, raw.documents; without its
// landedHashes test, extractions and pages).
//
// The same with the four in one batch: the warehouse refuses a batch
// naming a document twice, and the Writer lands its landings one by one
// (landOneByOne); they kept the batch's Fresh marks, so the second
// landing of a and of h2 was inserted without a look-up beside the first.
func TestFreshBatchesLandOnce(t *testing.T) {
	for _, docs := range []int{1, 4} {
		t.Run(fmt.Sprintf("batches of %d", docs), func(t *testing.T) { freshBatchesLandOnce(t, docs) })
	}
}

func freshBatchesLandOnce(t *testing.T, docs int) {
	ctx := context.Background()
	db, err := warehouse.Open(ctx, filepath.Join(t.TempDir(), "warehouse.duckdb"), warehouse.Options{Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.EnsureSchema(ctx); err != nil {
		t.Fatal(err)
	}
	content := func(text string) *document.Result {
		res := &document.Result{Type: "text", Metadata: document.Metadata{Title: text},
			Pages: []document.Page{{Number: 1, Text: text, Method: document.MethodTextLayer}}, ExtractorVersion: "test"}
		document.Check(res)
		return res
	}
	landing := func(id, hash, text, event string) Family {
		return Family{Pages: 1, Landings: []warehouse.Landing{{
			Doc:   warehouse.DocRow{DocID: id, SourceName: "s", RelPath: id + ".txt", URI: "file:///" + id, Hash: hash, DetectedType: "text", Status: warehouse.StatusLanded},
			Event: event, Content: content(text), Extracted: true}}}
	}
	w := NewWriter(db, "r1", &Summary{})
	w.Limits.Docs, w.Limits.Pages, w.Limits.Every = docs, 100, time.Hour
	w.StartFresh()
	for _, f := range []Family{
		landing("a", "h1", "Stock report", "new"),
		landing("b", "h2", "Staff list", "new"),
		landing("a", "h3", "Stock report 2027", "changed"), // a again, new bytes
		landing("c", "h2", "Staff list", "new"),            // b's bytes, extracted again
	} {
		if err := w.Add(ctx, f); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	dups, err := db.DuplicateKeys(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(dups) > 0 {
		t.Errorf("rows beyond one per key: %v", dups)
	}
	rows, err := db.SQL().QueryContext(ctx, `select doc_id, source_hash, (select count(*) from raw.document_versions v where v.doc_id = d.doc_id) from raw.documents d order by doc_id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var got []string
	for rows.Next() {
		var id, h string
		var versions int
		if err := rows.Scan(&id, &h, &versions); err != nil {
			t.Fatal(err)
		}
		got = append(got, fmt.Sprint(id, " ", h, " ", versions))
	}
	if want := "a h3 2; b h2 1; c h2 1"; strings.Join(got, "; ") != want {
		t.Errorf("documents:\n got %s\nwant %s", strings.Join(got, "; "), want)
	}
}
