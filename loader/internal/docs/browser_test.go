package docs_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// chromium finds Debian's chromium (installed by `make test`).
func chromium(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("chromium is not installed (make test installs Debian's chromium): the site was not opened in a browser")
	return ""
}

// checkInBrowser opens every page of the site from the file system in
// headless Chromium and checks: no console error or failed load on any
// page, the lineage graph has a node per manifest node and source, every
// per-run health chart has a point per load run, and a PDF's document
// page shows its rendered page image with element boxes on it.
// Through the server (base), the Search page shows results and a hit's
// link lights the cited span on its document page.
// Screenshots of the lineage, health and a document page go to
// target/screenshots of the project (and, for a person to look at after
// the test, to target/docs-test of the repository).
func checkInBrowser(t *testing.T, dir, site, base string, hits []apiHit) {
	exe := chromium(t)
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe), chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1400, 1000))
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancel()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	ctx, cancel = context.WithTimeout(ctx, 4*time.Minute)
	defer cancel()

	var mu sync.Mutex
	var problems []string
	current := ""
	if err := chromedp.Listen(ctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch e := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if e.Type == runtime.ConsoleAPICalledTypeError || e.Type == runtime.ConsoleAPICalledTypeAssert {
				var args []string
				for _, a := range e.Args {
					args = append(args, string(a.Value))
				}
				problems = append(problems, fmt.Sprintf("%s: console.%s %s", current, e.Type, strings.Join(args, " ")))
			}
		case *runtime.EventExceptionThrown:
			msg := e.ExceptionDetails.Text
			if e.ExceptionDetails.Exception != nil {
				msg += " " + e.ExceptionDetails.Exception.Description
			}
			problems = append(problems, fmt.Sprintf("%s: exception %s", current, msg))
		case *cdplog.EventEntryAdded:
			if e.Entry.Level == cdplog.EntryLevelError {
				problems = append(problems, fmt.Sprintf("%s: %s %s", current, e.Entry.Text, e.Entry.URL))
			}
		}
	}); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	var pages []string
	filepath.WalkDir(site, func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".html") {
			pages = append(pages, p)
		}
		return nil
	})
	sort.Strings(pages)
	for _, p := range pages {
		mu.Lock()
		current = strings.TrimPrefix(p, site+"/")
		mu.Unlock()
		if err := chromedp.Do(ctx, chromedp.Navigate("file://"+p), chromedp.WaitReady(chromedp.CSS("body"))); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
	}
	mu.Lock()
	for _, pr := range problems {
		t.Errorf("console: %s", pr)
	}
	mu.Unlock()
	t.Logf("%d pages opened in %s", len(pages), exe)

	shots := filepath.Join(dir, "target", "screenshots")
	os.MkdirAll(shots, 0o755)
	shot := func(name string) {
		png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Errorf("screenshot %s: %v", name, err)
			return
		}
		os.WriteFile(filepath.Join(shots, name), png, 0o644)
		if repo, err := filepath.Abs(filepath.Join(repoRoot, "target", "docs-test")); err == nil {
			os.MkdirAll(repo, 0o755)
			os.WriteFile(filepath.Join(repo, name), png, 0o644)
		}
	}

	// lineage: one node per manifest node and source
	var manifest struct{ Nodes, Sources map[string]json.RawMessage }
	b, _ := os.ReadFile(filepath.Join(dir, "target", "manifest.json"))
	if err := json.Unmarshal(b, &manifest); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate("file://"+filepath.Join(site, "lineage.html")), chromedp.WaitReady(chromedp.CSS("#lineage"))); err != nil {
		t.Fatal(err)
	}
	nodes, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('#lineage a.node').length`))
	if err != nil {
		t.Fatal(err)
	}
	edges, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('#lineage path.edge').length`))
	if err != nil {
		t.Fatal(err)
	}
	if want := len(manifest.Nodes) + len(manifest.Sources); nodes != want || want < 90 {
		t.Errorf("lineage has %d nodes, the manifest %d nodes and sources", nodes, want)
	}
	if edges < nodes-len(manifest.Sources) {
		t.Errorf("lineage has %d edges for %d nodes", edges, nodes)
	}
	shot("lineage.png")

	// health: every per-run chart has a data point per load run
	runs := query(t, dir, `select count(*) from ops.load_runs`)
	if err := chromedp.Do(ctx, chromedp.Navigate("file://"+filepath.Join(site, "health.html")), chromedp.WaitReady(chromedp.CSS("svg.chart"))); err != nil {
		t.Fatal(err)
	}
	perChart, err := chromedp.Run(ctx, chromedp.Evaluate[map[string]int](`(() => { const o = {}; document.querySelectorAll('svg.chart').forEach(c => {
			const s = new Set(); c.querySelectorAll('[data-run]').forEach(p => { if (p.querySelector('rect,circle')) s.add(p.dataset.run); });
			if (c.querySelector('[data-run]')) o[c.id] = s.size; }); return o; })()`))
	if err != nil {
		t.Fatal(err)
	}
	if runs < 2 || len(perChart) < 6 {
		t.Errorf("%d load runs, %d per-run charts: %v", runs, len(perChart), perChart)
	}
	for id, n := range perChart {
		if n != runs {
			t.Errorf("health chart %s has points for %d runs, want %d", id, n, runs)
		}
	}
	shot("health.png")

	// a PDF's page: the rendered image is loaded and element boxes lie on it
	docPage := ""
	for _, p := range pages {
		if b, _ := os.ReadFile(p); strings.Contains(string(b), "<h1>remote-work-policy.pdf</h1>") {
			docPage = p
		}
	}
	if docPage == "" {
		t.Fatal("no page for remote-work-policy.pdf")
	}
	type pageCheck struct {
		Images, Loaded, Boxes, Inside int
	}
	if err := chromedp.Do(ctx, chromedp.Navigate("file://"+docPage), chromedp.WaitReady(chromedp.CSS("svg.page-svg"))); err != nil {
		t.Fatal(err)
	}
	res, err := chromedp.Run(ctx, chromedp.Evaluate[pageCheck](`(async () => {
			const svgs = [...document.querySelectorAll('svg.page-svg')];
			const imgs = svgs.map(s => s.querySelector('image.page-img')).filter(Boolean);
			const loaded = await Promise.all(imgs.map(im => new Promise(ok => {
				const i = new Image(); i.onload = () => ok(i.naturalWidth > 100 ? 1 : 0); i.onerror = () => ok(0);
				i.src = im.href.baseVal; })));
			let boxes = 0, inside = 0;
			svgs.forEach(s => { const vb = s.viewBox.baseVal; s.querySelectorAll('rect.el').forEach(r => { boxes++;
				const x = r.x.baseVal.value, y = r.y.baseVal.value, w = r.width.baseVal.value, h = r.height.baseVal.value;
				if (x >= 0 && y >= 0 && w > 0 && h > 0 && x + w <= vb.width + 1 && y + h <= vb.height + 1) inside++; }); });
			return {Images: imgs.length, Loaded: loaded.reduce((a, b) => a + b, 0), Boxes: boxes, Inside: inside};
		})()`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	if res.Images != 2 || res.Loaded != 2 || res.Boxes < 10 || res.Inside != res.Boxes {
		t.Errorf("remote-work-policy.pdf page: %+v; want 2 loaded page images and element boxes inside the pages", res)
	}
	shot("document.png")

	if len(hits) == 0 {
		return
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/search.html?q=termination%20notice%20period")); err != nil {
		t.Fatal(err)
	}
	shown, err := chromedp.Run(ctx, chromedp.Poll[int](`document.querySelectorAll('#search-results .hit a').length || null`, chromedp.WithPollingTimeout(30*time.Second)))
	if err != nil || shown != len(hits) {
		t.Errorf("search page shows %d hits (%v), the API %d", shown, err, len(hits))
	}
	shot("search.png")
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/"+hits[0].Href), chromedp.WaitReady(chromedp.CSS("body"))); err != nil {
		t.Fatal(err)
	}
	lit, err := chromedp.Run(ctx, chromedp.Evaluate[string](`[...document.querySelectorAll('.seg.hl')].map(s => s.textContent).join('')`))
	if err != nil {
		t.Fatal(err)
	}
	norm := func(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }
	want := norm(hits[0].Text)
	if len(want) > 40 {
		want = want[:40]
	}
	if want == "" || !strings.Contains(norm(lit), want) {
		t.Errorf("%s: the lit span %q does not hold the hit's text %q", hits[0].Href, norm(lit), want)
	}
}
