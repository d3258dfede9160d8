// Command eval-formats checks that the office, e-mail and markup extractors
// agree on the same text: it extracts the language-docs/eng_spa_mult.*
// family of the shared corpus (DOCX, ODT, PPTX, EPUB, EML, Markdown, RST,
// Org, and the .txt as reference)
// and prints the pairwise bag-of-words agreement (sum of min counts over
// sum of max counts, 1.0 = same words the same number of times). It also
// sweeps every office/e-mail/markup file of mixed/ and prints how many landed and
// how many were quarantined, by kind.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/docket-dev/docket/loader/internal/detect"
	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/extract/email"
	"github.com/docket-dev/docket/loader/internal/extract/office"
	"github.com/docket-dev/docket/loader/internal/extract/text"
	"github.com/docket-dev/docket/loader/internal/textproc"
)

func extract(ctx context.Context, p string) (*document.Result, error) {
	var o document.Options
	switch strings.ToLower(filepath.Ext(p)) {
	case ".docx":
		return office.ExtractDOCX(ctx, p, o)
	case ".pptx":
		return office.ExtractPPTX(ctx, p, o)
	case ".xlsx":
		return office.ExtractXLSX(ctx, p, o)
	case ".csv":
		return office.ExtractCSV(ctx, p, 0, o)
	case ".tsv":
		return office.ExtractCSV(ctx, p, '\t', o)
	case ".odt":
		return office.ExtractODT(ctx, p, o)
	case ".epub":
		return office.ExtractEPUB(ctx, p, o)
	case ".eml":
		return email.Extract(ctx, p, o)
	case ".md", ".rst", ".org":
		info, err := detect.Detect(p)
		if err != nil {
			return nil, err
		}
		return text.Extract(ctx, p, info, o)
	}
	return nil, nil
}

// bodyText is the text without the format's own furniture (e-mail header
// block and subject, slide/page headers and footers).
func bodyText(res *document.Result) string {
	var sb strings.Builder
	for _, e := range res.Elements {
		switch e.Category {
		case document.Header, document.Footer, document.PageNumber:
			continue
		}
		if res.Type == "eml" && e.Category == document.Title {
			continue
		}
		sb.WriteString(e.Text)
		sb.WriteString("\n")
	}
	return sb.String()
}

func main() {
	corpus := flag.String("corpus", "../shared/corpus", "corpus folder")
	flag.Parse()
	mixed := filepath.Join(*corpus, "mixed")
	if _, err := os.Stat(mixed); err != nil {
		fmt.Println("corpus not found, skipped")
		return
	}
	ctx := context.Background()

	// 1. same text in several formats
	fam := filepath.Join(mixed, "language-docs", "eng_spa_mult")
	bags := map[string]map[string]int{}
	var names []string
	if b, err := os.ReadFile(fam + ".txt"); err == nil {
		bags["txt"] = textproc.WordBag(string(b))
		names = append(names, "txt")
	}
	for _, ext := range []string{"docx", "odt", "pptx", "epub", "eml", "md", "rst", "org"} {
		res, err := extract(ctx, fam+"."+ext)
		if err != nil || res == nil {
			fmt.Printf("eng_spa_mult.%s: %v\n", ext, err)
			continue
		}
		bags[ext] = textproc.WordBag(bodyText(res))
		names = append(names, ext)
	}
	fmt.Println("eng_spa_mult bag-of-words agreement (1.00 = same words):")
	fmt.Printf("%6s", "")
	for _, n := range names {
		fmt.Printf(" %6s", n)
	}
	fmt.Println()
	sum, cnt := 0.0, 0
	for i, a := range names {
		fmt.Printf("%6s", a)
		for j, b := range names {
			v := textproc.WordAgreement(bags[a], bags[b])
			fmt.Printf(" %6.3f", v)
			if j > i {
				sum += v
				cnt++
			}
		}
		fmt.Println()
	}
	if cnt > 0 {
		fmt.Printf("mean pairwise agreement: %.3f over %d pairs\n", sum/float64(cnt), cnt)
	}

	// 2. sweep
	var files []string
	for _, pat := range []string{"*.docx", "*.pptx", "*.xlsx", "*.csv", "*.tsv", "*.odt", "*.epub", "eml/*.eml", "language-docs/*", "*.md", "*.rst", "*.org"} {
		m, _ := filepath.Glob(filepath.Join(mixed, pat))
		files = append(files, m...)
	}
	sort.Strings(files)
	landed, elems := 0, 0
	kinds := map[string]int{}
	cats := map[document.Category]int{}
	for _, f := range files {
		res, err := extract(ctx, f)
		if res == nil && err == nil {
			continue // not one of these formats
		}
		if err != nil {
			var de *document.Error
			k := "error"
			if errors.As(err, &de) {
				k = de.Kind
			}
			kinds[k]++
			continue
		}
		landed++
		elems += len(res.Elements)
		for _, e := range res.Elements {
			cats[e.Category]++
		}
	}
	fmt.Printf("office+email+markup sweep of mixed/: %d landed (%d elements), quarantined %v\n", landed, elems, kinds)
	var cs []string
	for c, n := range cats {
		cs = append(cs, fmt.Sprintf("%s=%d", c, n))
	}
	sort.Strings(cs)
	fmt.Println("elements by category:", strings.Join(cs, " "))
}
