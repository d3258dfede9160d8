package table

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/extract/pdf/tablegen"
)

// TestGroupHeadOverYears: a statement's group head ("Six months to 30
// June", bold as the heads, right-aligned over the last of the two year
// columns it spans, a web table's th) over the year heads: the year heads
// are a row of their own under it, the group head a row above them. The
// year under it was read as the group head's wrapped last word ("Six
// months to 30 June 2025"), the other year beside it, one head row. A
// head wrapped beside the years ("Growth Rate" over "Index", the years
// level with "Index") stays one head, as before.
func TestGroupHeadOverYears(t *testing.T) {
	const size, pitch = 9.0, 13.5
	ends := []float64{383.5, 565.5}
	page := func(group string, heads []string) page {
		pg := page{Items: prose(42, 70, "The group's results for the half year are set out below, with the figures of the half year before.")}
		y := 110.0
		pg.Items = append(pg.Items, txt{X: ends[1] - helvWidth(group)*0.9, Y: y, Size: size, Bold: true, S: group})
		y += pitch
		for j, h := range heads {
			pg.Items = append(pg.Items, txt{X: ends[j] - helvWidth(h)*0.9, Y: y, Size: size, Bold: true, S: h})
		}
		for _, r := range [][]string{
			{"Other operating income", "1,121,211", "660,890"},
			{"Income tax expense", "648,698", "2,101,680"},
			{"Sales of goods", "731,410", "1,406,079"},
			{"Trade and other receivables", "1,477,560", "2,751,450"},
			{"Right-of-use assets", "21,522", "2,432,080"},
		} {
			y += pitch
			pg.Items = append(pg.Items, statementRow(r, 52, y, ends)...)
		}
		pg.Items = append(pg.Items, prose(42, y+2*pitch, "The notes on the following pages are part of these statements.")...)
		return pg
	}
	for _, c := range []struct {
		group string
		heads []string
		want  [][]string
	}{
		{"Six months to 30 June", []string{"2026", "2025"}, [][]string{{"", "", "Six months to 30 June"}, {"", "2026", "2025"}}},
		{"Growth Rate", []string{"2021", "Index"}, [][]string{{"", "2021", "Growth Rate Index"}}},
	} {
		ts := detect(t, page(c.group, c.heads))
		if len(ts) != 1 {
			t.Fatalf("%s: want 1 table, got %d: %s", c.group, len(ts), dump(ts))
		}
		got := cellsOf(ts[0])
		if len(got) != len(c.want)+5 || !slices.EqualFunc(got[:len(c.want)], c.want, slices.Equal) {
			t.Errorf("%s: got %q, want the heads %q, then 5 rows", c.group, got, c.want)
		}
	}
}

// TestHeadOverRule: tablegen seed 1626 (tune split) draws a booktabs table
// whose one head, "Year", stands right of the stub over the midrule,
// right-aligned with the years under it: the head is the table's first
// row. The midrule was read as a rule parting text above from the table,
// so the head was dropped (a head row over its own rule, not a title).
func TestHeadOverRule(t *testing.T) {
	ts := generatedTables(t, 1626)
	for _, tb := range ts {
		got := cellsOf(tb)
		if len(got) > 1 && slices.Contains(got[1], "Quarrying advances") || len(got) > 0 && slices.Contains(got[0], "Quarrying advances") {
			if !slices.Contains(got[0], "Year") {
				t.Errorf("want the head \"Year\" first, then \"Quarrying advances\": %q", got)
			}
			return
		}
	}
	t.Errorf("no table holds \"Quarrying advances\": %s", dump(ts))
}

// generatedTables: the tables of tablegen seed's first page.
func generatedTables(t *testing.T, seed uint64) []document.Table {
	t.Helper()
	doc, err := tablegen.Generate(seed)
	if err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(t.TempDir(), "gen.pdf")
	if err := os.WriteFile(name, doc.PDF, 0o644); err != nil {
		t.Fatal(err)
	}
	return detectFile(t, name)
}
