package archive

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
	"github.com/ulikunitz/xz"

	"github.com/docket-dev/docket/loader/internal/detect"
	"github.com/docket-dev/docket/loader/internal/document"
)

func zipMethodsFixture(t *testing.T, name string, opts document.Options) (*document.Result, error) {
	t.Helper()
	p := filepath.Join("testdata", "zipmethods", name)
	info, err := detect.Detect(p)
	if err != nil || info.Type != detect.Zip {
		t.Fatalf("%s: detected %q, %v", name, info.Type, err)
	}
	return ExtractNamed(context.Background(), p, name, info.Type, opts)
}

// TestZipMethods: zip members compressed with bzip2 or LZMA (written by
// Python's zipfile, testdata/zipmethods/gen.py), zstd or xz (written here
// with the decoders' own libraries) land as deflated ones do; before,
// each was "could not be read: zip: unsupported compression algorithm"
// and the archive flagged members_unreadable. A method still unknown
// (PPMd) is a warning naming it, the other members landing.
func TestZipMethods(t *testing.T) {
	text := strings.Repeat("Minutes of the harbour board, 12 March 2024.\nThe dredging contract goes to tender.\n", 3)
	want := []string{"minutes/board.txt=" + text, "notes.md=# Notes\n\nPier 4 reopens in May.\n"}
	for _, name := range []string{"bzip2.zip", "lzma.zip"} {
		res, err := zipMethodsFixture(t, name, document.Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := names(res); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: members %q, want %q", name, got, want)
		}
		if len(res.Warnings) != 0 || len(res.Reviews) != 0 {
			t.Errorf("%s: warnings %q reviews %v", name, res.Warnings, res.Reviews)
		}
	}

	res, err := zipMethodsFixture(t, "mixed.zip", document.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := names(res), []string{"a.txt=alpha deflated", "b.txt=beta bzip2", "c.txt=gamma lzma"}; !reflect.DeepEqual(got, want) {
		t.Errorf("mixed.zip: members %q, want %q", got, want)
	}
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], `"d.txt" is compressed with PPMd (zip method 98), which docket cannot decompress`) {
		t.Errorf("mixed.zip: warnings %q", res.Warnings)
	}
	if len(res.Reviews) != 1 || res.Reviews[0].Code != document.ReviewMembersUnreadable || !strings.Contains(res.Reviews[0].Message, "d.txt") {
		t.Errorf("mixed.zip: reviews %v", res.Reviews)
	}

	for _, c := range []struct {
		method uint16
		comp   func(io.Writer) (io.WriteCloser, error)
	}{
		{methodZstd, func(w io.Writer) (io.WriteCloser, error) { return zstd.NewWriter(w) }},
		// xz's writer writes its stream header at once, before zip's local header: buffered.
		{methodXz, func(w io.Writer) (io.WriteCloser, error) { return &closeWrite{w: w}, nil }},
	} {
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		zw.RegisterCompressor(c.method, c.comp)
		w, err := zw.CreateHeader(&zip.FileHeader{Name: "board.txt", Method: c.method})
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(w, text)
		zw.Close()
		res, _, err := extract(t, "x.zip", buf.Bytes(), document.Options{})
		if err != nil {
			t.Fatalf("method %d: %v", c.method, err)
		}
		if got := names(res); len(got) != 1 || got[0] != "board.txt="+text || len(res.Warnings) != 0 {
			t.Errorf("method %d: members %q warnings %q", c.method, got, res.Warnings)
		}
	}
}

// TestZipMethodBombs: bzip2 and LZMA members are held to the same limits
// as deflated ones, in memory: a member declaring more than
// loader.max_archive_bytes is refused before it is decoded, one
// understating its size stops a byte past that size (archive/zip's
// check; LZMA's decoder stops at it and the checksum fails), and an LZMA member asking for a
// 4 GiB dictionary is refused before the decoder allocates it, as is an
// xz member's block asking for one (xzread, as a .xz file's).
func TestZipMethodBombs(t *testing.T) {
	small := document.Options{MaxArchiveBytes: 64 << 10, MaxArchiveMembers: 3}
	for _, c := range []struct {
		file string
		opts document.Options
		kind string // "" when the archive lands with the member unreadable
		msg  string
	}{
		{"bomb-bzip2.zip", small, document.KindTooLarge, "declares it expands"},
		{"bomb-lzma.zip", small, document.KindTooLarge, "declares it expands"},
		{"liar-bzip2.zip", small, "", "holds more than the 1024 bytes its header declares"},
		{"liar-lzma.zip", small, "", "holds more than the 1024 bytes its header declares"},
		{"bigdict-lzma.zip", document.Options{}, "", "dictionary larger than 64 MiB"},
		{"bigdict-xz.zip", document.Options{}, "", "an xz block asks for a dictionary larger than 64 MiB"},
	} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		var res *document.Result
		var err error
		if c.file == "bigdict-xz.zip" {
			// an xz member whose block asks for a 4 GiB dictionary
			// (archive/4's bigdict.xz, stored as method 95)
			xzBytes, rerr := os.ReadFile(filepath.Join("testdata", "compressed", "bigdict.xz"))
			if rerr != nil {
				t.Fatal(rerr)
			}
			var buf bytes.Buffer
			zw := zip.NewWriter(&buf)
			zw.RegisterCompressor(methodXz, func(w io.Writer) (io.WriteCloser, error) { return &rawWrite{w: w, data: xzBytes}, nil })
			mw, werr := zw.CreateHeader(&zip.FileHeader{Name: "zeros.bin", Method: methodXz})
			if werr != nil {
				t.Fatal(werr)
			}
			mw.Write(make([]byte, 1000))
			zw.Close()
			res, _, err = extract(t, c.file, buf.Bytes(), c.opts)
		} else {
			res, err = zipMethodsFixture(t, c.file, c.opts)
		}
		runtime.ReadMemStats(&after)
		if n := after.TotalAlloc - before.TotalAlloc; n > 40<<20 {
			t.Errorf("%s: allocated %d MB", c.file, n>>20)
		}
		if c.kind != "" {
			if kindOf(err) != c.kind || !strings.Contains(err.Error(), c.msg) {
				t.Errorf("%s: got %v, want %s mentioning %q", c.file, err, c.kind, c.msg)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.file, err)
			continue
		}
		if len(res.Attachments) != 0 || len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], c.msg) || len(res.Reviews) == 0 {
			t.Errorf("%s: %d members, warnings %q, reviews %v; want the member unreadable (%q)", c.file, len(res.Attachments), res.Warnings, res.Reviews, c.msg)
		}
	}
}

// closeWrite xz-compresses what it was given into w when closed.
type closeWrite struct {
	bytes.Buffer
	w io.Writer
}

func (c *closeWrite) Close() error {
	xw, err := xz.NewWriter(c.w)
	if err != nil {
		return err
	}
	if _, err := xw.Write(c.Bytes()); err != nil {
		return err
	}
	return xw.Close()
}

// rawWrite writes data, the member's bytes as given, when closed (what
// was written to it only counts towards the declared size).
type rawWrite struct {
	w    io.Writer
	data []byte
}

func (r *rawWrite) Write(p []byte) (int, error) { return len(p), nil }

func (r *rawWrite) Close() error {
	_, err := r.w.Write(r.data)
	return err
}

// TestZstdMembersShareADecoder (review46's MEDIUM on archive/6): each zstd
// member had a decoder of its own, which allocates the window its frame
// declares: 1,000 one-byte members declaring 64 MiB windows (a 106 KB zip)
// cost 17 s of CPU and 65 GB allocated, so a 10,000-member zip ran into
// loader.timeout. The zip's members share one decoder, reset for each.
func TestZstdMembersShareADecoder(t *testing.T) {
	// a zstd frame: no content size, a 64 MiB window, one raw last block "a"
	frame := []byte{0x28, 0xB5, 0x2F, 0xFD, 0x00, 0x80, 0x09, 0x00, 0x00, 'a'}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	const n = 300
	for i := 0; i < n; i++ {
		w, err := zw.CreateRaw(&zip.FileHeader{Name: fmt.Sprintf("m%04d.txt", i), Method: methodZstd,
			CRC32: 0xE8B7BE43, CompressedSize64: uint64(len(frame)), UncompressedSize64: 1})
		if err != nil {
			t.Fatal(err)
		}
		w.Write(frame)
	}
	zw.Close()
	p := filepath.Join(t.TempDir(), "m.zip")
	os.WriteFile(p, buf.Bytes(), 0o644)
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	res, err := ExtractNamed(context.Background(), p, "m.zip", detect.Zip, document.Options{})
	runtime.ReadMemStats(&m1)
	if err != nil || len(res.Attachments) != n {
		t.Fatalf("%v, %d members landed, warnings %q", err, len(res.Attachments), res.Warnings)
	}
	if a := m1.TotalAlloc - m0.TotalAlloc; a > 1<<30 {
		t.Errorf("allocated %d MB for %d one-byte zstd members", a>>20, n)
	}
}
