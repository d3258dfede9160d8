// Command eval-load loads the whole shared corpus into a scratch warehouse
// with the real docket binary and reports: that the run completed, that
// every file is landed or quarantined with a reason, counts by detected
// type and status, the review reasons in staging (and any document landed
// with fewer pages than it declares and no pages_missing review: the
// target is zero), the pages marked needs_ocr, and, checked independently
// with pdftotext, how many OCR'd PDF pages had a usable text layer (the
// target is zero).
package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"unicode"

	"gopkg.in/yaml.v3"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/extract/pdf"
	"github.com/docket-dev/docket/loader/internal/warehouse"
	"github.com/docket-dev/docket/loader/tools/internal/bench"
)

// repairedWarning is a DuckDB lambda body over a warning w: MuPDF's
// messages that it repaired the file (as pdf.docRepairs reads them) or
// read past damage (pdf.DamageMarks, the table pdf.pageDamage reads).
var repairedWarning = `w ilike '%trying to repair%' or w ilike '%repairing pdf document%' or w ilike '%ignoring broken object%' or w ilike 'cannot load object (%' or ` +
	marksSQL(pdf.DamageMarks(document.ReviewRepaired))

// fontWarning is a DuckDB lambda body over a warning w: MuPDF's messages
// that a font could not be loaded or read as written (pdf.DamageMarks
// with code font_unreadable).
var fontWarning = marksSQL(pdf.DamageMarks(document.ReviewFontUnreadable))

// marksSQL is a DuckDB lambda body over a warning w that is true when w is
// in any of the classes ms (ilike: the marks are lower-case parts).
func marksSQL(ms []pdf.DamageMark) string {
	like := func(k string) string {
		if strings.ContainsAny(k, `'%_\`) {
			panic("eval-load: a damage mark needs escaping: " + k)
		}
		return "w ilike '%" + k + "%'"
	}
	var or []string
	for _, m := range ms {
		var ks []string
		for _, k := range m.Keys {
			ks = append(ks, like(k))
		}
		c := "(" + strings.Join(ks, " or ") + ")"
		if m.Not != "" {
			c = "(" + c + " and not " + like(m.Not) + ")"
		}
		or = append(or, c)
	}
	if len(or) == 0 {
		panic("eval-load: no damage marks")
	}
	return strings.Join(or, " or ")
}

func main() {
	corpus := flag.String("corpus", "../shared/corpus", "corpus folder")
	bin := flag.String("docket", "bin/docket", "docket binary")
	keep := flag.String("keep", "target/eval-corpus", "keep the loaded project in this folder (later evaluations reuse it); empty = a temporary folder")
	flag.Parse()
	if err := bench.Fresh(*bin); err != nil {
		fmt.Fprintln(os.Stderr, "eval-load:", err)
		os.Exit(1)
	}
	if _, err := os.Stat(*corpus); err != nil {
		fmt.Println("corpus not found, skipped")
		return
	}
	if err := run(*corpus, *bin, *keep); err != nil {
		fmt.Fprintln(os.Stderr, "eval-load:", err)
		os.Exit(1)
	}
}

func run(corpus, bin, keep string) error {
	corpus, _ = filepath.Abs(corpus)
	bin, _ = filepath.Abs(bin)
	dir := keep
	if dir == "" {
		var err error
		if dir, err = os.MkdirTemp("", "docket-eval-load-"); err != nil {
			return err
		}
		defer os.RemoveAll(dir)
	}
	os.RemoveAll(filepath.Join(dir, "warehouse.duckdb"))
	os.RemoveAll(filepath.Join(dir, "warehouse.duckdb.wal"))
	os.MkdirAll(dir, 0o755)
	// The shipped project.yaml with the corpus folders as sources, so later
	// evaluations can build the shipped models over the corpus.
	var proj map[string]any
	raw, err := os.ReadFile("project.yaml")
	if err != nil {
		return err
	}
	if err := yaml.Unmarshal(raw, &proj); err != nil {
		return err
	}
	var srcs []map[string]string
	entries, _ := os.ReadDir(corpus)
	for _, e := range entries {
		if e.IsDir() {
			srcs = append(srcs, map[string]string{"name": e.Name(), "path": filepath.Join(corpus, e.Name())})
		}
	}
	proj["sources"] = srcs
	proj["warehouse"] = "warehouse.duckdb"
	if l, ok := proj["loader"].(map[string]any); ok {
		l["timeout"] = "3m"
	}
	out, err := yaml.Marshal(proj)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "project.yaml"), out, 0o644); err != nil {
		return err
	}
	files := 0
	filepath.WalkDir(corpus, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() && !strings.Contains(p, "/.") {
			files++
		}
		return nil
	})
	cmd := exec.Command(bin, "load", "--json", "--quiet", "--project", dir)
	cmd.Stderr = os.Stderr
	out, err = cmd.Output()
	if err != nil {
		return fmt.Errorf("docket load failed: %w", err)
	}
	var sum map[string]any
	json.Unmarshal(out, &sum)
	fmt.Printf("load completed: %v files seen (%d on disk), %v landed, %v quarantined, %v pages (%v OCR) at %.1f pages/s in %.1fs\n",
		sum["seen"], files, sum["landed"], sum["quarantined"], sum["pages"], sum["ocr_pages"], sum["pages_per_second"], sum["duration_ns"].(float64)/1e9)
	fmt.Printf("landed documents flagged for review (load summary): %v\n", sum["flagged_for_review"])

	ctx := context.Background()
	db, err := warehouse.Open(ctx, filepath.Join(dir, "warehouse.duckdb"), warehouse.Options{ReadOnly: true})
	if err != nil {
		return err
	}
	defer db.Close()
	q := db.SQL()
	var unaccounted int
	q.QueryRow(`select count(*) from raw.documents where status not in ('landed','quarantined') or (status = 'quarantined' and (error_kind is null or error_message is null))`).Scan(&unaccounted)
	fmt.Printf("documents without a status or reason: %d\n", unaccounted)
	fmt.Println("\nby detected type and status:")
	table(q, `select detected_type, status, count(*) as docs, sum(page_count) as pages from raw.documents group by all order by detected_type, status`)
	fmt.Println("\nquarantined by reason:")
	table(q, `select error_kind, count(*) as docs, any_value(rel_path) as example, any_value(left(error_message, 90)) as message from raw.documents where status = 'quarantined' group by all order by docs desc`)
	fmt.Println("\npages by method:")
	table(q, `select method, needs_ocr, count(*) as pages, round(avg(ocr_confidence), 1) as mean_conf, count(review_reason) as review from staging.pages group by all order by all`)
	fmt.Println("\nreview reasons (staging.reviews), by reason:")
	table(q, `select reason_code, count(distinct source_hash) as contents, count(*) as reasons, any_value(left(message, 100)) as example from staging.reviews group by all order by contents desc`)
	var silent int
	q.QueryRow(`select count(*) from raw.documents d join staging.extractions x using (source_hash)
		where d.status = 'landed' and coalesce(d.page_count, 0) > coalesce(x.page_count, 0)
		and not exists (select 1 from staging.reviews r where r.source_hash = d.source_hash and r.reason_code = 'pages_missing')`).Scan(&silent)
	fmt.Printf("landed with fewer pages than declared and no pages_missing review (target 0): %d\n", silent)
	// A PDF MuPDF repaired (its warnings say so) lands with a repaired
	// review; the load summary counts it among the flagged documents.
	var repaired, repairedSilent int
	q.QueryRow(`select count(*), count(*) filter (where not exists (select 1 from staging.reviews r where r.source_hash = x.source_hash and r.reason_code = 'repaired'))
		from staging.extractions x where x.status = 'landed' and exists (select 1 from raw.documents d where d.source_hash = x.source_hash and d.detected_type = 'pdf') and len(list_filter(coalesce(x.warnings, []), w -> `+repairedWarning+`)) > 0`).Scan(&repaired, &repairedSilent)
	fmt.Printf("contents MuPDF repaired (xref rebuilt, objects left out, page syntax errors): %d, of them without a repaired review (target 0): %d\n", repaired, repairedSilent)
	var fonts, fontsSilent int
	q.QueryRow(`select count(*), count(*) filter (where not exists (select 1 from staging.reviews r where r.source_hash = x.source_hash and r.reason_code = 'font_unreadable'))
		from staging.extractions x where x.status = 'landed' and exists (select 1 from raw.documents d where d.source_hash = x.source_hash and d.detected_type = 'pdf') and len(list_filter(coalesce(x.warnings, []), w -> `+fontWarning+`)) > 0`).Scan(&fonts, &fontsSilent)
	fmt.Printf("contents with a font MuPDF could not load or read as written: %d, of them without a font_unreadable review (target 0): %d\n", fonts, fontsSilent)
	fmt.Println("\npages marked needs_ocr, per document:")
	table(q, `select d.source_name || '/' || d.rel_path as doc, list(p.page_number order by p.page_number) as pages
		from staging.pages p join raw.documents d using (source_hash) where p.needs_ocr and d.detected_type = 'pdf' group by all order by doc`)

	// OCR'd PDF pages: what their text layer held by MuPDF's reading
	// (recorded in staging.pages), checked independently with pdftotext.
	rows, err := q.Query(`select distinct d.source_uri, p.page_number, coalesce(p.text_layer_chars, 0), coalesce(p.text_layer_unmapped, 0)
		from staging.pages p join raw.documents d using (source_hash)
		where p.method = 'ocr' and d.detected_type = 'pdf' and d.parent_doc_id is null order by all`)
	if err != nil {
		return err
	}
	defer rows.Close()
	ocrd, usable, unmapped := 0, 0, 0
	var usableList, unmappedList []string
	for rows.Next() {
		var uri string
		var page, chars, bad int
		rows.Scan(&uri, &page, &chars, &bad)
		ocrd++
		path := strings.TrimPrefix(uri, "file://")
		txt, _ := exec.Command("pdftotext", "-q", "-f", fmt.Sprint(page), "-l", fmt.Sprint(page), path, "-").Output()
		n := 0
		for _, r := range string(txt) {
			if !unicode.IsSpace(r) && r != '\uFFFD' {
				n++
			}
		}
		if n < 50 {
			continue
		}
		where := fmt.Sprintf("%s p%d (pdftotext %d chars; MuPDF %d mapped, %d unmapped)", filepath.Base(path), page, n, chars, bad)
		if bad*2 > chars+bad {
			unmapped++ // MuPDF cannot map the glyphs: by docket's rule the layer is unusable
			unmappedList = append(unmappedList, where)
		} else {
			usable++
			usableList = append(usableList, where)
		}
	}
	fmt.Printf("\nOCR'd PDF pages: %d; with a usable text layer (pdftotext reads >= 50 characters and MuPDF maps them): %d %v\n", ocrd, usable, usableList)
	fmt.Printf("OCR'd because MuPDF leaves most glyphs unmapped although pdftotext reads them: %d %v\n", unmapped, unmappedList)
	return nil
}

func table(q *sql.DB, query string) {
	rows, err := q.Query(query)
	if err != nil {
		fmt.Println("  query failed:", err)
		return
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	fmt.Println("  " + strings.Join(cols, " | "))
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		rows.Scan(ptrs...)
		cells := make([]string, len(cols))
		for i, v := range vals {
			cells[i] = fmt.Sprint(v)
			if v == nil {
				cells[i] = "-"
			}
		}
		fmt.Println("  " + strings.Join(cells, " | "))
	}
}
