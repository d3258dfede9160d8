package docs_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/docket-dev/docket/loader/internal/cli"
	"github.com/docket-dev/docket/loader/internal/warehouse"
	"github.com/docket-dev/docket/loader/internal/workercmd"
)

// The test binary doubles as docket (loader, workers and the page-render
// worker) when DOCKET_TEST_AS_DOCKET=1, so the real process model runs.
func TestMain(m *testing.M) {
	if os.Getenv("DOCKET_TEST_AS_DOCKET") == "1" {
		cli.InProcessWorker = workercmd.Main
		os.Exit(cli.Main(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

const repoRoot = "../../.."

// exampleProject copies the repository's project (project.yaml, models,
// macros, seeds, tests and examples/inbox) into a fresh folder.
func exampleProject(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, d := range []string{"models", "macros", "seeds", "tests", "examples/inbox"} {
		if err := os.CopyFS(filepath.Join(dir, d), os.DirFS(filepath.Join(repoRoot, d))); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(filepath.Join(repoRoot, "project.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	b = regexp.MustCompile(`(?m)^  workers: .*$`).ReplaceAll(b, []byte("  workers: 2"))
	if err := os.WriteFile(filepath.Join(dir, "project.yaml"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func docket(t *testing.T, dir string, args ...string) string {
	t.Helper()
	exe, _ := os.Executable()
	cmd := exec.Command(exe, append(args, "--project", dir)...)
	cmd.Env = append(os.Environ(), "DOCKET_TEST_AS_DOCKET=1")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("docket %s: %v\n%s\n%s", strings.Join(args, " "), err, out.String(), errb.String())
	}
	return out.String()
}

var imagesLine = regexp.MustCompile(`page images: (\d+) rendered, (\d+) cached, (\d+) failed, (\d+) not rendered`)

func imageCounts(t *testing.T, out string) (rendered, cached, failed, skipped int) {
	t.Helper()
	m := imagesLine.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no page-image summary in:\n%s", out)
	}
	n := make([]int, 4)
	for i := range n {
		n[i], _ = strconv.Atoi(m[i+1])
	}
	return n[0], n[1], n[2], n[3]
}

// query runs counts on the project's warehouse.
func query(t *testing.T, dir string, qs ...string) int {
	t.Helper()
	n := queries(t, dir, qs...)
	return n[0]
}

func queries(t *testing.T, dir string, qs ...string) []int {
	t.Helper()
	db, err := warehouse.Open(context.Background(), filepath.Join(dir, "warehouse.duckdb"), warehouse.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	out := make([]int, len(qs))
	for i, q := range qs {
		if err := db.SQL().QueryRow(q).Scan(&out[i]); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	return out
}

// TestDocsSite builds the example project, generates the site, loads one
// new PDF and regenerates: only the new content's pages are rendered. The
// catalog validates against dbt's schema and lists every relation with
// its row count; every internal link of the site resolves; then a headless
// Chromium (when installed) opens the site.
func TestDocsSite(t *testing.T) {
	dir := exampleProject(t)
	docket(t, dir, "load", "--quiet")
	docket(t, dir, "build")
	out := docket(t, dir, "docs", "generate")
	rendered, _, failed, _ := imageCounts(t, out)
	// every page of a renderable content that has a file of its own
	wantPages := query(t, dir, `select count(*) from staging.pages p where p.source_hash in (
		select source_hash from raw.documents where status = 'landed' and detected_type in ('pdf', 'png', 'jpeg', 'tiff', 'bmp', 'gif')
		and source_uri not like '%#%')`)
	if rendered != wantPages || failed != 0 || wantPages == 0 {
		t.Fatalf("first generate rendered %d pages (%d failed), want %d:\n%s", rendered, failed, wantPages, out)
	}
	site := filepath.Join(dir, "target", "docs")
	before := pngTimes(t, site)

	// a small load: one new PDF (the policy with a different trailer, so
	// different bytes and a new content hash)
	pdf, err := os.ReadFile(filepath.Join(dir, "examples/inbox/remote-work-policy.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "examples/inbox/policy-v2.pdf"), append(pdf, []byte("\n% revised\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	docket(t, dir, "load", "--quiet")
	docket(t, dir, "build")
	out = docket(t, dir, "docs", "generate")
	rendered, cached, failed, _ := imageCounts(t, out)
	if rendered != 2 || failed != 0 || cached < wantPages {
		t.Fatalf("after loading one 2-page PDF: %d rendered, %d cached, %d failed; want 2 rendered and the %d old pages cached:\n%s",
			rendered, cached, failed, wantPages, out)
	}
	after := pngTimes(t, site)
	for p, mt := range before {
		if after[p] != mt {
			t.Errorf("%s was rendered again", p)
		}
	}
	if len(after) != len(before)+2 {
		t.Errorf("%d page images after the second generate, want %d", len(after), len(before)+2)
	}

	t.Run("catalog", func(t *testing.T) { checkCatalog(t, dir) })
	t.Run("links", func(t *testing.T) { checkLinks(t, site) })
	base := startServe(t, dir)
	var hits []apiHit
	t.Run("serve", func(t *testing.T) { hits = checkSearchAPI(t, base, site) })
	t.Run("browser", func(t *testing.T) { checkInBrowser(t, dir, site, base, hits) })
}

func pngTimes(t *testing.T, site string) map[string]int64 {
	t.Helper()
	out := map[string]int64{}
	filepath.WalkDir(filepath.Join(site, "pages"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".png") {
			info, _ := d.Info()
			out[p] = info.ModTime().UnixNano()
		}
		return nil
	})
	return out
}

func checkCatalog(t *testing.T, dir string) {
	b, err := os.ReadFile(filepath.Join(dir, "target", "catalog.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	schemaPath := filepath.Join(repoRoot, "..", "shared", "dbt", "schemas", "catalog", "v1.json")
	if _, err := os.Stat(schemaPath); err == nil {
		c := jsonschema.NewCompiler()
		sch, err := c.Compile(schemaPath)
		if err != nil {
			t.Fatal(err)
		}
		var inst any
		json.Unmarshal(b, &inst)
		if err := sch.Validate(inst); err != nil {
			t.Errorf("catalog.json does not validate against %s:\n%v", schemaPath, err)
		}
	} else {
		t.Logf("%s not found: schema validation skipped", schemaPath)
	}
	var cat struct {
		Nodes, Sources map[string]struct {
			Metadata struct{ Schema, Name, Type string }
			Columns  map[string]struct {
				Type  string
				Index int
			}
			Stats map[string]struct{ Value any }
		}
	}
	json.Unmarshal(b, &cat)
	// every relation of the warehouse but the runner's own records, with
	// its columns and row count
	want := query(t, dir, `select count(*) from information_schema.tables where table_schema not in ('information_schema', 'pg_catalog')
		and table_schema || '.' || table_name not in ('ops.build_state', 'ops.build_deltas')`)
	got := len(cat.Nodes) + len(cat.Sources)
	if got != want {
		t.Errorf("catalog lists %d relations, the warehouse has %d", got, want)
	}
	type entry struct {
		id, schema, name string
		cols             int
		rows             any
	}
	var entries []entry
	all := map[string]bool{}
	for id, tb := range cat.Nodes {
		all[id] = true
		entries = append(entries, entry{id, tb.Metadata.Schema, tb.Metadata.Name, len(tb.Columns), tb.Stats["row_count"].Value})
	}
	for id, tb := range cat.Sources {
		if !strings.HasPrefix(id, "source.") {
			t.Errorf("source entry %s", id)
		}
		entries = append(entries, entry{id, tb.Metadata.Schema, tb.Metadata.Name, len(tb.Columns), tb.Stats["row_count"].Value})
	}
	var qs []string
	for _, e := range entries {
		qs = append(qs, fmt.Sprintf(`select count(*) from information_schema.columns where table_schema = '%s' and table_name = '%s'`, e.schema, e.name),
			fmt.Sprintf(`select count(*) from "%s"."%s"`, e.schema, e.name))
	}
	n := queries(t, dir, qs...)
	for i, e := range entries {
		if wantCols := n[2*i]; e.cols != wantCols || e.cols == 0 {
			t.Errorf("%s: %d columns in the catalog, %d in the warehouse", e.id, e.cols, wantCols)
		}
		if f, ok := e.rows.(float64); !ok || int(f) != n[2*i+1] {
			t.Errorf("%s: row_count %v, the relation has %d rows", e.id, e.rows, n[2*i+1])
		}
	}
	for _, id := range []string{"model.docket_examples.doc_chunks", "model.docket_examples.extraction_health", "seed.docket_examples.stop_words"} {
		if !all[id] {
			t.Errorf("catalog has no %s", id)
		}
	}
	if c := cat.Nodes["model.docket_examples.doc_chunks"].Columns["char_offset"]; c.Type != "INTEGER" || c.Index == 0 {
		t.Errorf("doc_chunks.char_offset: %+v", c)
	}
}

var linkAttr = regexp.MustCompile(`(?:href|src)="([^"]*)"`)

// checkLinks resolves every href and src of every page of the site that
// does not leave it (no scheme): the file must exist, and a #pN anchor
// must exist on the target page.
func checkLinks(t *testing.T, site string) {
	pages, links := 0, 0
	filepath.WalkDir(site, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !strings.HasSuffix(p, ".html") {
			return err
		}
		pages++
		b, _ := os.ReadFile(p)
		for _, m := range linkAttr.FindAllStringSubmatch(string(b), -1) {
			u := strings.ReplaceAll(m[1], "&amp;", "&")
			if u == "" || strings.Contains(u, ":") {
				t.Errorf("%s: link %q leaves the site or is empty", p, u)
				continue
			}
			if strings.HasPrefix(u, "#") {
				continue
			}
			links++
			file, frag, _ := strings.Cut(u, "#")
			target := filepath.Join(filepath.Dir(p), filepath.FromSlash(file))
			tb, err := os.ReadFile(target)
			if err != nil {
				t.Errorf("%s: link %q: %v", p, u, err)
				continue
			}
			if strings.HasPrefix(frag, "p") && !bytes.Contains(tb, []byte(`id="`+frag+`"`)) {
				t.Errorf("%s: link %q: no anchor %s", p, u, frag)
			}
		}
		return nil
	})
	if pages < 50 || links < 500 {
		t.Errorf("only %d pages and %d internal links checked", pages, links)
	}
	t.Logf("%d pages, %d internal links resolved", pages, links)
}
