// Command bench-embed measures the throughput of the built-in hash embedding
// provider on synthetic ~800-character texts (Zipf-distributed words, some
// accented, numbers and punctuation) and prints texts/s and MB/s on one core
// and on all cores, by wall clock and per CPU-second (the latter is what one
// core does even when the machine is busy). It needs no corpus; -corpus is accepted for symmetry with
// the other tools and ignored.
package main

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/docket-dev/docket/loader/internal/embed"
)

func main() {
	_ = flag.String("corpus", "../shared/corpus", "ignored: the texts are synthetic")
	n := flag.Int("n", 20000, "number of texts")
	size := flag.Int("len", 800, "approximate characters per text")
	dims := flag.Int("dims", embed.DefaultHashDimensions, "vector dimensions")
	flag.Parse()

	p, err := embed.New(embed.Config{Provider: embed.ProviderHash, Dimensions: *dims})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	texts := synthetic(*n, *size)
	var bytes int
	for _, t := range texts {
		bytes += len(t)
	}
	fmt.Printf("hash embedding (%s): %d synthetic texts, mean %d bytes\n", p.ModelID(), len(texts), bytes/len(texts))

	procs := runtime.GOMAXPROCS(0)
	for _, cores := range []int{1, procs} {
		runtime.GOMAXPROCS(cores)
		_, _ = p.Embed(context.Background(), texts[:min(500, len(texts))]) // warm up
		start, cpu0 := time.Now(), cpuTime()
		if _, err := p.Embed(context.Background(), texts); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		sec, cpu := time.Since(start).Seconds(), (cpuTime() - cpu0).Seconds()
		line := fmt.Sprintf("  GOMAXPROCS=%d: %8.0f texts/s  %6.1f MB/s  (%.2f s wall)",
			cores, float64(len(texts))/sec, float64(bytes)/sec/1e6, sec)
		if cpu > 0 { // per CPU-second: what one core does, even on a busy machine
			line += fmt.Sprintf("; per CPU-second %8.0f texts  %6.1f MB", float64(len(texts))/cpu, float64(bytes)/cpu/1e6)
		}
		fmt.Println(line)
		if procs == 1 {
			break
		}
	}
	runtime.GOMAXPROCS(procs)
}

// synthetic returns n deterministic texts of about size characters.
func synthetic(n, size int) []string {
	r := rand.New(rand.NewPCG(42, 7))
	base := strings.Fields(`the of and to in a is that for on with as by at from this be are or an was
		agreement supplier notice termination period invoice payment shall party parties days written
		contract clause liability revenue quarter report europe table figure section annex article
		données über straße résumé naïve coöperate façade åbo zürich`)
	vocab := make([]string, 0, 5000)
	vocab = append(vocab, base...)
	for len(vocab) < cap(vocab) { // pseudo-words for the long tail
		w := make([]byte, 3+r.IntN(9))
		for i := range w {
			w[i] = byte('a' + r.IntN(26))
		}
		vocab = append(vocab, string(w))
	}
	zipf := rand.NewZipf(r, 1.1, 2, uint64(len(vocab)-1))
	out := make([]string, n)
	var b strings.Builder
	for i := range out {
		b.Reset()
		for b.Len() < size {
			w := vocab[zipf.Uint64()]
			if r.IntN(12) == 0 {
				w = strings.ToUpper(w[:1]) + w[1:]
			}
			b.WriteString(w)
			switch r.IntN(15) {
			case 0:
				b.WriteString(". ")
			case 1:
				b.WriteString(", ")
			case 2:
				fmt.Fprintf(&b, " %d ", r.IntN(10000))
			default:
				b.WriteByte(' ')
			}
		}
		out[i] = b.String()
	}
	return out
}
