package loader_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// oddFolder builds a source folder with entries a walk meets in the wild:
// a name that is not UTF-8, symbolic links (inside and outside the
// source), a FIFO, a hidden folder and a path longer than PATH_MAX.
func oddFolder(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	inbox := filepath.Join(dir, "inbox")
	os.MkdirAll(filepath.Join(inbox, ".git"), 0o755)
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(inbox, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("ok.txt", "An ordinary note about the quarterly budget.\n")
	write("caf\xe9.txt", "A Latin-1 file name: the café menu for Monday.\n")
	write(".git/config", "[core]\n")
	os.WriteFile(filepath.Join(dir, "outside.txt"), []byte("outside the source\n"), 0o644)
	if err := os.Symlink("ok.txt", filepath.Join(inbox, "link.txt")); err != nil {
		t.Fatal(err)
	}
	os.Symlink(filepath.Join(dir, "outside.txt"), filepath.Join(inbox, "outside-link.txt"))
	if err := syscall.Mkfifo(filepath.Join(inbox, "pipe"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A folder chain whose path passes PATH_MAX (4096 bytes), made with
	// *at calls since no single path may be that long.
	fd, err := syscall.Open(inbox, syscall.O_RDONLY|syscall.O_DIRECTORY, 0)
	if err != nil {
		t.Fatal(err)
	}
	seg := strings.Repeat("d", 200)
	for i := 0; i < 22; i++ {
		if err := syscall.Mkdirat(fd, seg, 0o755); err != nil {
			t.Fatal(err)
		}
		nfd, err := syscall.Openat(fd, seg, syscall.O_RDONLY|syscall.O_DIRECTORY, 0)
		syscall.Close(fd)
		if err != nil {
			t.Fatal(err)
		}
		fd = nfd
	}
	ffd, err := syscall.Openat(fd, "deep.txt", syscall.O_CREAT|syscall.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	syscall.Write(ffd, []byte("deep\n"))
	syscall.Close(ffd)
	syscall.Close(fd)
	yaml := "version: 1\nsources:\n  - {name: inbox, path: inbox}\nloader:\n  workers: 1\n"
	os.WriteFile(filepath.Join(dir, "project.yaml"), []byte(yaml), 0o644)
	return dir
}

// TestOddEntriesLoadOrAreRecorded (issue 18): a name that is not UTF-8
// lands like any other (escaped for display, bytes kept), and every other
// entry is recorded in ops.load_skips with why.
func TestOddEntriesLoadOrAreRecorded(t *testing.T) {
	dir := oddFolder(t)
	out := mustLoad(t, dir)
	if n := count(t, dir, `select count(*) from raw.documents where status = 'landed'`); n != 2 {
		t.Fatalf("want ok.txt and caf\\xE9.txt landed, got %d: %s", n, out)
	}
	if n := count(t, dir, `select count(*) from raw.documents where rel_path = 'caf\xE9.txt' and rel_path_bytes = 'caf\xe9.txt'::blob
		and status = 'landed' and page_count = 1`); n != 1 {
		t.Fatal("the Latin-1 name should land with rel_path escaped and its bytes kept")
	}
	for _, want := range []struct{ path, kind, reason string }{
		{"link.txt", "symlink", "not followed"},
		{"outside-link.txt", "symlink", "not followed"},
		{"pipe", "special_file", "named pipe"},
		{".git", "hidden_folder", "hidden"},
	} {
		q := `select count(*) from ops.load_skips where rel_path = '` + want.path + `' and kind = '` + want.kind + `' and reason like '%` + want.reason + `%'`
		if n := count(t, dir, q); n != 1 {
			t.Errorf("%s should be recorded as %s (%s)", want.path, want.kind, want.reason)
		}
	}
	if n := count(t, dir, `select count(*) from ops.load_skips where kind = 'path_too_long' and rel_path like 'ddd%'`); n != 1 {
		t.Errorf("the path past PATH_MAX should be recorded as path_too_long")
	}
	// A second load changes nothing and deletes nothing.
	out = mustLoad(t, dir)
	if !strings.Contains(out, "unchanged 2") || !strings.Contains(out, "deleted 0") {
		t.Fatalf("the second load should find both files unchanged: %s", out)
	}

	// loader.symlinks: follow loads links to files inside the source only.
	os.WriteFile(filepath.Join(dir, "project.yaml"), []byte("version: 1\nsources:\n  - {name: inbox, path: inbox}\nloader:\n  workers: 1\n  symlinks: follow\n"), 0o644)
	mustLoad(t, dir)
	if n := count(t, dir, `select count(*) from raw.documents where rel_path = 'link.txt' and status = 'landed'`); n != 1 {
		t.Error("with symlinks: follow, a link to a file inside the source lands")
	}
	if n := count(t, dir, `select count(*) from ops.load_skips s join ops.load_runs r using (run_id)
		where s.rel_path = 'outside-link.txt' and s.reason like '%outside the source%' and json_extract_string(r.options, '$.symlinks') = 'follow'`); n != 1 {
		t.Error("with symlinks: follow, a link outside the source is still recorded as skipped")
	}
}

// TestUnreadableFileIsTransient: permission denied is its own kind,
// retried by the next load, not corrupt. (Root reads everything: the
// check needs an ordinary user.)
func TestUnreadableFileIsTransient(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("running as root: permissions do not stop reads")
	}
	dir := project(t)
	p := filepath.Join(dir, "inbox", "meeting-notes.txt")
	os.Chmod(p, 0)
	mustLoad(t, dir)
	if n := count(t, dir, `select count(*) from raw.documents where rel_path = 'meeting-notes.txt' and error_kind = 'unreadable'`); n != 1 {
		t.Fatal("a file that cannot be read should be quarantined as unreadable")
	}
	os.Chmod(p, 0o644)
	mustLoad(t, dir)
	if n := count(t, dir, `select count(*) from raw.documents where rel_path = 'meeting-notes.txt' and status = 'landed'`); n != 1 {
		t.Fatal("once readable, the next load lands it")
	}
}
