package udf

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/embed"
	"github.com/docket-dev/docket/loader/internal/warehouse"
)

func TestUDFsInSQL(t *testing.T) {
	ctx := context.Background()
	p, err := embed.New(embed.Config{Provider: "hash", Dimensions: 64})
	if err != nil {
		t.Fatal(err)
	}
	db, err := warehouse.Open(ctx, filepath.Join(t.TempDir(), "w.duckdb"), warehouse.Options{UDFs: All(p)})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	c, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	one := func(q string) string {
		t.Helper()
		var s string
		if err := c.QueryRowContext(ctx, q).Scan(&s); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return s
	}
	if got := one(`select normalize_text('ﬁne   infor-' || chr(10) || 'mation')`); got != "fine information" {
		t.Errorf("normalize_text: %q", got)
	}
	// chunk offsets point into the original text (DuckDB substr is 1-based, code points).
	got := one(`with c as (select unnest(chunk_text('Ünïcode first paragraph here.' || chr(10) || chr(10) || 'Second paragraph follows with more words.', 30, 5)) as c)
		select string_agg(cast(substr('Ünïcode first paragraph here.' || chr(10) || chr(10) || 'Second paragraph follows with more words.', c.char_offset + 1, c.char_end - c.char_offset) = c.text as varchar), ',') from c`)
	if strings.Contains(got, "false") || got == "" {
		t.Errorf("chunk offsets do not reproduce the text: %s", got)
	}
	if got := one(`select len(chunk_text('a b c d e f g h i j k l m n o p q r s t', 20, 0, [10]))::varchar`); got == "0" {
		t.Errorf("chunk_text with boundaries returned nothing")
	}
	// chunk_elements leaves the footer out and does not cross the title.
	text := "Intro text here.\n\nScope\n\nBody of the scope.\n\nPage 1"
	got = one(`select string_agg(c.text || '|' || coalesce(c.section, '-'), ' / ') from (select unnest(chunk_elements('` + text + `', 100, 0,
		[{'char_start': 0, 'char_end': 16, 'category': 'NarrativeText', 'section': null},
		 {'char_start': 18, 'char_end': 23, 'category': 'Title', 'section': null},
		 {'char_start': 25, 'char_end': 43, 'category': 'NarrativeText', 'section': 'Scope'},
		 {'char_start': 45, 'char_end': 51, 'category': 'Footer', 'section': null}])) as c)`)
	if got != "Intro text here.|- / Scope\n\nBody of the scope.|Scope" {
		t.Errorf("chunk_elements: %q", got)
	}
	// a page without elements: plain chunks in chunk_elements' shape (it
	// failed with "invalid STRUCT field: expected section")
	if got := one(`select string_agg(c.text || '|' || coalesce(c.section, '-') || '|' || len(c.categories), ' / ') from (select unnest(chunk_elements('plain words without elements', 100, 0, []::STRUCT(char_start INTEGER, char_end INTEGER, category VARCHAR, section VARCHAR)[])) as c)`); got != "plain words without elements|-|0" {
		t.Errorf("chunk_elements without elements: %q", got)
	}
	// a table is chunked on its own, between rows, and says Table (it was
	// left out: its cells were in no chunk)
	page := "Costs for the year.\n\nItem Amount\nFreight 1,200.00\nZQ-77812 Customs 310.00\n\nAfter the table."
	got = one(`select string_agg(c.text || '|' || coalesce(c.section, '-') || '|' || array_to_string(c.categories, ',') || '|' ||
		(substr('` + strings.ReplaceAll(page, "\n", "' || chr(10) || '") + `', c.char_offset + 1, c.char_end - c.char_offset) = c.text)::varchar, ' / ')
		from (select unnest(chunk_elements('` + strings.ReplaceAll(page, "\n", "' || chr(10) || '") + `', 40, 10,
		[{'char_start': 0, 'char_end': 19, 'category': 'NarrativeText', 'section': 'Costs'},
		 {'char_start': 21, 'char_end': 73, 'category': 'Table', 'section': 'Costs'},
		 {'char_start': 75, 'char_end': 91, 'category': 'NarrativeText', 'section': 'Costs'}])) as c)`)
	if want := "Costs for the year.|Costs|NarrativeText|true / Item Amount\nFreight 1,200.00|Costs|Table|true / ZQ-77812 Customs 310.00|Costs|Table|true / After the table.|Costs|NarrativeText|true"; got != want {
		t.Errorf("chunk_elements with a table:\n got %q\nwant %q", got, want)
	}
	if got := one(`select round(jaccard_estimate(minhash('the quick brown fox jumps over the lazy dog', 2, 64), minhash('the quick brown fox jumps over the lazy dog', 2, 64)), 2)::varchar`); got != "1.0" {
		t.Errorf("jaccard of identical texts: %s", got)
	}
	if got := one(`select len(lsh_band_keys(minhash('alpha beta gamma delta', 2, 128), 20))::varchar`); got != "20" {
		t.Errorf("band keys: %s", got)
	}
	if got := one(`select detect_language('The committee approved the budget for the next financial year after a long debate.').lang`); got != "eng" {
		t.Errorf("language: %s", got)
	}
	if got := one(`select round(text_stats('a' || chr(10) || 'a' || chr(10) || 'b').unique_line_ratio, 2)::varchar`); got != "0.67" {
		t.Errorf("stats: %s", got)
	}
	if got := one(`select round(array_cosine_similarity(embed('robot maintenance'), embed('robot maintenance')), 3)::varchar`); got != "1.0" {
		t.Errorf("embed: %s", got)
	}
}
