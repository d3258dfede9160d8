package loader_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/docket-dev/docket/loader/internal/warehouse"
)

// identityTrials is how many randomized trials TestContentIdentityUnderChanges
// runs: a few in `make test`, DOCKET_IDENTITY_TRIALS=50 in `make hostile`.
func identityTrials() int {
	if n, err := strconv.Atoi(os.Getenv("DOCKET_IDENTITY_TRIALS")); err == nil && n > 0 {
		return n
	}
	return 2
}

// TestContentIdentityUnderChanges (issue 17): files are rewritten,
// truncated, deleted, renamed and created at random moments of a load.
// The files are ASCII text, whose extracted page text is the file's bytes,
// so every staging row can be checked exactly: sha256(text) must be the
// row's source_hash. A second, quiet load must then leave every landed
// document with the hash of the bytes on disk.
func TestContentIdentityUnderChanges(t *testing.T) {
	trials := identityTrials()
	seed := time.Now().UnixNano()
	t.Logf("seed %d, %d trials", seed, trials)
	rng := rand.New(rand.NewSource(seed))
	exe, _ := os.Executable()
	for trial := 0; trial < trials; trial++ {
		dir := t.TempDir()
		inbox := filepath.Join(dir, "inbox")
		os.MkdirAll(inbox, 0o755)
		yaml := "version: 1\nsources:\n  - {name: inbox, path: inbox}\nloader:\n  workers: 2\n  timeout: 60s\n"
		os.WriteFile(filepath.Join(dir, "project.yaml"), []byte(yaml), 0o644)
		m := &mutator{dir: inbox, rng: rand.New(rand.NewSource(rng.Int63()))}
		for i := 0; i < 24; i++ {
			m.write(fmt.Sprintf("doc-%02d.txt", i))
		}
		if trial%2 == 1 { // half the trials change files the warehouse knows
			mustLoad(t, dir)
		}
		cmd := exec.Command(exe, "load", "--quiet", "--project", dir)
		cmd.Env = append(os.Environ(), "DOCKET_TEST_AS_DOCKET=1")
		var out strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan struct{})
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-done:
					return
				case <-time.After(time.Duration(m.rng.Intn(25)) * time.Millisecond):
					m.step()
				}
			}
		}()
		err := cmd.Wait()
		close(done)
		wg.Wait()
		if err != nil {
			t.Fatalf("trial %d: the load failed: %v\n%s", trial, err, out.String())
		}
		if bad := mismatchedRows(t, dir); len(bad) > 0 {
			t.Fatalf("trial %d (%d changes during the load): %d staging rows whose text is not their hash's bytes: %v\n%s",
				trial, m.steps, len(bad), bad, out.String())
		}
		// The next load settles whatever changed during this one.
		mustLoad(t, dir)
		if bad := staleDocuments(t, dir, inbox); len(bad) > 0 {
			t.Fatalf("trial %d: after a quiet load, documents whose hash is not their file's: %v", trial, bad)
		}
		if bad := mismatchedRows(t, dir); len(bad) > 0 {
			t.Fatalf("trial %d: after a quiet load, staging rows whose text is not their hash's bytes: %v", trial, bad)
		}
	}
}

// mutator changes the files of a folder the way people and sync tools do.
type mutator struct {
	dir   string
	rng   *rand.Rand
	n     int // versions written (unique text per version)
	steps int
}

func (m *mutator) write(name string) {
	m.n++
	var b strings.Builder
	lines := 1 + m.rng.Intn(8000) // up to ~400 kB
	for i := 0; i < lines; i++ {
		fmt.Fprintf(&b, "%s version %d line %d\n", name, m.n, i)
	}
	os.WriteFile(filepath.Join(m.dir, name), []byte(b.String()), 0o644)
}

func (m *mutator) step() {
	entries, _ := os.ReadDir(m.dir)
	if len(entries) == 0 {
		return
	}
	m.steps++
	name := entries[m.rng.Intn(len(entries))].Name()
	p := filepath.Join(m.dir, name)
	switch m.rng.Intn(6) {
	case 0, 1:
		m.write(name)
	case 2:
		if st, err := os.Stat(p); err == nil {
			os.Truncate(p, st.Size()/2)
		}
	case 3:
		os.Remove(p)
	case 4:
		os.Rename(p, filepath.Join(m.dir, fmt.Sprintf("renamed-%d-%s", m.n, name)))
	case 5:
		m.write(fmt.Sprintf("new-%d.txt", m.n))
	}
}

// mismatchedRows lists staging pages whose text does not hash to their
// source_hash (the files are ASCII: the text is the bytes).
func mismatchedRows(t *testing.T, dir string) []string {
	t.Helper()
	db, err := warehouse.Open(context.Background(), filepath.Join(dir, "warehouse.duckdb"), warehouse.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.SQL().Query(`select source_hash, text from staging.pages`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var bad []string
	n := 0
	for rows.Next() {
		var h, text string
		rows.Scan(&h, &text)
		n++
		sum := sha256.Sum256([]byte(text))
		if hex.EncodeToString(sum[:]) != h {
			bad = append(bad, fmt.Sprintf("%s… holds %q…", h[:12], text[:min(len(text), 40)]))
		}
	}
	if n == 0 {
		t.Fatal("no staging rows at all")
	}
	return bad
}

// staleDocuments lists landed documents whose source_hash is not the
// sha256 of their file's bytes now, and files with no landed document.
func staleDocuments(t *testing.T, dir, inbox string) []string {
	t.Helper()
	db, err := warehouse.Open(context.Background(), filepath.Join(dir, "warehouse.duckdb"), warehouse.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.SQL().Query(`select rel_path, coalesce(source_hash, '') from raw.documents where status <> 'deleted'`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var bad []string
	live := map[string]bool{}
	for rows.Next() {
		var rel, h string
		rows.Scan(&rel, &h)
		live[rel] = true
		b, err := os.ReadFile(filepath.Join(inbox, rel))
		if err != nil {
			bad = append(bad, rel+": not deleted but gone")
			continue
		}
		sum := sha256.Sum256(b)
		if len(b) > 0 && hex.EncodeToString(sum[:]) != h {
			bad = append(bad, rel+": stale hash")
		}
	}
	entries, _ := os.ReadDir(inbox)
	for _, e := range entries {
		if !live[e.Name()] {
			bad = append(bad, e.Name()+": no document")
		}
	}
	return bad
}
