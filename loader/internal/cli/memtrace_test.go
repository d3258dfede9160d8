package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/docket-dev/docket/loader/internal/workercmd"
)

// TestLoadMemoryTrace: `docket load --memory-trace FILE` writes one JSON
// line per sample, at least one per phase of the load, in order, with the
// resident set, the Go heap and, while the warehouse is open, DuckDB's
// pool by tag and its limit; and the Go heap profile to FILE.heap.
func TestLoadMemoryTrace(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "docs"), 0o755)
	for _, n := range []string{"a", "b", "c"} {
		os.WriteFile(filepath.Join(dir, "docs", n+".txt"), []byte("Document "+n+", a few words of text.\n"), 0o644)
	}
	os.WriteFile(filepath.Join(dir, "project.yaml"), []byte("version: 1\nsources:\n  - {name: docs, path: docs}\nloader:\n  workers: 1\n"), 0o644)
	t.Setenv("DOCKET_TEST_AS_DOCKET", "1") // the workers: this binary as docket
	InProcessWorker = workercmd.Main
	defer func() { InProcessWorker = nil }()
	trace := filepath.Join(t.TempDir(), "mem.jsonl")
	var out, errOut bytes.Buffer
	if code := Main([]string{"load", "--quiet", "--memory-trace", trace, "--project", dir}, &out, &errOut); code != 0 {
		t.Fatalf("docket load: exit %d\n%s%s", code, out.String(), errOut.String())
	}
	f, err := os.Open(trace)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var phases []string
	var duckdb int
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var s memSample
		if err := json.Unmarshal(sc.Bytes(), &s); err != nil {
			t.Fatalf("line %q: %v", sc.Text(), err)
		}
		if s.RSS <= 0 || s.HWM < s.RSS || s.Go.Objects <= 0 || s.Go.Resident < s.Go.Objects {
			t.Errorf("phase %s: rss %d, hwm %d, Go heap objects %d, Go resident %d: want all set, hwm >= rss, resident >= objects", s.Phase, s.RSS, s.HWM, s.Go.Objects, s.Go.Resident)
		}
		if s.DuckDB != nil {
			duckdb++
			// the closing checkpoint lowers the limit (CheckpointLean)
			// a new warehouse's tables are created while its first files
			// are extracted (loader.Load): the phases up to the execution
			// may sample DuckDB's pool before it holds anything
			early := s.Phase == "state" || s.Phase == "plan" || s.Phase == "execute"
			if s.Phase != "checkpoint" && s.DuckDB.Limit != "160.0 MiB" || len(s.DuckDB.InMemory) == 0 && !early {
				t.Errorf("phase %s: DuckDB limit %q, tags %v: want the load's 160.0 MiB and its pool by tag", s.Phase, s.DuckDB.Limit, s.DuckDB.InMemory)
			}
		}
		if len(phases) == 0 || phases[len(phases)-1] != s.Phase {
			phases = append(phases, s.Phase)
		}
	}
	want := []string{"start", "open", "state", "plan", "execute", "finish", "checkpoint", "close", "end"}
	if !slices.Equal(phases, want) {
		t.Errorf("phases %v, want %v", phases, want)
	}
	if duckdb == 0 {
		t.Error("no sample has DuckDB's memory")
	}
	if st, err := os.Stat(trace + ".heap"); err != nil || st.Size() == 0 {
		t.Errorf("heap profile: %v", err)
	}
}
