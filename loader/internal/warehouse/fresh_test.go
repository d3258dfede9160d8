package warehouse

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/docket-dev/docket/loader/internal/document"
)

// TestFreshLandsTheSame: batches landed as Fresh (Land looks nothing up)
// into an empty warehouse give the rows they give when Land looks up
// what the warehouse has, a document reusing a content landed by an
// earlier batch included (its title comes from the content's metadata).
func TestFreshLandsTheSame(t *testing.T) {
	ctx := context.Background()
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	res := &document.Result{Type: "text", Metadata: document.Metadata{Title: "Stock report"},
		Pages: []document.Page{{Number: 1, Text: "Every warehouse.", Method: document.MethodTextLayer}}, ExtractorVersion: "test"}
	document.Check(res)
	doc := func(id string) DocRow {
		return DocRow{DocID: id, SourceName: "s", RelPath: id + ".txt", URI: "file:///" + id, Hash: "h1", DetectedType: "text", Status: StatusLanded}
	}
	land := func(fresh bool) string {
		db := openWithSchema(t)
		batches := [][]Landing{
			{{Doc: doc("a"), Event: "new", Content: res, Extracted: true, Fresh: fresh}},
			{{Doc: doc("b"), Event: "new", Fresh: fresh}}, // a's content, landed before
		}
		for i, b := range batches {
			if err := db.Land(ctx, "r1", t0.Add(time.Duration(i)*time.Second), b, nil); err != nil {
				t.Fatal(err)
			}
		}
		var out string
		for _, q := range []string{
			`select doc_id, title, status, source_hash, first_seen_at, last_seen_at from raw.documents order by all`,
			`select doc_id, source_hash, first_seen_at from raw.document_versions order by all`,
			`select source_hash, status, coalesce(attempts, 1) from staging.extractions order by all`,
		} {
			rows, err := db.SQL().QueryContext(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			cols, _ := rows.Columns()
			vals, ptrs := make([]any, len(cols)), make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			for rows.Next() {
				rows.Scan(ptrs...)
				out += fmt.Sprintln(vals...)
			}
			rows.Close()
		}
		return out
	}
	looked, fresh := land(false), land(true)
	if looked != fresh {
		t.Errorf("Fresh landings gave\n%s\nlooked up:\n%s", fresh, looked)
	}
	if want := "b Stock report landed h1"; !strings.Contains(fresh, want) {
		t.Errorf("the reused document's row lacks %q:\n%s", want, fresh)
	}
}
