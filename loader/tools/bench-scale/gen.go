package main

import (
	"fmt"
	"hash/fnv"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/inbucket/html2text"
)

// pool is the real text documents are sampled from: sentences of the
// corpus's text, Markdown, reStructuredText, HTML and e-mail files, the
// scans' ground-truth pages and the text layers of pdf/ (pdftotext).
// Held-out sets (html-main/, the ICDAR US half, Docling data) are never read.
type pool struct {
	sentences []string
}

var (
	sentenceEnd = regexp.MustCompile(`([.!?]["')\]]?)\s+`)
	blankLines  = regexp.MustCompile(`\n\s*\n`)
	wordRe      = regexp.MustCompile(`\p{L}{4,}`)
)

// textSources lists the corpus files read, in a stable order.
func textSources(corpus string) (texts, pdfs []string, err error) {
	for _, dir := range []string{"mixed", "scans"} {
		err = filepath.WalkDir(filepath.Join(corpus, dir), func(p string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				// Gold files of the evaluation fixtures stay out.
				if strings.HasPrefix(d.Name(), "gold_standard") {
					return filepath.SkipDir
				}
				return nil
			}
			switch strings.ToLower(filepath.Ext(p)) {
			case ".txt", ".md", ".rst", ".org", ".html", ".htm", ".eml":
				texts = append(texts, p)
			}
			return nil
		})
		if err != nil {
			return nil, nil, err
		}
	}
	pdfs, _ = filepath.Glob(filepath.Join(corpus, "pdf", "*.pdf"))
	sort.Strings(texts)
	sort.Strings(pdfs)
	return texts, pdfs, nil
}

func loadPool(corpus string) (*pool, error) {
	texts, pdfs, err := textSources(corpus)
	if err != nil {
		return nil, err
	}
	var raw []string
	for _, p := range texts {
		b, err := os.ReadFile(p)
		if err != nil || !utf8.Valid(b) {
			continue // UTF-16/32 and legacy encodings: not worth decoding here
		}
		s := string(b)
		if ext := strings.ToLower(filepath.Ext(p)); ext == ".html" || ext == ".htm" {
			if t, err := html2text.FromString(s, html2text.Options{OmitLinks: true}); err == nil {
				s = t
			}
		}
		raw = append(raw, s)
	}
	if _, err := exec.LookPath("pdftotext"); err == nil {
		for _, p := range pdfs {
			out, err := exec.Command("pdftotext", "-q", "-enc", "UTF-8", p, "-").Output()
			if err == nil && utf8.Valid(out) {
				raw = append(raw, string(out))
			}
		}
	}
	pl := &pool{}
	seen := map[string]bool{}
	for _, s := range raw {
		for _, para := range blankLines.Split(s, -1) {
			para = strings.Join(strings.Fields(para), " ")
			for _, sent := range splitSentences(para) {
				n := utf8.RuneCountInString(sent)
				if n < 30 || n > 400 || len(wordRe.FindAllString(sent, 3)) < 3 || seen[sent] {
					continue
				}
				seen[sent] = true
				pl.sentences = append(pl.sentences, sent)
			}
		}
	}
	if len(pl.sentences) < 1000 {
		return nil, fmt.Errorf("only %d sentences of text found under %s (is it the corpus?)", len(pl.sentences), corpus)
	}
	return pl, nil
}

func splitSentences(para string) []string {
	var out []string
	last := 0
	for _, m := range sentenceEnd.FindAllStringSubmatchIndex(para, -1) {
		out = append(out, para[last:m[3]])
		last = m[1]
	}
	if last < len(para) {
		out = append(out, para[last:])
	}
	return out
}

// docRand is document i's own random source: a document's content depends
// on (seed, i) only, so a smaller corpus is a prefix of a larger one and
// the +1 % documents are the same whatever ran before.
func docRand(seed int64, i int) *rand.Rand {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d/%d", seed, i)
	return rand.New(rand.NewSource(int64(h.Sum64())))
}

// Share of documents planted as duplicates of an earlier document.
const (
	exactDupEvery = 50 // 2 %: the same bytes under another name
	nearDupEvery  = 33 // ~3 %: an earlier document with a few sentences changed
)

type doc struct {
	title string
	paras [][]string
}

// body is document i before duplication: a title and 3 to 10 paragraphs of
// 2 to 7 sentences drawn independently from the pool (chunks share
// sentences but rarely enough to be near duplicates by chance).
func (pl *pool) body(seed int64, i int) doc {
	r := docRand(seed, i)
	d := doc{title: fmt.Sprintf("Record %d: %s", i, firstWords(pl.sentences[r.Intn(len(pl.sentences))], 6))}
	for p, np := 0, 3+r.Intn(8); p < np; p++ {
		var para []string
		for s, ns := 0, 2+r.Intn(6); s < ns; s++ {
			para = append(para, pl.sentences[r.Intn(len(pl.sentences))])
		}
		d.paras = append(d.paras, para)
	}
	return d
}

// content is document i as planted: an exact or near duplicate of an
// earlier document for a few, its own body otherwise.
func (pl *pool) content(seed int64, i int) (name string, data []byte) {
	r := docRand(seed, -i-1)
	src := i
	near := false
	switch {
	case i >= exactDupEvery && i%exactDupEvery == 0:
		src = r.Intn(i)
	case i >= nearDupEvery && i%nearDupEvery == 0:
		src, near = r.Intn(i), true
	}
	for src != i && src >= exactDupEvery && src%exactDupEvery == 0 {
		src = docRand(seed, -src-1).Intn(src) // follow an exact duplicate to its origin
	}
	d := pl.body(seed, src)
	if near {
		// Change one sentence in about one of eight: well above the 0.8
		// estimated-Jaccard threshold for the chunks it leaves whole.
		for _, para := range d.paras {
			for s := range para {
				if r.Intn(8) == 0 {
					para[s] = pl.sentences[r.Intn(len(pl.sentences))]
				}
			}
		}
		d.title = fmt.Sprintf("Record %d (revised): %s", i, strings.SplitN(d.title, ": ", 2)[1])
	}
	format := []string{"txt", "md", "html"}[src%3]
	name = filepath.Join(fmt.Sprintf("d%03d", i/1000), fmt.Sprintf("doc%06d.%s", i, format))
	return name, render(d, format)
}

func firstWords(s string, n int) string {
	f := strings.Fields(s)
	if len(f) > n {
		f = f[:n]
	}
	return strings.TrimRight(strings.Join(f, " "), ",;:.")
}

func render(d doc, format string) []byte {
	var b strings.Builder
	switch format {
	case "md":
		fmt.Fprintf(&b, "# %s\n\n", d.title)
		for i, p := range d.paras {
			if i > 0 && i%3 == 0 {
				fmt.Fprintf(&b, "## %s\n\n", firstWords(p[0], 5))
			}
			b.WriteString(strings.Join(p, " "))
			b.WriteString("\n\n")
		}
	case "html":
		t := htmlEscape(d.title)
		fmt.Fprintf(&b, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>%s</title></head>\n<body><article>\n<h1>%s</h1>\n", t, t)
		for i, p := range d.paras {
			if i > 0 && i%3 == 0 {
				fmt.Fprintf(&b, "<h2>%s</h2>\n", htmlEscape(firstWords(p[0], 5)))
			}
			fmt.Fprintf(&b, "<p>%s</p>\n", htmlEscape(strings.Join(p, " ")))
		}
		b.WriteString("</article></body></html>\n")
	default:
		fmt.Fprintf(&b, "%s\n\n", d.title)
		for _, p := range d.paras {
			b.WriteString(wrap(strings.Join(p, " "), 78))
			b.WriteString("\n\n")
		}
	}
	return []byte(b.String())
}

var htmlEscape = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace

func wrap(s string, width int) string {
	var b strings.Builder
	col := 0
	for _, w := range strings.Fields(s) {
		if col > 0 && col+1+len(w) > width {
			b.WriteByte('\n')
			col = 0
		} else if col > 0 {
			b.WriteByte(' ')
			col++
		}
		b.WriteString(w)
		col += len(w)
	}
	return b.String()
}

// writeDocs writes documents [from, to) under dir and returns their bytes.
func (pl *pool) writeDocs(dir string, seed int64, from, to int) (int64, error) {
	var total int64
	for i := from; i < to; i++ {
		name, data := pl.content(seed, i)
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return total, err
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			return total, err
		}
		total += int64(len(data))
	}
	return total, nil
}

// queries are n searches of 2 to 4 words of real sentences (seeded).
func (pl *pool) queries(seed int64, n int) []string {
	r := rand.New(rand.NewSource(seed + 7))
	var out []string
	for len(out) < n {
		words := wordRe.FindAllString(pl.sentences[r.Intn(len(pl.sentences))], -1)
		if len(words) < 4 {
			continue
		}
		k := 2 + r.Intn(3)
		start := r.Intn(len(words) - k + 1)
		out = append(out, strings.ToLower(strings.Join(words[start:start+k], " ")))
	}
	return out
}
