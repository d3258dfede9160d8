package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/docket-dev/docket/loader/internal/docs"
	"github.com/docket-dev/docket/loader/internal/docs/pageimg"
	"github.com/docket-dev/docket/loader/internal/embed"
	"github.com/docket-dev/docket/loader/internal/project"
	"github.com/docket-dev/docket/loader/internal/search"
	"github.com/docket-dev/docket/loader/internal/warehouse"
)

const docsUsage = `usage:
  docket docs generate [--max-image-mb 1024] [--max-doc-pages 200] [--no-images]
      writes target/catalog.json and the static site target/docs (open target/docs/index.html)
  docket docs serve [--port 8080] [--addr 127.0.0.1]
      serves target/docs on 127.0.0.1 with live search
`

// runDocs is `docket docs generate|serve` (and the hidden render-worker
// that renders page images in its own process).
func runDocs(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, docsUsage)
		return ExitUsage
	}
	switch args[0] {
	case "generate":
		return runDocsGenerate(ctx, args[1:], stdout, stderr)
	case "serve":
		return runDocsServe(ctx, args[1:], stdout, stderr)
	case "render-worker":
		if err := pageimg.Serve(os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(stderr, "docket docs render-worker:", err)
			return ExitFailed
		}
		return ExitOK
	case "-h", "--help", "help":
		fmt.Fprint(stdout, docsUsage)
		return ExitOK
	default:
		fmt.Fprintf(stderr, "docket docs: unknown subcommand %q\n%s", args[0], docsUsage)
		return ExitUsage
	}
}

func runDocsGenerate(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	dir, _, args := splitProjectFlag(args)
	fs := flag.NewFlagSet("docs generate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	maxMB := fs.Int("max-image-mb", 1024, "cap of the page-image cache in MB (target/docs/pages)")
	maxPages := fs.Int("max-doc-pages", 200, "pages rendered as images per document")
	noImages := fs.Bool("no-images", false, "do not render page images (boxes are drawn on a blank page)")
	// dbt's docs generate takes --target, --target-dir and --vars (a dbt
	// user's script passes them; each was "flag provided but not defined")
	mf := &modelFlags{}
	mf.addDbtFlags(fs, "to describe", "read as dbt's, not applied: the docs describe the manifest the last build, run or compile wrote")
	if err := fs.Parse(args); err != nil {
		return ExitUsage
	}
	loaded, code := loadProject(dir, stderr)
	if loaded == nil {
		return code
	}
	pp, _, vars, ok := mf.settings("docs generate", loaded, stderr)
	if !ok {
		return ExitUsage
	}
	p := &pp
	if len(vars) > 0 {
		// dbt re-parses with them; docket documents target/manifest.json as
		// the last build, run or compile wrote it, with that command's vars
		fmt.Fprintf(stderr, "docket docs: warning: --vars is read but not applied: the docs describe %s as the last build, run or compile wrote it (run `docket compile --vars ...` first to document other vars)\n",
			modelsRel(p.Dir, filepath.Join(p.TargetDir, "manifest.json")))
	}
	var db *warehouse.DB
	if _, err := os.Stat(p.Warehouse); err != nil {
		// nothing built yet (an empty dbt project): an empty warehouse, as
		// dbt-duckdb's connection creates one
		db, code = openWarehouse(ctx, p, false, stderr)
	} else {
		db, code = openReader(ctx, p, stderr)
	}
	if db == nil {
		return code
	}
	defer db.Close()
	o := docs.Options{DB: db, TargetDir: p.TargetDir, Project: p.Name, Thresholds: thresholds(p),
		MaxCacheBytes: int64(*maxMB) << 20, MaxDocPages: *maxPages}
	// profiles.yml's attach: databases, so the catalog describes a source
	// there (database: <alias>) as build reads it
	for _, a := range p.Target.Attach {
		if _, err := db.SQL().ExecContext(ctx, a.SQL()); err != nil {
			fmt.Fprintf(stderr, "docket docs: warning: %s:%d: attach %s as %s: %v (its sources are not in the catalog)\n", a.File, a.Line, a.Path, a.Alias, err)
			continue
		}
		o.Attached = append(o.Attached, a.Alias)
	}
	if *maxMB <= 0 {
		o.MaxCacheBytes = -1
	}
	if !*noImages {
		exe, err := os.Executable()
		if err != nil {
			fmt.Fprintln(stderr, "docket docs: cannot find the docket binary for the render worker:", err)
			return ExitFailed
		}
		o.RenderCmd = []string{exe, "docs", "render-worker"}
	}
	start := time.Now()
	rep, err := docs.Generate(ctx, o)
	if err != nil {
		fmt.Fprintln(stderr, "docket docs:", err)
		return ExitFailed
	}
	for _, e := range rep.CatalogErrs {
		fmt.Fprintln(stderr, "docket docs: warning:", e)
	}
	for _, w := range rep.Warnings {
		fmt.Fprintln(stderr, "docket docs: warning:", w)
	}
	fmt.Fprintf(stdout, "catalog: %s (%d relations)\n", rel(p.Dir, rep.CatalogPath), rep.Relations)
	fmt.Fprintf(stdout, "site: %s (%d lineage nodes, %d documents, %d load runs; %d files, %.1f MB) in %.1fs\n",
		rel(p.Dir, filepath.Join(rep.SiteDir, "index.html")), rep.LineageNodes, rep.Documents, rep.Runs, rep.Files,
		float64(rep.SiteBytes)/(1<<20), time.Since(start).Seconds())
	fmt.Fprintf(stdout, "page images: %d rendered, %d cached, %d failed, %d not rendered (%.1f MB cached)\n",
		rep.Images.Rendered, rep.Images.Cached, rep.Images.Failed, rep.Images.Skipped, float64(rep.Images.Bytes)/(1<<20))
	return ExitOK
}

// thresholds collects the project.yaml settings the health charts draw.
func thresholds(p *project.Project) docs.Thresholds {
	t := docs.Thresholds{MinCharsPerPage: p.Loader.MinCharsPerPage, MinWordConfidence: p.OCR.MinWordConfidence, ReviewBelow: p.OCR.ReviewBelow}
	if p.Health.MinSuccessRate != nil {
		t.MinSuccessRate = *p.Health.MinSuccessRate
	}
	if p.Health.MaxMeanCharsDrop != nil {
		t.MaxMeanCharsDrop = *p.Health.MaxMeanCharsDrop
	}
	switch v := p.Vars["min_doc_chars"].(type) {
	case int:
		t.MinDocChars = float64(v)
	case float64:
		t.MinDocChars = v
	case string:
		t.MinDocChars, _ = strconv.ParseFloat(v, 64)
	}
	return t
}

func rel(base, path string) string {
	if r, err := filepath.Rel(base, path); err == nil {
		return r
	}
	return path
}

func runDocsServe(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	dir, _, args := splitProjectFlag(args)
	fs := flag.NewFlagSet("docs serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	port := fs.Int("port", 8080, "port (0: any free port)")
	addr := fs.String("addr", "127.0.0.1", "address to listen on")
	if err := fs.Parse(args); err != nil {
		return ExitUsage
	}
	p, code := loadProject(dir, stderr)
	if p == nil {
		return code
	}
	site := filepath.Join(p.TargetDir, "docs")
	if _, err := os.Stat(filepath.Join(site, "index.html")); err != nil {
		fmt.Fprintf(stderr, "docket docs serve: %s has no site: run `docket docs generate` first\n", rel(p.Dir, site))
		return ExitUsage
	}
	prov, err := embed.New(p.Embedding)
	if err != nil {
		fmt.Fprintln(stderr, "docket docs serve:", err)
		return ExitUsage
	}
	// The search index (or else the warehouse) is opened per query
	// (read-only), so that serving the site never holds the file while
	// `docket load` or `build` runs and always answers from the copy
	// published last.
	fn := func(ctx context.Context, q string, k int) ([]search.Hit, error) {
		s, code := openSearcher(ctx, p, prov, io.Discard)
		if s == nil {
			return nil, fmt.Errorf("cannot open the warehouse (exit %d): is a load or build running?", code)
		}
		defer s.Close()
		return s.Search(ctx, q, search.Options{K: k, Mode: search.ModeHybrid})
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(*addr, strconv.Itoa(*port)))
	if err != nil {
		fmt.Fprintln(stderr, "docket docs serve:", err)
		return ExitUsage
	}
	srv := &http.Server{Handler: docs.Handler(site, fn), ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(stdout, "serving %s on http://%s/ (Ctrl-C stops)\n", rel(p.Dir, site), ln.Addr())
	go func() {
		<-ctx.Done()
		shut, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		srv.Shutdown(shut)
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintln(stderr, "docket docs serve:", err)
		return ExitFailed
	}
	return ExitOK
}
