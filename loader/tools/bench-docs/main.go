// Command bench-docs measures `docket docs generate` on a generated
// warehouse of 5,000 documents: Markdown, text, HTML and CSV files made
// from a word list, and a share of PDFs (the example policy PDF with a
// distinct trailer each, so every one is a new content with two pages to
// render). It loads and builds the project with the real binary, then
// times a cold generation (every page image rendered), a warm one (every
// image cached) and one after a small load (ten new documents), and
// prints the site's size.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/docket-dev/docket/loader/tools/internal/bench"
)

func main() {
	n := flag.Int("docs", 5000, "documents to generate")
	pdfShare := flag.Float64("pdf-share", 0.05, "share of the documents that are PDFs (two pages each)")
	bin := flag.String("docket", "bin/docket", "docket binary")
	keep := flag.Bool("keep", false, "keep the generated project")
	flag.String("corpus", "", "unused (the documents are generated)")
	flag.Parse()
	if err := bench.Fresh(*bin); err != nil {
		fmt.Fprintln(os.Stderr, "bench-docs:", err)
		os.Exit(1)
	}
	docket, err := filepath.Abs(*bin)
	if err != nil {
		fail(err)
	}
	dir, err := os.MkdirTemp("", "bench-docs-")
	if err != nil {
		fail(err)
	}
	if !*keep {
		defer os.RemoveAll(dir)
	} else {
		fmt.Println("project:", dir)
	}
	pdfs, err := setup(dir, *n, *pdfShare)
	if err != nil {
		fail(err)
	}
	fmt.Printf("generated %d documents (%d PDFs of 2 pages) in %s; load average %s\n", *n, pdfs, dir, bench.LoadAvg())
	run := func(args ...string) (string, time.Duration) {
		t0 := time.Now()
		cmd := exec.Command(docket, append(args, "--project", dir)...)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Run(); err != nil {
			fail(fmt.Errorf("docket %s: %v\n%s%s", strings.Join(args, " "), err, out.String(), lastLines(errb.String(), 20)))
		}
		return out.String(), time.Since(t0)
	}
	_, d := run("load", "--quiet")
	fmt.Printf("load: %.1fs\n", d.Seconds())
	_, d = run("build")
	fmt.Printf("build: %.1fs\n", d.Seconds())
	out, d := run("docs", "generate")
	fmt.Printf("docs generate, cold (every page image rendered): %.1fs\n%s", d.Seconds(), indent(out))
	out, d = run("docs", "generate")
	fmt.Printf("docs generate, warm (page images cached): %.1fs\n%s", d.Seconds(), indent(out))
	if err := writeDocs(filepath.Join(dir, "inbox", "new"), 10, 1, 1<<30); err != nil {
		fail(err)
	}
	run("load", "--quiet")
	run("build")
	out, d = run("docs", "generate")
	fmt.Printf("docs generate after loading 10 new documents (1 PDF): %.1fs\n%s", d.Seconds(), indent(out))
	total, files := size(filepath.Join(dir, "target", "docs"))
	imgs, nimg := size(filepath.Join(dir, "target", "docs", "pages"))
	fmt.Printf("site: %d files, %.1f MB (page images: %d files, %.1f MB; HTML and assets: %.1f MB)\n",
		files, mb(total), nimg, mb(imgs), mb(total-imgs))
}

// setup writes project.yaml (the repository's, with the inbox as its
// source), copies models, macros, seeds and tests, and generates the
// documents.
func setup(dir string, n int, pdfShare float64) (int, error) {
	for _, d := range []string{"models", "macros", "seeds", "tests"} {
		if err := os.CopyFS(filepath.Join(dir, d), os.DirFS(d)); err != nil {
			return 0, fmt.Errorf("copy %s (run from the repository root): %w", d, err)
		}
	}
	y, err := os.ReadFile("project.yaml")
	if err != nil {
		return 0, err
	}
	y = regexp.MustCompile(`(?m)^    path: examples/inbox$`).ReplaceAll(y, []byte("    path: inbox"))
	if err := os.WriteFile(filepath.Join(dir, "project.yaml"), y, 0o644); err != nil {
		return 0, err
	}
	pdfs := int(float64(n) * pdfShare)
	return pdfs, writeDocs(filepath.Join(dir, "inbox"), n, pdfs, 0)
}

var words = strings.Fields(`agreement supplier invoice payment notice period termination policy employee contract
warehouse delivery schedule quarter report review approval budget travel expense safety training equipment office
remote security update release customer service support maintenance order shipment receipt account balance audit
compliance risk control procedure meeting minutes action owner deadline project milestone scope change request
quality inspection incident response backup recovery network access password device license renewal vendor`)

// writeDocs writes n documents under dir, pdfs of them PDFs; seed varies
// the content so that two calls make different files.
func writeDocs(dir string, n, pdfs int, seed uint64) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	pdf, err := os.ReadFile("examples/inbox/remote-work-policy.pdf")
	if err != nil {
		return err
	}
	r := rand.New(rand.NewPCG(42, seed))
	para := func(k int) string {
		var b strings.Builder
		for s := 0; s < k; s++ {
			m := 8 + r.IntN(14)
			for i := 0; i < m; i++ {
				w := words[r.IntN(len(words))]
				if i == 0 {
					w = strings.ToUpper(w[:1]) + w[1:]
				}
				b.WriteString(w)
				if i < m-1 {
					b.WriteByte(' ')
				}
			}
			b.WriteString(". ")
		}
		return strings.TrimSpace(b.String())
	}
	for i := 0; i < n; i++ {
		sub := filepath.Join(dir, fmt.Sprintf("batch-%02d", i/250))
		if err := os.MkdirAll(sub, 0o755); err != nil {
			return err
		}
		var name string
		var body []byte
		switch {
		case i < pdfs:
			name = fmt.Sprintf("policy-%05d.pdf", i)
			body = append(append([]byte{}, pdf...), fmt.Sprintf("\n%% copy %d.%d\n", seed, i)...)
		case i%4 == 0:
			name = fmt.Sprintf("note-%05d.md", i)
			body = []byte(fmt.Sprintf("# %s\n\n%s\n\n## Details\n\n%s\n\n- %s\n- %s\n", para(1), para(4), para(5), para(1), para(1)))
		case i%4 == 1:
			name = fmt.Sprintf("memo-%05d.txt", i)
			body = []byte(fmt.Sprintf("%s\n\n%s\n\n%s\n", para(1), para(6), para(3)))
		case i%4 == 2:
			name = fmt.Sprintf("page-%05d.html", i)
			body = []byte(fmt.Sprintf("<html><head><title>%s</title></head><body><h1>%s</h1><p>%s</p><p>%s</p><ul><li>%s</li></ul></body></html>",
				para(1), para(1), para(4), para(4), para(1)))
		default:
			name = fmt.Sprintf("ledger-%05d.csv", i)
			var b strings.Builder
			b.WriteString("date,account,description,amount\n")
			for k := 0; k < 10+r.IntN(20); k++ {
				fmt.Fprintf(&b, "2026-%02d-%02d,%s,%s %s,%d.%02d\n", 1+r.IntN(12), 1+r.IntN(28), words[r.IntN(len(words))],
					words[r.IntN(len(words))], words[r.IntN(len(words))], r.IntN(5000), r.IntN(100))
			}
			body = []byte(b.String())
		}
		if seed != 0 {
			name = fmt.Sprintf("s%d-%s", seed, name)
		}
		if err := os.WriteFile(filepath.Join(sub, name), body, 0o644); err != nil {
			return err
		}
	}
	return nil
}

func size(dir string) (int64, int) {
	var n int64
	files := 0
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if info, err := d.Info(); err == nil {
				n += info.Size()
				files++
			}
		}
		return nil
	})
	return n, files
}

func mb(n int64) float64 { return float64(n) / (1 << 20) }

func indent(s string) string {
	var b strings.Builder
	for _, l := range strings.Split(strings.TrimSpace(s), "\n") {
		b.WriteString("    " + l + "\n")
	}
	return b.String()
}

func lastLines(s string, n int) string {
	l := strings.Split(strings.TrimSpace(s), "\n")
	if len(l) > n {
		l = l[len(l)-n:]
	}
	return strings.Join(l, "\n")
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "bench-docs:", err)
	os.Exit(1)
}
