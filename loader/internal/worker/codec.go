package worker

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"strings"
	"unsafe"

	"github.com/docket-dev/docket/loader/internal/document"
)

// The pipe between docket and its workers carries frames: a 4-byte
// little-endian length, then that many bytes, whose first is WireVersion
// and the rest one Request (docket to worker) or one Response (worker to
// docket). Integers are varints (signed ones zig-zagged), floats 8 bytes
// little-endian, strings and byte slices a length and their bytes, slices
// and maps a count and their elements. A worker's first frame is its
// hello (one string: the extractor versions it was built with, which the
// Pool compares with its own before it uses the worker's first answer), so
// docket and its worker are one build; the version byte still turns a
// frame of another build into an error instead of garbage.
//
// It replaced encoding/gob: gob decoding was ~11 % of the main process's
// CPU on text-layer PDFs, copied every string out of a message buffer read
// fresh for each message, and touched the memory twice. A decoded
// Response's strings (and attachment bytes) point into its frame's buffer,
// read once and never reused.
//
// Empty slices and byte slices decode as nil, an empty map as an empty
// map, as with gob.

// WireVersion is the frame format's version: bump it whenever Request,
// Response or a document type they carry changes shape.
const WireVersion = 3 // 2: Options.NoFolder; 3: a worker's first frame is its hello

// maxFrame bounds a frame's length: a length over it is a broken stream
// (a Result is far smaller), not a reason to allocate gigabytes; a worker
// whose answer would be longer answers a too_large error instead (Serve).
// A variable for tests.
var maxFrame = 1 << 30

// A BrokenFrame error is a frame that was read whole but does not hold
// what it should (another wire version, a bad length, bytes left over):
// the stream is out of step, while the process may well be alive.
type BrokenFrame struct{ Msg string }

func (e *BrokenFrame) Error() string { return "worker: " + e.Msg }

func broken(format string, args ...any) error { return &BrokenFrame{Msg: fmt.Sprintf(format, args...)} }

// errShort is a frame that ends before its contents.
var errShort error = &BrokenFrame{Msg: "frame ends early"}

// encoder builds one frame at a time in a buffer it reuses.
type encoder struct{ b []byte }

func (e *encoder) begin() { e.b = append(e.b[:0], 0, 0, 0, 0, WireVersion) }

// frame returns the frame built since begin, its length filled in.
func (e *encoder) frame() []byte {
	binary.LittleEndian.PutUint32(e.b, uint32(len(e.b)-4))
	return e.b
}

func (e *encoder) uint(v uint64) { e.b = binary.AppendUvarint(e.b, v) }
func (e *encoder) int(v int64)   { e.b = binary.AppendVarint(e.b, v) }
func (e *encoder) float(v float64) {
	e.b = binary.LittleEndian.AppendUint64(e.b, math.Float64bits(v))
}

func (e *encoder) bool(v bool) {
	if v {
		e.b = append(e.b, 1)
	} else {
		e.b = append(e.b, 0)
	}
}

func (e *encoder) str(s string) {
	e.uint(uint64(len(s)))
	e.b = append(e.b, s...)
}

func (e *encoder) bytes(p []byte) {
	e.uint(uint64(len(p)))
	e.b = append(e.b, p...)
}

func (e *encoder) strs(ss []string) {
	e.uint(uint64(len(ss)))
	for _, s := range ss {
		e.str(s)
	}
}

func (e *encoder) box(b document.BBox) {
	e.float(b.X0)
	e.float(b.Y0)
	e.float(b.X1)
	e.float(b.Y1)
}

// decoder reads a frame's contents. Its strings share buf: buf must not
// change afterwards. The first error sticks; later reads return zeros.
type decoder struct {
	buf []byte
	off int
	err error
}

func (d *decoder) fail(err error) {
	if d.err == nil {
		d.err = err
	}
}

func (d *decoder) uint() uint64 { return varint(d, binary.Uvarint) }
func (d *decoder) int() int64   { return varint(d, binary.Varint) }

func varint[T uint64 | int64](d *decoder, read func([]byte) (T, int)) T {
	if d.err != nil {
		return 0
	}
	v, n := read(d.buf[d.off:])
	if n <= 0 {
		d.fail(errShort)
		return 0
	}
	d.off += n
	return v
}

// n reads an int that must fit Go's int.
func (d *decoder) n() int {
	v := d.int()
	if v != int64(int(v)) {
		d.fail(broken("integer %d out of range", v))
		return 0
	}
	return int(v)
}

func (d *decoder) float() float64 {
	if d.err != nil || len(d.buf)-d.off < 8 {
		d.fail(errShort)
		return 0
	}
	v := math.Float64frombits(binary.LittleEndian.Uint64(d.buf[d.off:]))
	d.off += 8
	return v
}

func (d *decoder) bool() bool {
	if d.err != nil || d.off >= len(d.buf) {
		d.fail(errShort)
		return false
	}
	b := d.buf[d.off]
	d.off++
	if b > 1 {
		d.fail(broken("bad boolean %d", b))
	}
	return b == 1
}

// count reads the length of something each of whose elements takes at
// least min bytes: a count the rest of the frame cannot hold is an error
// (and no allocation).
func (d *decoder) count(min int) int {
	v := d.uint()
	if d.err == nil && v > uint64((len(d.buf)-d.off)/min) {
		d.fail(errShort)
	}
	if d.err != nil {
		return 0
	}
	return int(v)
}

// raw returns the next n bytes of the frame (not a copy).
func (d *decoder) raw() []byte {
	n := d.count(1)
	if n == 0 {
		return nil
	}
	p := d.buf[d.off : d.off+n : d.off+n]
	d.off += n
	return p
}

func (d *decoder) str() string {
	p := d.raw()
	if len(p) == 0 {
		return ""
	}
	return unsafe.String(&p[0], len(p))
}

// own reads a string as a copy of its own (see the package comment on
// which strings are).
func (d *decoder) own() string { return strings.Clone(d.str()) }

func (d *decoder) strs() []string { return d.strList(d.str) }

// strList reads a slice of strings, each read by str (d.str or d.own).
func (d *decoder) strList(str func() string) []string {
	return list(d, 1, func(s *string) { *s = str() })
}

// list reads a count (each element takes at least min bytes, see count)
// and that many elements, each filled in by read; nil for none, as gob
// gives an empty slice.
func list[T any](d *decoder, min int, read func(*T)) []T {
	n := d.count(min)
	if n == 0 {
		return nil
	}
	out := make([]T, n)
	for i := range out {
		read(&out[i])
	}
	return out
}

func (d *decoder) box() document.BBox {
	return document.BBox{X0: d.float(), Y0: d.float(), X1: d.float(), Y1: d.float()}
}

// writeFrame writes a frame built by e in one write.
func writeFrame(w io.Writer, e *encoder) error {
	_, err := w.Write(e.frame())
	return err
}

// readFrame reads one frame and returns a decoder over its contents (the
// version byte checked), in a buffer of its own.
func readFrame(r io.Reader) (*decoder, error) {
	var hdr [4]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return nil, err
	}
	n := binary.LittleEndian.Uint32(hdr[:])
	if n == 0 || int64(n) > int64(maxFrame) {
		return nil, broken("frame of %d bytes (a broken stream)", n)
	}
	buf := make([]byte, n)
	if _, err := io.ReadFull(r, buf); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	return newDecoder(buf)
}

// newDecoder checks a frame's version byte.
func newDecoder(buf []byte) (*decoder, error) {
	if len(buf) == 0 {
		return nil, errShort
	}
	if buf[0] != WireVersion {
		return nil, broken("frame of wire version %d, want %d (docket and docket-worker of different builds)", buf[0], WireVersion)
	}
	return &decoder{buf: buf, off: 1}, nil
}

// done reports the first error, or bytes left over.
func (d *decoder) done() error {
	if d.err == nil && d.off != len(d.buf) {
		d.err = broken("%d bytes left over in a frame", len(d.buf)-d.off)
	}
	return d.err
}
