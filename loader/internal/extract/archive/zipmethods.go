package archive

import (
	"archive/zip"
	"bytes"
	"compress/bzip2"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/klauspost/compress/zstd"
	"github.com/ulikunitz/xz/lzma"

	"github.com/docket-dev/docket/loader/internal/detect"
	"github.com/docket-dev/docket/loader/internal/xzread"
)

// Zip compression methods (APPNOTE 4.4.5) beyond archive/zip's Store and
// Deflate that docket decompresses: 7-Zip writes bzip2 and LZMA members
// (7z a -mm=BZip2 / -mm=LZMA, and .zipx), WinZip and Python's zipfile
// too; WinZip and 7-Zip's zstd builds write zstd and xz.
const (
	methodBzip2 = 12
	methodLZMA  = 14
	methodZstd  = 93
	methodXz    = 95
)

// otherMethods names the methods nothing here decompresses, for the
// member's warning.
var otherMethods = map[uint16]string{
	1: "Shrink", 2: "Reduce", 3: "Reduce", 4: "Reduce", 5: "Reduce", 6: "Implode",
	9: "Deflate64", 10: "PKWARE DCL Implode", 16: "IBM z/OS CMPSC", 18: "IBM TERSE",
	19: "IBM LZ77", 96: "JPEG (WinZip)", 97: "WavPack", 98: "PPMd", 99: "AES (WinZip)",
}

// methodUnknown is the warning's words for a member compressed by a
// method docket cannot decompress, or "" when it can.
func methodUnknown(m uint16) string {
	switch m {
	case zip.Store, zip.Deflate, methodBzip2, methodLZMA, methodZstd, methodXz:
		return ""
	}
	name := "an unknown method"
	if n, ok := otherMethods[m]; ok {
		name = n
	}
	return fmt.Sprintf("is compressed with %s (zip method %d), which docket cannot decompress", name, m)
}

// zipDecoders are the decoders one zip's members share: a zstd decoder
// allocates the window its frame declares (up to detect.MaxXzDict), and
// one per member made 1,000 one-byte members declaring 64 MiB windows (a
// 106 KB zip) cost 17 s of CPU and 65 GB allocated (review46); one
// decoder, reset for each member, keeps its window.
type zipDecoders struct {
	zstd *zstd.Decoder
}

func (d *zipDecoders) close() {
	if d.zstd != nil {
		d.zstd.Close()
	}
}

// zstdMember is d's zstd decoder reset to read r.
func (d *zipDecoders) zstdMember(r io.Reader) io.ReadCloser {
	if d.zstd == nil {
		z, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true),
			zstd.WithDecoderMaxWindow(detect.MaxXzDict))
		if err != nil {
			return failed(fmt.Errorf("zstd: %w", err))
		}
		d.zstd = z
	}
	if err := d.zstd.Reset(r); err != nil {
		return failed(fmt.Errorf("zstd: %w", err))
	}
	return io.NopCloser(d.zstd) // closed with the zip, not the member
}

// registerMethods makes zr decompress f's bzip2, LZMA, zstd and xz
// members, before f is opened (an LZMA member's decoder needs f's
// declared size). The bytes come out as they are read: the member limits
// count them, nothing goes to disk, and a decoder's memory is bounded
// before it is made (LZMA's dictionary by the member's declared size,
// zstd's window and each xz block's dictionary by detect.MaxXzDict, the
// latter read by xzread, as a .xz file is, its refusal the member's
// warning); zstd's decoder is the zip's, shared by its members (decs).
func registerMethods(zr *zip.Reader, f *zip.File, decs *zipDecoders) {
	zr.RegisterDecompressor(methodBzip2, func(r io.Reader) io.ReadCloser {
		return io.NopCloser(bzip2.NewReader(r))
	})
	zr.RegisterDecompressor(methodLZMA, func(r io.Reader) io.ReadCloser {
		return lzmaMember(r, f.UncompressedSize64)
	})
	zr.RegisterDecompressor(methodZstd, decs.zstdMember)
	zr.RegisterDecompressor(methodXz, func(r io.Reader) io.ReadCloser {
		return io.NopCloser(xzread.NewReader(r, detect.MaxXzDict))
	})
}

// lzmaMember reads a zip LZMA member: a 4-byte header (the LZMA SDK's
// version, the properties' length), 5 bytes of properties (lc/lp/pb, the
// dictionary size), then the raw stream, ended by an end marker (flag
// bit 1) or by the declared size. It is read as a classic .lzma stream of
// the declared size (the decoder then accepts an end marker or none, and
// stops at that size where a marker is missing); the dictionary is at
// most the declared size, which bounds the memory a header asking for
// 4 GiB would take (no match reaches further back than the output so
// far; a member larger than declared fails its size or checksum), and a
// dictionary past detect.MaxXzDict is refused as xz's is.
func lzmaMember(r io.Reader, declared uint64) io.ReadCloser {
	var head [9]byte
	if _, err := io.ReadFull(r, head[:4]); err != nil {
		return failed(fmt.Errorf("LZMA header: %w", err))
	}
	if n := binary.LittleEndian.Uint16(head[2:4]); n != 5 {
		return failed(fmt.Errorf("LZMA properties of %d bytes (5 expected)", n))
	}
	if _, err := io.ReadFull(r, head[4:9]); err != nil {
		return failed(fmt.Errorf("LZMA properties: %w", err))
	}
	dict := uint64(binary.LittleEndian.Uint32(head[5:9]))
	dict = max(min(dict, declared), lzma.MinDictCap)
	if dict > detect.MaxXzDict {
		return failed(fmt.Errorf("its LZMA stream asks for a dictionary larger than %d MiB (7-Zip's -mx9 uses 64 MiB): decoding it would allocate that much", detect.MaxXzDict>>20))
	}
	var classic [lzma.HeaderLen]byte
	classic[0] = head[4]
	binary.LittleEndian.PutUint32(classic[1:5], uint32(dict))
	binary.LittleEndian.PutUint64(classic[5:13], declared)
	lr, err := lzma.NewReader(io.MultiReader(bytes.NewReader(classic[:]), r))
	if err != nil {
		return failed(err)
	}
	return io.NopCloser(lr)
}

// zipMember reads a member, archive/zip's and the decoders' errors about
// its size put in words: a member holding more than its header declares
// was "zip: not a valid zip file" (archive/zip's only ErrFormat once a
// member is open) or "lzma: wrong uncompressed data size".
type zipMember struct {
	rc       io.Reader
	declared uint64
}

func (m *zipMember) Read(p []byte) (int, error) {
	n, err := m.rc.Read(p)
	switch {
	case err == nil || err == io.EOF:
	case errors.Is(err, zip.ErrFormat) || strings.Contains(err.Error(), "wrong uncompressed data size"):
		err = fmt.Errorf("it holds more than the %d bytes its header declares (damaged, or a zip bomb's lie)", m.declared)
	case errors.Is(err, zip.ErrChecksum):
		err = errors.New("its checksum does not match its bytes (damaged, or not the size its header declares)")
	}
	return n, err
}

// failed is a member's reader whose first read returns err: a decoder
// that could not start is the member's "could not be read" warning.
func failed(err error) io.ReadCloser { return io.NopCloser(errReader{err}) }

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }
