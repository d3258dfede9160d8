// Package docs generates docket's documentation site under target/docs:
// lineage of every source, model, seed, test and snapshot; the catalog
// (also written as target/catalog.json); pipeline health as charts; and
// every document with its pages rendered, the boxes docket found on them,
// OCR words, tables, chunks and near duplicates. The site is static (it
// opens from the file system, nothing is fetched); Handler serves it and
// adds live search.
package docs

import (
	"context"
	"embed"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/docket-dev/docket/loader/internal/docs/catalog"
	"github.com/docket-dev/docket/loader/internal/docs/pageimg"
	"github.com/docket-dev/docket/loader/internal/warehouse"
)

//go:embed assets
var assets embed.FS

// Thresholds of project.yaml drawn on the health charts.
type Thresholds struct {
	MinSuccessRate    float64 // health.min_success_rate
	MaxMeanCharsDrop  float64 // health.max_mean_chars_drop
	MinCharsPerPage   int     // loader.min_chars_per_page
	MinWordConfidence float64 // ocr.min_word_confidence
	ReviewBelow       float64 // ocr.review_below
	MinDocChars       float64 // vars.min_doc_chars (0: not drawn)
}

// Options for Generate.
type Options struct {
	DB         *warehouse.DB
	TargetDir  string // holds manifest.json; catalog.json and docs/ are written here
	Project    string // project name for titles
	Thresholds Thresholds
	// RenderCmd starts a page-render worker (`docket docs render-worker`);
	// nil: no page images (pages show text and boxes only).
	RenderCmd     []string
	RenderEnv     []string
	RenderTimeout time.Duration // per page (default 60 s)
	MaxImageSide  int           // pixels (default 1100)
	MaxCacheBytes int64         // page-image cap (default 1 GiB; <0: none)
	MaxDocPages   int           // pages rendered per document (default 200)
	Now           time.Time
	// Attached are the databases attached on DB besides the warehouse
	// (profiles.yml's attach: aliases): a source there is described from it.
	Attached []string
}

// Report says what Generate did.
type Report struct {
	CatalogPath  string
	SiteDir      string
	Relations    int
	LineageNodes int
	Documents    int
	Runs         int
	Images       pageimg.Stats
	CatalogErrs  []string // manifest nodes without a relation
	Warnings     []string // pages not rendered and why, etc.
	SiteBytes    int64
	Files        int
}

// Generate writes target/catalog.json and the site under target/docs.
func Generate(ctx context.Context, o Options) (*Report, error) {
	if o.RenderTimeout <= 0 {
		o.RenderTimeout = 60 * time.Second
	}
	if o.MaxImageSide <= 0 {
		o.MaxImageSide = 1100
	}
	if o.MaxCacheBytes == 0 {
		o.MaxCacheBytes = 1 << 30
	}
	if o.MaxDocPages <= 0 {
		o.MaxDocPages = 200
	}
	if o.Now.IsZero() {
		o.Now = time.Now()
	}
	m, rr, err := catalog.ReadArtifacts(o.TargetDir)
	if err != nil {
		return nil, err
	}
	rels, err := o.DB.Relations(ctx)
	if err != nil {
		return nil, err
	}
	more := append(attachedRelations(ctx, o.DB, m, o.Attached), externalRelations(ctx, o.DB, m)...)
	cat := catalog.Build(m, append(slices.Clip(rels), more...), o.Now)
	rep := &Report{CatalogPath: filepath.Join(o.TargetDir, "catalog.json"), SiteDir: filepath.Join(o.TargetDir, "docs"),
		Relations: len(rels), CatalogErrs: cat.Errors}
	if err := cat.Write(rep.CatalogPath); err != nil {
		return nil, err
	}
	s := &site{o: o, dir: rep.SiteDir, m: m, results: rr.ByID(), rels: rels, cat: cat, rep: rep, loaded: hasLoaderTables(rels)}
	if err := os.MkdirAll(s.dir, 0o755); err != nil {
		return nil, fmt.Errorf("docs: %w", err)
	}
	if err := s.writeAssets(); err != nil {
		return nil, err
	}
	steps := []func(context.Context) error{s.writeNodes, s.writeHealth, s.writeDocuments, s.writeIndex, s.writeSearch}
	for _, step := range steps {
		if err := step(ctx); err != nil {
			return nil, err
		}
	}
	rep.SiteBytes, rep.Files = dirSize(s.dir)
	return rep, nil
}

func (s *site) writeAssets() error {
	for _, name := range []string{"style.css", "site.js"} {
		b, err := assets.ReadFile("assets/" + name)
		if err != nil {
			return fmt.Errorf("docs: %w", err)
		}
		if err := writeFile(filepath.Join(s.dir, "assets", name), b); err != nil {
			return err
		}
	}
	return nil
}

func writeFile(path string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("docs: %w", err)
	}
	if old, err := os.ReadFile(path); err == nil && string(old) == string(b) {
		return nil // unchanged: keep the file's time
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return fmt.Errorf("docs: %w", err)
	}
	return nil
}

func dirSize(dir string) (n int64, files int) {
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if info, err := d.Info(); err == nil {
				n += info.Size()
				files++
			}
		}
		return nil
	})
	return n, files
}

// attachedRelations describes each source in an attached database (a
// source with database: <attach: alias>) as a relation named as the
// source renders, so the catalog lists its columns and rows: the catalog
// read the warehouse's own relations only, and named every such source
// "not in the warehouse". One DuckDB cannot read stays out (the catalog
// names it).
func attachedRelations(ctx context.Context, db *warehouse.DB, m *catalog.Manifest, attached []string) []warehouse.Relation {
	var out []warehouse.Relation
	for _, n := range m.All() {
		if n.ResourceType != "source" || catalog.IsExternal(n) || !slices.ContainsFunc(attached, func(a string) bool { return strings.EqualFold(a, n.Database) }) {
			continue
		}
		cols, err := db.DescribeExternal(ctx, n.RelationName)
		if err != nil {
			continue
		}
		r := warehouse.Relation{Name: n.RelationName, Type: "BASE TABLE", Columns: cols}
		if err := db.SQL().QueryRowContext(ctx, "select count(*) from "+n.RelationName).Scan(&r.Rows); err != nil {
			r.RowsErr = err.Error()
		}
		out = append(out, r)
	}
	return out
}

// externalRelations describes each source that reads an external location
// (dbt-duckdb's meta.external_location) as a relation named by that
// location, so the catalog lists its columns; one DuckDB cannot read stays
// out and the catalog names it with DuckDB's reason.
func externalRelations(ctx context.Context, db *warehouse.DB, m *catalog.Manifest) []warehouse.Relation {
	var out []warehouse.Relation
	for _, n := range m.All() {
		if n.ResourceType != "source" || !catalog.IsExternal(n) {
			continue
		}
		cols, err := db.DescribeExternal(ctx, n.RelationName)
		r := warehouse.Relation{Name: n.RelationName, Type: "EXTERNAL", Columns: cols, RowsErr: "not counted"}
		if err != nil {
			r.RowsErr = err.Error()
			r.Columns = nil
			r.Type = ""
		}
		out = append(out, r)
	}
	return out
}
