// Command dump-pdf writes what the PDF extractor (with table detection,
// as docket load runs it) returns for each file, as JSON, one file per
// PDF, so a change to the extractor can be checked against the output
// before it:
//
//	go run ./loader/tools/dump-pdf -out /tmp/before ../shared/corpus/pdf/*.pdf
//	(change the code)
//	go run ./loader/tools/dump-pdf -out /tmp/after ../shared/corpus/pdf/*.pdf
//	diff -r /tmp/before /tmp/after
//
// A file that cannot be extracted gets its error message instead.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/extract/pdf"
	"github.com/docket-dev/docket/loader/internal/extract/pdf/table"
)

func main() {
	out := flag.String("out", "", "folder for the JSON files (created)")
	minChars := flag.Int("min-chars", pdf.DefaultMinCharsPerPage, "min_chars_per_page")
	flag.Parse()
	if *out == "" || flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: dump-pdf -out DIR FILE.pdf...")
		os.Exit(2)
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "dump-pdf:", err)
		os.Exit(1)
	}
	ex := pdf.Extractor{Tables: table.New()}
	for _, f := range flag.Args() {
		var b []byte
		res, err := ex.Extract(context.Background(), f, document.Options{MinCharsPerPage: *minChars})
		if err != nil {
			b = []byte(err.Error() + "\n")
		} else {
			b, _ = json.MarshalIndent(res, "", " ")
		}
		// Files of the same name in different folders stay apart.
		name := strings.ReplaceAll(strings.TrimPrefix(filepath.Clean(f), "/"), string(filepath.Separator), "__") + ".json"
		if err := os.WriteFile(filepath.Join(*out, name), b, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "dump-pdf:", err)
			os.Exit(1)
		}
	}
}
