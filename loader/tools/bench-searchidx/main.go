// Command bench-searchidx measures the search index (package searchidx)
// of a published warehouse copy: a full build, and an update after a
// change of -change percent of the searchable chunks (removed, re-titled
// and added chunks, written into a copy of the warehouse), against a full
// build of the changed copy; wall time, CPU time and peak RSS of each step
// (each a fresh process of this command), and whether the updated index
// answers a few queries like the full build.
//
//	go run ./loader/tools/bench-searchidx -read /tmp/bs-search/50000/warehouse.read.duckdb -dir /tmp/bench-searchidx
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/pprof"
	"strings"
	"syscall"
	"time"

	"github.com/docket-dev/docket/loader/internal/searchidx"
	"github.com/docket-dev/docket/loader/internal/warehouse"
	"github.com/docket-dev/docket/loader/tools/internal/bench"
)

func main() {
	read := flag.String("read", "", "a published warehouse copy (only read)")
	dir := flag.String("dir", "", "work directory (gets a copy of the warehouse)")
	change := flag.Float64("change", 1, "percent of searchable chunks changed: half removed or re-titled, the rest added")
	model := flag.String("model", "hash-v1/256", "embedding model whose vectors are indexed")
	step := flag.String("step", "", "internal: run one step in this process (build|update|mutate)")
	out := flag.String("out", "", "internal: the index path of -step")
	cpuprof := flag.String("cpuprofile", "", "write a CPU profile of -step")
	flag.StringVar(&memoryLimit, "memory-limit", searchidx.MemoryLimit, "DuckDB's memory_limit on the connection the index is built from (docket's)")
	flag.Parse()
	if *read == "" {
		flag.Usage()
		os.Exit(2)
	}
	var err error
	if *step != "" {
		if *cpuprof != "" {
			f, err := os.Create(*cpuprof)
			if err != nil {
				fail(err)
			}
			pprof.StartCPUProfile(f)
			defer pprof.StopCPUProfile()
		}
		err = runStep(*step, *read, *out, *model, *change)
	} else {
		err = run(*read, *dir, *model, *change)
	}
	if err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "bench-searchidx:", err)
	os.Exit(1)
}

// run does every step, each in a child process (its own peak RSS).
func run(read, dir, model string, change float64) error {
	if dir == "" {
		return fmt.Errorf("-dir is needed")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	changed := filepath.Join(dir, "changed.duckdb")
	base := filepath.Join(dir, "base.search")
	full := filepath.Join(dir, "full.search")
	step := func(name, read, out string) error {
		cmd := exec.Command(self, "-step", name, "-read", read, "-out", out, "-model", model, "-change", fmt.Sprint(change), "-memory-limit", memoryLimit)
		cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
		return cmd.Run()
	}
	fmt.Printf("load average %s\n", loadavg())
	if err := step("build", read, base); err != nil {
		return err
	}
	fmt.Printf("copying %s\n", read)
	if err := copyFile(read, changed); err != nil {
		return err
	}
	if err := step("mutate", changed, ""); err != nil {
		return err
	}
	// The update writes base.search.delta beside the base.
	if err := step("update", changed, base); err != nil {
		return err
	}
	if err := step("build", changed, full); err != nil {
		return err
	}
	if err := step("compare", changed, base+"|"+full); err != nil {
		return err
	}
	fmt.Printf("load average %s\n", loadavg())
	return nil
}

func runStep(step, read, out, model string, change float64) error {
	ctx := context.Background()
	db, err := warehouse.Open(ctx, read, warehouse.Options{ReadOnly: step != "mutate", LockTimeout: time.Nanosecond})
	if err != nil {
		return err
	}
	defer db.Close()
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if step == "mutate" {
		return mutate(ctx, db, change)
	}
	if err := searchidx.LimitMemory(ctx, conn, memoryLimit); err != nil {
		return err
	}
	start, cpu0 := time.Now(), cpuTime()
	o := searchidx.BuildOptions{Model: model, Content: step + time.Now().String(), Phase: phasePeaks()}
	var st searchidx.Stats
	switch step {
	case "build":
		st, err = searchidx.Build(ctx, conn, out, o)
	case "update":
		st, err = searchidx.Update(ctx, conn, out, o)
	case "compare":
		return compare(strings.Split(out, "|"))
	default:
		return fmt.Errorf("unknown step %q", step)
	}
	if err != nil {
		return err
	}
	// Bound to the copy it was built from: `docket search` in a project
	// whose published copy is read (a symlink to it) uses it.
	if id, err := searchidx.IDOf(read); err == nil {
		if err := searchidx.Bind(out, id, o.Content); err != nil {
			return err
		}
	}
	what := fmt.Sprintf("%d chunks, %d terms, %d postings, %d vectors, %.1f MiB", st.Chunks, st.Terms, st.Postings, st.Vectors, float64(st.Bytes)/(1<<20))
	if st.Delta {
		what = fmt.Sprintf("%d chunks; delta of %d chunks added or changed, %d retracted, %.1f MiB", st.Chunks, st.DeltaChunks, st.Retracted, float64(st.Bytes)/(1<<20))
	}
	fmt.Printf("%-7s %s: wall %.2fs, CPU %.2fs, peak RSS %d MiB\n", step, what, time.Since(start).Seconds(), cpuTime()-cpu0, peakRSS()>>20)
	return nil
}

// mutate changes change percent of the searchable chunks: a quarter
// removed, a quarter re-titled, and as many chunks as half of them added
// (copies of existing chunks with one more word, their own postings, and
// the original's vector under the new text's hash).
func mutate(ctx context.Context, db *warehouse.DB, change float64) error {
	start := time.Now()
	frac := change / 100
	tok := `regexp_extract_all(lower(nfc_normalize(text)), '[\p{L}\p{N}\p{M}]+')`
	for _, q := range []string{
		fmt.Sprintf(`create temp table gone as select chunk_key from retrieval.search_chunks where hash(chunk_key, 'gone') %% 100000 < %d`, int(frac/4*100000)),
		`delete from retrieval.chunk_terms where chunk_key in (select chunk_key from gone)`,
		`delete from retrieval.search_chunks where chunk_key in (select chunk_key from gone)`,
		fmt.Sprintf(`update retrieval.search_chunks set title = coalesce(title, '') || ' (revised)' where hash(chunk_key, 'retitled') %% 100000 < %d`, int(frac/4*100000)),
		fmt.Sprintf(`create temp table added as select * replace (
			sha256(chunk_id || '#new') as chunk_id, text || ' addendum' as text, sha256(text || ' addendum') as text_hash,
			doc_length + 1 as doc_length, ('0x' || left(sha256(chunk_id || '#new'), 16))::ubigint as chunk_key), text_hash as orig_hash
			from retrieval.search_chunks where hash(chunk_key, 'added') %% 100000 < %d`, int(frac/2*100000)),
		`insert into retrieval.search_chunks by name select * exclude (orig_hash) from added`,
		`insert into retrieval.chunk_terms by name select term, chunk_id, count(*) as tf, doc_length, chunk_key
			from (select chunk_id, doc_length, chunk_key, unnest(` + tok + `) as term from added) group by all`,
		`insert into embeddings.chunk_vectors by name select distinct on (a.text_hash, v.model) a.text_hash, v.model, v.embedding, v.embedded_at
			from added a join embeddings.chunk_vectors v on v.text_hash = a.orig_hash`,
		`checkpoint`,
	} {
		if _, err := db.SQL().ExecContext(ctx, q); err != nil {
			return fmt.Errorf("%s: %w", q, err)
		}
	}
	fmt.Printf("mutate  %.2f%% of the chunks changed in %.1fs\n", change, time.Since(start).Seconds())
	return nil
}

// compare asks the updated index (base + delta) and the full build the
// same queries: chunks of both segments' text, stored vectors.
func compare(paths []string) error {
	var idx [2]*searchidx.Index
	for i, p := range paths {
		x, err := searchidx.OpenUnbound(p, searchidx.Content(p))
		if err != nil {
			return err
		}
		defer x.Close()
		idx[i] = x
	}
	same, n := 0, 0
	for _, q := range idx[0].ProbeQueries(20) {
		a, _ := idx[0].BM25(q, 10)
		b, _ := idx[1].BM25(q, 10)
		n++
		if equal(a, b) {
			same++
		}
	}
	for _, v := range idx[0].ProbeVectors(10) {
		a, _ := idx[0].Vector(v, 10)
		b, _ := idx[1].Vector(v, 10)
		n++
		if equal(a, b) {
			same++
		}
	}
	fmt.Printf("compare updated index and full build: the same hits and scores for %d of %d queries (%d in the delta)\n", same, n, idx[0].DeltaChunks())
	if same != n {
		return fmt.Errorf("the updated index answers differently")
	}
	return nil
}

func equal(a, b []searchidx.Scored) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Key != b[i].Key || a[i].Score != b[i].Score {
			return false
		}
	}
	return true
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(to)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

func loadavg() string {
	b, _ := os.ReadFile("/proc/loadavg")
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}

var memoryLimit string

// phasePeaks prints, as each part of a build ends, the peak RSS during
// it (VmHWM, reset at each part's start through /proc/self/clear_refs),
// its wall and CPU time.
func phasePeaks() func(string) {
	name, t0, c0 := "", time.Now(), cpuTime()
	return func(next string) {
		if name != "" {
			fmt.Printf("  %-9s peak RSS %4d MiB, wall %.2fs, CPU %.2fs\n", name, vmHWM()>>20, time.Since(t0).Seconds(), cpuTime()-c0)
		}
		os.WriteFile("/proc/self/clear_refs", []byte("5"), 0)
		name, t0, c0 = next, time.Now(), cpuTime()
	}
}

// vmHWM is the process's peak RSS since the last reset.
func vmHWM() int64 {
	b, _ := os.ReadFile("/proc/self/status")
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmHWM:" {
			var kb int64
			fmt.Sscan(f[1], &kb)
			return kb << 10
		}
	}
	return 0
}

func cpuTime() float64 { return bench.SelfCPU().Seconds() }

func peakRSS() int64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Maxrss << 10
}
