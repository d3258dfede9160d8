package archive

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/detect"
	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/extract/extracttest"
)

type member struct{ name, data string }

func zipBytes(t *testing.T, ms ...member) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, m := range ms {
		if strings.HasSuffix(m.name, "/") {
			if _, err := zw.Create(m.name); err != nil {
				t.Fatal(err)
			}
			continue
		}
		w, err := zw.Create(m.name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(m.data))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func tarBytes(t *testing.T, ms ...member) []byte {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, m := range ms {
		h := &tar.Header{Name: m.name, Mode: 0o644, Size: int64(len(m.data)), Typeflag: tar.TypeReg}
		switch {
		case strings.HasSuffix(m.name, "/"):
			h.Typeflag, h.Size = tar.TypeDir, 0
		case strings.HasPrefix(m.data, "->"):
			h.Typeflag, h.Size, h.Linkname = tar.TypeSymlink, 0, m.data[2:]
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if h.Typeflag == tar.TypeReg {
			tw.Write([]byte(m.data))
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func gz(t *testing.T, name string, data []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Name = name
	zw.Write(data)
	zw.Close()
	return buf.Bytes()
}

// extract writes data to a file, detects it and extracts it.
func extract(t *testing.T, name string, data []byte, opts document.Options) (*document.Result, string, error) {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	info, err := detect.Detect(p)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Extract(context.Background(), p, info.Type, opts)
	return res, info.Type, err
}

func names(res *document.Result) []string {
	var out []string
	for _, a := range res.Attachments {
		out = append(out, a.Name+"="+string(a.Data))
	}
	return out
}

func TestFormats(t *testing.T) {
	ms := []member{{"docs/", ""}, {"docs/a.txt", "alpha"}, {"b.md", "# beta"}}
	inner := zipBytes(t, member{"c.txt", "gamma"})
	cases := []struct {
		file, typ string
		data      []byte
		want      []string
	}{
		{"x.zip", detect.Zip, zipBytes(t, append(ms, member{"inner.zip", string(inner)})...), []string{"docs/a.txt=alpha", "b.md=# beta", "inner.zip=" + string(inner)}},
		{"x.tar", detect.Tar, tarBytes(t, append(ms, member{"link", "->b.md"})...), []string{"docs/a.txt=alpha", "b.md=# beta"}},
		{"x.tar.gz", detect.TarGz, gz(t, "", tarBytes(t, ms...)), []string{"docs/a.txt=alpha", "b.md=# beta"}},
		{"x.tgz", detect.TarGz, gz(t, "", tarBytes(t, ms...)), []string{"docs/a.txt=alpha", "b.md=# beta"}},
		{"notes.txt.gz", detect.Gzip, gz(t, "", []byte("delta")), []string{"notes.txt=delta"}},
		{"named.gz", detect.Gzip, gz(t, "orig.csv", []byte("a,b")), []string{"orig.csv=a,b"}},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			res, typ, err := extract(t, c.file, c.data, document.Options{})
			if typ != c.typ {
				t.Fatalf("detected %q, want %q", typ, c.typ)
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := names(res); !reflect.DeepEqual(got, c.want) {
				t.Errorf("members %q, want %q", got, c.want)
			}
			for i, e := range res.Elements {
				if e.Text != res.Attachments[i].Name {
					t.Errorf("element %d %+v does not name member %d", i, e, i)
				}
			}
			extracttest.Golden(t, "archive-"+c.file, res, err)
		})
	}
}

func kindOf(err error) string {
	var de *document.Error
	if errors.As(err, &de) {
		return de.Kind
	}
	return ""
}

// TestLimits: a zip bomb (declared or real expansion over the limit), too
// many members and a damaged archive are quarantined with the reason.
func TestLimits(t *testing.T) {
	zeros := strings.Repeat("\x00", 1<<20)
	small := document.Options{MaxArchiveBytes: 64 << 10, MaxArchiveMembers: 3}
	cases := []struct {
		file string
		data []byte
		kind string
		msg  string
	}{
		{"bomb.zip", zipBytes(t, member{"a.bin", zeros}), document.KindTooLarge, "zip bomb"},
		{"bomb.tar.gz", gz(t, "", tarBytes(t, member{"a.bin", zeros})), document.KindTooLarge, "zip bomb"},
		{"bomb.gz", gz(t, "a.bin", []byte(zeros)), document.KindTooLarge, "max_archive_bytes"},
		{"many.zip", zipBytes(t, member{"1", "x"}, member{"2", "x"}, member{"3", "x"}, member{"4", "x"}), document.KindTooLarge, "max_archive_members"},
		{"many.tar", tarBytes(t, member{"1", "x"}, member{"2", "x"}, member{"3", "x"}, member{"4", "x"}), document.KindTooLarge, "max_archive_members"},
		{"cut.zip", zipBytes(t, member{"a.txt", "alpha"})[:30], document.KindCorrupt, "zip"},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			res, _, err := extract(t, c.file, c.data, small)
			extracttest.Golden(t, "limit-"+c.file, res, err)
			if kindOf(err) != c.kind || !strings.Contains(err.Error(), c.msg) {
				t.Fatalf("got %v (result %v), want %s mentioning %q", err, res != nil, c.kind, c.msg)
			}
		})
	}
	// A zip whose header understates the size is stopped by the bytes read.
	data := zipBytes(t, member{"a.bin", zeros})
	liar := bytes.ReplaceAll(data, []byte{0, 0, 16, 0}, []byte{10, 0, 0, 0}) // uncompressed size 1 MiB → 10
	if bytes.Equal(liar, data) {
		t.Fatal("size field not found")
	}
	res, _, err := extract(t, "liar.zip", liar, small)
	switch {
	case err != nil && kindOf(err) != document.KindTooLarge:
		t.Errorf("understated zip: %v", err)
	case err == nil && (len(res.Attachments) != 0 || len(res.Warnings) != 1):
		t.Errorf("understated zip landed %d members, warnings %q", len(res.Attachments), res.Warnings)
	}
	// Under the limits everything comes out.
	if res, _, err := extract(t, "ok.zip", zipBytes(t, member{"a.bin", zeros[:1000]}), small); err != nil || len(res.Attachments) != 1 {
		t.Errorf("small archive: %v", err)
	}
}

func TestEmptyArchive(t *testing.T) {
	res, _, err := extract(t, "empty.zip", zipBytes(t, member{"dir/", ""}), document.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Attachments) != 0 || len(res.Reviews) != 1 || res.Reviews[0].Code != document.ReviewNoText {
		t.Errorf("empty archive: %+v", res.Reviews)
	}
}

// TestUnreadableMembersFlagged: a member that cannot be read (its data
// longer than its header says, encrypted, the rest of a damaged tar) does
// not land, and the archive says so in a review, not only in a warning
// (a damaged tar's names the last member read, not "1 file(s) ... :
// whatever follows member 1");
// an archive of which nothing could be read is not "holds no files". A
// damaged .gz is quarantined corrupt.
func TestUnreadableMembersFlagged(t *testing.T) {
	liarOf := func(ms ...member) []byte {
		data := zipBytes(t, ms...)
		out := bytes.ReplaceAll(data, []byte{0, 0, 16, 0}, []byte{10, 0, 0, 0}) // 1 MiB → 10
		if bytes.Equal(out, data) {
			t.Fatal("size field not found")
		}
		return out
	}
	zeros := strings.Repeat("\x00", 1<<20)
	var enc bytes.Buffer
	zw := zip.NewWriter(&enc)
	w, _ := zw.CreateHeader(&zip.FileHeader{Name: "ok.txt", Method: zip.Deflate})
	w.Write([]byte("fine"))
	w, _ = zw.CreateHeader(&zip.FileHeader{Name: "locked.txt", Method: zip.Store, Flags: 0x1})
	w.Write([]byte("scrambled"))
	zw.Close()
	cut := tarBytes(t, member{"a.txt", "alpha"}, member{"b.txt", strings.Repeat("b", 2000)})
	cases := []struct {
		file   string
		data   []byte
		landed int
		lost   string
	}{
		{"liar.zip", liarOf(member{"big.bin", zeros}), 0, "big.bin"},
		{"half.zip", liarOf(member{"a.txt", "alpha"}, member{"big.bin", zeros}), 1, "big.bin"},
		{"locked.zip", enc.Bytes(), 1, "locked.txt"},
		{"cut.tar", cut[:1200], 1, `the archive is damaged after member "a.txt": whatever files follow it could not be read`},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			res, _, err := extract(t, c.file, c.data, document.Options{})
			if err != nil {
				t.Fatal(err)
			}
			codes := map[string]string{}
			for _, v := range res.Reviews {
				codes[v.Code] = v.Message
			}
			if len(res.Attachments) != c.landed {
				t.Errorf("%d members landed, want %d", len(res.Attachments), c.landed)
			}
			if m := codes[document.ReviewMembersUnreadable]; !strings.Contains(m, c.lost) || strings.HasSuffix(c.file, ".tar") && strings.Contains(m, "file(s)") {
				t.Errorf("reviews %q: want %s naming %q (and no count of files for a damaged tar: they are unknown)", codes, document.ReviewMembersUnreadable, c.lost)
			}
			if c.file == "cut.tar" && (len(res.Warnings) != 1 || !strings.HasPrefix(res.Warnings[0], `the archive is damaged after member "a.txt" (its 1st): `)) {
				t.Errorf("warnings %q: want one naming the last member read", res.Warnings)
			}
			if m, ok := codes[document.ReviewNoText]; ok != (c.landed == 0) || strings.Contains(m, "holds no files") {
				t.Errorf("no_text review %q (flagged %v), want one only when nothing landed, not 'holds no files'", m, ok)
			}
		})
	}
	gzData := gz(t, "notes.txt", []byte(strings.Repeat("some words ", 500)))
	if _, _, err := extract(t, "cut.txt.gz", gzData[:len(gzData)/2], document.Options{}); kindOf(err) != document.KindCorrupt {
		t.Errorf("damaged .gz: %v, want quarantined corrupt", err)
	}
}

// TestGzipMemberNamedAfterDocument: a .gz without a name in its header
// names its member after the document's own name, not after the path it
// was read from (the loader's private copy, named by hash).
func TestGzipMemberNamedAfterDocument(t *testing.T) {
	p := filepath.Join(t.TempDir(), "0f3a9c.gz")
	os.WriteFile(p, gz(t, "", []byte("delta")), 0o644)
	for name, want := range map[string]string{"logs/notes.txt.gz": "notes.txt", "bundle.zip#dir/rows.csv.gz": "rows.csv", "": "0f3a9c"} {
		res, err := ExtractNamed(context.Background(), p, name, detect.Gzip, document.Options{})
		if err != nil || len(res.Attachments) != 1 || res.Attachments[0].Name != want {
			t.Errorf("%q: %v %v, want one member %q", name, err, names(res), want)
		}
	}
}
