package archive

import (
	"compress/bzip2"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"strings"

	"github.com/docket-dev/docket/loader/internal/detect"
	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/xzread"
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
		return xzStream{xzread.NewReader(f, detect.MaxXzDict)}, nil
	}
	return nil, fmt.Errorf("archive: %q is no compression", kind)
}

// xzStream is an xz file being decoded; dictTooLarge reads its error.
type xzStream struct{ *xzread.Reader }

func (xzStream) Close() error { return nil }

// dictTooLarge is the archive's too_large error when the xz stream in
// stopped at a block asking for a dictionary over detect.MaxXzDict (the
// reader refuses it before allocating anything), nil otherwise.
func dictTooLarge(in io.Reader) error {
	x, ok := in.(xzStream)
	var tl *xzread.DictTooLargeError
	if !ok || !errors.As(x.Err(), &tl) {
		return nil
	}
	return document.Errorf(document.KindTooLarge, "%v; not unpacked", tl)
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
	if err := dictTooLarge(zr); err != nil {
		return err
	}
	if len(r.lost) > 0 { // its one member: the stream is damaged
		return document.Errorf(document.KindCorrupt, "damaged %s stream: %s", typ, r.warnings[0])
	}
	return nil
}
