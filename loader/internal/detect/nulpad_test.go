package detect

import (
	"bytes"
	"fmt"
	"math/rand"
	"testing"
)

// TestNULPaddedTextIsText: text padded out with NULs (fixed-width records
// filled with NULs; a log preallocated and cut short, a block of NULs at its
// end) is text; binaries with runs of NULs are not. The records file was
// quarantined unsupported_type ("could not be recognised from its bytes").
func TestNULPaddedTextIsText(t *testing.T) {
	var records bytes.Buffer
	for i := 0; i < 30; i++ {
		rec := []byte(fmt.Sprintf("Record %03d: shipment to warehouse seven", i))
		records.Write(append(rec, make([]byte, 64-len(rec))...))
		records.WriteByte('\n')
	}
	log := append(bytes.Repeat([]byte("2024-03-01 10:00:00 INFO worker finished batch\n"), 20), make([]byte, 8192)...)
	for name, b := range map[string][]byte{"records.txt": records.Bytes(), "app.log": log, "records.dat": records.Bytes()} {
		if !NULPadded(b) {
			t.Errorf("%s: not NUL-padded text", name)
		}
		if info, _ := DetectBytes(name, b); info.Type != Text || info.Encoding != UTF8 {
			t.Errorf("%s detected as %q (%q), want text", name, info.Type, info.Encoding)
		}
	}
	// binaries: random bytes with long NUL runs between them; a table of
	// little-endian integers (NULs in short runs); under 64 bytes of text
	rng := rand.New(rand.NewSource(1))
	noise := make([]byte, 0, 8192)
	for len(noise) < 8000 {
		chunk := make([]byte, 40)
		rng.Read(chunk)
		noise = append(append(noise, chunk...), make([]byte, 24)...)
	}
	ints := make([]byte, 0, 4096)
	for i := 0; i < 1024; i++ {
		ints = append(ints, byte(i), byte(i>>8), 0, 0)
	}
	short := append([]byte("tiny header"), make([]byte, 4096)...)
	for name, b := range map[string][]byte{"noise": noise, "ints": ints, "short": short} {
		if NULPadded(b) {
			t.Errorf("%s: taken for NUL-padded text", name)
		}
		if info, _ := DetectBytes(name+".bin", b); info.Type == Text {
			t.Errorf("%s detected as text", name)
		}
	}
}
