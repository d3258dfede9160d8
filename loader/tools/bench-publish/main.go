// Command bench-publish measures what readers cost the pipeline. For each
// size it generates that many text documents, runs `docket load` and
// `docket build` on the shipped models (each publishes
// warehouse.read.duckdb), and reports:
//   - the publish time against the command it follows (target: at most
//     10% of the build);
//   - reader queries (the BM25 macro, an aggregate over chunks, a join) on
//     the published copy against the same queries on the writer's file
//     (target: within 1.5x), median of alternating rounds.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/docket-dev/docket/loader/internal/warehouse"
	"github.com/docket-dev/docket/loader/tools/internal/bench"
)

func main() {
	sizes := flag.String("docs", "5000,50000", "comma-separated document counts")
	bin := flag.String("docket", "bin/docket", "docket binary")
	keep := flag.String("keep", "", "keep the generated projects under this folder")
	flag.String("corpus", "", "ignored (generated documents)")
	flag.Parse()
	if err := bench.Fresh(*bin); err != nil {
		fmt.Fprintln(os.Stderr, "bench-publish:", err)
		os.Exit(1)
	}
	fmt.Println("bench-publish: generated text documents (no corpus files); shipped models; publish = copy + rename of warehouse.duckdb")
	fmt.Printf("%7s  %9s  %9s  %9s  %8s  %9s  %9s  %8s  %s\n", "docs", "wh size", "load s", "build s", "pub s", "pub/build", "pub/load", "reader", "method")
	for _, s := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n <= 0 {
			fmt.Fprintf(os.Stderr, "bench-publish: bad -docs %q\n", s)
			os.Exit(2)
		}
		if err := run(n, *bin, *keep); err != nil {
			fmt.Fprintln(os.Stderr, "bench-publish:", err)
			os.Exit(1)
		}
	}
}

var vocab = strings.Fields(`contract notice period termination supplier invoice payment warehouse robot maintenance
policy employee remote security equipment schedule inspection forklift licence safety allowance hotel travel expense
report annual revenue profit margin segment quarter growth decline customer order delivery shipment logistics audit
compliance regulation data privacy consent retention archive record signature approval manager department budget
forecast risk incident response critical routine monthly weekly daily service level agreement penalty warranty
renewal badge shift night training course certificate vendor tender quote discount freight customs harbour crane`)

func doc(r *rand.Rand, i int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Memo %d\n\n", i)
	paras := 2 + r.Intn(5)
	for p := 0; p < paras; p++ {
		words := 40 + r.Intn(120)
		for w := 0; w < words; w++ {
			if w > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(vocab[r.Intn(len(vocab))])
			if r.Intn(15) == 0 {
				fmt.Fprintf(&b, " %d", r.Intn(100000))
			}
		}
		b.WriteString(".\n\n")
	}
	return b.String()
}

func run(n int, bin, keep string) error {
	bin, err := filepath.Abs(bin)
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp(keep, fmt.Sprintf("docket-bench-publish-%d-", n))
	if err != nil {
		return err
	}
	if keep == "" {
		defer os.RemoveAll(dir)
	}
	for _, sub := range []string{"models", "macros", "seeds", "tests", "snapshots"} {
		if err := os.CopyFS(filepath.Join(dir, sub), os.DirFS(sub)); err != nil {
			return err
		}
	}
	py, err := os.ReadFile("project.yaml")
	if err != nil {
		return err
	}
	py = []byte(strings.Replace(string(py), "path: examples/inbox", "path: inbox", 1))
	if err := os.WriteFile(filepath.Join(dir, "project.yaml"), py, 0o644); err != nil {
		return err
	}
	r := rand.New(rand.NewSource(int64(n)))
	for i := 0; i < n; i++ {
		sub := filepath.Join(dir, "inbox", fmt.Sprintf("%03d", i%500))
		if i < 500 {
			os.MkdirAll(sub, 0o755)
		}
		if err := os.WriteFile(filepath.Join(sub, fmt.Sprintf("memo-%06d.txt", i)), []byte(doc(r, i)), 0o644); err != nil {
			return err
		}
	}
	loadT, loadPub, err := timed(dir, bin, "load", "--quiet")
	if err != nil {
		return err
	}
	buildT, buildPub, err := timed(dir, bin, "build", "--wait", "1m")
	if err != nil {
		return err
	}
	wh := filepath.Join(dir, "warehouse.duckdb")
	st, err := warehouse.ReadStamp(wh)
	if err != nil || st == nil {
		return fmt.Errorf("nothing published after build: %v", err)
	}
	ratio, err := readerRatio(wh)
	if err != nil {
		return err
	}
	fmt.Printf("%7d  %9s  %9.1f  %9.1f  %8.2f  %8.1f%%  %8.1f%%  %7.2fx  %s\n", n, mib(st.Bytes), loadT.Seconds(), buildT.Seconds(),
		buildPub.Seconds(), 100*buildPub.Seconds()/(buildT-buildPub).Seconds(), 100*loadPub.Seconds()/(loadT-loadPub).Seconds(), ratio, st.Method)
	return nil
}

func mib(n int64) string { return fmt.Sprintf("%.0f MiB", float64(n)/(1<<20)) }

// timed runs one docket command; it returns the whole command's wall time
// and the publish time it reported in warehouse.read.duckdb.json.
func timed(dir, bin string, args ...string) (time.Duration, time.Duration, error) {
	start := time.Now()
	cmd := exec.Command(bin, append(args, "--project", dir)...)
	out, err := cmd.CombinedOutput()
	wall := time.Since(start)
	if err != nil {
		return 0, 0, fmt.Errorf("docket %s: %v\n%s", args[0], err, tail(string(out)))
	}
	b, err := os.ReadFile(filepath.Join(dir, "warehouse.read.duckdb.json"))
	if err != nil {
		return 0, 0, fmt.Errorf("docket %s published nothing: %v\n%s", args[0], err, tail(string(out)))
	}
	var st warehouse.Stamp
	if err := json.Unmarshal(b, &st); err != nil {
		return 0, 0, err
	}
	if st.Command != args[0] {
		return 0, 0, fmt.Errorf("docket %s did not publish (stamp says %s)\n%s", args[0], st.Command, tail(string(out)))
	}
	return wall, time.Duration(st.Duration), nil
}

func tail(s string) string {
	l := strings.Split(strings.TrimSpace(s), "\n")
	if len(l) > 15 {
		l = l[len(l)-15:]
	}
	return strings.Join(l, "\n")
}

var readerQueries = []string{
	`select count(*) from retrieval.bm25('forklift licence renewal', k := 10)`,
	`select count(*) from retrieval.bm25('harbour crane freight customs', k := 10)`,
	`select quality_verdict, count(*), sum(chunks) from curated.documents group by all`,
	`select d.rel_path, count(*) from curated.doc_chunks c join raw.documents d using (doc_id) group by all order by 2 desc limit 5`,
}

// readerRatio: median over alternating rounds of (queries on the
// published copy) / (queries on the writer's file), both opened read-only
// in a fresh process-wide instance each round.
func readerRatio(wh string) (float64, error) {
	ctx := context.Background()
	once := func(path string) (time.Duration, error) {
		db, err := warehouse.Open(ctx, path, warehouse.Options{ReadOnly: true})
		if err != nil {
			return 0, err
		}
		defer db.Close()
		start := time.Now()
		for _, q := range readerQueries {
			rows, err := db.SQL().QueryContext(ctx, q)
			if err != nil {
				return 0, fmt.Errorf("%s: %w", q, err)
			}
			for rows.Next() {
			}
			rows.Close()
		}
		return time.Since(start), nil
	}
	var ratios []float64
	for round := 0; round < 7; round++ {
		a, err := once(warehouse.ReadPath(wh))
		if err != nil {
			return 0, err
		}
		b, err := once(wh)
		if err != nil {
			return 0, err
		}
		ratios = append(ratios, a.Seconds()/b.Seconds())
	}
	sort.Float64s(ratios)
	return ratios[len(ratios)/2], nil
}
