package table

import (
	"cmp"
	"math"
	"math/rand"
	"slices"
	"testing"

	"github.com/docket-dev/docket/loader/internal/document"
)

// sortKeys are test keys of every kind lineUp's sorts see and some they
// should not: many ties, NaN, -0 and +0, infinities, in order already,
// reversed.
func sortKeys(rng *rand.Rand, n, trial int) []float64 {
	specials := []float64{math.NaN(), math.Copysign(0, -1), 0, math.Inf(1), math.Inf(-1), 1, 1, 2.5}
	ks := make([]float64, n)
	for i := range ks {
		switch trial % 5 {
		case 0: // few distinct values: many ties
			ks[i] = float64(rng.Intn(4))
		case 1:
			ks[i] = specials[rng.Intn(len(specials))]
		case 2: // in order already, ties included
			ks[i] = float64(i / 3)
		case 3: // reversed, in pairs
			ks[i] = -float64(i / 2)
		default:
			ks[i] = math.Round(rng.NormFloat64()*100) / 4
		}
	}
	return ks
}

// TestLineUpSortsAreSortStableFunc: sortKeyed, sortByX0 and sortByY0
// leave every slice in the order slices.SortStableFunc with cmp.Compare of
// the keys gives (lineUp's sorts before), equal keys in their first order,
// for lengths around the insertion runs and the merge widths; the scratch
// is reused from call to call and keeps no line alive.
func TestLineUpSortsAreSortStableFunc(t *testing.T) {
	rng := rand.New(rand.NewSource(41))
	sc := new(lineScratch)
	for _, n := range []int{0, 1, 2, 3, 15, 16, 17, 31, 32, 33, 47, 64, 65, 100, 257, 1000, 4099} {
		for trial := 0; trial < 15; trial++ {
			ks := sortKeys(rng, n, trial)
			// sortKeyed itself
			a := make([]keyed[int], n)
			for i, k := range ks {
				a[i] = keyed[int]{k, i}
			}
			want := slices.Clone(a)
			slices.SortStableFunc(want, func(x, y keyed[int]) int { return cmp.Compare(x.k, y.k) })
			got := a
			if !keyedInOrder(a) {
				got = sortKeyed(a, make([]keyed[int], n))
			}
			for i := range got {
				if got[i].v != want[i].v {
					t.Fatalf("sortKeyed n=%d trial %d: at %d item %d (key %v), want item %d (key %v)", n, trial, i, got[i].v, got[i].k, want[i].v, want[i].k)
				}
			}
			// the words of a line by left edge, lines by top edge
			ws := make([]*word, n)
			ls := make([]*textLine, n)
			for i, k := range ks {
				ws[i] = &word{bb: document.BBox{X0: k}, text: string(rune('a' + i%26))}
				ls[i] = &textLine{bb: document.BBox{Y0: k}}
			}
			wantW, wantL := slices.Clone(ws), slices.Clone(ls)
			slices.SortStableFunc(wantW, func(x, y *word) int { return cmp.Compare(x.bb.X0, y.bb.X0) })
			slices.SortStableFunc(wantL, func(x, y *textLine) int { return cmp.Compare(x.bb.Y0, y.bb.Y0) })
			sc.sortByX0(ws)
			sc.sortByY0(ls)
			for i := range ws {
				if ws[i] != wantW[i] || ls[i] != wantL[i] {
					t.Fatalf("sortByX0/sortByY0 n=%d trial %d: order differs at %d", n, trial, i)
				}
			}
			for _, kv := range sc.kl {
				if kv.v != nil {
					t.Fatalf("n=%d: sortByY0's scratch keeps a line alive", n)
				}
			}
		}
	}
}
