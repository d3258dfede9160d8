package loader_test

import (
	"os"
	"path/filepath"
	"testing"
)

// TestHostileFilesCostOnce (issue 17): a document that timed out is not
// extracted again by the next load with the same limit (a bomb cost a full
// time-out on every load), but is when loader.timeout is raised or under
// --retry-quarantined; a crash is retried up to loader.max_attempts
// extractions in all. The attempts are counted in staging.extractions.
func TestHostileFilesCostOnce(t *testing.T) {
	dir := project(t)
	yaml := func(extra string) {
		os.WriteFile(filepath.Join(dir, "project.yaml"), []byte("version: 1\nsources:\n  - {name: inbox, path: inbox}\nloader:\n  workers: 2\n  max_attempts: 2\n"+extra), 0o644)
	}
	attempts := func(rel string) int {
		return count(t, dir, `select coalesce(max(e.attempts), 0) from staging.extractions e join raw.documents d using (source_hash) where d.rel_path = '`+rel+`'`)
	}
	yaml("  timeout: 2s\n")
	hang := envHangOn + "=meeting-notes"
	mustLoad(t, dir, hang)
	if n := attempts("meeting-notes.txt"); n != 1 {
		t.Fatalf("the hung document should have one attempt, got %d", n)
	}
	mustLoad(t, dir, hang)
	if n := attempts("meeting-notes.txt"); n != 1 {
		t.Fatalf("the same time-out should not be tried again without being asked, got %d attempts", n)
	}
	// well over the stopped extraction's measured time (2 s plus the
	// kill's latency, 2.8 s at load 30: a 3 s limit was not "longer" there)
	yaml("  timeout: 5s\n")
	mustLoad(t, dir, hang)
	if n := attempts("meeting-notes.txt"); n != 2 {
		t.Fatalf("a longer loader.timeout should try it again, got %d attempts", n)
	}
	mustLoad(t, dir, hang)
	if n := attempts("meeting-notes.txt"); n != 2 {
		t.Fatalf("after max_attempts the document waits for --retry-quarantined, got %d attempts", n)
	}
	if _, err := docket(t, dir, nil, "load", "--quiet", "--retry-quarantined"); err != nil {
		t.Fatal(err)
	}
	if n := count(t, dir, `select count(*) from raw.documents where rel_path = 'meeting-notes.txt' and status = 'landed'`); n != 1 {
		t.Fatal("--retry-quarantined should extract and land it")
	}

	// A crash: retried by the next load, up to max_attempts in all.
	crash := envCrashOn + "=crashy"
	os.WriteFile(filepath.Join(dir, "inbox", "crashy.html"), []byte("<html><body><p>A page whose worker dies.</p></body></html>"), 0o644)
	yaml("")
	for i := 0; i < 3; i++ {
		mustLoad(t, dir, crash)
	}
	if n := attempts("crashy.html"); n != 2 {
		t.Fatalf("a crashing document should be tried max_attempts=2 times over three loads, got %d", n)
	}
	if n := count(t, dir, `select count(*) from raw.documents where rel_path = 'crashy.html' and error_kind = 'crash'`); n != 1 {
		t.Fatal("it stays quarantined as crash, with the last reason")
	}
}
