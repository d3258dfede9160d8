package detect

import (
	"bytes"
	"fmt"
	"math/rand"
	"testing"
)

// TestNULPaddedTextIsText: text padded out with NULs (fixed-width records
// filled with NULs; a log preallocated and cut short, a block of NULs at its
// end) is text; binaries with runs of NULs are not, a dBase table's
// mostly-ASCII header among them (review42). The records file was
// quarantined unsupported_type ("could not be recognised from its bytes").
func TestNULPaddedTextIsText(t *testing.T) {
	var records bytes.Buffer
	for i := 0; i < 30; i++ {
		rec := []byte(fmt.Sprintf("Record %03d: shipment to warehouse seven", i))
		records.Write(append(rec, make([]byte, 64-len(rec))...))
		records.WriteByte('\n')
	}
	log := append(bytes.Repeat([]byte("2024-03-01 10:00:00 INFO worker finished batch\n"), 20), make([]byte, 8192)...)
	// the same log with one stray NUL in a line before the padding (two
	// runs, one of them single: 6ae8420's UTF-16 rule quarantined it)
	stray := append(bytes.Repeat([]byte("2024-03-01 10:00:00 INFO worker finished batch\n"), 20), make([]byte, 8192)...)
	stray[100] = 0
	for name, b := range map[string][]byte{"records.txt": records.Bytes(), "app.log": log, "records.dat": records.Bytes(), "stray.log": stray} {
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
	// a dBase III table (a shapefile's attributes): a header of NUL-padded
	// field names between control bytes, then space-padded records
	dbf := []byte{0x03, 0x7e, 0x0c, 0x07, 30, 0, 0, 0, 97, 0, 31, 0}
	dbf = append(dbf, make([]byte, 20)...)
	for _, f := range []struct {
		name string
		size byte
	}{{"TOWN", 20}, {"RAIN", 10}} {
		d := append([]byte(f.name), make([]byte, 11-len(f.name))...)
		d = append(append(d, 'C', 0, 0, 0, 0, f.size, 0), make([]byte, 14)...)
		dbf = append(dbf, d...)
	}
	dbf = append(dbf, 0x0d)
	for i := 0; i < 30; i++ {
		dbf = append(dbf, []byte(fmt.Sprintf(" %-20s%10d", "Ayr", 30+i))...)
	}
	dbf = append(dbf, 0x1a)
	// UTF-16LE without a byte-order mark, then a block of NULs (a Windows
	// log preallocated, cut short): text/7-8 read it as UTF-8 and landed
	// one character a line ("H\ne\nl\nl\no"; review43)
	var u16 []byte
	for _, r := range bytes.Repeat([]byte("Hello world report line\r\n"), 40) {
		u16 = append(u16, r, 0)
	}
	u16 = append(u16, make([]byte, 100000)...)
	for name, b := range map[string][]byte{"noise": noise, "ints": ints, "short": short, "towns.dbf": dbf, "u16pad.log": u16} {
		if NULPadded(b) {
			t.Errorf("%s: taken for NUL-padded text", name)
		}
		if info, _ := DetectBytes(name, b); info.Type == Text {
			t.Errorf("%s detected as text", name)
		}
	}
}

// TestNULRunsBetweenRecordsAreLineEnds: records padded with NULs and not
// ended by a newline stay apart (review42: "minutesREC00001"); a run
// beside a line end or at the end goes.
func TestNULRunsBetweenRecordsAreLineEnds(t *testing.T) {
	in := []byte("REC1 Ayr\x00\x00\x00REC2 Troon\x00\x00\nREC3\x00\x00\x00")
	if got := string(DropNULPadding(in)); got != "REC1 Ayr\nREC2 Troon\nREC3" {
		t.Errorf("got %q", got)
	}
}
