package pdf

import (
	"bytes"
	"fmt"
	"os"
	"regexp"
	"slices"
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
	locs := allHeaders(data)
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
		switch c, page := objKind(dict); {
		case page:
			objects++
		case c > count:
			count = c
		}
	})
	return count, objects
}

// objKind reads an object's dictionary: page reports a /Type /Page, and
// count is a /Pages node's /Count (0 without one); -1 for any other object.
func objKind(dict []byte) (count int, page bool) {
	switch t := typeRe.Find(dict); {
	case t == nil:
		return -1, false
	case bytes.HasSuffix(t, []byte("Pages")):
		if m := countRe.FindSubmatch(dict); m != nil {
			count, _ = strconv.Atoi(string(m[1]))
		}
		return count, false
	}
	return -1, true
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
// list the file's page objects (see declaredPages), and a trailer naming
// them, for a file whose own tree is lost (a truncated file whose tree
// came last, a tree object deleted or broken): MuPDF, repairing the file,
// takes the last trailer's catalog. The pages come in the order the
// surviving /Pages nodes of the lost tree list them (pageOrder), then
// those no node lists (loose: an incremental update may have removed them
// from the tree), in file order. kids is 0 (and fixed nil) when the file
// has no page object. The pages keep their /Parent to the lost tree: what
// they inherited from it (page size, resources) stays lost. The
// "endstream endobj" first closes an object the truncation left open, so
// that the repair does not read what follows as its stream data.
func withPageTree(data []byte) (fixed []byte, kids, loose int) {
	var s treeScan
	s.maxNum = eachObject(data, s.add)
	tail, kids, loose := s.tail()
	if kids == 0 {
		return nil, 0, 0
	}
	return append(data[:len(data):len(data)], tail...), kids, loose
}

// treeScan collects what withPageTree needs from a file's objects, in
// file order, a number defined again replacing its earlier definition
// (as in an incremental update): from eachObject, or streamed from a file
// too large for memory (scanObjects).
type treeScan struct {
	pages  map[int]string // page object number -> its reference ("7 0 R")
	nodes  map[int][]int  // /Pages node number -> its kids
	counts map[int]int    // /Pages node number -> its /Count (0 without one)
	seq    map[int]int    // object number -> the place of its last definition
	n      int            // definitions seen
	maxNum int            // the largest object number seen
}

// add takes one object definition (its number, generation, dictionary).
func (s *treeScan) add(num int, gen, dict []byte) {
	if s.seq == nil {
		s.pages, s.nodes, s.counts, s.seq = map[int]string{}, map[int][]int{}, map[int]int{}, map[int]int{}
	}
	s.maxNum = max(s.maxNum, num)
	delete(s.pages, num)
	delete(s.nodes, num)
	delete(s.counts, num)
	s.seq[num] = s.n
	s.n++
	switch t := typeRe.Find(dict); {
	case t == nil:
	case bytes.HasSuffix(t, []byte("Pages")):
		s.nodes[num] = kidsOf(dict)
		s.counts[num], _ = objKind(dict)
	default:
		s.pages[num] = fmt.Sprintf("%d %s R", num, gen)
	}
}

// tail is the page tree, catalog and trailer withPageTree appends (kids
// 0 and tail nil when the file has no page object).
func (s *treeScan) tail() (tail []byte, kids, loose int) {
	if len(s.pages) == 0 || s.maxNum+2 > 1<<30 {
		return nil, 0, 0
	}
	var pageNums, nodeNums []int // in file order
	for num := range s.seq {
		if _, ok := s.pages[num]; ok {
			pageNums = append(pageNums, num)
		} else if _, ok := s.nodes[num]; ok {
			nodeNums = append(nodeNums, num)
		}
	}
	bySeq := func(a, b int) int { return s.seq[a] - s.seq[b] }
	slices.SortFunc(pageNums, bySeq)
	slices.SortFunc(nodeNums, bySeq)
	order, loose := pageOrder(pageNums, nodeNums, s.nodes)
	refs := make([]string, len(order))
	for i, num := range order {
		refs[i] = s.pages[num]
	}
	tree, cat := s.maxNum+1, s.maxNum+2
	tail = fmt.Appendf(nil, "\nendstream\nendobj\n%d 0 obj\n<< /Type /Pages /Kids [%s] /Count %d >>\nendobj\n%d 0 obj\n<< /Type /Catalog /Pages %d 0 R >>\nendobj\ntrailer\n<< /Size %d /Root %d 0 R >>\n%%%%EOF\n",
		tree, strings.Join(refs, " "), len(refs), cat, tree, cat+1, cat)
	return tail, len(refs), loose
}

// fileTree is what pageTreeFile read from a file.
type fileTree struct {
	tail        []byte // what withPageTree appends (nil without a page object)
	kids, loose int    // as withPageTree's
	// count and objects are declaredPagesFile's (the same scan: a
	// 300 MB file took ~35 s a scan at load 10).
	count, objects int
}

// pageTreeFile is treeScan's tail for the file at path, streamed (chunk
// bytes at a time): what withPageTree appends, for a file too large to
// be held in memory.
func pageTreeFile(path string, chunk int) (fileTree, error) {
	f, err := os.Open(path)
	if err != nil {
		return fileTree{}, err
	}
	defer f.Close()
	var s treeScan
	if err := scanObjects(f, chunk, s.add); err != nil {
		return fileTree{}, err
	}
	var ft fileTree
	ft.tail, ft.kids, ft.loose = s.tail()
	for _, c := range s.counts {
		ft.count = max(ft.count, c)
	}
	ft.objects = len(s.pages)
	return ft, nil
}

var kidsRe = regexp.MustCompile(`/Kids\s*\[([^\]]*)\]`)
var refRe = regexp.MustCompile(`(\d{1,10})\s+\d{1,5}\s+R\b`)

// kidsOf is the object numbers a /Pages node's /Kids lists.
func kidsOf(dict []byte) []int {
	m := kidsRe.FindSubmatch(dict)
	if m == nil {
		return nil
	}
	var kids []int
	for _, r := range refRe.FindAllSubmatch(m[1], -1) {
		n, _ := strconv.Atoi(string(r[1]))
		kids = append(kids, n)
	}
	return kids
}

// pageOrder orders the page objects pageNums (in file order) by the
// surviving /Pages nodes (nodes: each node's kids; nodeNums in file
// order): depth first from each node no other node lists, a page once;
// then the pages no node lists, in file order (loose counts them).
func pageOrder(pageNums, nodeNums []int, nodes map[int][]int) (order []int, loose int) {
	isPage := make(map[int]bool, len(pageNums))
	for _, p := range pageNums {
		isPage[p] = true
	}
	listed := map[int]bool{}
	for _, kids := range nodes {
		for _, k := range kids {
			listed[k] = true
		}
	}
	seen := map[int]bool{}
	var walk func(num int)
	walk = func(num int) {
		if seen[num] {
			return // a page listed twice, or a loop of nodes
		}
		seen[num] = true
		if isPage[num] {
			order = append(order, num)
			return
		}
		for _, k := range nodes[num] {
			walk(k)
		}
	}
	for _, n := range nodeNums {
		if !listed[n] {
			walk(n)
		}
	}
	for _, n := range nodeNums {
		walk(n) // nodes only a loop of nodes lists
	}
	for _, p := range pageNums {
		if !seen[p] {
			order = append(order, p)
			loose++
		}
	}
	return order, loose
}
