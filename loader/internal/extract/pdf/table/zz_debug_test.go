package table

import (
	"fmt"
	"os"
	"strconv"
	"testing"

	"github.com/docket-dev/docket/loader/internal/extract/pdf"
)

func TestZZDebug(t *testing.T) {
	f := os.Getenv("ZZF")
	if f == "" {
		t.Skip()
	}
	pn, _ := strconv.Atoi(os.Getenv("ZZP"))
	d, err := pdf.Open(f)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	lay, _ := d.PageWith(pn, true, true)
	hs, vs, curves := rules(lay)
	fmt.Println("H", hs)
	fmt.Println("V", vs)
	fmt.Println("curves", len(curves))
	for _, g := range grids(hs, vs) {
		fmt.Println("grid", g.bb, len(g.hs), len(g.vs), chart(g.bb, curves))
	}
}

func TestZZDebug2(t *testing.T) {
	f := os.Getenv("ZZF")
	if f == "" {
		t.Skip()
	}
	pn, _ := strconv.Atoi(os.Getenv("ZZP"))
	d, _ := pdf.Open(f)
	defer d.Close()
	lay, _ := d.PageWith(pn, true, true)
	ws := words(lay)
	hs, vs, _ := rules(lay)
	for _, g := range grids(hs, vs) {
		box := g.bb
		var in []*word
		for _, w := range ws {
			if inside(w, box) {
				in = append(in, w)
			}
		}
		rows := buildGrid(box, in, g.hs, g.vs)
		for _, r := range rows {
			fmt.Printf("%q\n", r)
		}
		fmt.Println(plausible(prune(rows), 2))
	}
}
