package text

import (
	"bytes"
	"io"
	"math/rand"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"
	"unicode/utf8"
)

// readBoundedBefore is readBounded's UTF-8 path as it was before readFull
// (room for the characters still missing made first, then io.ReadFull):
// the reference the new one must agree with, byte for byte.
func readBoundedBefore(r io.Reader, maxChars int) ([]byte, bool, error) {
	maxChars++
	data := make([]byte, 0, min(maxChars, 1<<20))
	counted, chars := 0, 0
	for chars < maxChars {
		need := max(maxChars-chars, utf8.UTFMax)
		if cap(data)-len(data) < need {
			data = append(data[:cap(data)], make([]byte, need)...)[:len(data)]
		}
		n, rerr := io.ReadFull(r, data[len(data):len(data)+need])
		data = data[:len(data)+n]
		for counted < len(data) && utf8.FullRune(data[counted:]) {
			if data[counted] < utf8.RuneSelf {
				counted++
			} else {
				_, w := utf8.DecodeRune(data[counted:])
				counted += w
			}
			chars++
		}
		switch {
		case rerr == io.EOF || rerr == io.ErrUnexpectedEOF:
			return data, false, nil
		case rerr != nil:
			return data, false, rerr
		}
	}
	return data[:counted], counted < len(data) || moreBytes(r), nil
}

// TestReadBoundedAsBefore: on random texts (ASCII, multi-byte, cut
// sequences, invalid bytes), limits and reader chunkings, readBounded
// returns what it returned before readFull.
func TestReadBoundedAsBefore(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	pieces := []string{"a", "bc ", "é", "€", "𝄞", "\xe2\x82", "\xff", "\n", "日本"}
	for trial := 0; trial < 3000; trial++ {
		var b strings.Builder
		for n := rng.Intn(200); n > 0; n-- {
			b.WriteString(pieces[rng.Intn(len(pieces))])
		}
		text := b.String()
		limit := 1 + rng.Intn(120)
		wrap := func(s string) io.Reader {
			switch trial % 3 {
			case 1:
				return iotest.OneByteReader(strings.NewReader(s))
			case 2:
				return iotest.DataErrReader(strings.NewReader(s))
			}
			return strings.NewReader(s)
		}
		got, gotMore, gotErr := readBounded(wrap(text), "", limit)
		want, wantMore, wantErr := readBoundedBefore(wrap(text), limit)
		if !bytes.Equal(got, want) || gotMore != wantMore || gotErr != wantErr {
			t.Fatalf("%q limit %d: got %q %v %v, want %q %v %v", text, limit, got, gotMore, gotErr, want, wantMore, wantErr)
		}
	}
}

// TestSmallTextAllocatesLittle: reading a 3 KB text under the default
// 20M-character limit allocates about the text, not the limit (it was a
// zeroed 20 MB buffer per file, twice).
func TestSmallTextAllocatesLittle(t *testing.T) {
	text := strings.Repeat("A line of text, about forty bytes long.\n", 75)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for i := 0; i < 10; i++ {
		data, more, err := readBounded(strings.NewReader(text), "", 20_000_000)
		if err != nil || more || string(data) != text {
			t.Fatalf("read %d bytes, more %v, err %v", len(data), more, err)
		}
	}
	runtime.ReadMemStats(&after)
	if per := (after.TotalAlloc - before.TotalAlloc) / 10; per > 256<<10 {
		t.Errorf("%d bytes allocated to read a %d-byte text; want under 256 KiB", per, len(text))
	}
}
