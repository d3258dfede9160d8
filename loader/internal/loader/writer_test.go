package loader

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/docket-dev/docket/loader/internal/warehouse"
)

// batchLander records the size of each batch it is asked to land.
type batchLander struct{ sizes []int }

func (b *batchLander) Land(_ context.Context, _ string, _ time.Time, batch []warehouse.Landing, _ []string) error {
	b.sizes = append(b.sizes, len(batch))
	return nil
}

// TestWriterBatches: the Writer lands a batch when it holds Limits.Docs
// documents or Limits.Pages pages (families whole), and the rest at
// Flush; with a long Limits.Every no batch is landed early.
func TestWriterBatches(t *testing.T) {
	ctx := context.Background()
	fam := func(docs, pages int) Family {
		f := Family{Pages: pages}
		for i := 0; i < docs; i++ {
			f.Landings = append(f.Landings, warehouse.Landing{Doc: warehouse.DocRow{DocID: fmt.Sprint(i)}})
		}
		return f
	}
	for _, c := range []struct {
		name string
		fams []Family
		want string
	}{
		{"by documents", []Family{fam(1, 1), fam(1, 1), fam(1, 1), fam(1, 1), fam(1, 1), fam(1, 1), fam(1, 1)}, "[3 3 1]"},
		{"families whole", []Family{fam(2, 1), fam(2, 1), fam(1, 1)}, "[4 1]"},
		{"by pages", []Family{fam(1, 60), fam(1, 50), fam(1, 1)}, "[2 1]"},
	} {
		l := &batchLander{}
		w := NewWriter(l, "run", &Summary{})
		w.Limits.Docs, w.Limits.Pages, w.Limits.Every = 3, 100, time.Hour
		for _, f := range c.fams {
			if err := w.Add(ctx, f); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Flush(ctx); err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprint(l.sizes); got != c.want {
			t.Errorf("%s: batches %s, want %s", c.name, got, c.want)
		}
	}
	if w := NewWriter(&batchLander{}, "run", &Summary{}); w.Limits.Every != BatchEvery {
		t.Errorf("default Limits.Every %s, want BatchEvery %s", w.Limits.Every, BatchEvery)
	}
}

// TestWriterLandsAtTheTail: a Family marked Tail (its worker found no
// file left to extract) is landed at once with what the Writer holds,
// and so is every later one: the batch landed after the last extraction,
// while every worker waits, is then the last family alone, not up to
// 500 pages.
func TestWriterLandsAtTheTail(t *testing.T) {
	ctx := context.Background()
	fam := func(docs int, tail bool) Family {
		f := Family{Pages: docs, Tail: tail}
		for i := 0; i < docs; i++ {
			f.Landings = append(f.Landings, warehouse.Landing{Doc: warehouse.DocRow{DocID: fmt.Sprint(i)}})
		}
		return f
	}
	l := &batchLander{}
	w := NewWriter(l, "run", &Summary{})
	w.Limits.Docs, w.Limits.Pages, w.Limits.Every = 100, 100, time.Hour
	for _, f := range []Family{fam(2, false), fam(1, false), fam(1, true), fam(2, true), fam(1, true)} {
		if err := w.Add(ctx, f); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := fmt.Sprint(l.sizes), "[4 2 1]"; got != want {
		t.Errorf("batches %s, want %s (the first tail family with the three queued, then each family alone)", got, want)
	}
	if err := w.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if got, want := fmt.Sprint(l.sizes), "[4 2 1]"; got != want {
		t.Errorf("after the last Flush: batches %s, want %s", got, want)
	}
}

// freshLander records each landing's Fresh flag, batch by batch, and
// fails the batches holding the document fail (landed, or quarantined
// too when always).
type freshLander struct {
	got    []string
	fail   string
	always bool
}

func (f *freshLander) Land(_ context.Context, _ string, _ time.Time, batch []warehouse.Landing, _ []string) error {
	var b []string
	for _, l := range batch {
		b = append(b, fmt.Sprintf("%s:%v", l.Doc.DocID, l.Fresh))
	}
	f.got = append(f.got, fmt.Sprint(b))
	for _, l := range batch {
		if l.Doc.DocID == f.fail && (f.always || l.Doc.Status != warehouse.StatusQuarantined) {
			return fmt.Errorf("Constraint Error: %s (injected)", f.fail)
		}
	}
	return nil
}

// TestWriterFreshLandings: after StartFresh the Writer marks Fresh the
// landings of documents it has not landed and of contents it has not
// extracted; a failed batch ends it (what of it landed is not known);
// without StartFresh nothing is Fresh.
func TestWriterFreshLandings(t *testing.T) {
	ctx := context.Background()
	doc := func(id, hash string, extracted bool) Family {
		return Family{Landings: []warehouse.Landing{{Doc: warehouse.DocRow{DocID: id, Hash: hash}, Extracted: extracted}}}
	}
	run := func(start bool, fail string, always bool, fams ...Family) string {
		l := &freshLander{fail: fail, always: always}
		w := NewWriter(l, "run", &Summary{})
		w.Limits.Docs, w.Limits.Pages, w.Limits.Every = 2, 100, time.Hour
		if start {
			w.StartFresh()
		}
		for _, f := range fams {
			w.Add(ctx, f)
		}
		w.Flush(ctx)
		return strings.Join(l.got, " ")
	}
	fams := []Family{doc("a", "h1", true), doc("b", "h2", false), doc("a", "h1", false), doc("c", "h1", true), doc("d", "h3", true), doc("e", "h2", true)}
	if got, want := run(true, "", false, fams...), "[a:true b:true] [a:false c:false] [d:true e:true]"; got != want {
		t.Errorf("fresh run: %s, want %s", got, want)
	}
	if got, want := run(false, "", false, fams...), "[a:false b:false] [a:false c:false] [d:false e:false]"; got != want {
		t.Errorf("not fresh: %s, want %s", got, want)
	}
	// b's batch fails and is landed one by one (b lands quarantined):
	// what the warehouse has is known, the run stays fresh
	got := run(true, "b", false, doc("a", "h1", true), doc("b", "h2", true), doc("c", "h3", true), doc("d", "h4", true))
	if want := "[a:true b:true] [a:true] [b:true] [b:true] [] [c:true d:true]"; got != want {
		t.Errorf("a batch landed one by one: %s, want %s", got, want)
	}
	// b cannot be landed even quarantined: the Flush fails, and what
	// landed of the batch is not known, so nothing is fresh after it
	got = run(true, "b", true, doc("a", "h1", true), doc("b", "h2", true), doc("c", "h3", true), doc("d", "h4", true))
	if want := "[a:true b:true] [a:true] [b:true] [b:true] [a:false b:false c:false] [a:false] [b:false] [b:false]"; !strings.HasPrefix(got, want) {
		t.Errorf("a failed batch: %s, want it to start %s", got, want)
	}
}

// nopLander lands nothing.
type nopLander struct{}

func (nopLander) Land(context.Context, string, time.Time, []warehouse.Landing, []string) error {
	return nil
}

// TestWriterFreshHeap: what a first load's Writer keeps of each document
// it landed (to mark later landings Fresh) is a few bytes, not its
// doc_id's and content hash's strings: 20,000 documents of 64-byte hex
// doc_ids and hashes leave under 100 bytes each of live heap once landed
// (the string-keyed sets kept 213 here, ~38 MB at 200k documents; the hash sets 57).
func TestWriterFreshHeap(t *testing.T) {
	const n = 20000
	ctx := context.Background()
	live := func() int64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return int64(m.HeapAlloc)
	}
	w := NewWriter(nopLander{}, "run", &Summary{})
	w.StartFresh()
	before := live()
	for i := 0; i < n; i++ {
		id, h := sha256.Sum256([]byte(fmt.Sprint("doc", i))), sha256.Sum256([]byte(fmt.Sprint("content", i)))
		f := Family{Landings: []warehouse.Landing{{Doc: warehouse.DocRow{DocID: hex.EncodeToString(id[:]), Hash: hex.EncodeToString(h[:])}, Extracted: true}}}
		if err := w.Add(ctx, f); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	w.batch = nil // what Flush keeps for the next batch is not what this measures
	per := (live() - before) / n
	runtime.KeepAlive(w)
	t.Logf("the Writer keeps %d bytes per landed document", per)
	if per >= 100 {
		t.Errorf("the Writer keeps %d bytes per landed document, want under 100", per)
	}
}
