// Command hostile builds a folder of hostile files (zip bombs, PDF
// content-stream bombs, a 100,000-page PDF, a 30000 x 30000-pixel image,
// an XLSX whose sheet expands to ~2 GB, billion-laughs and XXE DOCX files,
// a one-line text of hundreds of MB), runs the real `docket load` on it
// twice as separate processes and checks issue 17's targets:
//
//   - the first load takes under 2 minutes, the second under 5 seconds;
//   - every file is in raw.documents, landed or quarantined with a reason;
//   - no worker's peak resident set (the kernel's high-water mark, from
//     wait4) is over loader.max_worker_memory;
//   - no landed page is longer than loader.max_page_chars, no document
//     longer than loader.max_doc_chars, and no XXE target's text landed.
//
// It prints the numbers and exits 1 when a target is missed. `make
// hostile` runs it; the generated folder is kept (-dir) and reused.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/docket-dev/docket/loader/tools/internal/bench"
)

type summary struct {
	Seen          int            `json:"seen"`
	New           int            `json:"new"`
	Unchanged     int            `json:"unchanged"`
	Landed        int            `json:"landed"`
	Quarantined   int            `json:"quarantined"`
	Extracted     int            `json:"extracted"`
	Pages         int            `json:"pages"`
	ByKind        map[string]int `json:"quarantined_by_kind"`
	WorkerPeakRSS int64          `json:"worker_peak_rss_bytes"`
}

type run struct {
	wall    time.Duration
	cpu     time.Duration // user + sys of docket and its workers
	maxRSS  int64         // the largest of docket and its workers
	sum     summary
	stderr  string
	exitErr error
}

func main() {
	bin := flag.String("docket", "bin/docket", "docket binary")
	dir := flag.String("dir", filepath.Join(os.TempDir(), "docket-hostile"), "folder for the generated files (kept and reused) and the project")
	textMiB := flag.Int("text-mib", 384, "size of the one-line text file")
	sheetMiB := flag.Int("sheet-mib", 2048, "expanded size of the XLSX sheet")
	bombMiB := flag.Int("bomb-mib", 1024, "expanded size of each PDF content stream bomb")
	memory := flag.String("max-worker-memory", "", "loader.max_worker_memory for the run (default: docket's)")
	first := flag.Duration("first", 2*time.Minute, "target for the first load")
	second := flag.Duration("second", 5*time.Second, "target for the second load")
	genOnly := flag.Bool("generate-only", false, "write the files and stop")
	flag.Parse()
	if err := bench.Fresh(*bin); err != nil {
		fmt.Fprintln(os.Stderr, "hostile:", err)
		os.Exit(1)
	}

	abs, err := filepath.Abs(*bin)
	if err == nil {
		_, err = os.Stat(abs)
	}
	if err != nil {
		fail("docket binary: %v (run `make build`, or go build -o bin/ ./loader/cmd/docket ./loader/cmd/docket-worker)", err)
	}
	files := hostileFiles(*textMiB, *sheetMiB, *bombMiB)
	bombs := filepath.Join(*dir, fmt.Sprintf("bombs-t%d-s%d-b%d", *textMiB, *sheetMiB, *bombMiB))
	t0 := time.Now()
	if err := generate(bombs, files); err != nil {
		fail("generate: %v", err)
	}
	fmt.Printf("hostile: %d files in %s (generated or reused in %.1fs); load average %s\n", len(files), bombs, time.Since(t0).Seconds(), bench.LoadAvg())
	for _, f := range files {
		st, _ := os.Stat(filepath.Join(bombs, f.name))
		fmt.Printf("  %-24s %9s  %s\n", f.name, human(st.Size()), f.what)
	}
	if *genOnly {
		return
	}

	proj := filepath.Join(*dir, "project")
	os.RemoveAll(proj)
	if err := os.MkdirAll(proj, 0o755); err != nil {
		fail("%v", err)
	}
	yaml := fmt.Sprintf("version: 1\nsources:\n  - {name: bombs, path: %q}\n", bombs)
	if *memory != "" {
		yaml += "loader:\n  max_worker_memory: " + *memory + "\n"
	}
	if err := os.WriteFile(filepath.Join(proj, "project.yaml"), []byte(yaml), 0o644); err != nil {
		fail("%v", err)
	}
	limit := *memory
	if limit == "" {
		limit = "4GB" // docket's default (README)
	}
	limitBytes, err := parseSize(limit)
	if err != nil {
		fail("max-worker-memory: %v", err)
	}

	ok := true
	check := func(pass bool, format string, args ...any) {
		mark := "ok  "
		if !pass {
			mark, ok = "FAIL", false
		}
		fmt.Printf("  %s %s\n", mark, fmt.Sprintf(format, args...))
	}
	var runs [2]run
	for i := range runs {
		r := load(abs, proj)
		runs[i] = r
		fmt.Printf("load %d: wall %.1fs, CPU %.1fs (docket + workers), peak RSS %s (largest process), worker peak %s; seen %d, new %d, unchanged %d, extracted %d, landed %d, quarantined %d %v\n",
			i+1, r.wall.Seconds(), r.cpu.Seconds(), human(r.maxRSS), human(r.sum.WorkerPeakRSS), r.sum.Seen, r.sum.New, r.sum.Unchanged, r.sum.Extracted, r.sum.Landed, r.sum.Quarantined, r.sum.ByKind)
		if r.exitErr != nil {
			fmt.Printf("  stderr: %s\n", lastLines(r.stderr, 5))
		}
	}
	fmt.Println("checks:")
	check(runs[0].exitErr == nil && runs[1].exitErr == nil, "both loads exit 0 (%v, %v)", runs[0].exitErr, runs[1].exitErr)
	check(runs[0].wall < *first, "first load %.1fs < %s", runs[0].wall.Seconds(), *first)
	check(runs[1].wall < *second, "second load %.2fs < %s", runs[1].wall.Seconds(), *second)
	check(runs[1].sum.Extracted == 0, "second load extracts nothing again (%d extracted)", runs[1].sum.Extracted)
	for i, r := range runs {
		check(r.sum.WorkerPeakRSS > 0 && r.sum.WorkerPeakRSS <= limitBytes || i == 1 && r.sum.Extracted == 0,
			"load %d: worker peak %s <= loader.max_worker_memory %s", i+1, human(r.sum.WorkerPeakRSS), limit)
	}

	rows, err := query(abs, proj, `select d.rel_path || '|' || d.status || '|' || coalesce(d.error_kind, '') || '|' ||
		coalesce((select count(*) from staging.pages p where p.source_hash = d.source_hash), 0) || '|' ||
		coalesce((select sum(length(p.text)) from staging.pages p where p.source_hash = d.source_hash), 0) || '|' ||
		coalesce((select max(length(p.text)) from staging.pages p where p.source_hash = d.source_hash), 0) || '|' ||
		coalesce((select max(e.attempts) from staging.extractions e where e.source_hash = d.source_hash), 0) || '|' ||
		coalesce((select round(max(e.duration_ms) / 1000.0, 1) from staging.extractions e where e.source_hash = d.source_hash), 0) || '|' ||
		(select count(*) from raw.documents c where c.parent_doc_id = d.doc_id) || '|' ||
		replace(left(coalesce(d.error_message, ''), 110), chr(10), ' ')
		from raw.documents d where d.parent_doc_id is null order by d.rel_path`)
	if err != nil {
		fail("query: %v", err)
	}
	fmt.Printf("  %-24s %-11s %-15s %7s %11s %10s %4s %6s %5s  %s\n", "file", "status", "error_kind", "pages", "chars", "max page", "try", "secs", "kids", "message")
	seen := map[string]bool{}
	for _, row := range rows {
		c := strings.SplitN(row, "|", 10)
		if len(c) < 10 {
			continue
		}
		seen[c[0]] = true
		fmt.Printf("  %-24s %-11s %-15s %7s %11s %10s %4s %6s %5s  %s\n", c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8], c[9])
	}
	missing := []string{}
	for _, f := range files {
		if !seen[f.name] {
			missing = append(missing, f.name)
		}
	}
	check(len(missing) == 0, "every file is in raw.documents (missing: %v)", missing)
	bad, _ := query(abs, proj, `select count(*) from raw.documents where status not in ('landed', 'quarantined')`)
	check(len(bad) == 1 && bad[0] == "0", "every document (attachments and members included) is landed or quarantined (others: %v)", bad)
	noReason, _ := query(abs, proj, `select count(*) from raw.documents where status = 'quarantined' and (error_kind is null or coalesce(error_message, '') = '')`)
	check(len(noReason) == 1 && noReason[0] == "0", "every quarantined document has an error_kind and a message (%v without)", noReason)
	long, _ := query(abs, proj, `select coalesce(max(length(text)), 0) from staging.pages`)
	check(len(long) == 1 && atoi(long[0]) <= 1_000_000, "no landed page over loader.max_page_chars 1,000,000 (longest %v)", long)
	big, _ := query(abs, proj, `select coalesce(max(n), 0) from (select sum(length(text)) n from staging.pages group by source_hash)`)
	check(len(big) == 1 && atoi(big[0]) <= 20_000_000, "no landed document over loader.max_doc_chars 20,000,000 (largest %v)", big)
	leak, _ := query(abs, proj, `select count(*) from staging.pages where text like '%root:x:0:0%'`)
	check(len(leak) == 1 && leak[0] == "0", "no XXE target (/etc/passwd) in any page (%v pages)", leak)
	if !ok {
		fmt.Println("hostile: FAILED")
		os.Exit(1)
	}
	fmt.Println("hostile: all targets met")
}

func load(bin, proj string) run {
	cmd := exec.Command(bin, "load", "--json", "--quiet")
	cmd.Dir = proj
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	r := run{wall: time.Since(start), stderr: errb.String(), exitErr: err}
	if st := cmd.ProcessState; st != nil {
		if ru, ok := st.SysUsage().(*syscall.Rusage); ok {
			r.cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
			r.maxRSS = ru.Maxrss << 10
		}
	}
	json.Unmarshal(out.Bytes(), &r.sum)
	return r
}

// query runs one SQL query through `docket sql` and returns its rows (one
// column each; the header line dropped).
func query(bin, proj, q string) ([]string, error) {
	cmd := exec.Command(bin, "sql", q)
	cmd.Dir = proj
	var errb bytes.Buffer
	cmd.Stderr = &errb
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%v: %s", err, errb.String())
	}
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(lines) == 0 {
		return nil, nil
	}
	rows := lines[1:]
	for i := range rows {
		rows[i] = strings.TrimSpace(rows[i])
	}
	return rows, nil
}

func parseSize(s string) (int64, error) {
	s = strings.ToUpper(strings.TrimSpace(s))
	mult := int64(1)
	for _, u := range []struct {
		suf string
		m   int64
	}{{"GIB", 1 << 30}, {"MIB", 1 << 20}, {"GB", 1 << 30}, {"MB", 1 << 20}, {"G", 1 << 30}, {"M", 1 << 20}} {
		if strings.HasSuffix(s, u.suf) {
			s, mult = strings.TrimSuffix(s, u.suf), u.m
			break
		}
	}
	n, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	return int64(n * float64(mult)), err
}

func atoi(s string) int { n, _ := strconv.Atoi(strings.TrimSpace(s)); return n }

func human(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.2f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

func lastLines(s string, n int) string {
	l := strings.Split(strings.TrimSpace(s), "\n")
	if len(l) > n {
		l = l[len(l)-n:]
	}
	return strings.Join(l, " | ")
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "hostile: "+format+"\n", args...)
	os.Exit(2)
}
