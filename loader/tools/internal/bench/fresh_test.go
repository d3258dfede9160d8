package bench

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestFreshRefusesAStaleBuild(t *testing.T) {
	root := t.TempDir()
	write := func(rel string, at time.Time) {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, at, at); err != nil {
			t.Fatal(err)
		}
	}
	t0 := time.Now().Add(-time.Hour)
	write("go.mod", t0)
	write("loader/a.go", t0)
	write("loader/a_test.go", t0.Add(30*time.Minute)) // tests are not built in
	write("loader/testdata/b.go", t0.Add(30*time.Minute))
	write("bin/docket", t0.Add(10*time.Minute))
	write("bin/docket-worker", t0.Add(10*time.Minute))
	wd, _ := os.Getwd()
	if err := os.Chdir(filepath.Join(root, "loader")); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)

	if err := Fresh("../bin/docket"); err != nil {
		t.Fatalf("fresh build refused: %v", err)
	}
	write("loader/c/d.c", t0.Add(20*time.Minute))
	err := Fresh("../bin/docket")
	if err == nil || !strings.Contains(err.Error(), filepath.Join("loader", "c", "d.c")) {
		t.Fatalf("stale build: got %v, want an error naming loader/c/d.c", err)
	}
	write("elsewhere/docket", t0)
	if err := Fresh(filepath.Join(root, "elsewhere", "docket")); err != nil {
		t.Fatalf("a binary outside the module's bin/ is the caller's choice: %v", err)
	}
	write("bin/docket", t0.Add(25*time.Minute)) // the worker is still older than d.c
	if err := Fresh("../bin/docket"); err == nil {
		t.Fatal("stale docket-worker beside a fresh docket passed")
	}
}
