package worker_test

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/detect"
	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/extract"
	"github.com/docket-dev/docket/loader/internal/worker"
)

// TestCodecRealResults: what the extractors return for the example inbox
// (PDFs with and without a text layer, OCR on, a scanned image, an e-mail
// with an attachment, a damaged PDF, HTML, DOCX, CSV, text, a text cut at
// max_doc_chars) comes through
// the codec as it came through gob, and between them the results have
// OCR words, tables, reviews, attachments and format metadata.
func TestCodecRealResults(t *testing.T) {
	inbox := filepath.Join("..", "..", "..", "examples", "inbox")
	var paths []string
	filepath.WalkDir(inbox, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			paths = append(paths, p)
		}
		return nil
	})
	if len(paths) < 10 {
		t.Fatalf("%d files in %s", len(paths), inbox)
	}
	// A text longer than max_doc_chars: cut, with a review.
	long := filepath.Join(t.TempDir(), "long.txt")
	os.WriteFile(long, []byte(strings.Repeat("many words on one line ", 3000)), 0o644)
	paths = append(paths, long)
	opts := document.Options{OCR: true, OCRLanguages: []string{"eng"}, OCRDPI: 150, OCRMinWordConf: 60, OCRReviewBelow: 60,
		MaxPageChars: 10_000, MaxDocChars: 50_000}
	has := map[string]bool{}
	for i, p := range paths {
		info, err := detect.Detect(p)
		if err != nil {
			t.Fatal(err)
		}
		res, err := extract.Route(context.Background(), worker.Request{Path: p, Type: info.Type, MIME: info.MIME, Encoding: info.Encoding, Opts: opts})
		resp := &worker.Response{ID: int64(i), Result: res, Duration: 1234}
		if err != nil {
			de, ok := err.(*document.Error)
			if !ok {
				t.Fatalf("%s: %v", p, err)
			}
			resp.Result, resp.Err = nil, de
			has["error"] = true
		}
		if res != nil {
			has["words"] = has["words"] || len(res.Words) > 0
			has["tables"] = has["tables"] || len(res.Tables) > 0
			has["reviews"] = has["reviews"] || len(res.Reviews) > 0
			has["attachments"] = has["attachments"] || len(res.Attachments) > 0
			has["extra"] = has["extra"] || len(res.Metadata.Extra) > 0
		}
		// The frame's buffer is sized once, from the result, not grown
		// step by step while it is written (one allocation; the
		// metadata's keys may take another), and not much over the frame.
		n, capacity := worker.EncodeResponse(resp)
		if allocs := testing.AllocsPerRun(3, func() { worker.EncodeResponse(resp) }); allocs > 2 {
			t.Errorf("%s: encoding its %d-byte answer allocated %.0f times", p, n, allocs)
		}
		if capacity > 2*n+4096 {
			t.Errorf("%s: a %d-byte answer in a buffer of %d bytes", p, n, capacity)
		}
		got, err := worker.RoundTripResponse(resp)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if want := worker.GobRoundTrip(t, resp); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the codec gives\n%+v\ngob gave\n%+v", p, got.Result, want.Result)
		}
	}
	for _, k := range []string{"words", "tables", "reviews", "attachments", "extra"} {
		if !has[k] {
			t.Errorf("no result had %s: the test does not cover them", k)
		}
	}
}
