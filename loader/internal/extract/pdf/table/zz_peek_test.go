package table

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/extract/pdf"
)

func TestZZPeek(t *testing.T) {
	dir := os.Getenv("ZZDIR")
	if dir == "" {
		t.Skip()
	}
	fs, _ := filepath.Glob(filepath.Join(dir, "*.pdf"))
	for _, f := range fs {
		res, err := pdf.Extractor{Tables: New()}.Extract(context.Background(), f, document.Options{})
		if err != nil {
			continue
		}
		fmt.Printf("%s pages %d tables %d\n", filepath.Base(f), len(res.Pages), len(res.Tables))
		if os.Getenv("ZZSHOW") == filepath.Base(f) {
			for _, tb := range res.Tables {
				fmt.Printf("== p%d %v %dx%d\n", tb.Page, tb.BBox, len(tb.Rows), len(tb.Header))
				for i, r := range tb.Rows {
					if i < 6 {
						fmt.Printf("   %q\n", r)
					}
				}
			}
		}
	}
}
