package main

import (
	"reflect"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

func parseTables(t *testing.T, src string) []domTable {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	return parsedTables(doc)
}

// TestDomGridSpans: cells land where the HTML table model puts them: a
// rowspan takes the column in the rows below, a colspan the columns
// beside; rowspan=0 and a rowspan past the group end stop at the group's
// last row (thead's rows are a group of their own); a display:none cell is
// no cell.
func TestDomGridSpans(t *testing.T) {
	tabs := parseTables(t, `<table>
<thead><tr><th rowspan=5>Region</th><th colspan=2>Sales</th></tr>
<tr><th>2024</th><th>2025</th></tr></thead>
<tbody><tr><td rowspan=0>North</td><td>1</td><td>2</td></tr>
<tr><td>3</td><td colspan="2x">4</td></tr></tbody></table>`)
	if len(tabs) != 1 {
		t.Fatalf("%d tables, want 1", len(tabs))
	}
	tab := tabs[0]
	tab.Rows[3].Cells = append([]domCell{{Text: "ghost", RS: 1, CS: 1, Hidden: true}}, tab.Rows[3].Cells...)
	got := domGrid(tab)
	want := []cell{
		{0, 0, 1, 0, "Region"}, {0, 1, 0, 2, "Sales"},
		{1, 1, 1, 1, "2024"}, {1, 2, 1, 2, "2025"},
		{2, 0, 3, 0, "North"}, {2, 1, 2, 1, "1"}, {2, 2, 2, 2, "2"},
		{3, 1, 3, 1, "3"}, {3, 2, 3, 3, "4"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("grid\n got %v\nwant %v", got, want)
	}
	if g := cellGrid(got); !reflect.DeepEqual(g[3], []string{"", "3", "4", ""}) {
		t.Errorf("row 4 = %q", g[3])
	}
}

// TestDataTableFilter: data tables are kept, layout tables (one row of
// page columns, a cell of page text, a table holding a table and the one
// inside, role=presentation, a lone label column) are not, each with its
// reason.
func TestDataTableFilter(t *testing.T) {
	long := strings.Repeat("word ", 150)
	for _, c := range []struct {
		name, src string
		want      []bool
	}{
		{"grid", `<table><tr><td>a</td><td>1</td></tr><tr><td>b</td><td>2</td></tr></table>`, []bool{true}},
		{"th head, sparse body", `<table><tr><th>Name</th><th>Note</th></tr><tr><td>x</td><td></td></tr></table>`, []bool{true}},
		{"one row of columns", `<table><tr><td>nav</td><td>article</td><td>ads</td></tr></table>`, []bool{false}},
		{"page text cell", `<table><tr><td>a</td><td>` + long + `</td></tr><tr><td>b</td><td>c</td></tr></table>`, []bool{false}},
		{"layout around data", `<table><tr><td><table><tr><td>a</td><td>1</td></tr><tr><td>b</td><td>2</td></tr></table></td><td>x</td></tr></table>`, []bool{false, false}},
		{"presentation", `<table role="presentation"><tr><td>a</td><td>1</td></tr><tr><td>b</td><td>2</td></tr></table>`, []bool{false}},
		{"one text column", `<table><tr><td>a</td><td></td></tr><tr><td>b</td><td> </td></tr></table>`, []bool{false}},
		{"list under heads", `<table><tr><th>Product</th><th>Price</th></tr><tr><td>Wheat</td><td></td></tr><tr><td>Barley</td><td></td></tr><tr><td>Maize</td><td></td></tr></table>`, []bool{false}},
		{"list under a title", `<table><tr><th colspan="2">Standard Edition</th></tr><tr><td>Retina support</td><td><img src="tick.png"></td></tr><tr><td>Touch Bar</td><td><img src="tick.png"></td></tr></table>`, []bool{false}},
		{"sparse rows under heads", `<table><tr><th>Product</th><th>Price</th></tr><tr><td>Wheat</td><td>212</td></tr><tr><td>Barley</td><td></td></tr></table>`, []bool{true}},
		{"form", `<table><tr><th>Email</th><td><input type="email"></td></tr><tr><td>Name</td><td><input name="n"></td></tr></table>`, []bool{false}},
		{"hidden input", `<table><tr><th>a</th><th>b</th></tr><tr><td>1<input type="hidden" name="x"></td><td>2</td></tr></table>`, []bool{true}},
		{"calendar", `<table><tr><th>Mo</th><th>Tu</th><th>We</th><th>Th</th><th>Fr</th><th>Sa</th><th>Su</th></tr>` +
			`<tr><td></td><td>1</td><td>2</td><td>3</td><td>4</td><td>5</td><td>6</td></tr>` +
			`<tr><td>7</td><td>8</td><td>9</td><td>10</td><td>11</td><td>12</td><td>13</td></tr>` +
			`<tr><td>14</td><td>15</td><td>16</td><td>17</td><td>18</td><td>19</td><td>20</td></tr>` +
			`<tr><td>21</td><td>22</td><td>23</td><td>24</td><td>25</td><td>26</td><td>27</td></tr></table>`, []bool{false}},
		{"icon letters", `<table><tr><td>T</td><td>F</td><td>G</td></tr><tr><td>Y</td><td>O</td><td></td></tr></table>`, []bool{false}},
		{"weekly figures", `<table><tr><th>Week</th><th>Mo</th><th>Tu</th><th>We</th><th>Th</th><th>Fr</th><th>Sa</th></tr>` +
			`<tr><td>1</td><td>12.5</td><td>13.1</td><td>9.8</td><td>10.2</td><td>11.0</td><td>7.4</td></tr>` +
			`<tr><td>2</td><td>12.0</td><td>13.4</td><td>9.1</td><td>10.8</td><td>11.3</td><td>7.9</td></tr>` +
			`<tr><td>3</td><td>11.5</td><td>12.1</td><td>9.3</td><td>10.0</td><td>11.9</td><td>7.2</td></tr></table>`, []bool{true}},
	} {
		tabs := parseTables(t, c.src)
		var got []bool
		for _, tab := range tabs {
			ok, why := dataTable(tab)
			if !ok && why == "" {
				t.Errorf("%s: refused without a reason", c.name)
			}
			got = append(got, ok)
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: data tables %v, want %v", c.name, got, c.want)
		}
	}
}
