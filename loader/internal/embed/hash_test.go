package embed

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
)

func mustHash(t *testing.T, dims int) Provider {
	t.Helper()
	p, err := New(Config{Dimensions: dims})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func embedOne(t *testing.T, p Provider, text string) []float32 {
	t.Helper()
	v, err := p.Embed(context.Background(), []string{text})
	if err != nil {
		t.Fatal(err)
	}
	return v[0]
}

func TestTokenize(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"  ...  ", nil},
		{"Hello, World!", []string{"hello", "world"}},
		{"Termination-notice period: 30 days.", []string{"termination", "notice", "period", "30", "days"}},
		{"snake_case and e-mail", []string{"snake", "case", "and", "e", "mail"}},
		{"Größe ÉCOLE naïve", []string{"größe", "école", "naïve"}},
		{"ﬁnance ＡＢＣ１２", []string{"finance", "abc12"}}, // NFKC: ligature, full-width
		{"e\u0301te", []string{"\u00e9te"}},            // combining accent composes, stays in the token
		{"東京都 2024年", []string{"東京都", "2024年"}},
		{"हिन्दी भाषा", []string{"हिन्दी", "भाषा"}}, // vowel signs (marks) do not split words
	}
	for _, tt := range tests {
		if got := Tokenize(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Tokenize(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestTokenizeSQL(t *testing.T) {
	want := `regexp_extract_all(lower(nfc_normalize(c.text)), '[\p{L}\p{N}\p{M}]+')`
	if got := TokenizeSQL("c.text"); got != want {
		t.Errorf("TokenizeSQL = %s, want %s", got, want)
	}
}

func TestHashDeterministicAndUnitNorm(t *testing.T) {
	p := mustHash(t, 256)
	if p.Name() != "hash" || p.ModelID() != "hash-v1/256" || p.Dimensions() != 256 {
		t.Fatalf("got %s %s %d", p.Name(), p.ModelID(), p.Dimensions())
	}
	texts := []string{
		"The supplier may terminate this agreement with thirty days' written notice.",
		"Quarterly revenue grew 12% in Europe.",
		"x",
		strings.Repeat("ünïcödé wörds ", 50),
	}
	a, err := p.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := mustHash(t, 256).Embed(context.Background(), texts) // a fresh provider: no shared state
	for i := range texts {
		if !reflect.DeepEqual(a[i], b[i]) {
			t.Errorf("text %d: vectors differ between providers", i)
		}
		if len(a[i]) != 256 {
			t.Errorf("text %d: len %d", i, len(a[i]))
		}
		var n float64
		for _, x := range a[i] {
			n += float64(x) * float64(x)
		}
		if math.Abs(n-1) > 1e-5 {
			t.Errorf("text %d: squared norm %f, want 1", i, n)
		}
	}
	// Golden values pin the algorithm: changing them needs a new model name.
	var sum float64
	nonzero := 0
	for j, x := range a[0] {
		sum += float64(j+1) * float64(x)
		if x != 0 {
			nonzero++
		}
	}
	if got := fmt.Sprintf("%.5f %d %.6f", sum, nonzero, a[0][17]); got != goldenHash {
		t.Errorf("hash-v1 drifted: got %q, want %q (if intended, the model name must change)", got, goldenHash)
	}
}

// goldenHash pins hash-v1/256 of the first text above: Σ(j+1)·v[j], the
// number of non-zero components, and v[17].
const goldenHash = "154.96066 117 -0.096621"

func TestHashEmptyText(t *testing.T) {
	v := embedOne(t, mustHash(t, 64), " -- ")
	for _, x := range v {
		if x != 0 {
			t.Fatalf("empty text: want zero vector, got %v", v)
		}
	}
}

func TestHashDimensions(t *testing.T) {
	for _, d := range []int{8, 100, 256, 1024} {
		p := mustHash(t, d)
		if got := len(embedOne(t, p, "dimension test text")); got != d {
			t.Errorf("dims %d: got %d", d, got)
		}
		if p.ModelID() != fmt.Sprintf("hash-v1/%d", d) {
			t.Errorf("ModelID %s", p.ModelID())
		}
	}
}

func TestHashSimilarity(t *testing.T) {
	p := mustHash(t, 256)
	cases := []struct{ query, near, far string }{
		{
			"termination notice period for the supplier",
			"The supplier may terminate the agreement; the notice period is thirty days.",
			"Quarterly revenue grew twelve percent in Europe while costs fell.",
		},
		{
			"invoices payable",
			"All invoices are payable within 30 days of receipt.",
			"The cat sat quietly on the warm windowsill.",
		},
		{ // morphology via character n-grams: no shared word at all
			"terminated agreements",
			"termination of an agreement",
			"bananas and oranges",
		},
	}
	for _, c := range cases {
		q, n, f := embedOne(t, p, c.query), embedOne(t, p, c.near), embedOne(t, p, c.far)
		sn, sf := Cosine(q, n), Cosine(q, f)
		if sn <= sf+0.1 {
			t.Errorf("%q: near %.3f not clearly above far %.3f", c.query, sn, sf)
		}
	}
	if s := Cosine(embedOne(t, p, "Same Text."), embedOne(t, p, "same text")); s < 0.9999 {
		t.Errorf("case and punctuation should not matter: %f", s)
	}
}

func TestHashBatchMatchesSingle(t *testing.T) {
	p := mustHash(t, 128)
	texts := make([]string, 300) // large enough to use several goroutines
	for i := range texts {
		texts[i] = fmt.Sprintf("document %d talks about topic %d and item %d", i, i%7, i*31)
	}
	all, err := p.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	for _, i := range []int{0, 1, 150, 299} {
		if !reflect.DeepEqual(all[i], embedOne(t, p, texts[i])) {
			t.Errorf("text %d: batch and single differ", i)
		}
	}
}

func TestHashCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := mustHash(t, 64).Embed(ctx, []string{"a", "b"}); err == nil {
		t.Error("want context error")
	}
}

func TestCosine(t *testing.T) {
	tests := []struct {
		a, b []float32
		want float32
	}{
		{[]float32{1, 0}, []float32{1, 0}, 1},
		{[]float32{1, 0}, []float32{0, 2}, 0},
		{[]float32{1, 1}, []float32{-1, -1}, -1},
		{[]float32{0, 0}, []float32{1, 1}, 0},
		{[]float32{1}, []float32{1, 1}, 0},
	}
	for _, tt := range tests {
		if got := Cosine(tt.a, tt.b); math.Abs(float64(got-tt.want)) > 1e-6 {
			t.Errorf("Cosine(%v, %v) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

func BenchmarkHash800(b *testing.B) {
	p, _ := New(Config{})
	words := strings.Fields("the supplier may terminate this agreement with thirty days written notice quarterly revenue grew in europe invoices payable within receipt déjà vu größe")
	texts := make([]string, 64)
	for i := range texts {
		var sb strings.Builder
		for j := 0; sb.Len() < 800; j++ {
			sb.WriteString(words[(i*7+j*j)%len(words)] + " ")
		}
		texts[i] = sb.String()
	}
	b.SetBytes(int64(len(texts[0])))
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		_, _ = p.Embed(context.Background(), texts[i%len(texts):i%len(texts)+1])
	}
}
