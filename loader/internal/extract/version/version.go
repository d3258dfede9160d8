// Package version names the version of every extractor's output. A
// content's staging.extractions.extractor_version is the versions of the
// extractors that made it, joined by "+" ("pdf/5+mupdf/1.24.9+ocr/2": the
// text layer read by MuPDF 1.24.9, some pages OCR'd). A load extracts a
// landed content again when one of its versions is no longer current
// (Current), so bump an extractor's constant here whenever its output for
// the same file changes, and only that extractor's contents are redone: a
// change to OCR redoes the PDFs and images that were OCR'd, not every PDF.
//
// It is a package of its own, without dependencies, so that the loader can
// judge versions without linking any extractor.
package version

import (
	"sort"
	"strings"
)

// The current versions, one per extractor (component).
const (
	PDF     = "pdf/57"       // 57: session 29: tables: a boxed fixed-pitch text is a code listing only when its lines are mostly one phrase (a data table in a typewriter font, its columns spaces apart, is a table again; review32); 56: session 29: tables: a box with no rule between columns around text in a fixed-pitch font (a code listing ruled line by line, a terminal's output) is no table; 55: session 29: text the page's clip hides is not read (a spreadsheet cell's overflow under the next cell, clipped-away copies, slugs outside a crop), a glyph the clip cuts keeps the part that shows, and the text after a glyph cut at its end is a word of its own ("Elizab" and "2165", not "Elizab2165"); 54: session 28: tables: a cell's lines of Chinese or Japanese text wrapped at its edge join without a space (a space stays next to Latin text and in Korean); 53: session 28: JPEG 2000 images are not decoded where no page needs their pixels (images.c): OpenJPEG's messages about such an image, and the repaired review a failed decode raised on a text page, are gone, and an image that cannot be decoded on a text page is an Image element; pages whose images decide their fate are read decoded as before; 52: session 28: tables: a lower-case row label whose first word would have fit on the label above inside its cell ruled on the right is a row of its own, not the label's wrapped line (labelSpans); a label's lower-case wrap keeps its row (stubWraps) only where rules run between the body's rows; 51: session 28: tables: in a table ruled between every column, a band whose lines each hold a label and a number in each of the same two or more columns right of it is a row per line (numbers do not wrap); 50: session 28: tables: a row label wrapped lower-case onto the next line of its band (a word that would not have fit, after an opening bracket too: "Grade 2", then "(intermediate") keeps its row whatever the cells beside it start with (a new sentence, a second item under a phone number), and a lead-in in a larger size does not set the label's first line apart from the rest of its cell; 49: session 27: tables: two unruled tables with two rules apart between them (one's bottom rule, the other's top rule) are not joined back into one; 48: session 27: tables: a bar chart is looked for from six vertical rules (three bars' edges), not eight, the rest of its test unchanged; 47: session 27: tables: short lines with phrases a padding apart line up with the line past a short one-phrase line (a row of blank cells but one), not only with the next; 46: session 27: tables: two rules at different heights in one gap of a run of aligned lines (a table's bottom rule and the next one's top rule) cut the run there, when each side has three lines of phrases; 45: session 27: tables: a one-row table's cells are its phrases, column by column (the grid's gaps joined heads a padding apart); 44: session 27: tables: two lines lined up phrase by phrase (head phrases of words, the row with a number after the first column or a date, or three columns or more), no line in their size close under inside their width, are a table of one row under its heads; 43: session 26: tables: a bar chart's axis labels, a line or two under its x axis and left of its y axis, are the chart's, not a table's under it; 42: session 26: tables: a row-ruled or zebra table's last row under its last rule is read from the part of its line inside the table's extent when the rest stands a gutter away (a block beside); 41: session 26: tables: a last row under a table's last rule or shading, in the run's width and size with its phrases at the run's columns, is the table's row, not the page's footer (the region's last lines under it); 40: session 26: tables: a page body in two columns of running text is read column by column (pageColumns): a table in one column keeps the other column's lines out, two-column lines around a table are no rows of it; 39: session 25: tables: a short line whose phrases are a cell's padding apart (0.55 of a size), lined up with a neighbouring such line's, is a line of a table's run; 38: session 25: tables: a table ruled between its rows with no rule under it keeps its last row, under the last rule; 37: session 25: tables: a line of running text running on past a table's right edge ends its run (two tables set tight around a paragraph line stay two); heads a cell's padding apart are phrases of their own in headerAbove's crossing test (the grid's 0.55-size gap); 36: session 25: tables: a paragraph's last line set tight over a table (a sentence's tail, or a whole line over a label column) is no head and no first row's label; 35: session 24: tables: the grid tells columns apart from 0.55 of a size (0.7 before; Han text keeps 0.7): columns a cell's padding apart are columns; 34: session 24: tables: a sum line over a total's amounts right under a group's label alone is no row rule (the label and the total stay two rows); 33: session 24: tables: a head row with a stub head over the first body row (values), in one band above the first row stripe, is a row of its own (timetables); 32: session 24: tables: under heads right of the stub, the first body row (a label and a number) is a row of its own when row stripes leave heads and row in one band; 31: session 24: tables: a statement's heads under a lone "Note" head are heads, not a note; outdented group labels (two in a row) keep the rows above them in the table; a title and unit line set apart (half a size more than the run's line gap) above a table at its leading are no heads of it; 30: session 24: tables: two tables side by side with their rows level and of other shapes (a gutter twice as wide as any column gap, empty in every line, after a column of numbers or times) are two tables, not one; 29: session 23: tables: a first column of sentences wrapped over several lines, in blocks starting level with each row's short cells, is a column of cells, not a paragraph beside the table, and a table whose long text is all in one column is kept; 28: session 23: tables: a frame with no rule inside around a line of running text is a text box, not a ruled table (a table inside it is read as in running text); 27: session 23: tables: a table right under another at the same row pitch is a table of its own when one has an aligned column right of all the other's text (splitRun had no wider gap to cut at); 26: session 22: tables: a line set half a line between the two lines of cells wrapped beside it (a browser centres a cell in its row) is in their row; 25: session 22: tables: sum lines (rules over a subtotal's amounts only, starting right of the stub, amounts above and below) are no row boundaries, so the stub labels around them stay in their own rows; 24: a glyph whose ToUnicode gives several right-to-left letters (a lam-alef ligature) has its box shared out among them, first letter at the right, so they read in order ("الأخير", not "األخير") (session 21); 23: session 21: tables: a text-only table whose columns hold short cells of about equal width (codes, names, two-word labels) is found (review24); 22: session 21: tables: a page's running head as close to the line under it as a table's lines, over a narrower table, is no row of it; 21: Arabic presentation forms (U+FB50-U+FDFF, U+FE70-U+FEFF) are read as their NFKC letters at the page walk, a ligature as several characters sharing its box (session 21); 20: session 21: tables: a small table of text only in left-aligned columns (no rules, numbers or bold heads) is found; a paragraph line between two tables stays out of the one above; 19: a MuPDF message past the per-page cap of 64 that says text may be missing or wrong still gives its review reason, the first of each kind kept (session 21); 18: tables: up to 6 value lines (was 3) under a table's last row join its description, a value's meaning going on under its words stays in the cell, value lines with " -- ", a first column of line numbers that rows share counts as a table's, a column head wrapped over lines centred on its last is kept over the table; a value line naming "*" under a description is more of it, not a note ending the table; a flood of MuPDF errors on a page no longer drops the warnings that sum it up, so a page whose rest MuPDF ignored is flagged repaired; a compressed stream whose only fault is its checksum is said in milder words; a file over 256 MB whose page tree is lost lands its page objects (session 20); 17: MuPDF's messages that text may be missing or wrong are review reasons: a corrupt compressed stream, text shown before any font, a content part not loaded (repaired), a font it could not load (font_unreadable); 16: tables: value lines under a field's description join its row, a running head is no table's, a centred group label stays in its table, side-by-side tables whose own gap is wider than the gutter split, a footer without a rule kept out; a rebuilt page tree follows the surviving /Pages nodes; an open-time "premature end of data" is flagged repaired (session 19); 15: a file MuPDF repaired, or a page it read past damage in, is flagged repaired; a PDF whose page tree is lost lands its page objects (session 18); 14: column heads wrapped bottom-aligned are one header cell (session 15); 13: a text-only table under a "Table N." caption is read as one; continuation cues stricter (session 12); 12: a table continued from the page before is marked (Table.Continues); 11: tables of session 10 (a paragraph beside a table at its row pitch kept out); 10: tables of session 9 (blocks side by side lined up apart: gutter split before the rows); 9: tables of session 8 (tables side by side with offset rows, numbers on a wrapped label's last line); 8: tables of session 7 (wide first line of a wrapped label, ...); 7: table changes landed after 6 (two body rows under a header rule, wrapped row labels); 6: tables (row-ruled, notes cut off, spans of centred group headers, ...); 5: the OCR'd pages' word boxes on the page as it is
	MuPDF   = "mupdf/1.24.9" // the MuPDF release the PDF reader is built against (pdf.MuPDFVersion)
	OCR     = "ocr/2"        // 2: orientation by trial readings when OSD is unsure; boxes in the page's own pixels
	Image   = "image/2"      // 2: a turned image's size and boxes as the file has them
	HTML    = "html/15"      // 15: session 29: each Han, hiragana or katakana character counts as a word in the checks against trafilatura (a Chinese or Japanese paragraph was one or a few words); 14: session 29: when trafilatura finds too little on its own, its fallback judges readability's blocks against readability's node as it cleans it (dates, captions, buttons out), unless its text without the fallback chose another part of the page; 13: session 28: a standfirst the page's meta description repeats, within 8 blocks above the main content, is put back at its head; 12: session 28: the article's edges are at long blocks trafilatura's text has in order (not only their words): a byline, date or credit under a standfirst or tag list is judged as an edge; 11: session 27: readability's choice is widened to trafilatura's at 1.5x its words when trafilatura's text opens with words readability lacks; 10: session 26: a trafilatura error or panic is said in content_check (readability kept unchecked), not taken for a page it found too little on; 9: session 26: a repeated block is held once on such pages; 8: session 26: on a page where trafilatura's choice is taken, blocks of under three words (menu items) and wordless ones are kept only inside the article (review29); 7: session 26: trafilatura's choice is taken when under half of readability's words are in its text; long blocks need half their words in it (was a fifth); 6: session 26: short blocks at the article's edges that trafilatura's text lacks are dropped, and readability's choice is widened to the page's blocks trafilatura holds when it took a part (content_by trafilatura); 5: session 25: pages over 4 MB of HTML are not checked by trafilatura (content_check says so); 4: readability's long blocks that go-trafilatura left out are dropped; content_by recorded
	Text    = "text/4"       // 4: text decoded twice (UTF-8 read as Latin-1 or Windows-1252) is flagged unexpected_chars however small its share (document.Check); a reStructuredText or Org file with include directives is flagged includes_missing (session 20); 3: a LaTeX document without a folder of its own (an attachment) is flagged includes_missing; a message holding a LaTeX document is a message, re-detected when its content is extracted again (session 19); 2: LaTeX footnotes in parentheses, apart from the word before (and a re-extraction picks up the \input files loads could not find)
	Office  = "office/2"     // 2: rows past loader.max_sheet_rows are a truncated review (a warning only before); a DOCX or ODT whose body XML breaks off lands the text before the damage flagged truncated (session 20)
	Email   = "email/3"      // 3: what the MIME parser lost is said in plain words naming the part (session 19); 2: a part with no header lines read as plain text (a signed message was quarantined); signed messages say so
	Archive = "archive/2"    // 2: members that could not be read are a review (members_unreadable), a damaged .gz is corrupt, a .gz member is named after the document
	Router  = "docket/1"     // a routed type whose extractor names no version
)

var current = map[string]bool{PDF: true, MuPDF: true, OCR: true, Image: true, HTML: true, Text: true,
	Office: true, Email: true, Archive: true, Router: true}

// All is every current component, sorted and joined: what a worker greets
// with and `docket-worker --versions` prints, so that docket can tell its
// own worker from another build's (or from a program that is no
// docket-worker at all) before it uses the worker's answers.
func All() string {
	parts := make([]string, 0, len(current))
	for p := range current {
		parts = append(parts, p)
	}
	sort.Strings(parts)
	return Join(parts...)
}

// Join joins component versions into one recorded version.
func Join(parts ...string) string { return strings.Join(parts, "+") }

// With adds a component to a recorded version (once).
func With(v, part string) string {
	if v == "" {
		return part
	}
	for _, p := range strings.Split(v, "+") {
		if p == part {
			return v
		}
	}
	return v + "+" + part
}

// Current reports whether every component of a recorded version is a
// current one. An empty version (a content recorded without one, e.g.
// quarantined) is current: there is nothing to compare.
func Current(v string) bool {
	if v == "" {
		return true
	}
	for _, p := range strings.Split(v, "+") {
		if !current[p] {
			return false
		}
	}
	return true
}
