package loader_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/docket-dev/docket/loader/internal/loader"
)

// TestProgressSaysReused: a file whose bytes another file already had is
// not extracted again, so its progress event has 0 pages; it must say the
// content was reused (the log printed pages=0 beside a landed two-page
// copy), and a file extracted in the run must not.
func TestProgressSaysReused(t *testing.T) {
	dir := t.TempDir()
	inbox := filepath.Join(dir, "inbox")
	os.MkdirAll(inbox, 0o755)
	body := []byte("The forklift lease renews every March and the depot keeps the keys.\n")
	for _, name := range []string{"a.txt", "b.txt"} {
		if err := os.WriteFile(filepath.Join(inbox, name), body, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(inbox, "c.txt"), []byte("A different note about the loading bay.\n"), 0o644)
	yaml := "version: 1\nwarehouse: warehouse.duckdb\nsources:\n  - {name: inbox, path: inbox}\nloader:\n  workers: 1\n"
	os.WriteFile(filepath.Join(dir, "project.yaml"), []byte(yaml), 0o644)
	l := newInProcess(t, dir)
	var evs []loader.Progress
	_, err := loader.Load(context.Background(), l.db, loader.Options{Project: l.p,
		WorkerCommand: []string{l.exe, "worker"}, WorkerEnv: []string{"DOCKET_TEST_AS_DOCKET=1"},
		Progress: func(ev loader.Progress) { evs = append(evs, ev) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != 3 {
		t.Fatalf("progress events: %+v", evs)
	}
	var reused, extracted int
	for _, ev := range evs {
		switch {
		case ev.Reused && ev.Pages == 0:
			reused++
		case !ev.Reused && ev.Pages > 0:
			extracted++
		default:
			t.Errorf("event %+v: Reused and Pages disagree", ev)
		}
	}
	if reused != 1 || extracted != 2 {
		t.Errorf("reused %d, extracted %d; want 1 and 2: %+v", reused, extracted, evs)
	}
}
