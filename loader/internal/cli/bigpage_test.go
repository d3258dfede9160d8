package cli_test

import (
	"os"
	"path/filepath"
	"strings"
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
