package pdf

import (
	"bytes"
	"fmt"
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

// eachObject calls fn with every object defined in data, in file order:
// its number, its generation and its dictionary (the bytes up to its
// stream or endobj), only for the last definition of each number (as in
// an incremental update); maxNum is the largest object number seen.
func eachObject(data []byte, fn func(num int, gen, dict []byte)) (maxNum int) {
	locs := objRe.FindAllSubmatchIndex(data, -1)
	last := make(map[int]int, len(locs)) // object number -> its last definition in locs
	nums := make([]int, len(locs))
	for i, l := range locs {
		nums[i], _ = strconv.Atoi(string(data[l[2]:l[3]]))
		last[nums[i]] = i
		maxNum = max(maxNum, nums[i])
	}
	for i, l := range locs {
		if last[nums[i]] != i {
			continue
		}
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
		fn(nums[i], data[l[4]:l[5]], body)
	}
	return maxNum
}

// declaredPages scans a PDF's bytes: the largest /Count of a /Pages node
// and the number of distinct page objects. Either is 0 when not found.
func declaredPages(data []byte) (count, objects int) {
	eachObject(data, func(_ int, _, dict []byte) {
		switch t := typeRe.Find(dict); {
		case t == nil:
		case bytes.HasSuffix(t, []byte("Pages")):
			if m := countRe.FindSubmatch(dict); m != nil {
				if c, _ := strconv.Atoi(string(m[1])); c > count {
					count = c
				}
			}
		default:
			objects++
		}
	})
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
	if d.rebuilt > 0 {
		return unsafe.Slice((*byte)(d.data), d.origSize) // without the tree docket appended
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

// withPageTree returns data with a page tree and a catalog appended that
// list the file's page objects (see declaredPages) in the order they
// appear, and a trailer naming them, for a file whose own tree is lost (a
// truncated file whose tree came last, a tree object deleted or broken):
// MuPDF, repairing the file, takes the last trailer's catalog. kids is 0
// (and fixed nil) when the file has no page object. The pages keep their
// /Parent to the lost tree: what they inherited from it (page size,
// resources) stays lost. The "endstream endobj" first closes an object
// the truncation left open, so that the repair does not read what
// follows as its stream data.
func withPageTree(data []byte) (fixed []byte, kids int) {
	var refs []string
	maxNum := eachObject(data, func(num int, gen, dict []byte) {
		if t := typeRe.Find(dict); t != nil && !bytes.HasSuffix(t, []byte("Pages")) {
			refs = append(refs, fmt.Sprintf("%d %s R", num, gen))
		}
	})
	if len(refs) == 0 || maxNum+2 > 1<<30 {
		return nil, 0
	}
	tree, cat := maxNum+1, maxNum+2
	fixed = append(data[:len(data):len(data)], fmt.Sprintf("\nendstream\nendobj\n%d 0 obj\n<< /Type /Pages /Kids [%s] /Count %d >>\nendobj\n%d 0 obj\n<< /Type /Catalog /Pages %d 0 R >>\nendobj\ntrailer\n<< /Size %d /Root %d 0 R >>\n%%%%EOF\n",
		tree, strings.Join(refs, " "), len(refs), cat, tree, cat+1, cat)...)
	return fixed, len(refs)
}
