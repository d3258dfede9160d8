package loader_test

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/docket-dev/docket/loader/internal/loader"
	prj "github.com/docket-dev/docket/loader/internal/project"
	"github.com/docket-dev/docket/loader/internal/warehouse"
)

// rchar is the bytes this process read through read(2) and friends so
// far (/proc/self/io), page cache hits included.
func rchar(t *testing.T) int64 {
	t.Helper()
	f, err := os.Open("/proc/self/io")
	if err != nil {
		t.Skipf("no /proc/self/io: %v", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "rchar: "); ok {
			n, _ := strconv.ParseInt(v, 10, 64)
			return n
		}
	}
	t.Skip("no rchar in /proc/self/io")
	return 0
}

// inProcess loads a project in this process (the workers are this test
// binary), so /proc/self/io measures the loader itself.
type inProcess struct {
	t   *testing.T
	p   *prj.Project
	db  *warehouse.DB
	exe string
}

func newInProcess(t *testing.T, dir string) *inProcess {
	p, err := prj.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	db, err := warehouse.Open(context.Background(), p.Warehouse, warehouse.Options{Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	exe, _ := os.Executable()
	return &inProcess{t: t, p: p, db: db, exe: exe}
}

func (l *inProcess) load(verify bool) *loader.Summary {
	l.t.Helper()
	sum, err := loader.Load(context.Background(), l.db, loader.Options{Project: l.p, Verify: verify,
		WorkerCommand: []string{l.exe, "worker"}, WorkerEnv: []string{"DOCKET_TEST_AS_DOCKET=1"}})
	if err != nil {
		l.t.Fatal(err)
	}
	return sum
}

// TestNoopLoadReadsNoBytes: a load over files whose size, mtime, inode
// and ctime match the last load reads none of them (counted by the
// hasher and by the kernel); a file touched without a change is read
// once and stays unchanged; a file rewritten with the same size and its
// mtime set back is caught by its ctime; a file modified just before the
// load that read it (racily clean) is read again; --verify reads all.
func TestNoopLoadReadsNoBytes(t *testing.T) {
	dir := t.TempDir()
	inbox := filepath.Join(dir, "inbox")
	os.MkdirAll(inbox, 0o755)
	const n, size = 80, 128 << 10
	old := time.Now().Add(-time.Hour).Truncate(time.Second)
	var corpus int64
	line := "The quarterly report lists every warehouse and its stock levels in plain words.\n"
	for i := 0; i < n; i++ {
		body := []byte(strings.Repeat(fmt.Sprintf("%03d ", i)+line, size/(len(line)+4)))
		path := filepath.Join(inbox, fmt.Sprintf("doc-%03d.txt", i))
		if err := os.WriteFile(path, body, 0o644); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(path, old, old)
		corpus += int64(len(body))
	}
	yaml := "version: 1\nwarehouse: warehouse.duckdb\nsources:\n  - {name: inbox, path: inbox}\nloader:\n  workers: 2\n"
	os.WriteFile(filepath.Join(dir, "project.yaml"), []byte(yaml), 0o644)
	l := newInProcess(t, dir)

	first := l.load(false)
	if first.New != n || first.Landed != n {
		t.Fatalf("first load: %+v", first)
	}
	countRows := func(q string) int {
		var c int
		if err := l.db.SQL().QueryRow(q).Scan(&c); err != nil {
			t.Fatal(err)
		}
		return c
	}
	events := countRows(`select count(*) from ops.document_events`)

	before := rchar(t)
	noop := l.load(false)
	read := rchar(t) - before
	if noop.Unchanged != n || noop.Changed+noop.New+noop.Deleted != 0 {
		t.Fatalf("no-op load: %+v", noop)
	}
	if noop.BytesHashed != 0 {
		t.Errorf("no-op load hashed %d bytes, want 0", noop.BytesHashed)
	}
	// The warehouse's own reads are counted too: far below the corpus.
	if read > corpus/10 {
		t.Errorf("no-op load read %d bytes (rchar) over a %d-byte corpus", read, corpus)
	}
	t.Logf("no-op load: rchar %d bytes for a %d-byte corpus", read, corpus)
	// Only changed documents' rows are written: no event, no row update.
	if got := countRows(`select count(*) from ops.document_events`); got != events {
		t.Errorf("a no-op load wrote %d events", got-events)
	}
	if got := countRows(fmt.Sprintf(`select count(*) from raw.documents where last_run_id = '%s'`, noop.RunID)); got != 0 {
		t.Errorf("a no-op load wrote %d document rows", got)
	}

	// Touched, same bytes: read once, unchanged, its stat recorded.
	touched := filepath.Join(inbox, "doc-001.txt")
	st, _ := os.Stat(touched)
	os.Chtimes(touched, old.Add(time.Minute), old.Add(time.Minute))
	s := l.load(false)
	if s.Unchanged != n || s.BytesHashed != st.Size() {
		t.Errorf("touched file: unchanged %d, hashed %d bytes, want %d and %d", s.Unchanged, s.BytesHashed, n, st.Size())
	}
	if s = l.load(false); s.BytesHashed != 0 {
		t.Errorf("after the touched file's stat was recorded: hashed %d bytes", s.BytesHashed)
	}

	// Same size, mtime set back: the ctime moved, so it is read.
	sneaky := filepath.Join(inbox, "doc-002.txt")
	b, _ := os.ReadFile(sneaky)
	st2, _ := os.Stat(sneaky)
	copy(b, "CHANGED")
	if err := os.WriteFile(sneaky, b, 0o644); err != nil {
		t.Fatal(err)
	}
	os.Chtimes(sneaky, st2.ModTime(), st2.ModTime())
	if s = l.load(false); s.Changed != 1 || s.Unchanged != n-1 {
		t.Errorf("same size and mtime, other bytes: changed %d unchanged %d", s.Changed, s.Unchanged)
	}

	// Racily clean: modified now, read by this load, and read again by the
	// next one (a change within the same timestamp tick would keep size
	// and mtime).
	racy := filepath.Join(inbox, "doc-003.txt")
	now := time.Now()
	os.Chtimes(racy, now, now)
	s = l.load(false)
	st3, _ := os.Stat(racy)
	if s.BytesHashed != st3.Size() {
		t.Errorf("racy file, first load: hashed %d bytes, want %d", s.BytesHashed, st3.Size())
	}
	if s = l.load(false); s.BytesHashed != st3.Size() || s.Unchanged != n {
		t.Errorf("racily clean file: the next load hashed %d bytes (want %d), unchanged %d", s.BytesHashed, st3.Size(), s.Unchanged)
	}

	// --verify reads every file.
	if s = l.load(true); s.BytesHashed != corpus || s.Unchanged != n {
		t.Errorf("--verify: hashed %d of %d bytes, unchanged %d", s.BytesHashed, corpus, s.Unchanged)
	}
}

// TestNewBigFileReadOnce: a new file over 256 KiB is read once by the
// loader, by the copy its worker extracts, which also gives its hash (it
// was hashed first, then copied: read twice); a second file with the
// same bytes is the same content. The files are random bytes (no text
// comes back from the workers to blur the count of bytes read).
func TestNewBigFileReadOnce(t *testing.T) {
	dir := t.TempDir()
	inbox := filepath.Join(dir, "inbox")
	os.MkdirAll(inbox, 0o755)
	const n, size = 4, 1 << 20
	var corpus int64
	write := func(name string, body []byte) {
		if err := os.WriteFile(filepath.Join(inbox, name), body, 0o644); err != nil {
			t.Fatal(err)
		}
		corpus += int64(len(body))
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var first []byte
	for i := 0; i < n; i++ {
		body := make([]byte, size)
		for j := range body {
			body[j] = byte(rng.Uint32())
		}
		write(fmt.Sprintf("blob-%03d.bin", i), body)
		if i == 0 {
			first = body
		}
	}
	write("copy-of-000.bin", first)
	yaml := "version: 1\nwarehouse: warehouse.duckdb\nsources:\n  - {name: inbox, path: inbox}\nloader:\n  workers: 2\n"
	os.WriteFile(filepath.Join(dir, "project.yaml"), []byte(yaml), 0o644)
	l := newInProcess(t, dir)

	before := rchar(t)
	s := l.load(false)
	read := rchar(t) - before
	if s.New != n+1 || s.Landed+s.Quarantined != n+1 {
		t.Fatalf("first load: %+v", s)
	}
	if read > corpus*3/2 {
		t.Errorf("the first load read %d bytes of a %d-byte corpus of new files (want each file read once)", read, corpus)
	}
	var contents, docs int
	if err := l.db.SQL().QueryRow(`select count(distinct source_hash), count(*) from raw.documents`).Scan(&contents, &docs); err != nil {
		t.Fatal(err)
	}
	if contents != n || docs != n+1 {
		t.Errorf("%d contents in %d documents, want %d in %d", contents, docs, n, n+1)
	}
	t.Logf("read %d bytes for a %d-byte corpus", read, corpus)
}
