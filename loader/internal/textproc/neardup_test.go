package textproc

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// synthText makes a text of n random words from a large vocabulary.
func synthText(r *rand.Rand, n int) string {
	ws := make([]string, n)
	for i := range ws {
		ws[i] = fmt.Sprintf("w%x", r.IntN(50000))
	}
	return strings.Join(ws, " ")
}

func lightEdit(r *rand.Rand, s string) string {
	ws := strings.Fields(s)
	ws[r.IntN(len(ws))] = "changed"
	i := r.IntN(len(ws) - 1)
	ws = append(ws[:i], ws[i+1:]...)
	return strings.Join(ws, " ")
}

func TestNearDuplicates(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	a := synthText(r, 150)
	b := synthText(r, 150)
	items := []Item{
		{"a", a},
		{"b", b},
		{"a-edit", lightEdit(r, a)},
		{"empty1", "  "},
		{"a-copy", a},
		{"empty2", ""},
		{"c", synthText(r, 150)},
		{"b-edit", lightEdit(r, b)},
		{"a-edit2", lightEdit(r, lightEdit(r, a))},
	}
	got := NearDuplicates(items, NearDupOptions{})
	want := map[string]string{"a-edit": "a", "a-copy": "a", "b-edit": "b", "a-edit2": "a"}
	if len(got) != len(want) {
		t.Fatalf("got %+v", got)
	}
	for i, p := range got {
		if want[p.ID] != p.DuplicateOf || p.ID == p.DuplicateOf || p.Similarity < 0.7 || p.Similarity > 1 {
			t.Fatalf("pair %d = %+v", i, p)
		}
		if i > 0 && p.ID == got[i-1].ID {
			t.Fatal("duplicate ID")
		}
	}
	if got[1].ID != "a-copy" || got[1].Similarity != 1 {
		t.Fatalf("pairs not in input order or copy not exact: %+v", got)
	}
	if NearDuplicates(items[:1], NearDupOptions{}) != nil {
		t.Fatal("one item has no duplicates")
	}
}

func TestNearDuplicatesChainPointsToEarliest(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	base := strings.Fields(synthText(r, 200))
	// Each version drifts a little further from the first.
	var items []Item
	cur := append([]string(nil), base...)
	for v := range 4 {
		items = append(items, Item{ID: fmt.Sprintf("v%d", v), Text: strings.Join(cur, " ")})
		cur[10+v*40] = "drift"
	}
	got := NearDuplicates(items, NearDupOptions{Threshold: 0.8})
	for _, p := range got {
		if p.DuplicateOf != "v0" {
			t.Fatalf("%+v does not point at the earliest", p)
		}
	}
	if len(got) != 3 {
		t.Fatalf("got %+v", got)
	}
}

func TestNearDuplicatesManyCopies(t *testing.T) {
	items := make([]Item, 3000)
	for i := range items {
		items[i] = Item{ID: fmt.Sprint(i), Text: "Page intentionally left blank"}
	}
	got := NearDuplicates(items, NearDupOptions{})
	if len(got) != len(items)-1 || got[0].DuplicateOf != "0" {
		t.Fatalf("got %d pairs", len(got))
	}
}

func BenchmarkNearDuplicates10k(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 6))
	items := make([]Item, 10000)
	for i := range items {
		if i > 0 && i%20 == 0 {
			items[i] = Item{ID: fmt.Sprint(i), Text: lightEdit(r, items[r.IntN(i)].Text)}
			continue
		}
		items[i] = Item{ID: fmt.Sprint(i), Text: synthText(r, 130)}
	}
	b.ResetTimer()
	for b.Loop() {
		NearDuplicates(items, NearDupOptions{})
	}
}
