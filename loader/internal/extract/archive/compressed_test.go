package archive

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/docket-dev/docket/loader/internal/detect"
	"github.com/docket-dev/docket/loader/internal/document"
)

// TestBzip2AndXz: tarballs compressed with bzip2 or xz, and single files
// so compressed (written by Python's tarfile, bz2 and lzma), land their
// members as .tar.gz and .gz do; they were quarantined unsupported_type
// ("type could not be recognised"). Bombs stop at the expanded-size limit
// without being unpacked, and an xz stream declaring a 4 GiB dictionary
// is refused before the decoder allocates it.
func TestBzip2AndXz(t *testing.T) {
	tarMembers := []string{"docs/a.txt=alpha", "b.md=# beta"}
	for _, c := range []struct {
		file, typ string
		want      []string
	}{
		{"x.tar.bz2", detect.TarBz2, tarMembers},
		{"x.tbz2", detect.TarBz2, tarMembers},
		{"x.tar.xz", detect.TarXz, tarMembers},
		{"x.txz", detect.TarXz, tarMembers},
		{"notes.txt.bz2", detect.Bzip2, []string{"notes.txt=delta"}},
		{"notes.txt.xz", detect.Xz, []string{"notes.txt=delta"}},
	} {
		res, typ, err := extractFixture(t, c.file, document.Options{})
		if typ != c.typ || err != nil {
			t.Fatalf("%s: detected %q (want %q), %v", c.file, typ, c.typ, err)
		}
		if got := names(res); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: members %q, want %q", c.file, got, c.want)
		}
		if res.MIME == "" || len(res.Warnings) != 0 || len(res.Reviews) != 0 {
			t.Errorf("%s: MIME %q warnings %q reviews %v", c.file, res.MIME, res.Warnings, res.Reviews)
		}
	}
	small := document.Options{MaxArchiveBytes: 64 << 10, MaxArchiveMembers: 3}
	for _, c := range []struct{ file, msg string }{
		{"bomb.bz2", "max_archive_bytes"},
		{"bomb.xz", "max_archive_bytes"},
		{"bomb.tar.xz", "zip bomb"},
		{"bigdict.xz", "dictionary larger than 64 MiB"},
	} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		res, _, err := extractFixture(t, c.file, small)
		runtime.ReadMemStats(&after)
		if kindOf(err) != document.KindTooLarge || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: got %v (result %v), want too_large mentioning %q", c.file, err, res != nil, c.msg)
		}
		if n := after.TotalAlloc - before.TotalAlloc; n > 40<<20 { // python's xz: an 8 MiB dictionary
			t.Errorf("%s: allocated %d MB", c.file, n>>20)
		}
	}
}

func extractFixture(t *testing.T, name string, opts document.Options) (*document.Result, string, error) {
	t.Helper()
	p := filepath.Join("testdata", "compressed", name)
	if _, err := os.Stat(p); err != nil {
		t.Fatal(err)
	}
	info, err := detect.Detect(p)
	if err != nil {
		t.Fatal(err)
	}
	res, err := ExtractNamed(context.Background(), p, name, info.Type, opts)
	return res, info.Type, err
}
