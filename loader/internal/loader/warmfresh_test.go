package loader_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/loader"
)

// children counts this process's child processes (the workers a load
// started and has not ended).
func children(t *testing.T) int {
	t.Helper()
	tasks, err := filepath.Glob("/proc/self/task/*/children")
	if err != nil || len(tasks) == 0 {
		t.Skip("no /proc/self/task/*/children")
	}
	n := 0
	for _, f := range tasks {
		b, _ := os.ReadFile(f)
		n += len(strings.Fields(string(b)))
	}
	return n
}

// TestFreshLoadWarmsBeforeSchema: a load into a new warehouse starts its
// workers before it creates the warehouse's tables and reads its state
// (they start while that is done), when a file is new; a load that finds
// nothing new starts none, and an empty source folder none either.
func TestFreshLoadWarmsBeforeSchema(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files int
		want  bool // workers running when the state is read
	}{{"new files", 2, true}, {"empty folder", 0, false}} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			inbox := filepath.Join(dir, "inbox")
			os.MkdirAll(inbox, 0o755)
			for i := 0; i < tc.files; i++ {
				os.WriteFile(filepath.Join(inbox, string(rune('a'+i))+".txt"), []byte("A document of a few words.\n"), 0o644)
			}
			os.WriteFile(filepath.Join(dir, "project.yaml"), []byte("version: 1\nwarehouse: warehouse.duckdb\nsources:\n  - {name: inbox, path: inbox}\nloader:\n  workers: 1\n"), 0o644)
			l := newInProcess(t, dir)
			load := func() (atState int, sum *loader.Summary) {
				atState = -1
				sum, err := loader.Load(context.Background(), l.db, loader.Options{Project: l.p,
					WorkerCommand: []string{l.exe, "worker"}, WorkerEnv: []string{"DOCKET_TEST_AS_DOCKET=1"},
					Phase: func(name string) {
						if name == "state" {
							atState = children(t)
						}
					}})
				if err != nil {
					t.Fatal(err)
				}
				return atState, sum
			}
			before := children(t)
			n, sum := load()
			if got := n > before; got != tc.want {
				t.Errorf("first load: %d worker(s) running when the state was read (%d before), want running %v", n-before, before, tc.want)
			}
			if sum.New != tc.files || sum.Landed != tc.files {
				t.Errorf("first load: new %d, landed %d, want %d", sum.New, sum.Landed, tc.files)
			}
			// Nothing new: no worker starts.
			n, sum = load()
			if n != before || sum.New != 0 || sum.Unchanged != tc.files {
				t.Errorf("second load: %d worker(s) when the state was read, new %d, unchanged %d; want none, 0, %d", n-before, sum.New, sum.Unchanged, tc.files)
			}
			if sum.WorkerPeakRSS != 0 {
				t.Errorf("second load: worker peak RSS %d, want 0 (no worker started)", sum.WorkerPeakRSS)
			}
		})
	}
}
