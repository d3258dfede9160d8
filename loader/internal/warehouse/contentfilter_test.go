package warehouse

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/docket-dev/docket/loader/internal/document"
)

// The content filter finds every landed content and rules out the
// others; a hash that is not hex rules out nothing.
func TestContentFilter(t *testing.T) {
	ctx := context.Background()
	db := openWithSchema(t)
	var batch []Landing
	var landed []string
	for i := 0; i < 300; i++ {
		h := hashHex("content", fmt.Sprint(i))
		landed = append(landed, h)
		batch = append(batch, Landing{Doc: DocRow{DocID: hashHex("doc", fmt.Sprint(i)), SourceName: "s", RelPath: fmt.Sprint(i), URI: "file:///x", Hash: h, Status: StatusLanded},
			Event: "new", Extracted: true, Content: &document.Result{Type: "txt", ExtractorVersion: "test", Pages: []document.Page{{Number: 1, Text: "x", Method: document.MethodNative}}}})
	}
	if err := db.Land(ctx, "r1", time.Now(), batch, nil); err != nil {
		t.Fatal(err)
	}
	f, err := db.ContentFilter(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range landed {
		if !f.MayHave(h) {
			t.Fatalf("landed content %s ruled out", h)
		}
	}
	out := 0
	for i := 0; i < 1000; i++ {
		if !f.MayHave(hashHex("other", fmt.Sprint(i))) {
			out++
		}
	}
	if out != 1000 {
		t.Errorf("%d of 1,000 contents the warehouse lacks ruled out", out)
	}
	if !f.MayHave("not-hex-at-all-xyz") {
		t.Error("a hash that is not hex ruled out")
	}
	// two of them (their count was once scanned into a bool, which takes
	// only 0 and 1)
	if _, err := db.SQL().ExecContext(ctx, `insert into staging.extractions (source_hash, extractor_version, status, extracted_at) values ('zz', 'v', 'landed', now()), ('yy', 'v', 'landed', now())`); err != nil {
		t.Fatal(err)
	}
	if f, err = db.ContentFilter(ctx); err != nil {
		t.Fatal(err)
	}
	if !f.MayHave(hashHex("other", "0")) {
		t.Error("a warehouse with a hash that is not hex: a content ruled out")
	}
}

// setAttempts counts one more extraction of each content it is given,
// and of no other.
func TestSetAttempts(t *testing.T) {
	ctx := context.Background()
	db := openWithSchema(t)
	if _, err := db.SQL().ExecContext(ctx, `insert into staging.extractions (source_hash, extractor_version, status, extracted_at, attempts)
		values ('a', 'v', 'landed', now(), 1), ('b', 'v', 'landed', now(), 2), ('c', 'v', 'landed', now(), 1)`); err != nil {
		t.Fatal(err)
	}
	c, err := db.SQL().Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := setAttempts(ctx, c, map[string]int{"a": 1, "b": 2}); err != nil {
		t.Fatal(err)
	}
	var got string
	if err := c.QueryRowContext(ctx, `select string_agg(source_hash || attempts, ' ' order by source_hash) from staging.extractions`).Scan(&got); err != nil {
		t.Fatal(err)
	}
	if got != "a2 b3 c1" {
		t.Fatalf("attempts: %s", got)
	}
}
