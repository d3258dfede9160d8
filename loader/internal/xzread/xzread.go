// Package xzread decodes .xz files (one or more streams of LZMA2 blocks)
// with a bound on the dictionary each block asks for.
//
// Why not ulikunitz/xz's Reader: it allocates the dictionary a block
// header declares, with no upper bound, so a 100-byte file asking for
// 4 GiB makes it allocate 4 GiB. Checking the blocks ahead of it through
// each stream's index (archive/5) held only while the index told the truth
// (review45: an index whose one record spans two blocks hid the second
// block's header, and walking an index of millions of records cost
// seconds). This reader reads the container forward, as the decoder
// reaches each block, and refuses a block before anything is allocated for
// it. The LZMA2 data itself is decoded by ulikunitz/xz/lzma; only the
// container (stream header, block headers, padding, checks, index, footer)
// is read here, following the .xz file format 1.2.1.
package xzread

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"hash/crc64"
	"io"

	"github.com/ulikunitz/xz/lzma"
)

// Magic starts every xz stream.
var Magic = []byte{0xFD, '7', 'z', 'X', 'Z', 0x00}

var (
	footer = []byte{'Y', 'Z'}
	crc64T = crc64.MakeTable(crc64.ECMA)
)

// DictTooLargeError is a block asking for a dictionary larger than the
// reader's bound.
type DictTooLargeError struct {
	Dict, Max int64
}

func (e *DictTooLargeError) Error() string {
	return fmt.Sprintf("an xz block asks for a dictionary larger than %d MiB (%d MiB; xz -9 uses 64 MiB): decoding it would allocate that much", e.Max>>20, e.Dict>>20)
}

// Reader decodes an xz file. Its errors other than io.EOF are a
// *DictTooLargeError or say what in the file is damaged.
type Reader struct {
	in      *countReader
	maxDict int64
	err     error

	streams  int
	flags    [2]byte // the stream's flags, repeated in its footer
	check    hash.Hash
	checkLen int

	block     io.Reader // the block being decoded, nil between blocks
	hdrLen    int64
	start     int64 // compressed offset of the block's data
	wantC     int64 // the header's compressed size, -1 when not given
	wantU     int64
	got       int64 // uncompressed bytes of the block
	unsized   bool  // the block's chunks could not be walked to its end within peekSize
	blocks    int64 // blocks of the stream so far
	records   hash.Hash
	recordBuf [20]byte
}

// NewReader decodes the xz file r holds, refusing any block whose
// dictionary exceeds maxDict bytes.
func NewReader(r io.Reader, maxDict int64) *Reader {
	return &Reader{in: &countReader{r: bufio.NewReaderSize(r, peekSize)}, maxDict: maxDict}
}

// Read decodes the next bytes.
func (r *Reader) Read(p []byte) (int, error) {
	for r.err == nil {
		if r.block == nil {
			r.err = r.next()
			continue
		}
		n, err := r.block.Read(p)
		r.got += int64(n)
		r.check.Write(p[:n])
		if err == io.EOF {
			r.block, r.err = nil, r.endBlock()
			err = nil
		} else if err != nil {
			r.err = fmt.Errorf("damaged xz block: %w", err)
		}
		if n > 0 {
			return n, nil
		}
	}
	return 0, r.err
}

// Err is the error that stopped the reader, nil while it reads and after
// the file's end.
func (r *Reader) Err() error {
	if r.err == io.EOF {
		return nil
	}
	return r.err
}

// next reads up to the next block's data: a stream header when between
// streams, or the end of the file (io.EOF), and a block header, or an
// index and footer (then the next stream).
func (r *Reader) next() error {
	for {
		if r.check == nil {
			if err := r.streamHeader(); err != nil {
				return err
			}
		}
		b, err := r.in.ReadByte()
		if err != nil {
			return unexpected(err)
		}
		if b == 0 {
			if err := r.index(); err != nil {
				return err
			}
			r.check = nil
			continue
		}
		return r.blockHeader(b)
	}
}

// streamHeader reads stream padding and a stream header; io.EOF at the end
// of the file after a whole stream.
func (r *Reader) streamHeader() error {
	if r.streams > 0 {
		for {
			b, err := r.in.Peek(4)
			if len(b) == 0 && err == io.EOF {
				return io.EOF
			}
			if len(b) < 4 || !bytes.Equal(b, []byte{0, 0, 0, 0}) {
				break
			}
			r.in.Discard(4)
		}
	}
	var h [12]byte
	if _, err := io.ReadFull(r.in, h[:]); err != nil {
		return unexpected(err)
	}
	if !bytes.Equal(h[:6], Magic) {
		return errors.New("not an xz stream (no stream header where one starts)")
	}
	if crc32.ChecksumIEEE(h[6:8]) != binary.LittleEndian.Uint32(h[8:]) {
		return errors.New("damaged xz stream header (checksum)")
	}
	if h[6] != 0 || h[7] > 15 {
		return errors.New("damaged xz stream header (reserved flags)")
	}
	switch h[7] {
	case 0:
		r.check, r.checkLen = nopHash{}, 0
	case 1:
		r.check, r.checkLen = crc32.NewIEEE(), 4
	case 4:
		r.check, r.checkLen = crc64.New(crc64T), 8
	case 10:
		r.check, r.checkLen = sha256.New(), 32
	default:
		return fmt.Errorf("an xz check of type %d, which docket does not read", h[7])
	}
	copy(r.flags[:], h[6:8])
	r.streams++
	r.blocks = 0
	r.records = sha256.New()
	return nil
}

// blockHeader reads the header whose first byte is b0 and starts the
// block's LZMA2 decoder, after checking its dictionary.
func (r *Reader) blockHeader(b0 byte) error {
	size := (int(b0) + 1) * 4
	h := make([]byte, size)
	h[0] = b0
	if _, err := io.ReadFull(r.in, h[1:]); err != nil {
		return unexpected(err)
	}
	if crc32.ChecksumIEEE(h[:size-4]) != binary.LittleEndian.Uint32(h[size-4:]) {
		return errors.New("damaged xz block header (checksum)")
	}
	flags := h[1]
	if flags&0x3C != 0 {
		return errors.New("damaged xz block header (reserved flags)")
	}
	p := 2
	body := h[:size-4]
	uvarint := func() (int64, error) {
		v, n := binary.Uvarint(body[min(p, len(body)):])
		if n <= 0 || n > 9 || v > 1<<62 {
			return 0, errors.New("damaged xz block header (a size or filter field)")
		}
		p += n
		return int64(v), nil
	}
	r.wantC, r.wantU = -1, -1
	var err error
	if flags&0x40 != 0 {
		if r.wantC, err = uvarint(); err != nil {
			return err
		}
	}
	if flags&0x80 != 0 {
		if r.wantU, err = uvarint(); err != nil {
			return err
		}
	}
	if flags&3 != 0 {
		return errors.New("an xz block with a filter before LZMA2 (BCJ or delta), which docket does not read")
	}
	id, err := uvarint()
	if err != nil {
		return err
	}
	n, err := uvarint()
	if err != nil {
		return err
	}
	if id != 0x21 || n != 1 || p >= len(body) {
		return fmt.Errorf("an xz block filtered by %#x, which docket does not read (only LZMA2)", id)
	}
	code := body[p]
	p++
	for ; p < len(body); p++ {
		if body[p] != 0 {
			return errors.New("damaged xz block header (padding)")
		}
	}
	if code > 40 {
		return errors.New("damaged xz block header (dictionary size)")
	}
	dict := int64(2|code&1) << (code/2 + 11)
	if code == 40 {
		dict = 1<<32 - 1
	}
	if dict > r.maxDict {
		return &DictTooLargeError{Dict: dict, Max: r.maxDict}
	}
	// The decoder allocates (and clears) the whole dictionary for every
	// block, and a block never needs more than it holds: a block whose
	// size its header or its first chunks' headers tell gets that much
	// (review45: 500 empty blocks each asking 64 MiB, a 9 KB file, cost
	// 10 s of CPU in the main process's detection; xz -9 asks 64 MiB for a
	// 6-byte file).
	r.unsized = false
	if r.wantU >= 0 {
		dict = min(dict, r.wantU)
	} else if n, ok := r.blockSize(); ok {
		dict = min(dict, n)
	} else {
		r.unsized = true
	}
	r.hdrLen, r.start, r.got = int64(size), r.in.n, 0 // NewReader2 reads the first chunk's header
	dec, err := lzma.Reader2Config{DictCap: int(max(dict, lzma.MinDictCap))}.NewReader2(r.in)
	if err != nil {
		return fmt.Errorf("damaged xz block: %w", err)
	}
	r.block = dec
	r.check.Reset()
	return nil
}

// peekSize is how far ahead blockSize looks: the reader's buffer.
const peekSize = 64 << 10

// blockSize is the uncompressed size of the block whose LZMA2 data starts
// the unread input, from its chunks' headers, when they and its end marker
// are in the next peekSize bytes; a chunk's header says how much it holds
// and where the next one starts.
func (r *Reader) blockSize() (int64, bool) {
	buf, _ := r.in.r.Peek(peekSize)
	var total int64
	for p := 0; p < len(buf); {
		c := buf[p]
		switch {
		case c == 0:
			return total, true
		case c == 1 || c == 2: // uncompressed chunk
			if p+3 > len(buf) {
				return 0, false
			}
			n := (int(buf[p+1])<<8 | int(buf[p+2])) + 1
			total += int64(n)
			p += 3 + n
		case c >= 0x80: // LZMA chunk
			if p+5 > len(buf) {
				return 0, false
			}
			total += int64(int(c&0x1F)<<16|int(buf[p+1])<<8|int(buf[p+2])) + 1
			p += 5 + (int(buf[p+3])<<8 | int(buf[p+4])) + 1
			if c >= 0xC0 { // new properties: one byte more
				p++
			}
		default:
			return 0, false // not LZMA2: the decoder says so
		}
	}
	return 0, false
}

// endBlock reads a decoded block's padding and check, and checks the sizes
// its header gave.
func (r *Reader) endBlock() error {
	c := r.in.n - r.start
	if (r.wantC >= 0 && c != r.wantC) || (r.wantU >= 0 && r.got != r.wantU) {
		return errors.New("damaged xz block (its sizes are not its header's)")
	}
	if r.unsized && c < peekSize {
		// Its chunks' headers led the walk past peekSize, yet the decoder
		// (which reads a chunk by its unpacked size, never its packed
		// size) found the block's end within it: a chunk lied about its
		// packed size. Each such block would get the full dictionary its
		// header asks (review46: 520 blocks of 1 byte, a 14.5 KB file, cost
		// 10 s and 33 GB in the main process's detection); xz -t calls the
		// file corrupt, so does this reader, after one such block.
		return errors.New("damaged xz block (a chunk's header gives more data than the block holds)")
	}
	if err := r.zeros(int((4 - (r.hdrLen+c)%4) % 4)); err != nil {
		return err
	}
	got := r.check.Sum(nil)
	want := make([]byte, r.checkLen)
	if _, err := io.ReadFull(r.in, want); err != nil {
		return unexpected(err)
	}
	switch r.checkLen {
	case 4, 8: // CRC32 and CRC64 are stored little-endian, Sum gives big-endian
		for i, j := 0, len(got)-1; i < j; i, j = i+1, j-1 {
			got[i], got[j] = got[j], got[i]
		}
	}
	if !bytes.Equal(got, want) {
		return errors.New("damaged xz block (its check does not match the data)")
	}
	r.record(r.hdrLen+c+int64(r.checkLen), r.got)
	r.blocks++
	return nil
}

// record adds a block's unpadded and uncompressed sizes to the stream's
// digest of records, which its index must reproduce.
func (r *Reader) record(unpadded, uncompressed int64) {
	n := binary.PutUvarint(r.recordBuf[:], uint64(unpadded))
	n += binary.PutUvarint(r.recordBuf[n:], uint64(uncompressed))
	r.records.Write(r.recordBuf[:n])
}

// index reads a stream's index (its indicator byte read) and footer, and
// checks them against the blocks decoded: the index is read as it comes,
// never held, so an index of millions of records costs what reading it
// costs.
func (r *Reader) index() error {
	crc := crc32.NewIEEE()
	crc.Write([]byte{0})
	size := int64(1)
	var buf [10]byte
	uvarint := func() (int64, error) {
		for i := 0; i < 9; i++ {
			b, err := r.in.ReadByte()
			if err != nil {
				return 0, unexpected(err)
			}
			buf[i] = b
			if b&0x80 == 0 {
				v, n := binary.Uvarint(buf[:i+1])
				if n <= 0 || v > 1<<62 {
					break
				}
				crc.Write(buf[:i+1])
				size += int64(i + 1)
				return int64(v), nil
			}
		}
		return 0, errors.New("damaged xz index")
	}
	count, err := uvarint()
	if err != nil {
		return err
	}
	if count != r.blocks {
		return fmt.Errorf("damaged xz index (%d records for %d blocks)", count, r.blocks)
	}
	records := sha256.New()
	for i := int64(0); i < count; i++ {
		u, err := uvarint()
		if err != nil {
			return err
		}
		s, err := uvarint()
		if err != nil {
			return err
		}
		n := binary.PutUvarint(r.recordBuf[:], uint64(u))
		n += binary.PutUvarint(r.recordBuf[n:], uint64(s))
		records.Write(r.recordBuf[:n])
	}
	if !bytes.Equal(records.Sum(nil), r.records.Sum(nil)) {
		return errors.New("damaged xz index (its records are not the blocks' sizes)")
	}
	pad := int((4 - size%4) % 4)
	zero := make([]byte, pad)
	if err := r.zeros(pad); err != nil {
		return err
	}
	crc.Write(zero)
	size += int64(pad)
	var tail [16]byte // the index's CRC32, then the 12-byte footer
	if _, err := io.ReadFull(r.in, tail[:]); err != nil {
		return unexpected(err)
	}
	if binary.LittleEndian.Uint32(tail[:4]) != crc.Sum32() {
		return errors.New("damaged xz index (checksum)")
	}
	f := tail[4:]
	if crc32.ChecksumIEEE(f[4:10]) != binary.LittleEndian.Uint32(f[:4]) || !bytes.Equal(f[10:], footer) ||
		!bytes.Equal(f[8:10], r.flags[:]) || (int64(binary.LittleEndian.Uint32(f[4:8]))+1)*4 != size+4 {
		return errors.New("damaged xz stream footer")
	}
	return nil
}

// zeros reads n padding bytes, which must be zero.
func (r *Reader) zeros(n int) error {
	for ; n > 0; n-- {
		b, err := r.in.ReadByte()
		if err != nil {
			return unexpected(err)
		}
		if b != 0 {
			return errors.New("damaged xz file (padding)")
		}
	}
	return nil
}

func unexpected(err error) error {
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return errors.New("xz file cut short")
	}
	return err
}

// countReader counts the bytes read through it; it is the io.ByteReader
// the LZMA2 decoder reads from, so it reads no byte past its block.
type countReader struct {
	r *bufio.Reader
	n int64
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

func (c *countReader) ReadByte() (byte, error) {
	b, err := c.r.ReadByte()
	if err == nil {
		c.n++
	}
	return b, err
}

func (c *countReader) Peek(n int) ([]byte, error) { return c.r.Peek(n) }

func (c *countReader) Discard(n int) {
	d, _ := c.r.Discard(n)
	c.n += int64(d)
}

type nopHash struct{}

func (nopHash) Write(p []byte) (int, error) { return len(p), nil }
func (nopHash) Sum(b []byte) []byte         { return b }
func (nopHash) Reset()                      {}
func (nopHash) Size() int                   { return 0 }
func (nopHash) BlockSize() int              { return 1 }
