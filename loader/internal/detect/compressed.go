package detect

import (
	"bytes"
	"compress/bzip2"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/ulikunitz/xz"
)

var magicXz = []byte{0xFD, '7', 'z', 'X', 'Z', 0x00}

// isBzip2 says whether head starts a bzip2 stream: "BZh", the block size
// 1-9, then a block's magic (pi) or the end of an empty stream's (sqrt pi).
func isBzip2(head []byte) bool {
	if len(head) < 10 || !bytes.HasPrefix(head, []byte("BZh")) || head[3] < '1' || head[3] > '9' {
		return false
	}
	m := head[4:10]
	return bytes.Equal(m, []byte{0x31, 0x41, 0x59, 0x26, 0x53, 0x59}) || bytes.Equal(m, []byte{0x17, 0x72, 0x45, 0x38, 0x50, 0x90})
}

// unpackHeadLimit bounds the compressed bytes read to find a compressed
// tar's first header: one bzip2 block (up to 900 kB of text) is decoded
// whole, so the head detect reads is too short for it.
const unpackHeadLimit = 1 << 20

// unpackHead decompresses the first 512 bytes of a bzip2 or xz stream
// (a tar's first header), reading at most unpackHeadLimit compressed
// bytes; nil when they do not give 512.
func unpackHead(ra io.ReaderAt, size int64, kind string) []byte {
	if ra == nil {
		return nil
	}
	in := io.NewSectionReader(ra, 0, min(size, unpackHeadLimit))
	var r io.Reader
	switch kind {
	case Bzip2:
		r = bzip2.NewReader(in)
	case Xz:
		if XzDictsOK(ra, size) != nil {
			return nil
		}
		zr, err := xz.NewReader(in)
		if err != nil {
			return nil
		}
		r = zr
	}
	out, _ := io.ReadAll(io.LimitReader(r, 512))
	return out
}

// MaxXzDict is the largest xz dictionary docket decodes with: xz -9's
// (64 MiB), which xz -e and every preset stay within. The decoder
// allocates the dictionary a stream's block header declares, up to 4 GiB
// for a file of a hundred bytes.
const MaxXzDict = 64 << 20

// maxXzIndex bounds the bytes of one stream's index read to find its
// blocks: 16 MiB holds millions of block records (xz -T0 writes one per
// 3 dictionaries of input).
const maxXzIndex = 16 << 20

// XzDictsOK says why the xz file read from ra cannot be decoded within
// MaxXzDict, or nil. Every block header declares its own dictionary and a
// file may hold several streams one after another, so the first block's
// header alone does not bound the decoder (review44: a good stream, then
// one whose block asks for 4 GiB, passed and made the decoder allocate
// 4 GiB). The blocks are found as xz -l finds them: from each stream's
// footer back through its index, without decoding. A file whose streams
// cannot be walked so (cut short, damaged) is refused: its blocks cannot
// be checked before decoding them.
func XzDictsOK(ra io.ReaderAt, size int64) error {
	var b [12]byte
	pos := size
	for streams := 0; pos > 0; streams++ {
		for pos >= 4 { // stream padding: groups of four NULs
			if _, err := ra.ReadAt(b[:4], pos-4); err != nil || b[0]|b[1]|b[2]|b[3] != 0 {
				break
			}
			pos -= 4
		}
		if pos == 0 && streams > 0 {
			return nil
		}
		if pos < 24 {
			return errors.New("no whole xz stream (cut short?)")
		}
		if _, err := ra.ReadAt(b[:], pos-12); err != nil || b[10] != 'Y' || b[11] != 'Z' {
			return errors.New("no xz stream footer at its end (cut short or damaged)")
		}
		backward := (int64(binary.LittleEndian.Uint32(b[4:8])) + 1) * 4
		idx := pos - 12 - backward
		if backward > maxXzIndex || idx < 12 {
			return errors.New("an xz index past its bounds")
		}
		index := make([]byte, backward)
		if _, err := ra.ReadAt(index, idx); err != nil || index[0] != 0 {
			return errors.New("no xz index where its footer says")
		}
		p := 1
		uvarint := func() (int64, bool) {
			v, n := binary.Uvarint(index[p:])
			if n <= 0 || n > 9 || v > 1<<62 {
				return 0, false
			}
			p += n
			return int64(v), true
		}
		count, ok := uvarint()
		if !ok || count > backward/2 {
			return errors.New("a damaged xz index")
		}
		sizes := make([]int64, 0, count)
		var blocks int64
		for i := int64(0); i < count; i++ {
			unpadded, ok1 := uvarint()
			_, ok2 := uvarint()
			if !ok1 || !ok2 || unpadded < 5 {
				return errors.New("a damaged xz index")
			}
			sizes = append(sizes, unpadded)
			blocks += (unpadded + 3) &^ 3
		}
		start := idx - blocks - 12
		if start < 0 {
			return errors.New("an xz index naming more than the file holds")
		}
		if _, err := ra.ReadAt(b[:6], start); err != nil || !bytes.Equal(b[:6], magicXz) {
			return errors.New("no xz stream header where its index says")
		}
		off := start + 12
		var hdr [1024]byte
		for _, u := range sizes {
			n, _ := ra.ReadAt(hdr[:], off)
			if n == 0 || !blockDictOK(hdr[:n]) {
				return fmt.Errorf("an xz block asks for a dictionary larger than %d MiB (xz -9 uses 64 MiB): decoding it would allocate that much", MaxXzDict>>20)
			}
			off += (u + 3) &^ 3
		}
		pos = start
	}
	return nil
}

// blockDictOK says whether the block header hdr starts with declares an
// LZMA2 dictionary of at most MaxXzDict.
func blockDictOK(hdr []byte) bool {
	if len(hdr) == 0 {
		return true
	}
	size := (int(hdr[0]) + 1) * 4
	if hdr[0] == 0 || len(hdr) < size { // an index (no block) or a short read
		return true
	}
	flags := hdr[1]
	p := 2
	uvarint := func() (uint64, bool) {
		var v uint64
		for k := 0; k < 9 && p < size; k++ {
			c := hdr[p]
			p++
			v |= uint64(c&0x7F) << (7 * k)
			if c&0x80 == 0 {
				return v, true
			}
		}
		return 0, false
	}
	if flags&0x40 != 0 {
		if _, ok := uvarint(); !ok {
			return false
		}
	}
	if flags&0x80 != 0 {
		if _, ok := uvarint(); !ok {
			return false
		}
	}
	for f := 0; f <= int(flags&3); f++ {
		id, ok1 := uvarint()
		n, ok2 := uvarint()
		if !ok1 || !ok2 || p+int(n) > size {
			return false
		}
		if id == 0x21 && n == 1 { // LZMA2: the dictionary size's code
			c := hdr[p]
			if c > 40 {
				return false
			}
			dict := uint64(2|c&1) << (c/2 + 11)
			if c == 40 {
				dict = 1<<32 - 1
			}
			if dict > MaxXzDict {
				return false
			}
		}
		p += int(n)
	}
	return true
}
