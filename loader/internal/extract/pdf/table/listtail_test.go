package table

import (
	"reflect"
	"testing"
)

// TestListItemTailOverTable: a table set tight under a numbered list
// item, at the table's own leading: the item's short last line ("between
// invoice due.") starts where the item's text does, right of its hanging
// marker ("2."), and is the paragraph's last line, not a head of the
// table (kinds tune kd-1056: "between invoice due. Parameter" read as the
// first head).
func TestListItemTailOverTable(t *testing.T) {
	rows := [][]string{
		{"Parameter", "Symbol", "Value", "Unit"},
		{"Storage humidity", "I", "445.6", "m"},
		{"Storage humidity", "V", "296.5", "%"},
		{"Operating temperature", "m", "89.1", "mA"},
		{"Supply voltage", "L", "124.7", "kOhm"},
		{"Operating temperature", "I", "366.3", "kHz"},
	}
	var pg page
	item := func(y float64, marker string, lines ...string) {
		pg.Items = append(pg.Items, txt{X: 60, Y: y, Size: 9, S: marker})
		for i, l := range lines {
			pg.Items = append(pg.Items, txt{X: 72, Y: y + float64(i)*12, Size: 9, S: l})
		}
	}
	item(90, "1.",
		"Passengers flows interest board customers measured table days invoice estimated period notes",
		"below account holiday account route shown groups.")
	item(114, "2.",
		"Operations follow payment effect expects observed dividend shown increased due growth company",
		"between invoice due.")
	xs := []float64{72, 199, 254, 301}
	for i, r := range rows {
		for j, c := range r {
			pg.Items = append(pg.Items, txt{X: xs[j], Y: 139.5 + float64(i)*12, Size: 9, S: c})
		}
	}
	pg.Items = append(pg.Items, prose(72, 230,
		"The values are those measured at the plant in the last quarter, before the",
		"new supply voltage regulator was fitted to the second production line.")...)
	ts := detect(t, pg)
	if len(ts) != 1 {
		t.Fatalf("want 1 table, got %d: %s", len(ts), dump(ts))
	}
	if got := cellsOf(ts[0]); !reflect.DeepEqual(got, rows) {
		t.Errorf("cells:\n got %q\nwant %q", got, rows)
	}
}
