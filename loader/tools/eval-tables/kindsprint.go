package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/extract/pdf"
	"github.com/docket-dev/docket/loader/tools/internal/browser"
)

// kindsSet is a set drawn like the kinds: its name (printed, and the
// cache's file name), the seed before its first, its generator's version
// and page maker, and what its figure lines say.
type kindsSet struct {
	name    string
	first   int
	version int
	page    func(seed uint64) kdPage
	about   string
	tuned   string
}

var kindsV = kindsSet{
	name: "kinds", first: kindsFirst, version: kindsVersion, page: kindsPage,
	about: "Chromium-printed table kinds of real documents",
	tuned: "TUNED ON since session 22",
}

// printKinds scores set's n seeds, tune and report halves.
func printKinds(ex *pdf.Extractor, set kindsSet, n int, o opts, out, cache string) error {
	if n <= 0 {
		return nil
	}
	first := set.first
	dir, done, err := scratch(out, "eval-tables-"+set.name+"-")
	if err != nil {
		return err
	}
	defer done()
	var pages []brPage
	var seedOf []uint64 // per page
	kinds := map[uint64]string{}
	for s := uint64(first + 1); s <= uint64(first+n); s++ {
		kp := set.page(s)
		kinds[s] = kp.kind
		for _, p := range kp.pages {
			pages = append(pages, p)
			seedOf = append(seedOf, s)
		}
	}
	b, lay, err := kindsRender(set, pages, dir, cache)
	if errors.Is(err, browser.ErrNoChromium) {
		fmt.Printf("%s: skipped: %v\n", set.name, err)
		return nil
	} else if err != nil {
		return fmt.Errorf("%s set: %w", set.name, err)
	}
	res, err := ex.ExtractBytes(context.Background(), b, set.name+".pdf", document.Options{})
	if err != nil {
		return fmt.Errorf("%s.pdf: %w", set.name, err)
	}
	gts, scored := browserTruth(pages, lay)
	var tune, report tally
	byKind := map[string]*[2]tally{}
	over := 0
	for s := uint64(first + 1); s <= uint64(first+n); s++ {
		name := fmt.Sprintf("kd-%d", s) // the hard set's are kd-3001..
		var pg []int
		ok := true
		for i, ps := range seedOf {
			if ps == s {
				pg = append(pg, i+1)
				ok = ok && scored[i+1]
			}
		}
		if !ok {
			over++
			continue
		}
		on := func(p int) bool { return p >= pg[0] && p <= pg[len(pg)-1] }
		var sg []gtTable
		for _, g := range gts {
			if on(g.page) {
				sg = append(sg, g)
			}
		}
		var sd []document.Table
		for _, d := range res.Tables {
			if on(d.Page) {
				sd = append(sd, d)
			}
		}
		split, t, q := 0, &tune, o
		if kindsReport(s) {
			split, t, q = 1, &report, o.forSplit(true, name)
		}
		if byKind[kinds[s]] == nil {
			byKind[kinds[s]] = &[2]tally{}
		}
		for _, tt := range []*tally{t, &byKind[kinds[s]][split]} {
			tt.docs++
			qq := q
			qq.verbose = q.verbose && tt == t
			scoreTables(sg, sd, tt, qq, fmt.Sprintf("%s %s p%d", name, kinds[s], pg[0]))
			var sub document.Result
			for _, el := range res.Elements {
				if on(el.Page) {
					sub.Elements = append(sub.Elements, el)
				}
			}
			leaks(&sub, sd, tt, qq)
		}
		if q.show == name {
			fmt.Printf("%s: %s, pages %v of the set's PDF\n", name, kinds[s], pg)
			for _, g := range sg {
				fmt.Printf("== truth p%d %s\n", g.page, fmtBox(g.bb))
				for _, r := range cellGrid(g.cells) {
					fmt.Printf("   %q\n", r)
				}
			}
			showDets(sd)
		}
	}
	tune.print(fmt.Sprintf("%s/tune: %d pages (%s, generator v%d, even seeds of %d..%d; %d seeds overflowed their page and are not scored)",
		set.name, tune.docs, set.about, set.version, first+1, first+n, over), set.tuned, true)
	report.print(fmt.Sprintf("%s/report: %d pages (odd seeds)", set.name, report.docs), "report split: not looked at when changing rules", true)
	if o.verbose {
		for _, k := range sortedKeys(byKind) {
			byKind[k][0].print("  "+set.name+"/tune "+k, "kind", false)
			if o.reportDetail {
				byKind[k][1].print("  "+set.name+"/report "+k, "kind", false)
			}
		}
	}
	return nil
}

// kindsRender prints the pages (renderBrowser); with cache set it keeps
// the PDF and layout there under the generator's version and page count
// and reads them back next time (printing takes minutes; the pages of a
// version and count are always the same).
func kindsRender(set kindsSet, pages []brPage, dir, cache string) ([]byte, []brLayout, error) {
	if cache == "" {
		return renderBrowser(pages, dir)
	}
	base := filepath.Join(cache, fmt.Sprintf("%s-v%d-%d", set.name, set.version, len(pages)))
	if b, err := os.ReadFile(base + ".pdf"); err == nil {
		if j, err := os.ReadFile(base + ".json"); err == nil {
			var lay []brLayout
			if json.Unmarshal(j, &lay) == nil && len(lay) == len(pages) {
				return b, lay, nil
			}
		}
	}
	b, lay, err := renderBrowser(pages, dir)
	if err != nil {
		return nil, nil, err
	}
	j, _ := json.Marshal(lay)
	if err := os.MkdirAll(cache, 0o755); err != nil {
		return nil, nil, err
	}
	if err := os.WriteFile(base+".pdf", b, 0o644); err != nil {
		return nil, nil, err
	}
	return b, lay, os.WriteFile(base+".json", j, 0o644)
}
