package loader_test

import (
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// tmpfs mounts a tmpfs of size (like "8m") at a fresh folder, or skips the
// test where the machine does not allow it (not root, no mount).
func tmpfs(t *testing.T, size string) string {
	t.Helper()
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size, "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs here: %v %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", "-l", dir).Run() })
	return dir
}

func remount(t *testing.T, dir, size string) {
	t.Helper()
	if out, err := exec.Command("mount", "-o", "remount,size="+size, dir).CombinedOutput(); err != nil {
		t.Fatalf("remount: %v %s", err, out)
	}
}

// randomText is n paragraphs of random words (incompressible, unique).
func randomText(seed int64, paras int) []byte {
	r := rand.New(rand.NewSource(seed))
	var b strings.Builder
	for p := 0; p < paras; p++ {
		for w := 0; w < 100; w++ {
			for c := 0; c < 8; c++ {
				b.WriteByte(byte('a' + r.Intn(26)))
			}
			b.WriteByte(' ')
		}
		b.WriteString("\n\n")
	}
	return []byte(b.String())
}

// TestDiskFullIsReportedAsDiskFull (issue 17's fault suite, on a small
// tmpfs): a warehouse whose disk fills while documents land fails the
// load saying "disk full" and quarantines nothing (it quarantined every
// document of the batch as internal: "could not be landed in the
// warehouse"); a temporary folder that fills while the loader copies a
// file does the same; with space again, the next load equals a clean one.
func TestDiskFullIsReportedAsDiskFull(t *testing.T) {
	inbox := t.TempDir()
	for i := 0; i < 40; i++ {
		os.WriteFile(filepath.Join(inbox, fmt.Sprintf("f%02d.txt", i)), randomText(int64(i), 300), 0o644) // 270 KB each
	}
	// 2.2 MB of e-mail: copied through TMPDIR (an e-mail is not read in
	// place, see inPlaceTypes; the .txt files are)
	big := append([]byte("From: a@example.com\nTo: b@example.com\nSubject: big\n\n"), randomText(99, 2400)...)
	os.WriteFile(filepath.Join(inbox, "big.eml"), big, 0o644)
	yaml := fmt.Sprintf("version: 1\nsources:\n  - {name: inbox, path: %q}\nloader:\n  workers: 2\n", inbox)
	newProject := func(dir string) string {
		os.WriteFile(filepath.Join(dir, "project.yaml"), []byte(yaml), 0o644)
		return dir
	}
	ref := newProject(t.TempDir())
	mustLoad(t, ref)
	want := snapshot(t, ref)

	// The warehouse's disk fills.
	full := tmpfs(t, "8m")
	dir := newProject(full)
	out, err := docket(t, dir, nil, "load", "--quiet")
	if err == nil || !strings.Contains(out, "disk full") {
		t.Fatalf("a full warehouse disk should fail the load saying disk full, got %v:\n%s", err, out)
	}
	remount(t, full, "256m")
	if n := count(t, dir, `select count(*) from raw.documents where status = 'quarantined'`); n != 0 {
		t.Fatalf("a full disk is no document's fault: %d quarantined", n)
	}
	mustLoad(t, dir)
	if got := snapshot(t, dir); !equal(want, got) {
		t.Fatalf("after the disk full, the next load should equal a clean one:\n%s", diff(want, got))
	}

	// The temporary folder's disk fills while big.eml is copied.
	tmp := tmpfs(t, "1m")
	dir = newProject(t.TempDir())
	out, err = docket(t, dir, []string{"TMPDIR=" + tmp}, "load", "--quiet")
	if err == nil || !strings.Contains(out, "disk full: cannot write to "+tmp) {
		t.Fatalf("a full temporary folder should fail the load saying disk full, got %v:\n%s", err, out)
	}
	mustLoad(t, dir)
	if n := count(t, dir, `select count(*) from raw.documents where status = 'quarantined'`); n != 0 {
		t.Fatalf("nothing should stay quarantined after the temporary disk was full: %d", n)
	}
	if got := snapshot(t, dir); !equal(want, got) {
		t.Fatalf("after the temporary disk was full, the next load should equal a clean one:\n%s", diff(want, got))
	}
}
