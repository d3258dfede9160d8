package office

import (
	"bufio"
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/xuri/excelize/v2"
)

// span is a run of row or column numbers, both ends included (1-based).
type span struct{ from, to int }

// hiddenRowsCols reads a worksheet part's hidden rows (<row hidden="1">:
// hidden by hand or by a filter) and columns (<col min max hidden="1">),
// as runs in ascending order. A part without the bytes `hidden=` costs a
// byte search.
func hiddenRowsCols(ix *zipIndex, part string) (rows, cols []span, err error) {
	if ix == nil || part == "" {
		return nil, nil, nil
	}
	if has, err := partContains(ix, part, []byte("hidden=")); err != nil || !has {
		return nil, nil, err
	}
	rc, err := ix.open(part)
	if err != nil {
		return nil, nil, err
	}
	defer rc.Close()
	d := newDecoder(bufio.NewReaderSize(rc, 64<<10))
	for {
		tok, err := d.Token()
		if err != nil {
			if err == io.EOF {
				err = nil
			}
			return rows, cols, err
		}
		t, ok := tok.(xml.StartElement)
		if !ok || !onOffAttr(t, "hidden") {
			continue
		}
		switch t.Name.Local {
		case "row":
			if r, err := strconv.Atoi(attrVal(t, "r")); err == nil && r > 0 {
				rows = addSpan(rows, span{r, r})
			}
		case "col":
			a, e0 := strconv.Atoi(attrVal(t, "min"))
			z, e1 := strconv.Atoi(attrVal(t, "max"))
			if e0 == nil && e1 == nil && a > 0 && z >= a {
				cols = addSpan(cols, span{a, min(z, excelize.MaxColumns)})
			}
		}
	}
}

// onOffAttr says whether an attribute is an XML Schema boolean's true.
func onOffAttr(t xml.StartElement, local string) bool {
	v := attrVal(t, local)
	return v == "1" || v == "true"
}

// addSpan appends s to runs in ascending order, joining it to the last run
// when they touch.
func addSpan(runs []span, s span) []span {
	if n := len(runs); n > 0 && s.from <= runs[n-1].to+1 && s.from >= runs[n-1].from {
		runs[n-1].to = max(runs[n-1].to, s.to)
		return runs
	}
	return append(runs, s)
}

// inSpans says whether n is in one of runs (ascending).
func inSpans(runs []span, n int) bool {
	i := sort.Search(len(runs), func(i int) bool { return runs[i].to >= n })
	return i < len(runs) && runs[i].from <= n
}

// partContains searches a part's bytes for key.
func partContains(ix *zipIndex, part string, key []byte) (bool, error) {
	rc, err := ix.open(part)
	if err != nil {
		return false, err
	}
	defer rc.Close()
	r := bufio.NewReaderSize(rc, 64<<10)
	buf := make([]byte, 0, 64<<10+len(key))
	carry := make([]byte, 0, len(key))
	for {
		chunk, err := r.Peek(64 << 10)
		if len(chunk) == 0 {
			if err == io.EOF {
				return false, nil
			}
			return false, err
		}
		buf = append(append(buf[:0], carry...), chunk...)
		if bytes.Contains(buf, key) {
			return true, nil
		}
		carry = append(carry[:0], buf[max(0, len(buf)-len(key)+1):]...)
		if _, err := r.Discard(len(chunk)); err != nil {
			return false, err
		}
	}
}

// hiddenLanded is what of a sheet's hidden rows and columns landed: the
// hidden rows among those read (rowNums) and the hidden columns holding
// text in one of them, as runs ("3, 5-9"; "E, G-H").
func hiddenLanded(rows [][]string, rowNums []int, hRows, hCols []span) (rs, cs []span) {
	for _, n := range rowNums {
		if inSpans(hRows, n) {
			rs = addSpan(rs, span{n, n})
		}
	}
	if len(hCols) == 0 {
		return rs, nil
	}
	used := map[int]bool{}
	for _, row := range rows {
		for c, v := range row {
			if strings.TrimSpace(v) != "" && inSpans(hCols, c+1) {
				used[c+1] = true
			}
		}
	}
	var nums []int
	for c := range used {
		nums = append(nums, c)
	}
	sort.Ints(nums)
	for _, c := range nums {
		cs = addSpan(cs, span{c, c})
	}
	return rs, cs
}

// spanText writes runs as "3, 5-9" (name: a column's letters).
func spanText(runs []span, name func(int) string) string {
	var parts []string
	const most = 20
	more := ""
	if len(runs) > most {
		more = fmt.Sprintf(", and %d more runs", len(runs)-most)
		runs = runs[:most]
	}
	for _, s := range runs {
		if s.from == s.to {
			parts = append(parts, name(s.from))
		} else {
			parts = append(parts, name(s.from)+"-"+name(s.to))
		}
	}
	return strings.Join(parts, ", ") + more
}

func colName(c int) string {
	n, _ := excelize.ColumnNumberToName(c)
	return n
}

// sayHidden warns of a sheet's (or an ODT table's) hidden rows and columns
// that landed, and records them in hiddenRows / hiddenCols ("Sheet: 3,
// 5-9"), as office/20 says hidden sheets: their cells landed as the
// others'; why says who does not show them ("Excel does not show them; a
// filter hides rows so too"), what names the sheet or table in the
// warning (`sheet "Data"`, "table 2"), key in the metadata. Before
// office/28 nothing told them from the rest.
func sayHidden(b *builder, why, what, key string, rs, cs []span, hiddenRows, hiddenCols *[]string) {
	count := func(runs []span) int {
		n := 0
		for _, s := range runs {
			n += s.to - s.from + 1
		}
		return n
	}
	var hidden []string
	if len(rs) > 0 {
		t := spanText(rs, strconv.Itoa)
		hidden = append(hidden, fmt.Sprintf("%d hidden row(s) (%s)", count(rs), t))
		*hiddenRows = append(*hiddenRows, key+": "+t)
	}
	if len(cs) > 0 {
		t := spanText(cs, colName)
		hidden = append(hidden, fmt.Sprintf("%d hidden column(s) (%s)", count(cs), t))
		*hiddenCols = append(*hiddenCols, key+": "+t)
	}
	if len(hidden) == 0 {
		return
	}
	b.warn("%s: %s landed as the other cells (%s) (metadata hidden_rows / hidden_columns)", what, strings.Join(hidden, " and "), why)
}
