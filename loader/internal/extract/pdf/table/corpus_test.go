package table

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/extract/pdf"
)

// TestCorpus runs the detector over every PDF of the shared corpus (when
// present): no panic, boxes inside the page, rectangular grids, and no
// table text left in narrative elements.
func TestCorpus(t *testing.T) {
	root := filepath.Join("..", "..", "..", "..", "..", "..", "shared", "corpus")
	var files []string
	_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && filepath.Ext(p) == ".pdf" {
			files = append(files, p)
		}
		return nil
	})
	if len(files) == 0 {
		t.Skip("corpus not found")
	}
	ex := pdf.Extractor{Tables: New()}
	n := 0
	for _, f := range files {
		res, err := ex.Extract(context.Background(), f, document.Options{})
		if err != nil {
			continue
		}
		height := map[int]float64{}
		width := map[int]float64{}
		for _, p := range res.Pages {
			height[p.Number], width[p.Number] = p.Height, p.Width
		}
		for _, tb := range res.Tables {
			n++
			b := tb.BBox
			if b.X0 < -2 || b.Y0 < -2 || b.X1 > width[tb.Page]+2 || b.Y1 > height[tb.Page]+2 || b.X1 <= b.X0 || b.Y1 <= b.Y0 {
				t.Errorf("%s p%d: table box %+v outside the page %gx%g", f, tb.Page, b, width[tb.Page], height[tb.Page])
			}
			nc := len(tb.Header)
			if nc == 0 && len(tb.Rows) > 0 {
				nc = len(tb.Rows[0])
			}
			for _, r := range tb.Rows {
				if len(r) != nc {
					t.Errorf("%s p%d: ragged table (%d vs %d columns)", f, tb.Page, len(r), nc)
					break
				}
			}
		}
		for _, el := range res.Elements {
			if el.Category == document.TableCat {
				continue
			}
			for _, tb := range res.Tables {
				cx, cy := (el.BBox.X0+el.BBox.X1)/2, (el.BBox.Y0+el.BBox.Y1)/2
				if tb.Page == el.Page && cx > tb.BBox.X0 && cx < tb.BBox.X1 && cy > tb.BBox.Y0 && cy < tb.BBox.Y1 && el.Category == document.NarrativeText {
					t.Errorf("%s p%d: narrative element inside a table: %q", f, el.Page, el.Text)
				}
			}
		}
	}
	t.Logf("%d files, %d tables", len(files), n)
}
