package cli_test

import (
	"bufio"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestHugePageIsRefusedWithAReason: a page over vars.max_page_chars is not
// handed to the Go UDFs (chunking, statistics): its document gets the
// quality verdict too_large with a reason, the build stays green and the
// other documents are chunked as usual. (The limit is lowered here so a
// small generated page stands for a huge one.)
func TestHugePageIsRefusedWithAReason(t *testing.T) {
	dir, inbox := healthProject(t)
	os.WriteFile(filepath.Join(inbox, "one-line.txt"), []byte(strings.Repeat("freight rates rose again ", 400)), 0o644) // 10,000 chars, one line
	os.WriteFile(filepath.Join(inbox, "memo.txt"), []byte(strings.Join(prose(1, 20), "\n")), 0o644)
	must(t, dir, "load", "--quiet")
	out := must(t, dir, "build", "--vars", "{max_page_chars: 5000}")
	if !strings.Contains(out, "ERROR=0") {
		t.Fatalf("build:\n%s", out)
	}
	got := query(t, dir, "select verdict, reason from curated.doc_quality join raw.documents using (doc_id) where rel_path = 'one-line.txt'")
	if len(got) != 1 || !strings.HasPrefix(got[0], "too_large") || !strings.Contains(got[0], "page 1 has 10000 characters, over max_page_chars") {
		t.Fatalf("the one-line page should be too_large with a reason, got %q", got)
	}
	if n := query(t, dir, "select count(*) from curated.doc_chunks join raw.documents using (doc_id) where rel_path = 'one-line.txt'"); n[0] != "0" {
		t.Fatalf("a too-large page was chunked: %s chunks", n[0])
	}
	if n := query(t, dir, "select count(*) from curated.doc_chunks join raw.documents using (doc_id) where rel_path = 'memo.txt'"); n[0] == "0" {
		t.Fatal("the ordinary document was not chunked")
	}
}

// Build memory budget of TestBigPageBuildStaysInBudget: DuckDB's
// build.memory_limit plus a fixed allowance for Go (runtime, parsed
// project, and the UDFs' own allocations, which the text limits bound).
// The allowance is 1 GiB: on the 20 million characters the load keeps of
// a 64 MB one-line page, the build peaks at ~1.0 GB RSS with a 256 MB
// memory_limit, most of it Go (chunking and text_stats hold a whole page
// or document as runes); the same build took 3.2 GB before the text limits.
const (
	bigPageMemoryLimit = 256 << 20
	goAllowance        = 1 << 30
)

// TestBigPageBuildStaysInBudget: `docket build` on a warehouse holding a
// 64 MB single-line text page (real load and build processes, default
// limits) stays under build.memory_limit + goAllowance of peak RSS. The
// load splits the line into pages of loader.max_page_chars and keeps
// loader.max_doc_chars of it, with a review reason; the build chunks that.
func TestBigPageBuildStaysInBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("loads and builds a 64 MB page")
	}
	dir, inbox := healthProject(t)
	py := filepath.Join(dir, "project.yaml")
	b, _ := os.ReadFile(py)
	y := strings.Replace(string(b), "memory_limit: 768MB", "memory_limit: 256MB", 1)
	if y == string(b) {
		t.Fatal("project.yaml has no build.memory_limit: 768MB to lower")
	}
	os.WriteFile(py, []byte(y), 0o644)
	writeOneLinePage(t, filepath.Join(inbox, "big.txt"), 64<<20)
	must(t, dir, "load", "--quiet")

	exe, _ := os.Executable()
	cmd := exec.Command(exe, "build", "--project", dir)
	cmd.Env = append(os.Environ(), "DOCKET_TEST_AS_DOCKET=1")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "ERROR=0") {
		t.Fatalf("build: %v\n%s", err, out)
	}
	// ru_maxrss of the build process, in KB (it also counts this test
	// process's pages at the moment of exec, which are small: the page is
	// written streaming)
	peak := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss << 10
	t.Logf("build peak RSS %d MB (budget %d MB)", peak>>20, (bigPageMemoryLimit+goAllowance)>>20)
	if peak > bigPageMemoryLimit+goAllowance {
		t.Errorf("build peaked at %d MB RSS, over build.memory_limit %d MB + %d MB for Go", peak>>20, bigPageMemoryLimit>>20, goAllowance>>20)
	}
	got := query(t, dir, "select count(distinct p.page_number) > 1, count(distinct r.reason_code) filter (where r.reason_code = 'truncated') from raw.documents d join staging.pages p using (source_hash) left join staging.reviews r using (source_hash) where d.rel_path = 'big.txt'")
	if len(got) != 1 || strings.Fields(got[0])[0] != "true" || strings.Fields(got[0])[1] != "1" {
		t.Fatalf("the 64 MB line should land split into pages and truncated with a reason, got %q", got)
	}
	if n := query(t, dir, "select count(*) from curated.doc_chunks join raw.documents using (doc_id) where rel_path = 'big.txt'"); n[0] == "0" {
		t.Fatal("the kept text was not chunked")
	}
}

// writeOneLinePage writes n bytes of words from a made-up vocabulary
// separated by spaces, without a line break.
func writeOneLinePage(t *testing.T, path string, n int) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewSource(1))
	vocab := make([]string, 5000)
	for i := range vocab {
		w := make([]byte, 2+r.Intn(9))
		for j := range w {
			w[j] = byte('a' + r.Intn(26))
		}
		vocab[i] = string(w)
	}
	w := bufio.NewWriter(f)
	for written := 0; written < n; {
		s := vocab[r.Intn(len(vocab))] + " "
		if written+len(s) > n {
			s = strings.Repeat("x", n-written)
		}
		w.WriteString(s)
		written += len(s)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()
}
