package pdf

import (
	"path/filepath"
	"reflect"
	"testing"
)

// TestNameIndexSameLayout reads every page of the corpus's PDFs, at
// character detail, with the glyph-name index of ftnames.c and with
// FreeType's own name lookup: the layouts (characters, positions, fonts)
// must be identical, and the index must have answered lookups (the corpus
// has Type 1 and CFF fonts with encodings).
func TestNameIndexSameLayout(t *testing.T) {
	dir := corpusDir(t)
	if testing.Short() {
		t.Skip("long")
	}
	var files []string
	for _, pat := range []string{"pdf/*.pdf", "mixed/*.pdf", "mixed/*/*.pdf", "tables/*/*.pdf", "tables/*.pdf"} {
		m, _ := filepath.Glob(filepath.Join(dir, pat))
		files = append(files, m...)
	}
	defer nameIndex(true)
	before := nameIndex(true)
	pages := 0
	for _, f := range files {
		with := readAll(t, f, true)
		without := readAll(t, f, false)
		if len(with) != len(without) {
			t.Fatalf("%s: %d pages with the index, %d without", f, len(with), len(without))
		}
		for i := range with {
			if !reflect.DeepEqual(with[i], without[i]) {
				t.Errorf("%s page %d: the layout differs with the glyph-name index", filepath.Base(f), i+1)
			}
		}
		pages += len(with)
	}
	hits := nameIndex(true) - before
	t.Logf("%d files, %d pages, %d name lookups answered by the index", len(files), pages, hits)
	if hits == 0 {
		t.Errorf("the glyph-name index answered no lookup on %d pages", pages)
	}
}

// readAll reads every page of f at Chars detail with vectors, with the
// glyph-name index on or off (nil for a file MuPDF cannot open).
func readAll(t *testing.T, f string, index bool) []*Layout {
	t.Helper()
	nameIndex(index)
	d, err := Open(f)
	if err != nil {
		return nil
	}
	defer d.Close()
	var out []*Layout
	for i := 1; i <= d.NumPages(); i++ {
		lay, _ := d.PageWith(i, Chars, true)
		out = append(out, lay)
	}
	return out
}
