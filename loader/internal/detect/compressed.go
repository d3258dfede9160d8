package detect

import (
	"bytes"
	"compress/bzip2"
	"io"

	"github.com/docket-dev/docket/loader/internal/xzread"
)

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
		r = xzread.NewReader(in, MaxXzDict)
	}
	out, _ := io.ReadAll(io.LimitReader(r, 512))
	return out
}

// MaxXzDict is the largest xz dictionary docket decodes with: xz -9's
// (64 MiB), which xz -e and every preset stay within. A block header may
// declare up to 4 GiB in a file of a hundred bytes; xzread refuses a block
// asking for more than this before allocating anything for it.
const MaxXzDict = 64 << 20
