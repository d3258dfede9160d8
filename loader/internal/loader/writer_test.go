package loader

import (
	"context"
	"fmt"
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
