// Command eval-neardup measures near-duplicate detection on a labelled set
// built from the text of real documents: it takes -corpus DIR (plain text,
// Markdown, HTML and OCR ground-truth files), cuts the text into passages of
// 500–1500 characters, makes lightly edited copies of some (word
// substitutions and deletions, one or two swapped sentence pairs, an
// inserted boilerplate line) and prints the precision and recall of
// textproc.NearDuplicates at the default threshold. Parameters are tuned on
// one half of the passages and reported on the other half.
package main

import (
	"flag"
	"fmt"
	"hash/fnv"
	"html"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/docket-dev/docket/loader/internal/textproc"
)

func main() {
	corpus := flag.String("corpus", "../shared/corpus", "folder of real documents")
	maxPerDoc := flag.Int("max-per-doc", 300, "most passages taken from one document")
	flag.Parse()
	if _, err := os.Stat(*corpus); err != nil {
		fmt.Println("eval-neardup: corpus not found, skipped")
		return
	}
	docs, err := readDocs(*corpus)
	if err != nil {
		fmt.Fprintln(os.Stderr, "eval-neardup:", err)
		os.Exit(1)
	}
	rng := rand.New(rand.NewPCG(42, 7))
	pool := passages(docs, *maxPerDoc, rng)
	halves := [2][]passage{}
	for _, p := range pool {
		h := fnv.New32a()
		h.Write([]byte(p.text))
		halves[h.Sum32()%2] = append(halves[h.Sum32()%2], p)
	}
	fmt.Printf("eval-neardup: %d documents, %d distinct passages (tune half %d, test half %d)\n",
		len(docs), len(pool), len(halves[0]), len(halves[1]))

	vocab := vocabulary(pool)
	sets := [2]labelled{makeSet(halves[0], vocab, rng), makeSet(halves[1], vocab, rng)}

	type cfg struct{ k, bands int }
	var best cfg
	bestScore := -1.0
	fmt.Println("tuning half (threshold 0.8, 128 permutations):")
	for _, k := range []int{2, 3, 4, 5} {
		for _, bands := range []int{16, 20, 32} {
			r := sets[0].run(textproc.NearDupOptions{K: k, Bands: bands, Threshold: 0.8})
			fmt.Printf("  k=%d bands=%-2d rows=%d  precision %.3f  recall %.3f\n", k, bands, 128/bands, r.precision, r.recall)
			if score := min(r.precision, r.recall); score > bestScore+1e-9 {
				best, bestScore = cfg{k, bands}, score
			}
		}
	}
	fmt.Printf("best on tuning half: k=%d bands=%d (library defaults: k=%d bands=%d)\n",
		best.k, best.bands, textproc.DefaultShingleK, textproc.DefaultBands)
	r := sets[1].run(textproc.NearDupOptions{K: best.k, Bands: best.bands})
	fmt.Printf("test half, tuned:    %s\n", r)
	r = sets[1].run(textproc.NearDupOptions{})
	fmt.Printf("test half, defaults: %s\n", r)
}

type doc struct {
	path, text string
}

var (
	reScript = regexp.MustCompile(`(?is)<(script|style|head)\b.*?</(script|style|head)>`)
	reBlock  = regexp.MustCompile(`(?i)</?(p|div|br|li|tr|h[1-6]|table|section|article)\b[^>]*>`)
	reTag    = regexp.MustCompile(`(?s)<[^>]*>`)
)

// readDocs reads UTF-8 text files, Markdown, HTML (tags stripped crudely)
// and OCR ground truth from the corpus.
func readDocs(root string) ([]doc, error) {
	var docs []doc
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		ext := strings.ToLower(filepath.Ext(path))
		if ext != ".txt" && ext != ".md" && ext != ".html" && ext != ".htm" {
			return nil
		}
		if strings.Contains(path, "unstructured_output") { // the same texts as gold_standard
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return fmt.Errorf("read %s: %w", path, err)
		}
		if !utf8.Valid(b) || slices.Contains(b, 0) {
			return nil // UTF-16/32 files: not worth decoding for this set
		}
		s := string(b)
		if ext == ".html" || ext == ".htm" {
			s = reScript.ReplaceAllString(s, " ")
			s = reBlock.ReplaceAllString(s, "\n\n")
			s = html.UnescapeString(reTag.ReplaceAllString(s, " "))
		}
		docs = append(docs, doc{path: path, text: s})
		return nil
	})
	return docs, err
}

type passage struct {
	doc  int
	text string // normalized
}

// passages cuts documents into passages and keeps only passages that share
// little with every passage kept before (the corpus holds the same text in
// several files), so that unrelated pairs are truly unrelated.
func passages(docs []doc, maxPerDoc int, rng *rand.Rand) []passage {
	var out []passage
	firstSeen := map[uint64]int{} // 5-word shingle -> passage index
	for di, d := range docs {
		size := 500 + rng.IntN(1000)
		n := 0
		for _, c := range textproc.ChunkText(d.text, size, 0, nil) {
			t := textproc.NormalizeText(c.Text)
			if utf8.RuneCountInString(t) < 500 || n >= maxPerDoc {
				continue
			}
			sh := shingles(t, 5)
			if len(sh) < 40 {
				continue
			}
			overlap := map[int]int{}
			for _, s := range sh {
				if p, ok := firstSeen[s]; ok {
					overlap[p]++
				}
			}
			related := false
			for _, c := range overlap {
				if float64(c) >= 0.2*float64(len(sh)) {
					related = true
				}
			}
			if related {
				continue
			}
			for _, s := range sh {
				if _, ok := firstSeen[s]; !ok {
					firstSeen[s] = len(out)
				}
			}
			out = append(out, passage{doc: di, text: t})
			n++
		}
	}
	return out
}

func shingles(t string, k int) []uint64 {
	ws := textproc.ShingleWords(t)
	seen := map[uint64]bool{}
	var out []uint64
	for i := 0; i+k <= len(ws); i++ {
		h := fnv.New64a()
		h.Write([]byte(strings.Join(ws[i:i+k], " ")))
		if v := h.Sum64(); !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}

func vocabulary(pool []passage) []string {
	seen := map[string]bool{}
	var v []string
	for _, p := range pool {
		for _, w := range strings.Fields(p.text) {
			if len(w) > 3 && !seen[w] {
				seen[w] = true
				v = append(v, w)
			}
		}
	}
	return v
}

var boilerplate = []string{
	"CONFIDENTIAL - do not distribute",
	"Page 3 of 12",
	"Printed from the archive on 2024-03-18",
	"Draft for internal review",
	"Copyright 2023 All rights reserved.",
	"Continued on next page",
}

var reSentence = regexp.MustCompile(`[^.!?]+[.!?]+["')\]]*\s*|[^.!?]+$`)

// edit makes a light edit of a passage: one to three of word
// substitutions, word deletions, swapped sentence pairs, an inserted line.
func edit(t string, vocab []string, rng *rand.Rand) (string, string) {
	ops := []string{"substitute", "delete", "reorder", "boilerplate"}
	rng.Shuffle(len(ops), func(i, j int) { ops[i], ops[j] = ops[j], ops[i] })
	ops = ops[:1+rng.IntN(3)]
	for _, op := range ops {
		switch op {
		case "substitute":
			ws := strings.Fields(t)
			for range 1 + rng.IntN(3) {
				ws[rng.IntN(len(ws))] = vocab[rng.IntN(len(vocab))]
			}
			t = strings.Join(ws, " ")
		case "delete":
			ws := strings.Fields(t)
			for range 1 + rng.IntN(3) {
				i := rng.IntN(len(ws))
				ws = append(ws[:i], ws[i+1:]...)
			}
			t = strings.Join(ws, " ")
		case "reorder":
			ss := reSentence.FindAllString(t, -1)
			pairs := 1
			if rng.IntN(3) == 0 {
				pairs = 2
			}
			for range pairs {
				if len(ss) < 2 {
					break
				}
				i := rng.IntN(len(ss) - 1)
				ss[i], ss[i+1] = strings.TrimSpace(ss[i+1])+" ", strings.TrimSpace(ss[i])+" "
			}
			t = strings.Join(ss, "")
		case "boilerplate":
			line := boilerplate[rng.IntN(len(boilerplate))]
			switch rng.IntN(3) {
			case 0:
				t = line + "\n" + t
			case 1:
				t = t + "\n" + line
			default:
				ss := reSentence.FindAllString(t, -1)
				i := rng.IntN(len(ss))
				t = strings.Join(ss[:i], "") + "\n" + line + "\n" + strings.Join(ss[i:], "")
			}
		}
	}
	return t, strings.Join(ops, "+")
}

// labelled is one half: passages, their edited copies and, for every item,
// the passage it derives from.
type labelled struct {
	items  []textproc.Item
	origin []int // index of the original passage
	copies int
	// Explicit negative pairs (item indexes): different documents, and the
	// same document.
	negOther, negSame [][2]int
}

func makeSet(ps []passage, vocab []string, rng *rand.Rand) labelled {
	var l labelled
	for i, p := range ps {
		l.items = append(l.items, textproc.Item{ID: fmt.Sprintf("p%d", i), Text: p.text})
		l.origin = append(l.origin, i)
	}
	for i, p := range ps {
		copies := 0
		switch x := rng.Float64(); {
		case x < 0.4:
			copies = 1
		case x < 0.5:
			copies = 2
		}
		for c := range copies {
			t, _ := edit(p.text, vocab, rng)
			l.items = append(l.items, textproc.Item{ID: fmt.Sprintf("p%d-c%d", i, c), Text: t})
			l.origin = append(l.origin, i)
			l.copies++
		}
	}
	// Shuffle so that a copy can come before its original.
	perm := rng.Perm(len(l.items))
	items, origin := make([]textproc.Item, len(perm)), make([]int, len(perm))
	for to, from := range perm {
		items[to], origin[to] = l.items[from], l.origin[from]
	}
	l.items, l.origin = items, origin
	byDoc := map[int][]int{}
	for i, o := range l.origin {
		byDoc[ps[o].doc] = append(byDoc[ps[o].doc], i)
	}
	for range 2000 {
		a, b := rng.IntN(len(l.items)), rng.IntN(len(l.items))
		if ps[l.origin[a]].doc != ps[l.origin[b]].doc {
			l.negOther = append(l.negOther, [2]int{a, b})
		}
		same := byDoc[ps[l.origin[a]].doc]
		if c := same[rng.IntN(len(same))]; l.origin[c] != l.origin[a] {
			l.negSame = append(l.negSame, [2]int{a, c})
		}
	}
	return l
}

type result struct {
	precision, recall float64
	pairs, wrong      int
	found, positives  int
	fpOther, fpSame   int
	negOther, negSame int
	itemsN            int
}

func (r result) String() string {
	return fmt.Sprintf("precision %.3f (%d/%d pairs)  recall %.3f (%d/%d copies)  false positives: unrelated %d/%d, same-document %d/%d  (%d items)",
		r.precision, r.pairs-r.wrong, r.pairs, r.recall, r.found, r.positives, r.fpOther, r.negOther, r.fpSame, r.negSame, r.itemsN)
}

// run scores NearDuplicates on the set. Precision: share of returned pairs
// whose two items derive from the same passage. Recall: share of items
// that share a cluster with another item of the same origin, among items
// that have one (every original with copies and every copy).
func (l labelled) run(o textproc.NearDupOptions) result {
	pairs := textproc.NearDuplicates(l.items, o)
	idx := map[string]int{}
	for i, it := range l.items {
		idx[it.ID] = i
	}
	rep := make([]int, len(l.items))
	for i := range rep {
		rep[i] = i
	}
	r := result{pairs: len(pairs), itemsN: len(l.items)}
	for _, p := range pairs {
		a, b := idx[p.ID], idx[p.DuplicateOf]
		rep[a] = b
		if l.origin[a] != l.origin[b] {
			r.wrong++
		}
	}
	count := map[int]int{}
	for _, o := range l.origin {
		count[o]++
	}
	// Expected: every group of the same origin is one cluster, so each
	// group of size g contributes g-1 expected links.
	groupReps := map[int]map[int]int{} // origin -> rep -> members
	for i, o := range l.origin {
		if count[o] < 2 {
			continue
		}
		if groupReps[o] == nil {
			groupReps[o] = map[int]int{}
		}
		groupReps[o][rep[i]]++
	}
	for o, reps := range groupReps {
		r.positives += count[o] - 1
		largest := 0
		for _, m := range reps {
			largest = max(largest, m)
		}
		r.found += largest - 1
	}
	for _, n := range l.negOther {
		r.negOther++
		if rep[n[0]] == rep[n[1]] {
			r.fpOther++
		}
	}
	for _, n := range l.negSame {
		r.negSame++
		if rep[n[0]] == rep[n[1]] {
			r.fpSame++
		}
	}
	r.precision = 1
	if r.pairs > 0 {
		r.precision = float64(r.pairs-r.wrong) / float64(r.pairs)
	}
	r.recall = float64(r.found) / float64(max(r.positives, 1))
	return r
}
