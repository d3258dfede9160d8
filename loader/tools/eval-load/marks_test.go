package main

import (
	"database/sql"
	"strings"
	"testing"

	_ "github.com/duckdb/duckdb-go/v2"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/extract/pdf"
)

// TestWarningSQLFollowsTable: the lambdas eval-load counts silent damage
// with take every message class of pdf's table (a message holding any
// key, in MuPDF's own capitals, is counted unless it holds the class's
// exclusion), and count no message of the other code or none at all.
func TestWarningSQLFollowsTable(t *testing.T) {
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	counted := func(body, w string) bool {
		t.Helper()
		var n int
		if err := db.QueryRow(`select len(list_filter([?], w -> `+body+`))`, w).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n == 1
	}
	for _, tc := range []struct {
		code, body, other string
	}{{document.ReviewRepaired, repairedWarning, fontWarning}, {document.ReviewFontUnreadable, fontWarning, repairedWarning}} {
		ms := pdf.DamageMarks(tc.code)
		if len(ms) < 2 {
			t.Fatalf("%s: %d classes", tc.code, len(ms))
		}
		for _, m := range ms {
			for _, k := range m.Keys {
				w := "warning: " + strings.ToUpper(k[:1]) + k[1:] + " (12 0 R)"
				if !counted(tc.body, w) || counted(tc.other, w) {
					t.Errorf("%s: %q counted %v, by the other code %v", tc.code, w, counted(tc.body, w), counted(tc.other, w))
				}
				if m.Not != "" && counted(tc.body, w+": "+m.Not) {
					t.Errorf("%s: %q counted despite %q", tc.code, w, m.Not)
				}
			}
		}
	}
	for _, w := range []string{"invalid link destination", "ICC colorspace N=0 does not match profile N=3 (ignoring profile)", "zlib error: inflateEnd: stream error"} {
		if counted(repairedWarning, w) || counted(fontWarning, w) {
			t.Errorf("%q counted", w)
		}
	}
}
