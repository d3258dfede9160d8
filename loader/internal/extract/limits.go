package extract

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/docket-dev/docket/loader/internal/document"
)

// LimitText bounds the text one document lands, in the worker, before the
// result crosses to the loader (issues 17 and 18: a 384 MB one-line text
// landed as one page and took the machine in `docket build`; a 2 GB-
// expanding spreadsheet landed a 5.1-million-character page).
//
//   - The single page of a flat format (text, HTML, ...) longer than
//     maxPage characters is split into pages of at most maxPage, cut after
//     a line end when one is in the last tenth: nothing is lost.
//   - A page of a paged format longer than maxPage is cut there, and the
//     page is flagged "truncated".
//   - Past maxDoc characters in all, the rest of the text is dropped (the
//     pages stay, empty) and the document is flagged "truncated".
//
// Elements are re-pointed to the pages they fall on and cut with their
// text; tables on dropped text go with it. 0 means no limit.
func LimitText(res *document.Result, maxPage, maxDoc int) {
	if res == nil || !overLimits(res, maxPage, maxDoc) {
		return
	}
	if maxPage <= 0 {
		maxPage = int(^uint(0) >> 1)
	}
	if maxDoc <= 0 {
		maxDoc = int(^uint(0) >> 1)
	}
	if len(res.Pages) == 1 && utf8.RuneCountInString(res.Pages[0].Text) > maxPage {
		splitPage(res, maxPage)
	}
	total := 0
	docCut := false
	cut := map[int]int{} // page number -> characters kept, for the pages cut
	for i := range res.Pages {
		p := &res.Pages[i]
		n := utf8.RuneCountInString(p.Text)
		room := min(maxPage, max(maxDoc-total, 0))
		if n > room {
			p.Text = prefixRunes(p.Text, room)
			p.CharCount = document.RealChars(p.Text)
			switch {
			case room < maxPage && !docCut:
				docCut = true
				if !slices.ContainsFunc(res.Reviews, func(r document.Review) bool { return r.Page == 0 && r.Code == document.ReviewTruncated }) {
					// (an extractor that stopped at max_doc_chars has said so)
					res.Flag(0, document.ReviewTruncated, "the document's text is over %d characters (loader.max_doc_chars); the text from page %d on was dropped", maxDoc, p.Number)
				}
			case room == maxPage:
				res.Flag(p.Number, document.ReviewTruncated, "the page had %d characters, over %d (loader.max_page_chars); the rest of it was cut", n, maxPage)
			}
			cut[p.Number] = room
			n = room
		}
		total += n
	}
	droppedTables := map[int]bool{}
	keep := res.Elements[:0]
	for _, e := range res.Elements {
		if lim, ok := cut[e.Page]; ok {
			if e.CharStart >= lim {
				if e.Category == document.TableCat && e.TableSeq >= 0 {
					droppedTables[e.TableSeq] = true
				}
				continue
			}
			if e.CharEnd > lim {
				e.Text = prefixRunes(e.Text, lim-e.CharStart)
				e.CharEnd = lim
			}
		}
		keep = append(keep, e)
	}
	res.Elements = keep
	if len(droppedTables) > 0 {
		var tables []document.Table
		renum := map[int]int{}
		for _, t := range res.Tables {
			if !droppedTables[t.Seq] {
				renum[t.Seq] = len(tables)
				t.Seq = len(tables)
				tables = append(tables, t)
			}
		}
		res.Tables = tables
		for i := range res.Elements {
			if e := &res.Elements[i]; e.Category == document.TableCat && e.TableSeq >= 0 {
				e.TableSeq = renum[e.TableSeq]
			}
		}
	}
	for i := range res.Elements {
		res.Elements[i].Seq = i
	}
}

// overLimits is the fast check: byte lengths bound character counts.
func overLimits(res *document.Result, maxPage, maxDoc int) bool {
	total := 0
	for _, p := range res.Pages {
		if maxPage > 0 && len(p.Text) > maxPage {
			return true
		}
		total += len(p.Text)
	}
	return maxDoc > 0 && total > maxDoc
}

// splitPage splits the one page of res into pages of at most maxPage
// characters, each cut after a line end in its last tenth when there is
// one, and moves the elements to their pages.
func splitPage(res *document.Result, maxPage int) {
	src := res.Pages[0]
	type seg struct{ byteStart, byteEnd, runeStart, runeEnd int }
	var segs []seg
	text := src.Text
	b, r := 0, 0
	for b < len(text) {
		end, n := b, 0
		for end < len(text) && n < maxPage {
			_, w := utf8.DecodeRuneInString(text[end:])
			end += w
			n++
		}
		if end < len(text) {
			// Back to the last line end in the segment's last tenth.
			if nl := strings.LastIndexByte(text[b:end], '\n'); nl >= 0 && nl >= (end-b)*9/10 {
				cut := b + nl + 1
				n -= utf8.RuneCountInString(text[cut:end])
				end = cut
			}
		}
		segs = append(segs, seg{b, end, r, r + n})
		b, r = end, r+n
	}
	pages := make([]document.Page, len(segs))
	for i, s := range segs {
		p := src
		p.Number = i + 1
		p.Text = text[s.byteStart:s.byteEnd]
		p.CharCount = document.RealChars(p.Text)
		pages[i] = p
	}
	res.Pages = pages
	res.Metadata.PageCount = len(pages)
	find := func(off int) int { // segment holding rune offset off
		lo, hi := 0, len(segs)-1
		for lo < hi {
			mid := (lo + hi + 1) / 2
			if segs[mid].runeStart <= off {
				lo = mid
			} else {
				hi = mid - 1
			}
		}
		return lo
	}
	for i := range res.Elements {
		e := &res.Elements[i]
		k := find(e.CharStart)
		s := segs[k]
		e.Page = k + 1
		if e.CharEnd > s.runeEnd {
			e.Text = prefixRunes(e.Text, s.runeEnd-e.CharStart)
			e.CharEnd = s.runeEnd
		}
		e.CharStart -= s.runeStart
		e.CharEnd -= s.runeStart
		if e.Category == document.TableCat && e.TableSeq >= 0 && e.TableSeq < len(res.Tables) {
			res.Tables[e.TableSeq].Page = e.Page
		}
	}
	res.Warnings = append(res.Warnings, fmt.Sprintf("one page of %d characters was split into %d pages of at most %d (loader.max_page_chars)",
		segs[len(segs)-1].runeEnd, len(segs), maxPage))
}

// prefixRunes is the first n code points of s.
func prefixRunes(s string, n int) string {
	if n <= 0 {
		return ""
	}
	i := 0
	for k := 0; k < n && i < len(s); k++ {
		_, w := utf8.DecodeRuneInString(s[i:])
		i += w
	}
	return s[:i]
}
