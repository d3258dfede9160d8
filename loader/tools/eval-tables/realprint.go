package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/docket-dev/docket/loader/tools/internal/browser"
)

// realPrinter lays out and prints the realhtml set's pages in one headless
// Chromium, a tab a page, driven over the DevTools protocol (chromedp):
// starting a browser for each page (two command-line runs, one to read the
// DOM and one to print) cost about 2 s of CPU a page, most of the set's
// cold run. The tab loads the prepared page (realScript runs at the end of
// its body and leaves the record in pre#dk-truth), the record is read, and
// the page as the script left it is printed: its style sheets flattened,
// so the print lays out what was measured.
type realPrinter struct {
	dir    string
	ctx    context.Context // the browser's
	cancel func()
}

// newRealPrinter starts Chromium (browser.ErrNoChromium when there is
// none) with a window of the printed page's size; dir holds the pages
// and the profile.
func newRealPrinter(dir string) (*realPrinter, error) {
	exe, err := browser.Find()
	if err != nil {
		return nil, err
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe), chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(filepath.Join(dir, "profile")), chromedp.WindowSize(realPageW, realPageH))
	actx, acancel := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	if err := chromedp.Do(ctx); err != nil { // starts the browser
		cancel()
		acancel()
		return nil, err
	}
	return &realPrinter{dir: dir, ctx: ctx, cancel: func() { cancel(); acancel() }}, nil
}

func (p *realPrinter) close() { p.cancel() }

// render loads doc in a new tab and returns realScript's record (the
// text of pre#dk-truth) and, when print is set, the page printed to PDF
// (@page's size, no margins, backgrounds, no header or footer: as
// Chromium's --print-to-pdf).
func (p *realPrinter) render(doc string, print func(record string) bool) (record string, pdf []byte, err error) {
	f := filepath.Join(p.dir, "real.html")
	if err := os.WriteFile(f, []byte(doc), 0o644); err != nil {
		return "", nil, err
	}
	tab, cancel := chromedp.NewContext(p.ctx)
	defer cancel()
	tab, cancelT := context.WithTimeout(tab, 2*time.Minute)
	defer cancelT()
	if err := chromedp.Do(tab, chromedp.Navigate("file://"+f)); err != nil {
		return "", nil, err
	}
	record, err = chromedp.Run(tab, chromedp.Evaluate[string](`(document.getElementById('dk-truth')||{}).textContent||''`))
	if err != nil {
		return "", nil, err
	}
	if record == "" {
		return "", nil, errors.New("the page's script left no record (it did not run or failed)")
	}
	if !print(record) {
		return record, nil, nil
	}
	pdf, err = chromedp.Run(tab, chromedp.PrintToPDF(chromedp.PDFPreferCSSPageSize(), chromedp.PDFMargin(0), chromedp.PDFPrintBackground()))
	return record, pdf, err
}
