// Command bench-neardup times textproc.NearDuplicates on 10k and 100k
// synthetic chunks of about 800 characters (5% of them lightly edited
// copies of earlier ones) and prints both times and their ratio; linear
// growth gives about 10x. It reads no corpus (-corpus is accepted for the
// Makefile's sake); the vocabulary is drawn at random.
package main

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"time"

	"github.com/docket-dev/docket/loader/internal/textproc"
)

func main() {
	flag.String("corpus", "../shared/corpus", "unused: the chunks are synthetic")
	small := flag.Int("small", 10_000, "chunks in the small run")
	large := flag.Int("large", 100_000, "chunks in the large run")
	flag.Parse()

	var times [2]time.Duration
	for i, n := range []int{*small, *large} {
		items, copies := synth(n)
		runtime.GC()
		start := time.Now()
		pairs := textproc.NearDuplicates(items, textproc.NearDupOptions{})
		times[i] = time.Since(start)
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		fmt.Printf("bench-neardup: %6d chunks: %8.2fs  %d near-duplicate pairs (%d copies planted)  heap %d MB\n",
			n, times[i].Seconds(), len(pairs), copies, ms.HeapAlloc>>20)
	}
	fmt.Printf("bench-neardup: ratio %.1fx for %.0fx the chunks (GOMAXPROCS %d)\n",
		times[1].Seconds()/times[0].Seconds(), float64(*large)/float64(*small), runtime.GOMAXPROCS(0))
}

// synth makes n chunks of ~130 words (~800 characters) from a Zipf-like
// vocabulary; every 20th chunk is an edited copy of an earlier one.
func synth(n int) ([]textproc.Item, int) {
	rng := rand.New(rand.NewPCG(uint64(n), 99))
	zipf := rand.NewZipf(rng, 1.1, 1, 30_000)
	vocab := make([]string, 30_001)
	for i := range vocab {
		vocab[i] = word(rng)
	}
	items := make([]textproc.Item, n)
	copies := 0
	for i := range items {
		var text string
		if i > 0 && i%20 == 0 {
			ws := strings.Fields(items[rng.IntN(i)].Text)
			ws[rng.IntN(len(ws))] = vocab[zipf.Uint64()]
			j := rng.IntN(len(ws))
			ws = append(ws[:j], ws[j+1:]...)
			text = strings.Join(ws, " ")
			copies++
		} else {
			ws := make([]string, 130)
			for k := range ws {
				ws[k] = vocab[zipf.Uint64()]
			}
			text = strings.Join(ws, " ")
		}
		items[i] = textproc.Item{ID: fmt.Sprint(i), Text: text}
	}
	return items, copies
}

func word(rng *rand.Rand) string {
	b := make([]byte, 2+rng.IntN(8))
	for i := range b {
		b[i] = byte('a' + rng.IntN(26))
	}
	return string(b)
}
