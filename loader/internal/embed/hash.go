package embed

import (
	"context"
	"math"
	"math/bits"
	"runtime"
	"strconv"
	"sync"

	"github.com/zeebo/xxh3"
)

// The hash provider ("hash-v1") is lexical feature hashing, not a language
// model: two texts are close when they share words, word pairs and pieces of
// words, not when they mean the same thing in different words. It needs no
// model and no network, and the same text always gives the same vector on
// every machine and in every process.
//
// Algorithm (changing any of it requires a new model name, because stored
// vectors would no longer match):
//  1. Tokenize(text) (NFKC, lowercase, runs of letters/digits/marks).
//  2. Features, in three families: each token (unigram); each pair of
//     adjacent tokens (bigram); each character 3-, 4- and 5-gram of each
//     token wrapped in boundary markers, "<word>" (only the first 32
//     characters of a token).
//  3. Each feature gets a 64-bit hash: a word, xxh3 of its UTF-8 (seeded);
//     a pair, fmix64 of a combination of its two word hashes; a character
//     gram, seeded 64-bit FNV-1a over its code points finished with fmix64.
//     The low 32 bits pick the bucket (multiply-shift into [0, dims)), the
//     top bit picks the sign.
//  4. A feature occurring tf times adds sign × (1 + ln tf) to its bucket in
//     its family's vector; each family vector is L2-normalized, the three
//     are summed with weights (unigram 1.0, bigram 0.3, char n-gram 1.0),
//     and the sum is L2-normalized.
//
// A text with no tokens gets the zero vector.
//
// Collisions grow as dimensions shrink: on a hard lexical test (3,000
// 800-character chunks of one novel, queries of 8 words taken from a chunk
// with 30% dropped and 15% replaced) recall@5 was 0.37 at 256 dimensions,
// 0.52 at 512 and 0.63 at 1024.
type hashProvider struct {
	dims    int
	modelID string
	pool    sync.Pool
}

const (
	famWord = iota
	famBigram
	famChar
	numFam

	seedWord   uint64 = 0x9e3779b97f4a7c15
	seedBigram uint64 = 0xc2b2ae3d27d4eb4f
	seedChar   uint64 = 0x165667b19e3779f9

	maxCharGramRunes = 32
	minGram          = 3
	maxGram          = 5
)

var famWeight = [numFam]float64{famWord: 1.0, famBigram: 0.3, famChar: 1.0}

func newHash(cfg Config) *hashProvider {
	p := &hashProvider{dims: cfg.Dimensions, modelID: cfg.Model + "/" + strconv.Itoa(cfg.Dimensions)}
	p.pool.New = func() any { return newHashScratch(p.dims) }
	return p
}

func (p *hashProvider) Name() string    { return ProviderHash }
func (p *hashProvider) ModelID() string { return p.modelID }
func (p *hashProvider) Dimensions() int { return p.dims }

// Embed hashes texts, spreading large batches over GOMAXPROCS goroutines.
func (p *hashProvider) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	if len(texts) == 0 {
		return out, nil
	}
	flat := make([]float32, len(texts)*p.dims)
	for i := range out {
		out[i] = flat[i*p.dims : (i+1)*p.dims : (i+1)*p.dims]
	}
	const perWorker = 32
	workers := min(runtime.GOMAXPROCS(0), (len(texts)+perWorker-1)/perWorker)
	run := func(from, to int) error {
		s := p.pool.Get().(*hashScratch)
		defer p.pool.Put(s)
		for i := from; i < to; i++ {
			if i%256 == 0 && ctx.Err() != nil {
				return ctx.Err()
			}
			s.embed(texts[i], out[i])
		}
		return nil
	}
	if workers <= 1 {
		if err := run(0, len(texts)); err != nil {
			return nil, err
		}
		return out, nil
	}
	var wg sync.WaitGroup
	errs := make([]error, workers)
	step := (len(texts) + workers - 1) / workers
	for w := range workers {
		from, to := w*step, min((w+1)*step, len(texts))
		wg.Go(func() { errs[w] = run(from, to) })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// hashScratch is one goroutine's reusable working memory: a feature count
// table (open addressing, reset by bumping a generation) and the per-family
// accumulators.
type hashScratch struct {
	slots []slot
	cur   uint16
	used  []uint32 // occupied slots in first-insertion order (deterministic sums)
	acc   [numFam][]float32
	runes []rune
	dims  int
}

// slot is one feature-table entry; it is in use when gen == the scratch's
// current generation.
type slot struct {
	key   uint64
	count uint32
	gen   uint16
	fam   uint8
}

func newHashScratch(dims int) *hashScratch {
	s := &hashScratch{dims: dims, slots: make([]slot, 4096), cur: 1}
	for f := range s.acc {
		s.acc[f] = make([]float32, dims)
	}
	return s
}

func (s *hashScratch) add(h uint64, fam uint8) {
	if 2*(len(s.used)+1) > len(s.slots) {
		s.grow()
	}
	mask := uint64(len(s.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		e := &s.slots[i]
		if e.gen != s.cur {
			*e = slot{key: h, count: 1, gen: s.cur, fam: fam}
			s.used = append(s.used, uint32(i))
			return
		}
		if e.key == h {
			e.count++
			return
		}
	}
}

func (s *hashScratch) grow() {
	old, oldUsed := s.slots, s.used
	s.slots = make([]slot, 2*len(old))
	s.cur = 1
	s.used = make([]uint32, 0, 2*len(oldUsed))
	mask := uint64(len(s.slots) - 1)
	for _, j := range oldUsed {
		e := old[j]
		i := e.key & mask
		for s.slots[i].gen == s.cur {
			i = (i + 1) & mask
		}
		e.gen = s.cur
		s.slots[i] = e
		s.used = append(s.used, uint32(i))
	}
}

func (s *hashScratch) reset() {
	s.used = s.used[:0]
	s.cur++
	if s.cur == 0 { // wrapped: forget all generations
		clear(s.slots)
		s.cur = 1
	}
	for f := range s.acc {
		clear(s.acc[f])
	}
}

// embed writes the hash vector of text into out (len dims, zeroed).
func (s *hashScratch) embed(text string, out []float32) {
	s.reset()
	var prev uint64
	first := true
	forEachToken(fold(text), func(tok string) {
		hw := xxh3.HashStringSeed(tok, seedWord)
		s.add(hw, famWord)
		if !first {
			s.add(mixPair(prev, hw), famBigram)
		}
		prev, first = hw, false
		s.addCharGrams(tok)
	})
	if len(s.used) == 0 {
		return
	}
	dims := uint64(s.dims)
	for _, i := range s.used {
		e := &s.slots[i]
		h := e.key
		w := float32(tfWeight(e.count))
		if h>>63 != 0 {
			w = -w
		}
		s.acc[e.fam][(h&0xffffffff)*dims>>32] += w
	}
	var total float64
	for f := range s.acc {
		var n float64
		for _, x := range s.acc[f] {
			n += float64(float64(x) * float64(x)) // explicit rounding: no FMA, same bits on every CPU
		}
		if n == 0 {
			continue
		}
		scale := float32(famWeight[f] / math.Sqrt(n))
		for j, x := range s.acc[f] {
			out[j] += float32(x * scale)
		}
		total = 1 // at least one family contributed
	}
	if total == 0 {
		return
	}
	var n float64
	for _, x := range out {
		n += float64(float64(x) * float64(x))
	}
	inv := float32(1 / math.Sqrt(n))
	for j := range out {
		out[j] *= inv
	}
}

// addCharGrams adds the character 3..5-grams of "<tok>" (first
// maxCharGramRunes runes of tok). A gram's hash is 64-bit FNV-1a over its
// code points (seeded) finished with fmix64; the 3-, 4- and 5-grams starting
// at one position are the prefixes of one pass.
func (s *hashScratch) addCharGrams(tok string) {
	rs := append(s.runes[:0], '<')
	for _, r := range tok {
		if len(rs) > maxCharGramRunes {
			break
		}
		rs = append(rs, r)
	}
	rs = append(rs, '>')
	s.runes = rs
	for k := 0; k+minGram <= len(rs); k++ {
		h := seedChar
		for n := 0; n < maxGram && k+n < len(rs); n++ {
			h = (h ^ uint64(rs[k+n])) * fnvPrime
			if n+1 >= minGram {
				s.add(fmix64(h), famChar)
			}
		}
	}
}

const fnvPrime = 0x100000001b3

// fmix64 is MurmurHash3's 64-bit finalizer.
func fmix64(h uint64) uint64 {
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	h ^= h >> 33
	return h
}

// mixPair combines two word hashes into an order-sensitive bigram hash.
func mixPair(a, b uint64) uint64 {
	return fmix64(a*0xff51afd7ed558ccd + bits.RotateLeft64(b, 29)*0xc4ceb9fe1a85ec53 + seedBigram)
}

var tfTable = func() (t [64]float64) {
	for i := 1; i < len(t); i++ {
		t[i] = 1 + math.Log(float64(i))
	}
	return t
}()

func tfWeight(tf uint32) float64 {
	if tf < uint32(len(tfTable)) {
		return tfTable[tf]
	}
	return 1 + math.Log(float64(tf))
}
