// Command bench-shard measures a sharded load (docket plan, shards as
// separate processes running at the same time, docket land) against a
// local `docket load` of the same files with the same total workers, and
// the land step's time per 1,000 documents. The files are the first
// -pdfs PDFs of the corpus and -docs generated text documents. Shards run
// on this machine (the point is the overhead of plan, Parquet and land
// against one process, not more cores); each gets workers/shards workers.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/docket-dev/docket/loader/tools/internal/bench"
)

func main() {
	corpus := flag.String("corpus", "../shared/corpus", "corpus folder (its pdf/ folder)")
	bin := flag.String("docket", "bin/docket", "docket binary")
	pdfs := flag.Int("pdfs", 30, "PDFs of the corpus to include")
	docs := flag.Int("docs", 1000, "generated text documents to include")
	shards := flag.Int("shards", 2, "shards (run at the same time on this machine)")
	workers := flag.Int("workers", runtime.NumCPU(), "total worker processes (the local load's; split across shards)")
	flag.Parse()
	if err := bench.Fresh(*bin); err != nil {
		fmt.Fprintln(os.Stderr, "bench-shard:", err)
		os.Exit(1)
	}
	exe, err := filepath.Abs(*bin)
	if err != nil {
		fail(err)
	}
	if _, err := os.Stat(exe); err != nil {
		fail(fmt.Errorf("%s: build docket first (make build)", exe))
	}
	tmp, err := os.MkdirTemp("", "bench-shard-")
	if err != nil {
		fail(err)
	}
	defer os.RemoveAll(tmp)
	inbox := filepath.Join(tmp, "inbox")
	nPDF, pdfBytes, err := copyPDFs(filepath.Join(*corpus, "pdf"), inbox, *pdfs)
	if err != nil {
		fail(err)
	}
	if err := genDocs(inbox, *docs); err != nil {
		fail(err)
	}
	fmt.Printf("files: %d PDFs of the corpus (%.1f MiB) + %d generated text documents; %d workers in all; %d shards of %d workers; load %s\n",
		nPDF, float64(pdfBytes)/(1<<20), *docs, *workers, *shards, max(*workers / *shards, 1), bench.LoadAvg())

	local := project(tmp, "local", inbox, *workers)
	t0 := time.Now()
	out := run(exe, local, "load", "--quiet", "--json")
	localDur := time.Since(t0)
	var sum struct {
		Seen, Pages int
	}
	json.Unmarshal([]byte(out), &sum)

	sharded := project(tmp, "sharded", inbox, max(*workers / *shards, 1))
	plan := filepath.Join(sharded, "plan")
	t0 = time.Now()
	run(exe, sharded, "plan", "--shards", fmt.Sprint(*shards), "--out", plan)
	planDur := time.Since(t0)
	t0 = time.Now()
	var wg sync.WaitGroup
	for k := 0; k < *shards; k++ {
		wg.Add(1)
		go func(k int) {
			defer wg.Done()
			run(exe, sharded, "load", "--plan", plan, "--shard", fmt.Sprint(k))
		}(k)
	}
	wg.Wait()
	shardDur := time.Since(t0)
	t0 = time.Now()
	run(exe, sharded, "land", plan)
	landDur := time.Since(t0)
	total := planDur + shardDur + landDur

	rate := func(d time.Duration) string {
		return fmt.Sprintf("%6.1f docs/s %6.1f pages/s", float64(sum.Seen)/d.Seconds(), float64(sum.Pages)/d.Seconds())
	}
	fmt.Printf("documents %d (attachments included), pages %d\n", sum.Seen, sum.Pages)
	fmt.Printf("local load             %7.2fs  %s\n", localDur.Seconds(), rate(localDur))
	fmt.Printf("sharded: plan          %7.2fs\n", planDur.Seconds())
	fmt.Printf("sharded: shards        %7.2fs  %s  (%.2fx the local load)\n", shardDur.Seconds(), rate(shardDur), localDur.Seconds()/shardDur.Seconds())
	fmt.Printf("sharded: land          %7.2fs  %.2f s per 1,000 documents\n", landDur.Seconds(), landDur.Seconds()/float64(max(sum.Seen, 1))*1000)
	fmt.Printf("sharded: plan+shards+land %4.2fs  %s  (%.2fx the local load)\n", total.Seconds(), rate(total), localDur.Seconds()/total.Seconds())
	a, b := count(exe, local), count(exe, sharded)
	if a != b {
		fmt.Printf("WARNING: landed rows differ: local %s, sharded %s\n", a, b)
	}
}

// project writes a project over inbox and returns its folder.
func project(tmp, name, inbox string, workers int) string {
	dir := filepath.Join(tmp, name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		fail(err)
	}
	y := fmt.Sprintf("version: 1\nwarehouse: warehouse.duckdb\nsources:\n  - {name: inbox, path: %s}\nloader:\n  workers: %d\n", inbox, workers)
	if err := os.WriteFile(filepath.Join(dir, "project.yaml"), []byte(y), 0o644); err != nil {
		fail(err)
	}
	return dir
}

func run(exe, dir string, args ...string) string {
	cmd := exec.Command(exe, append(args, "--project", dir)...)
	cmd.Env = append(os.Environ(), "OMP_THREAD_LIMIT=1")
	out, err := cmd.Output()
	if err != nil {
		msg := ""
		if ee, ok := err.(*exec.ExitError); ok {
			msg = string(ee.Stderr)
		}
		fail(fmt.Errorf("docket %s: %v\n%s%s", strings.Join(args, " "), err, out, msg))
	}
	return string(out)
}

// count is the landed rows of the main tables, to check both loads agree.
func count(exe, dir string) string {
	return strings.TrimSpace(run(exe, dir, "sql", `select (select count(*) from raw.documents where status = 'landed') || '/' ||
		(select count(*) from staging.pages) || '/' || (select count(*) from staging.elements) as n`))
}

func copyPDFs(src, dst string, n int) (int, int64, error) {
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return 0, 0, err
	}
	entries, err := os.ReadDir(src)
	if err != nil {
		return 0, 0, err
	}
	var names []string
	for _, e := range entries {
		if strings.HasSuffix(strings.ToLower(e.Name()), ".pdf") {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	if len(names) > n {
		names = names[:n]
	}
	var bytes int64
	for _, name := range names {
		b, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			return 0, 0, err
		}
		bytes += int64(len(b))
		if err := os.WriteFile(filepath.Join(dst, name), b, 0o644); err != nil {
			return 0, 0, err
		}
	}
	return len(names), bytes, nil
}

var words = strings.Fields(`the warehouse shipment invoice contract robot maintenance schedule policy safety training
	supplier order delivery report quarter budget review meeting notes agreement signed clause payment term renewal
	inspection audit incident equipment forklift pallet storage inventory customer account region team manager`)

// genDocs writes n small text documents of a few paragraphs each.
func genDocs(dir string, n int) error {
	r := rand.New(rand.NewSource(1))
	for i := 0; i < n; i++ {
		var b strings.Builder
		fmt.Fprintf(&b, "Document %d\n\n", i)
		for p := 0; p < 3+r.Intn(5); p++ {
			for w := 0; w < 40+r.Intn(80); w++ {
				b.WriteString(words[r.Intn(len(words))])
				b.WriteByte(' ')
			}
			b.WriteString("\n\n")
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("doc-%05d.txt", i)), []byte(b.String()), 0o644); err != nil {
			return err
		}
	}
	return nil
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "bench-shard:", err)
	os.Exit(1)
}
