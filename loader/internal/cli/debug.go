package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/docket-dev/docket/loader/internal/embed"
	"github.com/docket-dev/docket/loader/internal/extract/ocr"
	"github.com/docket-dev/docket/loader/internal/project"
	"github.com/docket-dev/docket/loader/internal/warehouse"
)

// runDebug is `docket debug`: what docket finds on this machine and in this
// project, one line per check, "ok", "warn" or "FAIL"; exit 1 when a check
// fails.
func runDebug(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	dir, _, args := splitProjectFlag(args)
	fs := flag.NewFlagSet("debug", flag.ContinueOnError)
	fs.SetOutput(stderr)
	// dbt debug --connection checks the connection only; docket's checks
	// are quick and include it
	fs.Bool("connection", false, "dbt's: every check is run (the warehouse's among them)")
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "usage: docket debug")
		return ExitUsage
	}
	failed := false
	line := func(status, what, detail string) {
		if status == "FAIL" {
			failed = true
		}
		fmt.Fprintf(stdout, "  %-4s  %-18s %s\n", status, what, detail)
	}
	fmt.Fprintln(stdout, "docket", versionString())
	line("ok", "go", fmt.Sprintf("%s %s/%s, %d cores", runtime.Version(), runtime.GOOS, runtime.GOARCH, runtime.NumCPU()))
	if v, err := warehouse.EngineVersion(ctx); err != nil {
		line("FAIL", "duckdb", err.Error())
	} else {
		line("ok", "duckdb", v)
	}
	if err := warehouse.ExtensionAvailable(ctx, "vss"); err != nil {
		line("warn", "vss extension", "not loadable: vector search is exact ("+firstLine(err.Error())+")")
	} else {
		line("ok", "vss extension", "loads: HNSW available for retrieval.vector_index hnsw|auto")
	}

	if c, err := workerCommand(); err != nil {
		line("FAIL", "worker", err.Error())
	} else {
		line("ok", "worker", strings.Join(c, " "))
	}

	fmt.Fprintln(stdout, "\nproject")
	root, err := project.Find(dir)
	var p *project.Project
	if err == nil {
		p, err = project.Load(root)
	}
	if err != nil {
		line("FAIL", "config", strings.ReplaceAll(err.Error(), "\n", "\n                            "))
	} else {
		line("ok", "config", p.File+" (valid)")
		for _, s := range p.Sources {
			if st, err := os.Stat(s.Path); err != nil || !st.IsDir() {
				line("FAIL", "source "+s.Name, s.Path+": not a folder")
			} else {
				line("ok", "source "+s.Name, s.Path)
			}
		}
		line("ok", "target", p.TargetDir)
	}

	langs := []string{"eng"}
	if p != nil && len(p.OCR.Languages) > 0 {
		langs = p.OCR.Languages
	}
	fmt.Fprintln(stdout, "\nOCR")
	if p != nil && !p.OCREnabled() {
		line("ok", "tesseract", "OCR is off (ocr.enabled: false)")
	} else if e, err := ocr.NewEngine(langs); err != nil {
		line("FAIL", "tesseract", firstLine(err.Error())+": scanned pages would be quarantined")
	} else {
		// Tesseract starts when any one language loads; say which did.
		msg := "loads with " + e.Loaded()
		if e.Loaded() != e.Languages() {
			msg += " (of " + e.Languages() + ")"
		}
		e.Close()
		line("ok", "tesseract", msg)
	}
	if dirs, found := tessLanguages(); len(found) > 0 {
		line("ok", "languages", strings.Join(found, ", ")+" in "+strings.Join(dirs, ", "))
		if p != nil {
			if w := missingOCRLanguages(p, found); w != "" {
				line("warn", "languages", w)
			}
		}
	} else {
		line("warn", "languages", "no *.traineddata found (TESSDATA_PREFIX or /usr/share/tesseract-ocr/*/tessdata)")
	}

	if p == nil {
		if failed {
			return ExitFailed
		}
		return ExitOK
	}
	fmt.Fprintln(stdout, "\nembedding")
	if prov, err := embed.New(p.Embedding); err != nil {
		line("FAIL", "provider", err.Error())
	} else if prov.Dimensions() == 0 {
		pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		d, err := embed.Probe(pctx, prov)
		cancel()
		if err != nil {
			line("FAIL", "provider", prov.ModelID()+": "+err.Error())
		} else {
			line("ok", "provider", fmt.Sprintf("%s, %d dimensions (asked the endpoint)", prov.ModelID(), d))
		}
	} else {
		line("ok", "provider", fmt.Sprintf("%s, %d dimensions", prov.ModelID(), prov.Dimensions()))
	}

	fmt.Fprintln(stdout, "\nwarehouse")
	debugWarehouse(ctx, p, line)
	if failed {
		return ExitFailed
	}
	return ExitOK
}

func debugWarehouse(ctx context.Context, p *project.Project, line func(status, what, detail string)) {
	st, err := os.Stat(p.Warehouse)
	if errors.Is(err, os.ErrNotExist) {
		line("ok", "file", p.Warehouse+": not created yet (docket load creates it)")
		return
	}
	if err != nil {
		line("FAIL", "file", err.Error())
		return
	}
	line("ok", "file", fmt.Sprintf("%s (%s)", p.Warehouse, humanBytes(st.Size())))
	h, err := warehouse.Holder(p.Warehouse)
	switch {
	case err != nil:
		line("warn", "lock", err.Error())
	case h.PID != 0 && h.Writer:
		line("warn", "lock", "held for writing by "+h.Name()+": writers wait for it")
	case h.PID != 0:
		line("warn", "lock", "held read-only by "+h.Name()+": writers wait for it; readers should open the published copy")
	default:
		line("ok", "lock", "free")
	}
	if h.PID == 0 || !h.Writer {
		if db, err := warehouse.Open(ctx, p.Warehouse, warehouse.Options{ReadOnly: true, LockTimeout: time.Nanosecond}); err != nil {
			line("FAIL", "open", firstLine(err.Error()))
		} else {
			var v string
			if err := db.SQL().QueryRowContext(ctx, `select value from ops.meta where key = 'schema_version'`).Scan(&v); err != nil {
				line("warn", "schema", "no schema version: "+firstLine(err.Error()))
			} else if v != fmt.Sprint(warehouse.SchemaVersion) {
				line("warn", "schema", fmt.Sprintf("version %s; this docket writes %d (the next load migrates it)", v, warehouse.SchemaVersion))
			} else {
				line("ok", "schema", "version "+v)
			}
			db.Close()
		}
	}
	rp := warehouse.ReadPath(p.Warehouse)
	stamp, err := warehouse.ReadStamp(p.Warehouse)
	switch {
	case err != nil:
		line("warn", "published", err.Error())
	case stamp == nil:
		line("warn", "published", rp+": nothing published yet (the next successful load or build publishes it)")
	case stamp.PublishedAt.IsZero():
		line("warn", "published", rp+": no stamp, provenance unknown (`docket publish` replaces it)")
	case stamp.Current(p.Warehouse):
		line("ok", "published", fmt.Sprintf("%s after `docket %s` at %s: current", rp, stamp.Command, stamp.PublishedAt.Local().Format("2006-01-02 15:04:05")))
	default:
		line("warn", "published", fmt.Sprintf("%s after `docket %s` at %s: the warehouse changed since (`docket publish`)", rp, stamp.Command, stamp.PublishedAt.Local().Format("2006-01-02 15:04:05")))
	}
}

// tessLanguages lists the installed Tesseract language files.
func tessLanguages() (dirs, langs []string) {
	var cands []string
	if d := os.Getenv("TESSDATA_PREFIX"); d != "" {
		cands = append(cands, d, filepath.Join(d, "tessdata"))
	}
	g, _ := filepath.Glob("/usr/share/tesseract-ocr/*/tessdata")
	cands = append(cands, g...)
	cands = append(cands, "/usr/share/tessdata", "/usr/local/share/tessdata", "/opt/homebrew/share/tessdata")
	seen := map[string]bool{}
	for _, d := range cands {
		files, _ := filepath.Glob(filepath.Join(d, "*.traineddata"))
		if len(files) == 0 {
			continue
		}
		dirs = append(dirs, d)
		for _, f := range files {
			l := strings.TrimSuffix(filepath.Base(f), ".traineddata")
			if !seen[l] {
				seen[l] = true
				langs = append(langs, l)
			}
		}
	}
	sort.Strings(langs)
	return dirs, langs
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
