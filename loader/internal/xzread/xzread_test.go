package xzread

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/ulikunitz/xz"
)

const maxDict = 64 << 20

// xzFile compresses data with the xz tool (its block, stream and check
// forms are the ones real files have).
func xzFile(t *testing.T, data []byte, args ...string) []byte {
	t.Helper()
	if _, err := exec.LookPath("xz"); err != nil {
		t.Skip("xz not installed")
	}
	p := filepath.Join(t.TempDir(), "in")
	os.WriteFile(p, data, 0o644)
	if out, err := exec.Command("xz", append(args, "-k", "-f", p)...).CombinedOutput(); err != nil {
		t.Fatalf("xz %v: %v %s", args, err, out)
	}
	b, err := os.ReadFile(p + ".xz")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func decode(b []byte) ([]byte, error) {
	return io.ReadAll(NewReader(bytes.NewReader(b), maxDict))
}

func join(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

// TestReadsWhatXzWrites: every check type, several blocks (with and without
// sizes in their headers: xz -T2 writes them), streams one after another,
// stream padding, and ulikunitz/xz's own writer; the bytes are the input.
func TestReadsWhatXzWrites(t *testing.T) {
	text := bytes.Repeat([]byte("the north basin is dredged again in May, 2024; "), 60000)
	a, b := xzFile(t, []byte("hello\n")), xzFile(t, []byte("world\n"))
	var ul bytes.Buffer
	w, err := xz.WriterConfig{BlockSize: 100 << 10}.NewWriter(&ul)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(text)
	w.Close()
	for name, c := range map[string]struct{ in, want []byte }{
		"crc64":          {xzFile(t, text), text},
		"crc32":          {xzFile(t, text, "--check=crc32"), text},
		"sha256":         {xzFile(t, text, "--check=sha256"), text},
		"no check":       {xzFile(t, text, "--check=none"), text},
		"several blocks": {xzFile(t, text, "-T2", "--block-size=512KiB"), text},
		"empty":          {xzFile(t, nil), nil},
		"two streams":    {join(a, b), []byte("hello\nworld\n")},
		"stream padding": {join(a, make([]byte, 8), b, make([]byte, 4)), []byte("hello\nworld\n")},
		"ulikunitz":      {ul.Bytes(), text},
		"incompressible": {xzFile(t, noise(300<<10)), noise(300 << 10)},
	} {
		got, err := decode(c.in)
		if err != nil || !bytes.Equal(got, c.want) {
			t.Errorf("%s: %d bytes (want %d), %v", name, len(got), len(c.want), err)
		}
	}
}

func noise(n int) []byte {
	b := make([]byte, n)
	x := uint32(2463534242)
	for i := range b {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		b[i] = byte(x)
	}
	return b
}

// TestDamageIsSaid: a file cut short, a flipped byte in the data, a
// block's check that does not match, bytes after the last stream, and an
// index that does not list the blocks are errors, never short output
// taken for the whole.
func TestDamageIsSaid(t *testing.T) {
	text := bytes.Repeat([]byte("dredging resumes in the north basin. "), 20000)
	good := xzFile(t, text, "-T2", "--block-size=256KiB")
	flip := func(i int) []byte { b := bytes.Clone(good); b[i] ^= 0x55; return b }
	for name, in := range map[string][]byte{
		"cut short":        good[:len(good)/2],
		"cut in the index": good[:len(good)-14],
		"data flipped":     flip(len(good) / 3),
		"check flipped":    flip(len(good) - 40),
		"trailing bytes":   join(good, []byte("junk")),
		"not xz":           []byte("hello, this is text\n"),
	} {
		if _, err := decode(in); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// TestDictionaryBoundHoldsAgainstAnIndex (review45's MEDIUM on archive/5):
// the dictionary is checked in each block's header as the reader reaches
// it, so a file whose index hides its second block (one record spanning
// both) is refused before the 4 GiB dictionary is allocated; a big
// dictionary in a later stream is refused the same way.
func TestDictionaryBoundHoldsAgainstAnIndex(t *testing.T) {
	lying := lyingIndex(t, 40)
	big := xzFile(t, []byte("a small file asking for a big dictionary\n"), "--lzma2=dict=1536MiB")
	good := xzFile(t, []byte("hello\n"))
	for name, in := range map[string][]byte{"lying index": lying, "big dictionary": big, "good, then big": join(good, big)} {
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		_, err := decode(in)
		runtime.ReadMemStats(&m1)
		var tl *DictTooLargeError
		if !errors.As(err, &tl) || !strings.Contains(err.Error(), "dictionary larger than 64 MiB") {
			t.Errorf("%s: %v", name, err)
		}
		if n := m1.TotalAlloc - m0.TotalAlloc; n > 32<<20 {
			t.Errorf("%s: %d MiB allocated before refusing", name, n>>20)
		}
	}
}

// lyingIndex is xz's two-block file with the second block's dictionary
// code raised to code and the index rewritten as one record spanning both
// blocks (review45's reproducer, built the same way).
func lyingIndex(t *testing.T, code byte) []byte {
	f := xzFile(t, bytes.Repeat([]byte("0123456789abcdef"), 64<<10), "-0", "-T1", "--block-list=100,2MiB")
	ft := bytes.Clone(f[len(f)-12:])
	backward := (int(binary.LittleEndian.Uint32(ft[4:8])) + 1) * 4
	idx := f[len(f)-12-backward : len(f)-12]
	q := 1
	rd := func() uint64 { v, n := binary.Uvarint(idx[q:]); q += n; return v }
	if rd() != 2 {
		t.Fatal("want 2 blocks")
	}
	u1, s1, u2, s2 := rd(), rd(), rd(), rd()
	pad := func(v uint64) uint64 { return (v + 3) &^ 3 }
	b2 := 12 + int(pad(u1))
	size := (int(f[b2]) + 1) * 4
	h := f[b2 : b2+size]
	i := bytes.Index(h[2:], []byte{0x21, 0x01})
	if i < 0 {
		t.Fatal("no LZMA2 filter in block 2")
	}
	h[2+i+2] = code
	binary.LittleEndian.PutUint32(h[size-4:], crc32.ChecksumIEEE(h[:size-4]))
	ni := []byte{0}
	ni = binary.AppendUvarint(ni, 1)
	ni = binary.AppendUvarint(ni, pad(u1)+u2)
	ni = binary.AppendUvarint(ni, s1+s2)
	for len(ni)%4 != 0 {
		ni = append(ni, 0)
	}
	ni = binary.LittleEndian.AppendUint32(ni, crc32.ChecksumIEEE(ni))
	binary.LittleEndian.PutUint32(ft[4:8], uint32(len(ni)/4-1))
	binary.LittleEndian.PutUint32(ft[0:4], crc32.ChecksumIEEE(ft[4:10]))
	return join(f[:len(f)-12-backward], ni, ft)
}

// TestHugeIndexCostsNothingAhead (review45's second MEDIUM): a file of
// zeros whose index lists millions of records was walked record by record
// before decoding (17 s of CPU for 76 MiB, then passed). Read forward, the
// index's count is checked against the blocks decoded (none) at once.
func TestHugeIndexCostsNothingAhead(t *testing.T) {
	const n = 1 << 20
	var b bytes.Buffer
	b.Write(Magic)
	b.Write([]byte{0, 1})
	b.Write(binary.LittleEndian.AppendUint32(nil, crc32.ChecksumIEEE([]byte{0, 1})))
	b.Write(make([]byte, 8*n)) // where the blocks would be: zeros, read as an index indicator
	_, err := decode(b.Bytes())
	if err == nil || !strings.Contains(err.Error(), "index") {
		t.Fatalf("got %v", err)
	}
	r := NewReader(bytes.NewReader(b.Bytes()), maxDict)
	io.Copy(io.Discard, r)
	if r.in.n > 1<<16 {
		t.Errorf("read %d bytes before refusing", r.in.n)
	}
}

// emptyBlocks is a valid .xz (check none) of n empty blocks, each asking
// for a dictionary of the given code (28: 64 MiB).
func emptyBlocks(n int, code byte) []byte {
	var b bytes.Buffer
	b.Write(Magic)
	b.Write([]byte{0, 0})
	b.Write(binary.LittleEndian.AppendUint32(nil, crc32.ChecksumIEEE([]byte{0, 0})))
	hdr := []byte{2, 0, 0x21, 1, code, 0, 0, 0}
	hdr = binary.LittleEndian.AppendUint32(hdr, crc32.ChecksumIEEE(hdr))
	for i := 0; i < n; i++ {
		b.Write(hdr)
		b.Write([]byte{0, 0, 0, 0}) // LZMA2's end marker, then padding
	}
	idx := []byte{0}
	idx = binary.AppendUvarint(idx, uint64(n))
	for i := 0; i < n; i++ {
		idx = append(idx, 13, 0) // unpadded size 12 + 1, nothing uncompressed
	}
	for len(idx)%4 != 0 {
		idx = append(idx, 0)
	}
	idx = binary.LittleEndian.AppendUint32(idx, crc32.ChecksumIEEE(idx))
	b.Write(idx)
	ft := binary.LittleEndian.AppendUint32(nil, uint32(len(idx)/4-1))
	ft = append(ft, 0, 0)
	b.Write(binary.LittleEndian.AppendUint32(nil, crc32.ChecksumIEEE(ft)))
	b.Write(ft)
	b.Write(footer)
	return b.Bytes()
}

// TestEmptyBlocksAllocateNoDictionary (review45's HIGH): every block made
// the decoder allocate and clear the dictionary its header asks for; 500
// empty blocks asking 64 MiB each (a 9 KB file, valid) cost 10 s of CPU
// and 32 GB allocated in the main process's detection. A block's size,
// read from its chunks' headers, bounds its dictionary.
func TestEmptyBlocksAllocateNoDictionary(t *testing.T) {
	in := emptyBlocks(500, 28)
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	out, err := decode(in)
	runtime.ReadMemStats(&m1)
	if err != nil || len(out) != 0 {
		t.Fatalf("%d bytes, %v", len(out), err)
	}
	if a := m1.TotalAlloc - m0.TotalAlloc; a > 64<<20 {
		t.Errorf("allocated %d MB for %d empty blocks", a>>20, 500)
	}
	if _, err := exec.LookPath("xz"); err == nil {
		p := filepath.Join(t.TempDir(), "e.xz")
		os.WriteFile(p, in, 0o644)
		if out, err := exec.Command("xz", "-t", p).CombinedOutput(); err != nil {
			t.Errorf("xz -t refuses the test's file: %v %s", err, out)
		}
	}
}

// lyingChunks is n blocks without sizes in their headers, asking a 64 MiB
// dictionary, each one LZMA chunk of one byte whose header says its packed
// data is 64 KiB (review46's reproducer: the decoder reads a chunk by its
// unpacked size, so it never sees the lie).
func lyingChunks(n int) []byte {
	var b bytes.Buffer
	le32 := func(v uint32) []byte { var x [4]byte; binary.LittleEndian.PutUint32(x[:], v); return x[:] }
	b.Write([]byte{0xFD, '7', 'z', 'X', 'Z', 0, 0, 0})
	b.Write(le32(crc32.ChecksumIEEE([]byte{0, 0})))
	hdr := []byte{0x02, 0x00, 0x21, 0x01, 28, 0, 0, 0}
	hdr = append(hdr, le32(crc32.ChecksumIEEE(hdr))...)
	data := []byte{0xE0, 0x00, 0x00, 0xFF, 0xFF, 0x5D, 0, 0, 0, 0, 0, 0, 0, 0}
	for i := 0; i < n; i++ {
		b.Write(hdr)
		b.Write(data)
		for b.Len()%4 != 0 {
			b.WriteByte(0)
		}
	}
	return b.Bytes()
}

// TestLyingChunkSizeIsDamage (review46's HIGH): a chunk header giving more
// packed data than the block holds made blockSize's walk run past its
// window, so each block got the full 64 MiB its header asks: 520 one-byte
// blocks (a 14.5 KB file) cost 10 s of CPU and 33 GB allocated in the main
// process's detection. Such a block is damage, said after the first, as
// xz -t says it; an honest block larger than the window still decodes
// (TestReadsWhatXzWrites' multi-block files).
func TestLyingChunkSizeIsDamage(t *testing.T) {
	in := lyingChunks(520)
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	_, err := decode(in)
	runtime.ReadMemStats(&m1)
	if err == nil || !strings.Contains(err.Error(), "damaged xz block") {
		t.Errorf("err %v, want a damaged block", err)
	}
	if a := m1.TotalAlloc - m0.TotalAlloc; a > 2*maxDict {
		t.Errorf("allocated %d MB for %d lying blocks", a>>20, 520)
	}
	if _, err := exec.LookPath("xz"); err == nil {
		p := filepath.Join(t.TempDir(), "l.xz")
		os.WriteFile(p, in, 0o644)
		if out, err := exec.Command("xz", "-t", p).CombinedOutput(); err == nil {
			t.Errorf("xz -t takes the test's file: %s", out)
		}
	}
}
