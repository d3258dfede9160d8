package pdf

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
)

func TestScratchDump(t *testing.T) {
	path := os.Getenv("DUMP")
	if path == "" {
		t.Skip()
	}
	d, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	fmt.Printf("%+v\n", d.Metadata())
	n := d.NumPages()
	if n > 2 {
		n = 2
	}
	for i := 1; i <= n; i++ {
		l, err := d.Page(i, false)
		if err != nil {
			t.Log(err)
			continue
		}
		fmt.Printf("page %d %.0fx%.0f real=%d bad=%d fonts=%v\n", i, l.Width, l.Height, l.RealChars, l.BadChars, l.Fonts)
		for bi, b := range l.Blocks {
			fmt.Printf(" B%d img=%v %.0f,%.0f,%.0f,%.0f\n", bi, b.Image, b.BBox.X0, b.BBox.Y0, b.BBox.X1, b.BBox.Y1)
			for _, ln := range b.Lines {
				fmt.Printf("   [%.0f,%.0f,%.0f,%.0f sz=%.1f b=%v] %q\n", ln.BBox.X0, ln.BBox.Y0, ln.BBox.X1, ln.BBox.Y1, ln.FontSize, ln.Bold, ln.Text)
			}
		}
	}
	fmt.Println(d.Warnings())
}

func TestScratchExtract(t *testing.T) {
	path := os.Getenv("EXT")
	if path == "" {
		t.Skip()
	}
	res, err := Extract(t.Context(), path, documentOptions())
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("%+v\nwarnings=%q\n", res.Metadata, res.Warnings)
	for _, p := range res.Pages {
		fmt.Printf("== page %d %s ocr=%v chars=%d\n", p.Number, p.Method, p.NeedsOCR, p.CharCount)
	}
	for _, e := range res.Elements {
		if e.Page > 3 {
			break
		}
		txt := e.Text
		if len(txt) > 90 {
			txt = txt[:90]
		}
		fmt.Printf("p%d %-13s L%d [%.0f,%.0f,%.0f,%.0f] %d-%d %q  §%.20q\n", e.Page, e.Category, e.Level, e.BBox.X0, e.BBox.Y0, e.BBox.X1, e.BBox.Y1, e.CharStart, e.CharEnd, txt, e.Section)
	}
}

func documentOptions() document.Options { return document.Options{MinCharsPerPage: 16} }

func TestScratchFlag(t *testing.T) {
	for _, f := range strings.Fields(os.Getenv("FLAG")) {
		d, err := Open(f)
		if err != nil {
			continue
		}
		for i := 1; i <= d.NumPages(); i++ {
			l, err := d.Page(i, false)
			if err != nil || !NeedsOCR(l.RealChars, l.BadChars, 16, l.ImageCover()) {
				continue
			}
			imgs, area := 0, 0.0
			for _, b := range l.Blocks {
				if b.Image {
					imgs++
					area += width(b.BBox) * height(b.BBox)
				}
			}
			var txt []string
			for _, b := range l.Blocks {
				for _, ln := range b.Lines {
					txt = append(txt, ln.Text)
				}
			}
			fmt.Printf("%s p%d real=%d bad=%d imgs=%d cover=%.2f %q\n", filepath.Base(f), i, l.RealChars, l.BadChars, imgs, area/(l.Width*l.Height), strings.Join(txt, "|"))
		}
		d.Close()
	}
}
