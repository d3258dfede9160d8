// Command bench-ocr measures end-to-end OCR throughput on the corpus scans
// (scans/pNN.png): docket (decode as the image extractor does, deskew, recognition, OSD
// when the first reading is not plainly upright, second reading of weak
// lines, text rebuild) in N worker processes with OMP_THREAD_LIMIT=1, as
// the loader runs it, against the plain `tesseract FILE -` CLI in N
// parallel processes with the same OMP_THREAD_LIMIT=1 and the same split
// of pages, in the same run. It prints pages/s for each and their ratio
// (best of -rounds, alternating the two sides so background load hits
// both), and CPU seconds (user+sys) per page, which a shared machine's
// load disturbs far less than wall time: the whole processes' on each
// side (the CLI loads its model for every page, a worker once), and page
// by page (a worker's CPU for the page alone against the CLI process's),
// with the geometric mean of the per-page ratios (one page the CLI reads
// slowly does not decide it), and round by round: the median and range of
// the rounds' whole-process ratios, and of their page-by-page ratios on
// the tune (even pNN) and holdout (odd) scans of eval-ocr's split.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/extract/image"
	"github.com/docket-dev/docket/loader/internal/extract/ocr"
	"github.com/docket-dev/docket/loader/tools/internal/bench"
)

func main() {
	corpus := flag.String("corpus", "../shared/corpus", "corpus folder")
	procs := flag.Int("procs", runtime.NumCPU(), "worker processes on each side")
	rounds := flag.Int("rounds", 2, "alternating rounds; the best of each side counts")
	child := flag.String("child", "", "internal: OCR these files (comma separated) and exit")
	flag.Parse()
	if *child != "" {
		if err := runChild(strings.Split(*child, ",")); err != nil {
			fmt.Fprintln(os.Stderr, "bench-ocr child:", err)
			os.Exit(1)
		}
		return
	}
	files, _ := filepath.Glob(filepath.Join(*corpus, "scans", "p[0-9][0-9].png"))
	if len(files) == 0 {
		fmt.Println("corpus not found, skipped")
		return
	}
	if _, err := exec.LookPath("tesseract"); err != nil {
		fmt.Println("tesseract CLI not found, skipped")
		return
	}
	shards := make([][]string, *procs)
	for i, f := range files {
		shards[i%*procs] = append(shards[i%*procs], f)
	}
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench-ocr:", err)
		os.Exit(1)
	}
	env := append(os.Environ(), "OMP_THREAD_LIMIT=1")
	var bestD, bestC time.Duration
	cpu := newCPUTable()
	for r := 0; r < *rounds; r++ {
		c, err := timeShards(shards, func(shard []string) error {
			for _, f := range shard {
				cmd := exec.Command("tesseract", f, "-")
				cmd.Env = env
				if err := cmd.Run(); err != nil {
					return fmt.Errorf("tesseract %s: %w", f, err)
				}
				cpu.add("cli", f, processCPU(cmd))
			}
			return nil
		})
		if err != nil {
			fmt.Fprintln(os.Stderr, "bench-ocr:", err)
			os.Exit(1)
		}
		d, err := timeShards(shards, func(shard []string) error {
			cmd := exec.Command(self, "-child", strings.Join(shard, ","))
			cmd.Env = env
			cmd.Stderr = os.Stderr
			out, err := cmd.Output()
			if err != nil {
				return err
			}
			cpu.add("docket", "", processCPU(cmd))
			// The child prints "page FILE SECONDS" for each page.
			for _, line := range strings.Split(string(out), "\n") {
				var f string
				var sec float64
				if n, _ := fmt.Sscanf(line, "page %s %g", &f, &sec); n == 2 {
					cpu.add("docket page", f, sec)
				}
			}
			return nil
		})
		if err != nil {
			fmt.Fprintln(os.Stderr, "bench-ocr:", err)
			os.Exit(1)
		}
		cpu.endRound()
		if bestC == 0 || c < bestC {
			bestC = c
		}
		if bestD == 0 || d < bestD {
			bestD = d
		}
	}
	n := float64(len(files))
	pd, pc := n/bestD.Seconds(), n/bestC.Seconds()
	fmt.Printf("OCR bench: %d pages, %d processes each side, OMP_THREAD_LIMIT=1, best of %d rounds\n", len(files), *procs, *rounds)
	fmt.Printf("docket        %.3f pages/s (%.1f s)\n", pd, bestD.Seconds())
	fmt.Printf("tesseract CLI %.3f pages/s (%.1f s)\n", pc, bestC.Seconds())
	fmt.Printf("ratio docket/cli %.2fx (target >= 0.9x)\n", pd/pc)
	cpu.print(files, *rounds)
}

// timeShards runs work on every shard in parallel and returns the wall time.
func timeShards(shards [][]string, work func([]string) error) (time.Duration, error) {
	start := time.Now()
	var wg sync.WaitGroup
	errs := make([]error, len(shards))
	for i, s := range shards {
		if len(s) == 0 {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = work(s)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return 0, err
		}
	}
	return time.Since(start), nil
}

// runChild is one docket worker: one engine, every file through the image
// extractor as the loader's worker would.
func runChild(files []string) error {
	opts := document.Options{OCR: true, OCRLanguages: []string{"eng"}, OCRDPI: 300, OCRMinWordConf: 60, OCRReviewBelow: 60}
	e, err := ocr.NewEngine(opts.OCRLanguages)
	if err != nil {
		return err
	}
	defer e.Close()
	for _, f := range files {
		t0 := bench.SelfCPU().Seconds()
		res, err := image.ExtractWith(context.Background(), e, f, opts)
		if err != nil {
			return fmt.Errorf("%s: %w", f, err)
		}
		if len(res.Pages) == 0 || res.Pages[0].Text == "" {
			return fmt.Errorf("%s: no text", f)
		}
		fmt.Printf("page %s %.4f\n", f, bench.SelfCPU().Seconds()-t0)
	}
	return nil
}
