package cli_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// nodeModules returns the folder holding @duckdb/node-api, or skips.
func nodeModules(t *testing.T) string {
	t.Helper()
	mods := os.Getenv("DOCKET_NODE_MODULES")
	if mods == "" {
		mods = filepath.Join(repo, ".cache/node/node_modules")
	}
	if _, err := os.Stat(filepath.Join(mods, "@duckdb/node-api")); err != nil {
		t.Skipf("@duckdb/node-api not installed in %s (make test installs it)", mods)
	}
	abs, _ := filepath.Abs(mods)
	return abs
}

// nodeScript copies testdata/NAME into a folder beside node_modules.
func nodeScript(t *testing.T, name string) string {
	mods := nodeModules(t)
	dir := t.TempDir()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(dir, name)
	os.WriteFile(script, b, 0o644)
	os.Symlink(mods, filepath.Join(dir, "node_modules"))
	return script
}

// nodeReader is a running reader_loop.mjs.
type nodeReader struct {
	cmd   *exec.Cmd
	mu    sync.Mutex
	lines []string
	done  chan struct{}
}

func startReader(t *testing.T, script, path, mode, stop string) *nodeReader {
	t.Helper()
	r := &nodeReader{cmd: exec.Command("node", script, path, mode, stop), done: make(chan struct{})}
	r.cmd.Stderr = os.Stderr
	out, _ := r.cmd.StdoutPipe()
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.cmd.Process.Kill() })
	ready := make(chan bool, 1)
	go func() {
		defer close(r.done)
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		first := true
		for sc.Scan() {
			if first {
				ready <- strings.Contains(sc.Text(), `"ready"`)
				first = false
				continue
			}
			r.mu.Lock()
			r.lines = append(r.lines, sc.Text())
			r.mu.Unlock()
		}
		if first {
			ready <- false
		}
	}()
	select {
	case ok := <-ready:
		if !ok {
			t.Fatalf("node reader (%s) did not start", mode)
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("node reader (%s) did not start in 30 s", mode)
	}
	return r
}

// finish waits for the reader to stop and returns its observed states.
func (r *nodeReader) finish(t *testing.T) (states []string, queries int) {
	t.Helper()
	select {
	case <-r.done:
	case <-time.After(30 * time.Second):
		t.Fatal("node reader did not stop")
	}
	if err := r.cmd.Wait(); err != nil {
		t.Fatalf("node reader: %v\n%s", err, strings.Join(r.lines, "\n"))
	}
	for _, l := range r.lines {
		var v struct {
			State   []int
			Error   string
			Queries int
		}
		if err := json.Unmarshal([]byte(l), &v); err != nil {
			t.Fatalf("node reader printed %q", l)
		}
		switch {
		case v.Error != "":
			t.Errorf("a reader query failed: %s", v.Error)
		case v.State != nil:
			states = append(states, fmt.Sprint(v.State))
		default:
			queries = v.Queries
		}
	}
	return states, queries
}

const stateQuery = `select
  (select count(*) from raw.documents)::integer,
  (select count(*) from raw.document_versions)::integer,
  (select count(*) from ops.load_runs)::integer,
  (select count(*) from curated.doc_chunks)::integer,
  (select count(*) from curated.documents)::integer,
  (select count(*) from retrieval.search_chunks)::integer,
  (select count(*) from embeddings.chunk_vectors)::integer,
  (select count(*) from retrieval.bm25('licence renewal', k := 3))::integer`

// publishedState is what `docket sql` (a reader of the published copy)
// sees, formatted as the node reader prints it.
func publishedState(t *testing.T, dir string) string {
	t.Helper()
	rows := query(t, dir, stateQuery)
	if len(rows) != 1 {
		t.Fatalf("state query returned %v", rows)
	}
	return "[" + strings.Join(strings.Fields(rows[0]), " ") + "]"
}

// TestNotebooksNeverBlockThePipeline: two Node clients hold the published
// copy open (one connection for the whole test, one reconnecting) and
// query it in a loop while docket load, build, sql and search run twice.
// Every docket command succeeds without waiting, every reader query sees
// the state of one completed command, the reconnecting reader sees the
// new states, and the long-held connection keeps the state it opened.
func TestNotebooksNeverBlockThePipeline(t *testing.T) {
	script := nodeScript(t, "reader_loop.mjs")
	dir := shipped(t)
	inbox := filepath.Join(dir, "examples/inbox")
	must(t, dir, "load", "--quiet")
	must(t, dir, "build")
	valid := map[string]string{publishedState(t, dir): "first build"}
	first := publishedState(t, dir)
	readPath := strings.TrimSpace(must(t, dir, "connect", "--path"))
	if readPath != filepath.Join(dir, "warehouse.read.duckdb") {
		t.Fatalf("connect --path = %q", readPath)
	}

	stop := filepath.Join(t.TempDir(), "stop")
	hold := startReader(t, script, readPath, "hold", stop)
	loop := startReader(t, script, readPath, "reconnect", stop)

	notes := filepath.Join(inbox, "meeting-notes.txt")
	for round := 1; round <= 2; round++ {
		// A changed file and a new one each round.
		b, _ := os.ReadFile(notes)
		os.WriteFile(notes, append(b, fmt.Sprintf("\nRound %d: the forklift licence renewal moves to week %d.\n", round, 10+round)...), 0o644)
		os.WriteFile(filepath.Join(inbox, fmt.Sprintf("round-%d.txt", round)),
			[]byte(strings.Repeat(fmt.Sprintf("Round %d memo: licence renewal for the night shift, badge audit, spare parts. ", round), 8)), 0o644)
		for _, args := range [][]string{{"load", "--quiet", "--wait", "1s"}, {"build", "--wait", "1s"}} {
			start := time.Now()
			out := must(t, dir, args...)
			if strings.Contains(out, "waiting for the warehouse") {
				t.Fatalf("docket %s waited for a reader:\n%s", args[0], out)
			}
			if !strings.Contains(out, "published warehouse.read.duckdb") {
				t.Fatalf("docket %s did not publish:\n%s", args[0], out)
			}
			valid[publishedState(t, dir)] = fmt.Sprintf("round %d %s", round, args[0])
			t.Logf("round %d: docket %s in %s", round, args[0], time.Since(start).Round(time.Millisecond))
		}
		if out := must(t, dir, "search", "licence renewal", "-k", "3", "--mode", "bm25"); !strings.Contains(out, "licence") {
			t.Fatalf("search during reads:\n%s", out)
		}
		if n := query(t, dir, "select count(*) from raw.documents where rel_path = 'round-"+fmt.Sprint(round)+".txt'"); n[0] != "1" {
			t.Fatalf("docket sql does not see round %d's file", round)
		}
		time.Sleep(300 * time.Millisecond) // let the reconnecting reader see this state
	}
	os.WriteFile(stop, nil, 0o644)
	held, _ := hold.finish(t)
	seen, queries := loop.finish(t)
	if len(held) == 0 || len(seen) == 0 {
		t.Fatalf("readers queried nothing (held %d, reconnecting %d)", len(held), len(seen))
	}
	for _, s := range held {
		if s != first {
			t.Fatalf("the long-held connection's state changed from %s to %s", first, s)
		}
	}
	distinct := map[string]bool{}
	for _, s := range seen {
		if _, ok := valid[s]; !ok {
			t.Fatalf("a reader saw %s, the state of no completed command (completed: %v)", s, valid)
		}
		distinct[s] = true
	}
	last := publishedState(t, dir)
	if !distinct[last] || len(distinct) < 3 {
		t.Fatalf("the reconnecting reader saw %d states (%v); it should reach the last one %s", len(distinct), distinct, last)
	}
	t.Logf("%d reader queries over %d states; held connection: %d queries on the first state", queries, len(distinct), len(held))
	readmeExamples(t, readPath)
}

// readmeExamples runs the README's notebook example as written: the file
// it connects to is the one `docket connect --path` names, and each
// con.sql(...) query runs in Node's DuckDB client (the version duckdb-go
// links), and in the oldest client the README claims (DuckDB 1.1.2:
// .cache/node-old, which make test installs, or DOCKET_OLD_NODE_MODULES).
func readmeExamples(t *testing.T, readPath string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repo, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	block := regexp.MustCompile("(?s)```python\n(.*?)```").FindStringSubmatch(string(b))
	if block == nil {
		t.Fatal("README has no python example")
	}
	conn := regexp.MustCompile(`duckdb\.connect\("([^"]+)", read_only=True\)`).FindStringSubmatch(block[1])
	if conn == nil || conn[1] != filepath.Base(readPath) {
		t.Fatalf("README's notebook should connect read-only to %s:\n%s", filepath.Base(readPath), block[1])
	}
	var queries []string
	for _, m := range regexp.MustCompile(`con\.sql\("([^"]+)"\)`).FindAllStringSubmatch(block[1], -1) {
		queries = append(queries, m[1])
	}
	if len(queries) == 0 {
		t.Fatal("README's notebook example runs no query")
	}
	mods := []string{nodeModules(t)}
	old := os.Getenv("DOCKET_OLD_NODE_MODULES")
	if old == "" {
		old = filepath.Join(repo, ".cache/node-old/node_modules")
	}
	// The folder is symlinked into a temporary directory below, so a
	// relative path (repo is "../../..") would point nowhere.
	if abs, err := filepath.Abs(old); err == nil {
		old = abs
	}
	if _, err := os.Stat(filepath.Join(old, "@duckdb/node-api")); err == nil {
		mods = append(mods, old)
	} else {
		t.Logf("no older @duckdb/node-api in %s: README example checked on the current client only", old)
	}
	for _, m := range mods {
		dir := t.TempDir()
		src, _ := os.ReadFile("testdata/run_queries.mjs")
		os.WriteFile(filepath.Join(dir, "q.mjs"), src, 0o644)
		os.Symlink(m, filepath.Join(dir, "node_modules"))
		out, err := exec.Command("node", append([]string{filepath.Join(dir, "q.mjs"), readPath}, queries...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("node (%s): %v\n%s", m, err, out)
		}
		var got struct {
			Version string
			Rows    []int
			Errors  []string
		}
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatalf("node output %s: %v", out, err)
		}
		if len(got.Errors) > 0 {
			t.Fatalf("README example fails on DuckDB %s: %v", got.Version, got.Errors)
		}
		for i, n := range got.Rows {
			if n == 0 {
				t.Errorf("README query returned no row on DuckDB %s: %s", got.Version, queries[i])
			}
		}
		t.Logf("README notebook example runs on DuckDB %s", got.Version)
	}
}

// TestReadersFallBackAndWritersSayWhoTheyWaitFor: a client that opens the
// published copy read-write does not stop docket (build publishes a new
// copy; sql reads the warehouse meanwhile, saying why); a client holding
// the writer's file makes docket say, while it waits, who holds it, and
// --wait bounds the wait.
func TestReadersFallBackAndWritersSayWhoTheyWaitFor(t *testing.T) {
	script := nodeScript(t, "hold.mjs")
	dir := shipped(t)
	must(t, dir, "load", "--quiet")
	readPath := filepath.Join(dir, "warehouse.read.duckdb")

	// A notebook opens the published copy read-write (DuckDB's default).
	rw := holdWith(t, script, readPath, "rw")
	out := must(t, dir, "sql", "select count(*) as docs from raw.documents")
	if !strings.Contains(out, "open for writing by PID") || !strings.Contains(out, "reading warehouse.duckdb directly") {
		t.Fatalf("sql should say it reads the warehouse because the copy is held for writing:\n%s", out)
	}
	out = must(t, dir, "run", "-s", "staging")
	if !strings.Contains(out, "published warehouse.read.duckdb") {
		t.Fatalf("build should publish past a client writing the old copy:\n%s", out)
	}
	if out := must(t, dir, "sql", "select 1 as one"); strings.Contains(out, "note:") {
		t.Fatalf("after publishing, sql reads the new copy:\n%s", out)
	}
	stopHold(t, rw)

	// A client holding the writer's file: docket waits, says so, gives up at --wait.
	ro := holdWith(t, script, filepath.Join(dir, "warehouse.duckdb"), "ro")
	start := time.Now()
	out, code := run(t, dir, "load", "--quiet", "--wait", "2500ms")
	waited := time.Since(start)
	if code != 2 || waited < 2*time.Second {
		t.Fatalf("load should wait 2.5 s for the lock, then exit 2; exit %d after %s:\n%s", code, waited, out)
	}
	want := fmt.Sprintf("waiting for the warehouse: held by PID %d (node ", ro.Process.Pid)
	if !strings.Contains(out, want) || !strings.Contains(out, "warehouse.read.duckdb") {
		t.Fatalf("load should say who it waits for (%q) and where readers belong:\n%s", want, out)
	}
	// Readers are not blocked by it: they read the published copy.
	if out := must(t, dir, "sql", "select count(*) from raw.documents"); strings.Contains(out, "waiting") {
		t.Fatalf("sql waited:\n%s", out)
	}
	stopHold(t, ro)
	must(t, dir, "load", "--quiet")
}

func holdWith(t *testing.T, script, path, mode string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command("node", script, path, mode)
	cmd.Stderr = os.Stderr
	out, _ := cmd.StdoutPipe()
	in, _ := cmd.StdinPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { in.Close(); cmd.Process.Kill() })
	line, _ := bufio.NewReader(out).ReadString('\n')
	if !strings.HasPrefix(line, "holding") {
		t.Fatalf("node holder (%s %s) did not start: %q", path, mode, line)
	}
	go io.Copy(io.Discard, out)
	return cmd
}

func stopHold(t *testing.T, cmd *exec.Cmd) {
	t.Helper()
	cmd.Process.Kill()
	cmd.Wait()
}
