package archive

import (
	"compress/bzip2"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"os"
	"path"
	"strings"

	"github.com/ulikunitz/xz"

	"github.com/docket-dev/docket/loader/internal/detect"
	"github.com/docket-dev/docket/loader/internal/document"
)

// decompress reads f's stream compressed by kind (detect.Gzip,
// detect.Bzip2, detect.Xz). The bytes come out as the reader reads them:
// the member limits count them and nothing is written to disk, so a
// bzip2 or xz bomb stops at loader.max_archive_bytes, as a gzip one.
func decompress(f *os.File, kind string) (io.ReadCloser, error) {
	switch kind {
	case detect.Gzip:
		zr, err := gzip.NewReader(f)
		if err != nil {
			return nil, document.Errorf(document.KindCorrupt, "not a readable gzip stream: %v", err)
		}
		return zr, nil
	case detect.Bzip2:
		return io.NopCloser(bzip2.NewReader(f)), nil
	case detect.Xz:
		fi, err := f.Stat()
		if err != nil {
			return nil, fmt.Errorf("archive: %w", err)
		}
		if err := detect.XzDictsOK(f, fi.Size()); err != nil {
			kind := document.KindCorrupt
			if strings.Contains(err.Error(), "dictionary") {
				kind = document.KindTooLarge
			}
			return nil, document.Errorf(kind, "%v; not unpacked", err)
		}
		zr, err := xz.NewReader(f)
		if err != nil {
			return nil, document.Errorf(document.KindCorrupt, "not a readable xz stream: %v", err)
		}
		return io.NopCloser(zr), nil
	}
	return nil, fmt.Errorf("archive: %q is no compression", kind)
}

// single is one bzip2- or xz-compressed file: one member, named after the
// archive without its .bz2/.xz.
func (r *reader) single(ctx context.Context, p, typ string) error {
	f, err := os.Open(p)
	if err != nil {
		return fmt.Errorf("archive %s: %w", p, err)
	}
	defer f.Close()
	zr, err := decompress(f, typ)
	if err != nil {
		return err
	}
	defer zr.Close()
	base := r.name[strings.LastIndexAny(r.name, "/#\\")+1:]
	name := strings.TrimSuffix(base, path.Ext(base))
	if err := r.add(ctx, name, zr); err != nil {
		return err
	}
	if len(r.lost) > 0 { // its one member: the stream is damaged
		return document.Errorf(document.KindCorrupt, "damaged %s stream: %s", typ, r.warnings[0])
	}
	return nil
}
