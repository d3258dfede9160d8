package detect

import (
	"bytes"
	"compress/bzip2"
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
		if !xzDictOK(ra, size) {
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

// xzDictOK says whether the first block of the xz stream read from ra
// declares an LZMA2 dictionary of at most MaxXzDict (a stream it cannot
// read this from is left to the decoder, which rejects it).
func xzDictOK(ra io.ReaderAt, size int64) bool {
	var h [12 + 1024]byte
	n, _ := ra.ReadAt(h[:min(int64(len(h)), size)], 0)
	return XzDictOK(h[:n])
}

// XzDictOK is xzDictOK of the stream's first bytes (its 12-byte header
// and the first block header).
func XzDictOK(b []byte) bool {
	if len(b) < 13 || !bytes.HasPrefix(b, magicXz) {
		return true
	}
	hdr := b[12:]
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
