package pdf

import (
	"bytes"
	"math/rand/v2"
	"reflect"
	"testing"
)

// TestFindHeaderIsTheRegexp: findHeader gives objRe.FindSubmatchIndex's
// answer, and allHeaders objRe.FindAllSubmatchIndex's, on 200,000 random texts made of the pieces object headers and
// their neighbours are made of (digits, each kind of white space, ">",
// "obj", "endobj", "objx", letters, long numbers), and on a few written
// out.
func TestFindHeaderIsTheRegexp(t *testing.T) {
	pieces := []string{"0", "1", "12", "12345678901", "123456", " ", "\n", "\r", "\t", "\f", "\v", ">", "obj", "endobj", "objx", "x", "R", "<<", "/Type", "\x00"}
	r := rand.New(rand.NewPCG(1, 2))
	var b bytes.Buffer
	for i := 0; i < 200000; i++ {
		b.Reset()
		for n := r.IntN(12); n >= 0; n-- {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		if got, want := findHeader(b.Bytes()), objRe.FindSubmatchIndex(b.Bytes()); !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: findHeader %v, the regexp %v", b.String(), got, want)
		}
		if got, want := allHeaders(b.Bytes()), objRe.FindAllSubmatchIndex(b.Bytes(), -1); !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: allHeaders %v, the regexp %v", b.String(), got, want)
		}
	}
	for _, s := range []string{"", "obj", "1 0 obj", "x1 0 obj", ">1 0 obj<<", "\n\n  12 0 obj", "12345678901 0 obj", "endobj 7 0 objendobj", "7 0 objx 8 0 obj", "1 0 obj", "1 0 obj1 0 obj 2 0 obj\n3 0 obj<<>>4 0 obj"} {
		if got, want := findHeader([]byte(s)), objRe.FindSubmatchIndex([]byte(s)); !reflect.DeepEqual(got, want) {
			t.Errorf("%q: findHeader %v, the regexp %v", s, got, want)
		}
		if got, want := allHeaders([]byte(s)), objRe.FindAllSubmatchIndex([]byte(s), -1); !reflect.DeepEqual(got, want) {
			t.Errorf("%q: allHeaders %v, the regexp %v", s, got, want)
		}
	}
}

// BenchmarkFindHeader: a 1 MB window of stream bytes with one header at
// its end, as the streamed scan meets a big file's content.
func BenchmarkFindHeader(b *testing.B) {
	buf := make([]byte, 1<<20)
	r := rand.New(rand.NewPCG(3, 4))
	for i := range buf {
		buf[i] = byte(r.IntN(256))
	}
	copy(buf[len(buf)-20:], "\n12 0 obj\n<< >>")
	for _, f := range []struct {
		name string
		fn   func([]byte) []int
	}{{"findHeader", findHeader}, {"regexp", objRe.FindSubmatchIndex}} {
		b.Run(f.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if f.fn(buf) == nil {
					b.Fatal("no header")
				}
			}
		})
	}
}
