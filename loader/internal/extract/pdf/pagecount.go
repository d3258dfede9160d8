package pdf

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
	"unsafe"
)

// The page count a damaged file declares. MuPDF's page count comes from the
// page tree; when it repairs a file (broken cross-reference table) or the
// tree fails to load, pages can vanish without an error: the tree it
// rebuilt or fell back to lists fewer pages than the file holds. The file
// itself still says how many there are, in two ways docket reads from the
// raw bytes (MuPDF's own objects are not reachable for pages the tree
// lost): the /Count of every /Type /Pages node (the root's is the largest)
// and the page objects (/Type /Page dictionaries, the last definition of
// each object number winning, as in an incremental update).
//
// Objects inside compressed object streams are not seen by this scan, so
// for such files the declared count can only be MuPDF's; the scan only runs
// on files that showed trouble (troubled), never on healthy ones, so it
// costs born-digital throughput nothing.

var (
	objRe   = regexp.MustCompile(`(?m)(?:^|[\s>])(\d{1,10})\s+(\d{1,5})\s+obj\b`)
	typeRe  = regexp.MustCompile(`/Type\s*/Pages?\b`)
	countRe = regexp.MustCompile(`/Count\s+(\d{1,9})`)
)

// declaredPages scans a PDF's bytes: the largest /Count of a /Pages node
// and the number of distinct page objects. Either is 0 when not found.
func declaredPages(data []byte) (count, objects int) {
	locs := objRe.FindAllSubmatchIndex(data, -1)
	isPage := map[int]bool{}
	for i, l := range locs {
		end := len(data)
		if i+1 < len(locs) {
			end = locs[i+1][0]
		}
		body := data[l[1]:end]
		if k := bytes.Index(body, []byte("endobj")); k >= 0 {
			body = body[:k]
		}
		if k := bytes.Index(body, []byte("stream")); k >= 0 {
			body = body[:k] // a page's dictionary comes before any stream data
		}
		num, _ := strconv.Atoi(string(data[l[2]:l[3]]))
		t := typeRe.Find(body)
		isPage[num] = t != nil && !strings.HasSuffix(string(t), "Pages")
		if t != nil && strings.HasSuffix(string(t), "Pages") {
			if m := countRe.FindSubmatch(body); m != nil {
				if c, _ := strconv.Atoi(string(m[1])); c > count {
					count = c
				}
			}
		}
	}
	for _, p := range isPage {
		if p {
			objects++
		}
	}
	return count, objects
}

// troubled reports whether MuPDF's messages say the file was repaired or
// its page tree did not load as written.
func troubled(warnings []string) bool {
	for _, w := range warnings {
		l := strings.ToLower(w)
		if strings.Contains(l, "repair") || strings.Contains(l, "page tree") || strings.Contains(l, "claims to have") {
			return true
		}
	}
	return false
}

// raw returns the document's bytes when it was opened from memory (files
// up to maxInMemory), else nil. The slice aliases C memory the Doc owns:
// do not keep it past Close.
func (d *Doc) raw() []byte {
	if d.data == nil || d.size == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(d.data), d.size)
}

// pageTreeTrouble is the first of MuPDF's messages saying the page tree
// did not load as written ("non-page object in page tree", "Page tree
// load failed"); "" when none does.
func pageTreeTrouble(warnings []string) string {
	for _, w := range warnings {
		if strings.Contains(strings.ToLower(w), "page tree") {
			return strings.TrimPrefix(w, "error: ")
		}
	}
	return ""
}
