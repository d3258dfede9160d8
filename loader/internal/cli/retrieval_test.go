package cli_test

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// flakyProvider is a local OpenAI-compatible embedding server whose
// behaviour a test switches: ok, zeros (all-zero vectors), down (503),
// hang (never answers in time), or ok with another vector size.
type flakyProvider struct {
	mode atomic.Value // string
	dims atomic.Int64
	hung chan struct{}
}

func (f *flakyProvider) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var req struct{ Input []string }
	json.NewDecoder(r.Body).Decode(&req)
	switch f.mode.Load().(string) {
	case "down":
		http.Error(w, `{"error":{"message":"model is loading"}}`, http.StatusServiceUnavailable)
		return
	case "hang":
		select {
		case <-f.hung:
		case <-time.After(30 * time.Second):
		}
		return
	case "error500":
		http.Error(w, `{"error":{"message":"CUDA out of memory"}}`, http.StatusInternalServerError)
		return
	case "nan": // what a Python server writes for a NaN: not JSON
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"data": [{"index": 0, "embedding": [NaN%s]}]}`, strings.Repeat(", 0.5", int(f.dims.Load())-1))
		return
	case "garbage":
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte("<html><body>502 Bad Gateway</body></html>"))
		return
	}
	type item struct {
		Index     int       `json:"index"`
		Embedding []float32 `json:"embedding"`
	}
	var data []item
	for i, s := range req.Input {
		v := make([]float32, f.dims.Load())
		if f.mode.Load().(string) != "zeros" {
			for _, word := range strings.Fields(strings.ToLower(s)) {
				h := fnv.New32a()
				h.Write([]byte(word))
				v[h.Sum32()%uint32(len(v))]++
			}
			v[0] += 0.5
		}
		data = append(data, item{i, v})
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"data": data})
}

func flakyProject(t *testing.T) (dir, inbox string, f *flakyProvider) {
	t.Helper()
	f = &flakyProvider{hung: make(chan struct{})}
	f.mode.Store("ok")
	f.dims.Store(8)
	srv := httptest.NewServer(f)
	t.Cleanup(func() { close(f.hung); srv.Close() })
	dir, inbox = healthProject(t)
	setEmbedding(t, dir, srv.URL, 8)
	return dir, inbox, f
}

func setEmbedding(t *testing.T, dir, url string, dims int) {
	t.Helper()
	py := filepath.Join(dir, "project.yaml")
	b, _ := os.ReadFile(py)
	s := string(b)
	i := strings.Index(s, "\nembedding:") + 1
	j := strings.Index(s, "\nretrieval:") + 1
	s = s[:i] + fmt.Sprintf("embedding:\n  provider: openai\n  model: flaky\n  base_url: %s\n  dimensions: %d\n  timeout: 1s\n  max_retries: 1\n", url, dims) + s[j:]
	os.WriteFile(py, []byte(s), 0o644)
}

// TestRetrievalDegradesHonestly: rejected vectors fail the embedding step
// naming the provider; chunks left without vectors are counted by a warning
// test and by search; with the provider down or hung, hybrid search answers
// from BM25 with a notice, in seconds; after a vector-size change, search
// says what to rebuild.
func TestRetrievalDegradesHonestly(t *testing.T) {
	dir, inbox, f := flakyProject(t)
	os.WriteFile(filepath.Join(inbox, "lease.txt"), []byte("The forklift lease renews every March with the Lisbon supplier.\n"), 0o644)
	os.WriteFile(filepath.Join(inbox, "safety.txt"), []byte("Safety training for warehouse staff happens twice a year.\n"), 0o644)
	must(t, dir, "load", "--quiet")
	must(t, dir, "build")

	// The provider starts answering all-zero vectors: rejected, provider named.
	os.WriteFile(filepath.Join(inbox, "audit.txt"), []byte("The insurance audit found three missing invoices from the harbour depot.\n"), 0o644)
	must(t, dir, "load", "--quiet")
	f.mode.Store("zeros")
	out, code := run(t, dir, "build")
	if code != 1 || !strings.Contains(out, "all-zero vector") || !strings.Contains(out, "provider openai at ") {
		t.Fatalf("all-zero vectors should fail the embedding step naming the provider, got exit %d:\n%s", code, out)
	}
	// docket test warns with the count of chunks lacking vectors.
	out, code = run(t, dir, "test")
	if code != 0 || !strings.Contains(out, "WARN 1 vectors_cover_chunks") || !strings.Contains(out, "1 | 3 | openai:flaky") {
		t.Fatalf("docket test should warn that 1 of 3 chunks has no vector, got exit %d:\n%s", code, out)
	}

	// Provider down: hybrid search answers from BM25, says so in one line.
	// (Readers see the copy published after the last successful command:
	// publish the state the failed build left.)
	must(t, dir, "publish")
	f.mode.Store("down")
	out, code = run(t, dir, "search", "insurance audit invoices")
	if code != 0 || !strings.Contains(out, "audit.txt") || !strings.Contains(out, "answering from BM25 only: ") ||
		!strings.Contains(out, "1 of 3 chunks have no vector for openai:flaky") {
		t.Fatalf("with the provider down, hybrid search should answer from BM25 with a notice, got exit %d:\n%s", code, out)
	}
	if n := strings.Count(out, "answering from BM25 only"); n != 1 {
		t.Fatalf("the fallback notice should be one line, got %d:\n%s", n, out)
	}

	// Provider hung: the same, bounded by the time-out (1s here), no retries.
	f.mode.Store("hang")
	t0 := time.Now()
	out, code = run(t, dir, "search", "forklift lease")
	if code != 0 || !strings.Contains(out, "lease.txt") || !strings.Contains(out, "no answer within 1s") {
		t.Fatalf("with the provider hung, hybrid search should answer from BM25 after the time-out, got exit %d:\n%s", code, out)
	}
	if d := time.Since(t0); d > 8*time.Second {
		t.Errorf("a hung provider held search for %s", d)
	}
	out, code = run(t, dir, "search", "forklift lease", "--mode", "vector")
	if code != 1 || !strings.Contains(out, "vector search unavailable") {
		t.Fatalf("vector-only search cannot fall back and should fail clearly, got exit %d:\n%s", code, out)
	}

	// The provider comes back with another vector size.
	f.mode.Store("ok")
	f.dims.Store(12)
	setEmbedding(t, dir, strings.TrimSuffix(strings.SplitN(strings.SplitN(readFile(t, filepath.Join(dir, "project.yaml")), "base_url: ", 2)[1], "\n", 2)[0], "/"), 12)
	out, code = run(t, dir, "search", "forklift lease", "--mode", "vector")
	if code != 1 || !strings.Contains(out, "holds 8-dimensional vectors, provider openai (openai:flaky) gives 12") ||
		!strings.Contains(out, "docket build --full-refresh -s embeddings") {
		t.Fatalf("after a size change, search should name both sizes and the rebuild, got exit %d:\n%s", code, out)
	}
	out, code = run(t, dir, "search", "forklift lease")
	if code != 0 || !strings.Contains(out, "lease.txt") || !strings.Contains(out, "answering from BM25 only") {
		t.Fatalf("hybrid search after a size change should answer from BM25, got exit %d:\n%s", code, out)
	}
	must(t, dir, "build", "--full-refresh", "-s", "embeddings")
	out = must(t, dir, "search", "forklift lease")
	if strings.Contains(out, "BM25 only") || strings.Contains(out, "no vector") || !strings.Contains(out, "lease.txt") {
		t.Fatalf("after the rebuild, hybrid search should use vectors again:\n%s", out)
	}
}

// TestEmbeddingFaultsFailTheBuildNamingTheProvider (issue 17's fault
// suite): through a real load and build, a provider that hangs past
// embedding.timeout, answers 500s, vectors of another size, a NaN (not
// JSON) or an HTML page fails the embedding step with a message naming
// the provider and what it did; nothing is stored for the chunk, and once
// the provider behaves the next build embeds it.
func TestEmbeddingFaultsFailTheBuildNamingTheProvider(t *testing.T) {
	dir, inbox, f := flakyProject(t)
	os.WriteFile(filepath.Join(inbox, "lease.txt"), []byte("The forklift lease renews every March with the Lisbon supplier.\n"), 0o644)
	must(t, dir, "load", "--quiet")
	must(t, dir, "build")
	cases := []struct{ mode, want string }{
		{"hang", "no answer within 1s (embedding.timeout)"},
		{"error500", "HTTP 500"},
		{"dims", "returned 12 dimensions for input 0, expected 8 (embedding.dimensions)"},
		{"nan", "NaN"},
		{"garbage", "502 Bad Gateway"},
	}
	for i, c := range cases {
		os.WriteFile(filepath.Join(inbox, fmt.Sprintf("note-%d.txt", i)), []byte(fmt.Sprintf("Fault case %s: the harbour depot counts %d pallets of tiles.\n", c.mode, 100+i)), 0o644)
		must(t, dir, "load", "--quiet")
		f.mode.Store(c.mode)
		if c.mode == "dims" {
			f.mode.Store("ok")
			f.dims.Store(12)
		}
		out, code := run(t, dir, "build")
		f.dims.Store(8)
		if code != 1 || !strings.Contains(out, "provider openai at http://127.0.0.1:") || !strings.Contains(out, c.want) {
			t.Fatalf("%s: the build should fail naming the provider and %q, got exit %d:\n%s", c.mode, c.want, code, out)
		}
	}
	f.mode.Store("ok")
	must(t, dir, "build")
	out := must(t, dir, "sql", "select chunks_without_vector from embeddings.vector_coverage")
	if !strings.Contains(out, "\n0") {
		t.Fatalf("once the provider behaves, every chunk should have its vector:\n%s", out)
	}
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestSearchAndSQLUsage: -k below 1 and an empty query are usage errors;
// control characters in file names and text are escaped on the terminal;
// docket sql cannot reach files or extensions unless --allow-external.
func TestSearchAndSQLUsage(t *testing.T) {
	dir, inbox := healthProject(t)
	os.WriteFile(filepath.Join(inbox, "evil\x1b[31mred\x07.txt"), []byte("Quarterly freight rates rose by four percent.\n"), 0o644)
	must(t, dir, "load", "--quiet")
	must(t, dir, "build")
	for _, args := range [][]string{{"search", "freight", "-k", "0"}, {"search", "freight", "-k", "-3"}, {"search", "   "}, {"search", ""}} {
		if out, code := run(t, dir, args...); code != 2 {
			t.Errorf("docket %q: want usage error (exit 2), got %d:\n%s", args, code, out)
		}
	}
	// A search turns garbage collection off for itself and puts the
	// process's settings back (docs serve and tests call it in-process).
	gcBefore, limitBefore := debug.SetGCPercent(77), debug.SetMemoryLimit(1<<40)
	out := must(t, dir, "search", "freight rates")
	if gc, limit := debug.SetGCPercent(gcBefore), debug.SetMemoryLimit(limitBefore); gc != 77 || limit != 1<<40 {
		t.Errorf("after docket search: GC percent %d, memory limit %d; want 77 and %d as before", gc, limit, int64(1<<40))
	}
	if strings.ContainsAny(out, "\x1b\x07") {
		t.Fatalf("raw control characters reached the terminal: %q", out)
	}
	if !strings.Contains(out, `evil\x1b[31mred\x07.txt`) {
		t.Fatalf("the file name should be shown with its control characters escaped: %q", out)
	}
	out = must(t, dir, "sql", "select rel_path from raw.documents")
	if strings.ContainsAny(out, "\x1b\x07") || !strings.Contains(out, `evil\x1b[31mred\x07.txt`) {
		t.Fatalf("docket sql printed raw control characters: %q", out)
	}

	target := filepath.Join(t.TempDir(), "out.csv")
	for _, q := range []string{
		"copy (select 1) to '" + target + "'",
		"select * from read_text('" + filepath.Join(dir, "project.yaml") + "')",
		"install vss",
		"set enable_external_access = true",
	} {
		out, code := run(t, dir, "sql", q)
		if code != 1 {
			t.Errorf("docket sql %q should be refused, got exit %d:\n%s", q, code, out)
		}
	}
	if _, err := os.Stat(target); err == nil {
		t.Fatal("docket sql wrote a file outside the warehouse")
	}
	out = must(t, dir, "sql", "--allow-external", "copy (select 42 as answer) to '"+target+"'")
	if b, err := os.ReadFile(target); err != nil || !strings.Contains(string(b), "42") {
		t.Fatalf("--allow-external should let COPY write: %v %q\n%s", err, b, out)
	}
}
