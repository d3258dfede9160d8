package table

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/extract/pdf"
	"github.com/docket-dev/docket/loader/internal/extract/pdf/tablegen"
)

// TestContinuedTableLinked: a generated table running on to a second page
// (its header repeated, under a "continued" line or not) is two tables,
// the one on page 2 marked as continuing the one on page 1. Pages where
// the detector splits a part in two (its wrapped header apart from its
// body) are a detection miss, not a linking one: only the pages with one
// table on each page are checked, and most must be.
func TestContinuedTableLinked(t *testing.T) {
	checked := 0
	for seed := uint64(1); seed <= 8; seed++ {
		d, err := tablegen.GenerateLayout(seed, "continued")
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), "continued.pdf")
		if err := os.WriteFile(path, d.PDF, 0o600); err != nil {
			t.Fatal(err)
		}
		res, err := pdf.Extractor{Tables: New()}.Extract(context.Background(), path, document.Options{})
		if err != nil {
			t.Fatal(err)
		}
		var first, second *document.Table
		perPage := map[int]int{}
		for i := range res.Tables {
			tb := &res.Tables[i]
			perPage[tb.Page]++
			if tb.Continues && tb.Page != 2 {
				t.Errorf("seed %d: table %d on page %d marked as a continuation", seed, tb.Seq, tb.Page)
			}
			switch tb.Page {
			case 1:
				first = tb
			case 2:
				second = tb
			}
		}
		if perPage[1] != 1 || perPage[2] != 1 {
			continue
		}
		checked++
		if !second.Continues || second.Seq != first.Seq+1 {
			t.Errorf("seed %d: page 2's table (seq %d, continues %v) should continue page 1's last (seq %d)",
				seed, second.Seq, second.Continues, first.Seq)
		}
	}
	if checked < 6 {
		t.Errorf("only %d of 8 pages have one table on each page", checked)
	}
}

// tableAt sets rows as an unruled table from y, the first row in bold,
// number columns right-aligned at 260+90j.
func tableAt(y float64, rows [][]string, bold bool) []txt {
	var out []txt
	for i, r := range rows {
		yy := y + float64(i)*14
		out = append(out, txt{X: 72, Y: yy, Size: 10, Bold: bold && i == 0, S: r[0]})
		for j, c := range r[1:] {
			out = append(out, txt{X: 260 + 90*float64(j) - 5.56*float64(len(c)), Y: yy, Size: 10, Bold: bold && i == 0, S: c})
		}
	}
	return out
}

func budgetRows(from, n int) [][]string {
	var rows [][]string
	for i := from; i < from+n; i++ {
		rows = append(rows, []string{fmt.Sprintf("Department %d", i), fmt.Sprint(100 + 7*i), fmt.Sprint(210 + 3*i), fmt.Sprint(330 + i)})
	}
	return rows
}

// TestContinuationNeedsNothingBetween: a table ending page 1 and one
// starting page 2 are linked when page 2's part has no header of its own
// (the header not repeated) and the same columns, but not when a caption
// of another table or a paragraph lies between them, nor when the columns
// differ, nor when page 2's table has a header of its own over page 1's
// number columns (another table of the same width, not a body row read
// as a header).
func TestContinuationNeedsNothingBetween(t *testing.T) {
	head := [][]string{{"Department", "2021", "2022", "2023"}}
	first := page{Items: append(prose(72, 80,
		"The following figures show how the budget was spent in the last three",
		"years, by department, in thousands of euro."),
		tableAt(560, append(head, budgetRows(1, 12)...), true)...)}
	cases := []struct {
		name  string
		items []txt
		want  bool
	}{
		{"header not repeated", tableAt(72, budgetRows(13, 6), false), true},
		{"header repeated", tableAt(72, append(head, budgetRows(13, 6)...), true), true},
		{"caption of another table", append([]txt{{X: 72, Y: 72, Size: 10, S: "Table 2. Staff by department"}},
			tableAt(96, append(head, budgetRows(13, 6)...), true)...), false},
		{"paragraph between", append(prose(72, 72,
			"Spending grew in every department but transport, where the figures for",
			"the last year are not yet known, as the next table shows in detail."),
			tableAt(120, append(head, budgetRows(13, 6)...), true)...), false},
		{"another table's header", tableAt(72, [][]string{{"Region", "Staff", "Offices", "Vehicles"},
			{"North", "120", "14", "33"}, {"South", "95", "11", "27"}, {"East", "130", "16", "41"}, {"West", "88", "9", "22"}}, true), false},
		{"other columns", tableAt(72, [][]string{{"Region", "Staff"}, {"North", "120"}, {"South", "95"}, {"East", "130"}, {"West", "88"}}, true), false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := writePDF(t, []page{first, {Items: c.items}})
			res, err := pdf.Extractor{Tables: New()}.Extract(context.Background(), path, document.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Tables) != 2 || res.Tables[0].Page != 1 || res.Tables[1].Page != 2 {
				t.Fatalf("want a table on each page, got %d: %+v", len(res.Tables), res.Tables)
			}
			if res.Tables[0].Continues {
				t.Errorf("page 1's table marked as a continuation")
			}
			if got := res.Tables[1].Continues; got != c.want {
				t.Errorf("page 2's table continues: %v, want %v (header %q, rows %d)", got, c.want, res.Tables[1].Header, len(res.Tables[1].Rows))
			}
		})
	}
}

// TestContinuationCues: the lines between two parts that say a table goes
// on. A "(continued on next page)" line under the first part on its page
// and a "Table 1 (continued)" line over the second are cues and the parts
// link; a sentence holding the word ("The audit concluded in May.") is
// not, nor a sentence above the first part repeated above the second (running
// text, not the table's caption).
func TestContinuationCues(t *testing.T) {
	head := [][]string{{"Department", "2021", "2022", "2023"}}
	body1 := tableAt(520, append(head, budgetRows(1, 10)...), true)
	body2 := func(y float64) []txt { return tableAt(y, append(head, budgetRows(11, 6)...), true) }
	para := []string{"The following figures show how the budget was spent in the last three",
		"years, by department, in thousands of euro, as reported by the auditor."}
	note := "The figures below are in thousands of euro, as audited."
	cases := []struct {
		name         string
		page1, page2 []txt
		want         bool
	}{
		{"cue under part 1", append(append(prose(72, 80, para...), body1...),
			txt{X: 72, Y: 700, Size: 9, S: "(continued on next page)"}), body2(72), true},
		{"cue over part 2", append(prose(72, 80, para...), body1...),
			append([]txt{{X: 72, Y: 72, Size: 10, S: "Table 1 (continued)"}}, body2(96)...), true},
		{"sentence holding the word", append(prose(72, 80, para...), body1...),
			append([]txt{{X: 72, Y: 72, Size: 10, S: "The audit concluded in May."}}, body2(96)...), false},
		{"sentence repeated", append(prose(72, 440, note), body1...),
			append(prose(72, 72, note), body2(96)...), false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := writePDF(t, []page{{Items: c.page1}, {Items: c.page2}})
			res, err := pdf.Extractor{Tables: New()}.Extract(context.Background(), path, document.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Tables) != 2 || res.Tables[0].Page != 1 || res.Tables[1].Page != 2 {
				t.Fatalf("want a table on each page, got %d: %+v", len(res.Tables), res.Tables)
			}
			if got := res.Tables[1].Continues; got != c.want {
				var els []string
				for _, e := range res.Elements {
					els = append(els, fmt.Sprintf("p%d %s %q", e.Page, e.Category, e.Text))
				}
				t.Errorf("page 2's table continues: %v, want %v; elements %q", got, c.want, els)
			}
		})
	}
}
