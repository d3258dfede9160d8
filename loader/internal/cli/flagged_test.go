package cli_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/extract/pdf/pdftest"
)

// TestLoadSummarySaysFlagged: the load's summary line says how many
// landed documents were flagged for review; a document landed with a
// review reason (here a text file of white space: no_text) was counted as
// landed and nothing more, its reason only in staging.reviews.
func TestLoadSummarySaysFlagged(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"inbox/a.txt":     "Some words to load.\n",
		"inbox/blank.txt": " \n\t\n   \n",
		"project.yaml":    "version: 1\nsources:\n  - {name: inbox, path: inbox}\nloader:\n  workers: 1\n",
	})
	out := must(t, dir, "load", "--quiet")
	if want := "; 1 landed document(s) flagged for review (see staging.reviews)"; !strings.Contains(out, want) {
		t.Errorf("docket load: want %q in the summary, got:\n%s", want, out)
	}
}

// TestRepairedPDFFlagged: a PDF MuPDF has to repair (every cross-reference
// entry off) lands its pages with a repaired review in staging.reviews, and
// the load's summary counts it among the flagged documents; it landed with
// MuPDF's warnings only.
func TestRepairedPDFFlagged(t *testing.T) {
	pdf := pdftest.Make([]pdftest.Page{{Items: pdftest.Column(72, 72, "First page text here.")}, {Items: pdftest.Column(72, 72, "Second page text here.")}})
	pdf = regexp.MustCompile(`(?m)^\d{10} 00000 n `).ReplaceAll(pdf, []byte("0000000009 00000 n "))
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"inbox/damaged.pdf": string(pdf),
		"project.yaml":      "version: 1\nsources:\n  - {name: inbox, path: inbox}\nloader:\n  workers: 1\n",
	})
	out := must(t, dir, "load", "--quiet")
	if want := "; 1 landed document(s) flagged for review (see staging.reviews)"; !strings.Contains(out, want) {
		t.Errorf("docket load: want %q in the summary, got:\n%s", want, out)
	}
	got := query(t, dir, "select d.page_count || ' ' || r.reason_code || ' ' || (r.message like '%rebuilt the file''s index of objects%MuPDF found all 2 pages it declares%') from staging.reviews r join raw.documents d using (source_hash)")
	if len(got) != 1 || got[0] != "2 repaired true" {
		t.Errorf("staging.reviews: want one repaired review of the 2-page file, got %q", got)
	}
}
