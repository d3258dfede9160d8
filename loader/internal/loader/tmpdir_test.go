package loader_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestKilledLoadsLeaveNoTemporaryFolders (issue 17): a load removes its
// folder of private copies when it ends; one killed outright cannot, so
// the next load removes the folders no live process holds (32 had piled
// up in /tmp from kill tests), and leaves a live load's folder alone.
func TestKilledLoadsLeaveNoTemporaryFolders(t *testing.T) {
	tmp := t.TempDir()
	env := "TMPDIR=" + tmp
	folders := func() []string {
		m, _ := filepath.Glob(filepath.Join(tmp, "docket-attach-*"))
		return m
	}
	dir := project(t)
	if _, err := docket(t, dir, []string{env, envKillAt + "=extract:3"}, "load", "--quiet"); err == nil {
		t.Fatal("the load should have been killed")
	}
	left := folders()
	if len(left) != 1 {
		t.Fatalf("a load killed while extracting should leave its folder behind (that is what the sweep is for), got %v", left)
	}
	// A folder of a load that is still running: locked, and kept.
	live := filepath.Join(tmp, "docket-attach-live")
	os.Mkdir(live, 0o700)
	lock, err := os.Open(live)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	for _, p := range append(left, live) {
		os.Chtimes(p, old, old)
	}
	// A folder made just now, maybe not locked yet: kept too.
	fresh := filepath.Join(tmp, "docket-attach-fresh")
	os.Mkdir(fresh, 0o700)

	mustLoad(t, dir, env)
	got := strings.Join(folders(), " ")
	if got != live+" "+fresh && got != fresh+" "+live {
		t.Fatalf("the next load should remove the killed load's folder and its own, and keep the live and the fresh one; left: %s", got)
	}
}

// TestStagingFolderRemovedDuringLoad: a tmp cleaner that removes the
// load's folder of private copies mid-load (it quarantined 18,438 of
// 50,000 documents as internal errors) costs nothing: the loader makes
// the folder again, for files copied (over 256 KiB) and for small files
// staged from memory alike, and removes it at the end.
func TestStagingFolderRemovedDuringLoad(t *testing.T) {
	tmp := t.TempDir()
	dir := t.TempDir()
	src := filepath.Join(dir, "src")
	os.Mkdir(src, 0o755)
	line := "The staging folder of a load can vanish under it; the loader makes it again.\n"
	files := map[string]int{"big1.txt": 400 << 10, "big2.txt": 300 << 10, "small1.txt": 2 << 10, "small2.txt": 1 << 10}
	for name, size := range files {
		body := strings.Repeat(name+" "+line, size/len(name+" "+line)+1)
		if err := os.WriteFile(filepath.Join(src, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	yaml := "version: 1\nwarehouse: warehouse.duckdb\nsources:\n  - {name: src, path: src}\nloader:\n  workers: 1\n  timeout: 60s\n"
	if err := os.WriteFile(filepath.Join(dir, "project.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	// One worker: files are extracted one after the other, biggest first;
	// the folder goes before the second (a copied file) and before the
	// third (a small file staged from memory).
	out, err := docket(t, dir, []string{"TMPDIR=" + tmp, envCleanAt + "=extract:2,extract:3"}, "load", "--quiet")
	if err != nil {
		t.Fatalf("docket load: %v\n%s", err, out)
	}
	if n := count(t, dir, `select count(*) from raw.documents where status = 'landed' and page_count > 0`); n != len(files) {
		t.Fatalf("landed %d of %d documents", n, len(files))
	}
	if n := count(t, dir, `select count(*) from raw.documents where status <> 'landed'`); n != 0 {
		t.Fatalf("%d documents not landed", n)
	}
	if m, _ := filepath.Glob(filepath.Join(tmp, "docket-attach-*")); len(m) != 0 {
		t.Fatalf("the load left %v", m)
	}
}
