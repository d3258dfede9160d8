package npmpkg

import (
	"os"
	"path/filepath"
	"testing"
)

// TestDirDropsACutTarball: a tarball that does not unpack (an interrupted
// npm pack) is an error and is removed, so the next run fetches it again
// instead of failing on it for ever; no folder that looks complete is
// left.
func TestDirDropsACutTarball(t *testing.T) {
	cache := t.TempDir()
	tgz := filepath.Join(cache, "x-1.0.0.tgz")
	if err := os.WriteFile(tgz, []byte("\x1f\x8b cut short"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Dir(cache, "x", "1.0.0"); err == nil {
		t.Fatal("Dir unpacked a cut tarball")
	}
	if _, err := os.Stat(tgz); !os.IsNotExist(err) {
		t.Errorf("the cut tarball is still there (%v)", err)
	}
	if _, err := os.Stat(filepath.Join(cache, "x-1.0.0")); !os.IsNotExist(err) {
		t.Errorf("a package folder was left (%v)", err)
	}
}
