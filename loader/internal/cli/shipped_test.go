package cli_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/cli"
	"github.com/docket-dev/docket/loader/internal/workercmd"
)

// The test binary doubles as docket (CLI and workers).
func TestMain(m *testing.M) {
	switch os.Getenv("DOCKET_TEST_AS_DOCKET") {
	case "1":
		cli.InProcessWorker = workercmd.Main
		os.Exit(cli.Main(os.Args[1:], os.Stdout, os.Stderr))
	case "cli": // the shipped CLI: workers are DOCKET_WORKER, checked with --versions
		os.Exit(cli.Main(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

const repo = "../../.."

// shipped copies the shipped project (project.yaml, models, macros, seeds,
// tests, examples) into a temporary folder.
func shipped(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, sub := range []string{"models", "macros", "seeds", "tests", "snapshots", "examples"} {
		if err := os.CopyFS(filepath.Join(dir, sub), os.DirFS(filepath.Join(repo, sub))); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(filepath.Join(repo, "project.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "project.yaml"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func run(t *testing.T, dir string, args ...string) (string, int) {
	t.Helper()
	exe, _ := os.Executable()
	cmd := exec.Command(exe, append(args, "--project", dir)...)
	cmd.Env = append(os.Environ(), "DOCKET_TEST_AS_DOCKET=1")
	out, err := cmd.CombinedOutput()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return string(out), code
}

func must(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, code := run(t, dir, args...)
	if code != 0 {
		t.Fatalf("docket %v: exit %d\n%s", args, code, out)
	}
	return out
}

// rows reads "N rows" of a model from build output.
func rows(t *testing.T, out, model string) int {
	t.Helper()
	m := regexp.MustCompile(regexp.QuoteMeta(model) + ` .*\[OK (\d+) rows`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no row count for %s in:\n%s", model, out)
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

func query(t *testing.T, dir, q string) []string {
	t.Helper()
	out := must(t, dir, "sql", q)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	for i := range lines {
		lines[i] = strings.TrimSpace(lines[i])
	}
	return lines[1:]
}

func TestShippedProjectEndToEnd(t *testing.T) {
	dir := shipped(t)
	must(t, dir, "load", "--quiet")
	out := must(t, dir, "build")
	if n := rows(t, out, "embeddings.chunk_vectors"); n == 0 {
		t.Fatalf("first build embedded nothing:\n%s", out)
	}
	// The shipped project's artifacts validate against dbt's own schemas.
	validateDBTArtifacts(t, filepath.Join(dir, "target"))
	chunksBefore := query(t, dir, "select doc_id, chunk_id from curated.doc_chunks order by all")

	// Rebuild: nothing changed, so the models are up to date and not run.
	out = must(t, dir, "build")
	for _, m := range []string{"curated.doc_chunks", "embeddings.chunk_vectors"} {
		if !regexp.MustCompile(`UP TO DATE model ` + regexp.QuoteMeta(m) + ` `).MatchString(out) {
			t.Fatalf("second build should find %s up to date:\n%s", m, out)
		}
	}
	// Forced: incremental models run and change nothing, nothing is embedded.
	out = must(t, dir, "build", "--force")
	if rows(t, out, "curated.doc_chunks") != 0 || rows(t, out, "embeddings.chunk_vectors") != 0 {
		t.Fatalf("a forced second build should change no chunk and embed nothing:\n%s", out)
	}

	// Change one document: only its chunks change; only its new texts are embedded.
	notes := filepath.Join(dir, "examples/inbox/meeting-notes.txt")
	b, _ := os.ReadFile(notes)
	os.WriteFile(notes, append(b, []byte("\nAction item: order two spare gripper sets from the Lisbon supplier before June.\n")...), 0o644)
	must(t, dir, "load", "--quiet")
	vectorsBefore := map[string]bool{}
	for _, h := range query(t, dir, "select text_hash from embeddings.chunk_vectors") {
		vectorsBefore[h] = true
	}
	out = must(t, dir, "build")
	notesID := query(t, dir, "select doc_id from raw.documents where rel_path = 'meeting-notes.txt'")[0]
	newTexts := 0
	for _, h := range query(t, dir, "select distinct text_hash from curated.unique_chunks") {
		if !vectorsBefore[h] {
			newTexts++
		}
	}
	chunksAfter := query(t, dir, "select doc_id, chunk_id from curated.doc_chunks order by all")
	changed := symmetricDiff(chunksBefore, chunksAfter)
	if len(changed) == 0 {
		t.Fatal("changing a document changed no chunk")
	}
	for _, c := range changed {
		if !strings.HasPrefix(c, notesID) {
			t.Fatalf("a chunk of another document changed: %s", c)
		}
	}
	if embedded := rows(t, out, "embeddings.chunk_vectors"); embedded == 0 || embedded != newTexts {
		t.Fatalf("embedded %d texts; %d unique texts had no vector", embedded, newTexts)
	}

	// Delete one document: its chunks leave.
	os.Remove(filepath.Join(dir, "examples/inbox/travel-guideline.docx"))
	must(t, dir, "load", "--quiet")
	must(t, dir, "build")
	if n := query(t, dir, "select count(*) from curated.doc_chunks c join raw.documents d using (doc_id) where d.rel_path = 'travel-guideline.docx'"); n[0] != "0" {
		t.Fatalf("deleted document still has %s chunks", n[0])
	}
	// The shipped snapshot keeps each document's history: the changed notes
	// have two versions (one current), the deleted guideline's last is closed.
	if got := query(t, dir, "select count(*), count(*) filter (where dbt_valid_to is null) from snapshots.doc_quality_history where rel_path = 'meeting-notes.txt'"); len(got) != 1 || strings.Join(strings.Fields(got[0]), " ") != "2 1" {
		t.Fatalf("doc_quality_history of the changed notes: %v, want 2 versions, 1 current", got)
	}
	if got := query(t, dir, "select count(*) filter (where dbt_valid_to is null) from snapshots.doc_quality_history where rel_path = 'travel-guideline.docx'"); got[0] != "0" {
		t.Fatalf("the deleted guideline still has a current version in doc_quality_history")
	}

	// A new version without any chunk (whitespace only): the old chunks leave too.
	os.WriteFile(notes, []byte("   \n\n  \n"), 0o644)
	must(t, dir, "load", "--quiet")
	must(t, dir, "build")
	if n := query(t, dir, "select count(*) from curated.doc_chunks where doc_id = '"+notesID+"'"); n[0] != "0" {
		t.Fatalf("a version without text still has %s old chunks", n[0])
	}
	if out := must(t, dir, "search", "spare gripper sets", "--mode", "bm25"); strings.Contains(out, "meeting-notes.txt") {
		t.Fatalf("search still cites the old version:\n%s", out)
	}
	// That load's documents shrank from hundreds of characters to a few:
	// the health test catches it once the load is big enough to judge.
	if out, code := run(t, dir, "test", "--vars", "{health_min_documents: 1}"); code != 1 || !strings.Contains(out, "health_mean_chars_drop") {
		t.Fatalf("a sharp drop in characters per document should fail docket test, got %d:\n%s", code, out)
	}

	// Vectors of texts that left stay cached in chunk_vectors; vector
	// search still returns k hits (or every searchable chunk).
	searchable := query(t, dir, "select count(*) from retrieval.search_chunks")[0]
	out = must(t, dir, "search", "hotel allowance for travel", "--mode", "vector", "-k", "1000", "--json")
	if n := strings.Count(out, `"chunk_id"`); fmt.Sprint(n) != searchable {
		t.Fatalf("vector search returned %d hits, %s chunks are searchable", n, searchable)
	}

	// Search cites its sources.
	out = must(t, dir, "search", "termination notice period", "-k", "3")
	if !strings.Contains(out, "remote-work-policy.pdf  page 1") {
		t.Fatalf("search should cite the policy's page 1:\n%s", out)
	}

	crossClient(t, dir)
}

func symmetricDiff(a, b []string) []string {
	in := map[string]int{}
	for _, x := range a {
		in[x]++
	}
	for _, x := range b {
		in[x]--
	}
	var out []string
	for k, v := range in {
		if v != 0 {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// crossClient opens the published copy with Node's DuckDB client, read-only:
// every model's table reads, and the BM25 macro gives docket's ranking.
func crossClient(t *testing.T, dir string) {
	script := nodeScript(t, "read_warehouse.mjs")
	out, err := exec.Command("node", script, filepath.Join(dir, "warehouse.read.duckdb"), "forklift licence renewal").CombinedOutput()
	if err != nil {
		t.Fatalf("node client: %v\n%s", err, out)
	}
	var got struct {
		Tables  map[string]int
		BM25    []string
		Version string
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("node output: %v\n%s", err, out)
	}
	for _, m := range []string{"curated.doc_chunks", "curated.chunk_duplicates", "curated.unique_chunks", "curated.doc_quality", "curated.documents",
		"embeddings.chunk_vectors", "retrieval.search_chunks", "retrieval.chunk_terms", "retrieval.term_stats", "ops.extraction_health",
		"staging.stg_documents", "staging.stg_pages", "staging.stg_elements", "staging.stg_tables", "staging.stg_reviews", "seeds.stop_words"} {
		if _, ok := got.Tables[m]; !ok {
			t.Errorf("node client cannot see %s (saw %v)", m, got.Tables)
		}
	}
	if got.Tables["curated.doc_chunks"] == 0 {
		t.Errorf("node client read no chunks")
	}
	var js struct {
		Hits []struct {
			ChunkID string `json:"chunk_id"`
		}
	}
	out2 := must(t, dir, "search", "forklift licence renewal", "--mode", "bm25", "-k", "5", "--json")
	i := strings.Index(out2, "{")
	if i < 0 {
		t.Fatalf("search --json printed no JSON:\n%s", out2)
	}
	if err := json.Unmarshal([]byte(out2[i:]), &js); err != nil {
		t.Fatalf("search --json: %v\n%s", err, out2)
	}
	var want []string
	for _, h := range js.Hits {
		want = append(want, h.ChunkID)
	}
	if fmt.Sprint(want) != fmt.Sprint(got.BM25) || len(want) == 0 {
		t.Fatalf("bm25 from node %v != docket search %v", got.BM25, want)
	}
	t.Logf("node client %s read %d relations", got.Version, len(got.Tables))
}

// TestHealthThresholdsFailTheBuild: project.yaml's health floor becomes a
// data test; severity warn only warns.
func TestHealthThresholdsFailTheBuild(t *testing.T) {
	dir := shipped(t)
	must(t, dir, "load", "--quiet") // 2 of 12 files are quarantined: success rate 10/12
	py := filepath.Join(dir, "project.yaml")
	b, _ := os.ReadFile(py)
	strict := strings.Replace(string(b), "min_success_rate: 0.5", "min_success_rate: 0.95", 1)
	if strict == string(b) {
		t.Fatal("project.yaml has no min_success_rate: 0.5 to tighten")
	}
	os.WriteFile(py, []byte(strict), 0o644)
	out, code := run(t, dir, "build", "-s", "extraction_health")
	if code != 1 || !strings.Contains(out, "health_success_rate") {
		t.Fatalf("a success rate under the floor should fail the build (exit 1), got %d:\n%s", code, out)
	}
	os.WriteFile(py, []byte(strings.Replace(strict, "severity: error", "severity: warn", 1)), 0o644)
	out, code = run(t, dir, "build", "-s", "extraction_health")
	if code != 0 || !strings.Contains(out, "WARN") {
		t.Fatalf("with severity warn the build should pass with a warning, got %d:\n%s", code, out)
	}
}

// TestInitScaffoldsAWorkingProject: `docket init` gives the full shipped
// project reading its own inbox/; load and build pass on it.
func TestInitScaffoldsAWorkingProject(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "newproj")
	exe, _ := os.Executable()
	cmd := exec.Command(exe, "init", dir)
	cmd.Env = append(os.Environ(), "DOCKET_TEST_AS_DOCKET=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("init: %v\n%s", err, out)
	}
	for _, f := range []string{"project.yaml", "models/curated/doc_chunks.sql", "models/sources.yml", "macros/retrieval.sql", "seeds/stop_words.csv", "inbox/README.txt"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("init did not write %s", f)
		}
	}
	b, _ := os.ReadFile(filepath.Join(repo, "examples/inbox/meeting-notes.txt"))
	os.WriteFile(filepath.Join(dir, "inbox", "notes.txt"), b, 0o644)
	must(t, dir, "load", "--quiet")
	out := must(t, dir, "build")
	if !strings.Contains(out, "ERROR=0") {
		t.Fatalf("build of a new project:\n%s", out)
	}
	again := exec.Command(exe, "init", dir)
	again.Env = cmd.Env
	out2, err := again.CombinedOutput()
	if err != nil || !strings.Contains(string(out2), "nothing to create") {
		t.Errorf("init over a complete project should change nothing and say so: %v %s", err, out2)
	}
}

// TestInitKeepsExistingFiles: `docket init` in a folder that has files
// (an existing dbt repository) writes only what is missing, never
// overwrites, and lists what it left alone.
func TestInitKeepsExistingFiles(t *testing.T) {
	dir := t.TempDir()
	mine := map[string]string{".gitignore": "my ignores\n", "models/staging/schema.yml": "version: 2\n# mine\n",
		"models/sources.yml": "version: 2\n# my sources\n"}
	for name, body := range mine {
		writeTestFile(t, filepath.Join(dir, name), body)
	}
	exe, _ := os.Executable()
	cmd := exec.Command(exe, "init", dir)
	cmd.Env = append(os.Environ(), "DOCKET_TEST_AS_DOCKET=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("init: %v\n%s", err, out)
	}
	for name, body := range mine {
		b, _ := os.ReadFile(filepath.Join(dir, name))
		if string(b) != body {
			t.Errorf("init changed %s: %q", name, b)
		}
	}
	left, _, _ := strings.Cut(string(out), "\n")
	for name := range mine {
		if !strings.HasPrefix(left, "left alone") || !strings.Contains(left, name) {
			t.Errorf("init should list %s as left alone:\n%s", name, out)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "project.yaml")); err != nil {
		t.Errorf("init should still write the missing project.yaml: %v", err)
	}
}

func writeTestFile(t *testing.T, path, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestShippedModelsDependOnTheStagingViews: doc_chunks, doc_quality and the
// chunk_provenance test read staging.pages/elements by rowid (a view has
// none), so they declare their edge to the staging views with dbt's
// `-- depends_on:` comment; without it `-s stg_pages+` would leave out
// what a change to stg_pages affects.
func TestShippedModelsDependOnTheStagingViews(t *testing.T) {
	dir := shipped(t)
	for view, want := range map[string][]string{
		"stg_pages":    {"curated.doc_chunks\t", "curated.doc_quality\t", "test\tchunk_provenance\t"},
		"stg_elements": {"curated.doc_chunks\t"},
	} {
		out := must(t, dir, "ls", "-s", view+"+")
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Errorf("ls -s %s+ leaves out %q:\n%s", view, w, out)
			}
		}
	}
}
