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
	if _, err := docket(t, dir, []string{env, envKillAt + "=land:1"}, "load", "--quiet"); err == nil {
		t.Fatal("the load should have been killed")
	}
	left := folders()
	if len(left) != 1 {
		t.Fatalf("a load killed while landing should leave its folder behind (that is what the sweep is for), got %v", left)
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
