// Package archive opens containers (.zip, .tar, .tar.gz/.bz2/.xz, and one
// file compressed by .gz, .bz2 or .xz) and returns their members as
// attachments, which the loader lands as child documents
// through the whole pipeline, as it does e-mail attachments. It takes the
// archive's path and the detected type and produces one page listing the
// members (one ListItem each) plus the members' bytes.
//
// Members are read into memory only, never written out here, under three
// limits (Options, from project.yaml's loader section): a member count, a
// total expanded size, and the same total per member. An archive over a
// limit is quarantined as too_large before any member is returned (a zip
// bomb never reaches the disk). Nested archives are members like any other;
// the loader's max_attachment_depth bounds the nesting.
package archive

import (
	"archive/tar"
	"archive/zip"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"strings"
	"unicode/utf8"

	"github.com/docket-dev/docket/loader/internal/detect"
	"github.com/docket-dev/docket/loader/internal/document"
	"github.com/docket-dev/docket/loader/internal/extract/version"
)

// Version is recorded as the pages' extractor_version.
const Version = version.Archive

// Defaults when Options leave the limits at 0.
const (
	DefaultMaxMembers = 10000
	DefaultMaxBytes   = 256 << 20
)

type limits struct {
	members int
	bytes   int64
}

func limitsOf(opts document.Options) limits {
	l := limits{members: opts.MaxArchiveMembers, bytes: opts.MaxArchiveBytes}
	if l.members <= 0 {
		l.members = DefaultMaxMembers
	}
	if l.bytes <= 0 {
		l.bytes = DefaultMaxBytes
	}
	return l
}

// reader collects members under the limits.
type reader struct {
	lim     limits
	total   int64
	members []document.Attachment
	skipped int      // directories, links and other non-files
	lost    []string // files that could not be read (damaged, encrypted): flagged
	// cutAfter is the last member read before the archive's damage when
	// whatever followed it could not be read (its members are unknown).
	cutAfter string
	warnings []string
	name     string // the archive's own name (see ExtractNamed)
}

// unreadable records what of the archive does not land, and why: the
// member named name, or (name "") whatever follows the members read so
// far, where the archive is damaged and no further member can be told.
// The result flags both (see result).
func (r *reader) unreadable(name, why string) {
	if name == "" {
		r.cutAfter = r.members[len(r.members)-1].Name
		r.warnings = append(r.warnings, fmt.Sprintf("the archive is damaged after member %q (its %s): %s; whatever follows it was not read", r.cutAfter, ordinal(len(r.members)), why))
		return
	}
	r.lost = append(r.lost, name)
	r.warnings = append(r.warnings, fmt.Sprintf("member %q %s (skipped)", name, why))
}

// ordinal is "1st", "2nd", "3rd", "4th", ...
func ordinal(n int) string {
	suffix := "th"
	if n%100 < 11 || n%100 > 13 {
		switch n % 10 {
		case 1:
			suffix = "st"
		case 2:
			suffix = "nd"
		case 3:
			suffix = "rd"
		}
	}
	return fmt.Sprint(n) + suffix
}

func (r *reader) tooMany() error {
	return document.Errorf(document.KindTooLarge, "the archive has more than %d members (loader.max_archive_members); not unpacked", r.lim.members)
}

func (r *reader) tooBig(declared bool) error {
	how := "expands"
	if declared {
		how = "declares it expands"
	}
	return document.Errorf(document.KindTooLarge, "the archive %s to more than %s (loader.max_archive_bytes), a possible zip bomb; not unpacked", how, size(r.lim.bytes))
}

// add reads one member from rc, counting against the limits.
func (r *reader) add(ctx context.Context, name string, rc io.Reader) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if len(r.members) >= r.lim.members {
		return r.tooMany()
	}
	left := r.lim.bytes - r.total
	data, err := io.ReadAll(io.LimitReader(rc, left+1))
	r.total += int64(len(data))
	if r.total > r.lim.bytes {
		return r.tooBig(false)
	}
	if err != nil {
		r.unreadable(name, "could not be read: "+err.Error())
		return nil
	}
	r.members = append(r.members, document.Attachment{Name: cleanName(name), Data: data})
	return nil
}

// cleanName makes a member path relative and slash-separated, and valid
// UTF-8 (zip names in legacy code pages are read as Latin-1).
func cleanName(name string) string {
	name = strings.ReplaceAll(name, "\\", "/")
	if !utf8.ValidString(name) {
		rs := make([]rune, 0, len(name))
		for i := 0; i < len(name); i++ {
			rs = append(rs, rune(name[i]))
		}
		name = string(rs)
	}
	return strings.TrimPrefix(path.Clean("/"+name), "/")
}

// Extract opens the archive at p (typ is detect.Zip, detect.Tar,
// detect.TarGz, detect.TarBz2, detect.TarXz, detect.Gzip, detect.Bzip2 or
// detect.Xz).
func Extract(ctx context.Context, p, typ string, opts document.Options) (*document.Result, error) {
	return ExtractNamed(ctx, p, p, typ, opts)
}

// ExtractNamed is Extract of a file read from p whose own name (its
// relative path, "a.zip#b/c.gz" for a member) is name: a .gz without a
// name in its header names its member after it, not after p, which the
// loader's private copy or staged bytes named by hash (the member's
// document changed name on every extraction: deleted, landed anew).
func ExtractNamed(ctx context.Context, p, name, typ string, opts document.Options) (*document.Result, error) {
	if name == "" {
		name = p
	}
	r := &reader{lim: limitsOf(opts), name: name}
	var err error
	switch typ {
	case detect.Zip:
		err = r.zip(ctx, p)
	case detect.Tar:
		err = r.tarFile(ctx, p, "")
	case detect.TarGz:
		err = r.tarFile(ctx, p, detect.Gzip)
	case detect.TarBz2:
		err = r.tarFile(ctx, p, detect.Bzip2)
	case detect.TarXz:
		err = r.tarFile(ctx, p, detect.Xz)
	case detect.Gzip:
		err = r.gzip(ctx, p)
	case detect.Bzip2, detect.Xz:
		err = r.single(ctx, p, typ)
	default:
		return nil, fmt.Errorf("archive: type %q is not an archive", typ)
	}
	if err != nil {
		return nil, err
	}
	return r.result(typ), nil
}

func (r *reader) zip(ctx context.Context, p string) error {
	zr, err := zip.OpenReader(p)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) || errors.Is(err, os.ErrPermission) {
			return fmt.Errorf("archive %s: %w", p, err)
		}
		return document.Errorf(document.KindCorrupt, "not a readable zip archive: %v", err)
	}
	defer zr.Close()
	// Declared sizes first: a bomb is refused before anything is inflated
	// (the reads below still count real bytes, since declarations can lie).
	var declared uint64
	files := 0
	for _, f := range zr.File {
		if f.FileInfo().IsDir() {
			continue
		}
		files++
		declared += f.UncompressedSize64
		if files > r.lim.members {
			return r.tooMany()
		}
		if declared > uint64(r.lim.bytes) {
			return r.tooBig(true)
		}
	}
	decs := &zipDecoders{}
	defer decs.close()
	for _, f := range zr.File {
		if !f.Mode().IsRegular() {
			r.skipped++
			continue
		}
		if f.Flags&0x1 != 0 {
			r.unreadable(f.Name, "is encrypted")
			continue
		}
		if why := methodUnknown(f.Method); why != "" {
			r.unreadable(f.Name, why)
			continue
		}
		registerMethods(&zr.Reader, f, decs)
		rc, err := f.Open()
		if err != nil {
			r.unreadable(f.Name, "could not be read: "+err.Error())
			continue
		}
		err = r.add(ctx, f.Name, &zipMember{rc: rc, declared: f.UncompressedSize64})
		rc.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

// tarFile reads a tar, compressed by kind (detect.Gzip, detect.Bzip2,
// detect.Xz; "" for none).
func (r *reader) tarFile(ctx context.Context, p string, kind string) error {
	f, err := os.Open(p)
	if err != nil {
		return fmt.Errorf("archive %s: %w", p, err)
	}
	defer f.Close()
	var in io.Reader = f
	if kind != "" {
		zr, err := decompress(f, kind)
		if err != nil {
			return err
		}
		defer zr.Close()
		in = zr
	}
	tr := tar.NewReader(in)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if derr := dictTooLarge(in); derr != nil {
			return derr
		}
		if err != nil {
			if len(r.members) == 0 {
				return document.Errorf(document.KindCorrupt, "not a readable tar archive: %v", err)
			}
			r.unreadable("", err.Error())
			break
		}
		if h.Typeflag != tar.TypeReg {
			r.skipped++
			continue
		}
		if h.Size > r.lim.bytes-r.total {
			return r.tooBig(true)
		}
		if err := r.add(ctx, h.Name, tr); err != nil {
			return err
		}
	}
	return nil
}

// gzip is a single compressed file: one member, named after the gzip
// header's name or the archive's name without .gz.
func (r *reader) gzip(ctx context.Context, p string) error {
	f, err := os.Open(p)
	if err != nil {
		return fmt.Errorf("archive %s: %w", p, err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return document.Errorf(document.KindCorrupt, "not a readable gzip stream: %v", err)
	}
	defer zr.Close()
	name := zr.Name
	if name == "" {
		base := r.name[strings.LastIndexAny(r.name, "/#\\")+1:]
		name = strings.TrimSuffix(base, path.Ext(base))
	}
	if err := r.add(ctx, name, zr); err != nil {
		return err
	}
	if len(r.lost) > 0 { // its one member: the stream is damaged
		return document.Errorf(document.KindCorrupt, "damaged gzip stream: %s", r.warnings[0])
	}
	return nil
}

// result is one page listing the members, with the members attached.
func (r *reader) result(typ string) *document.Result {
	res := &document.Result{Type: typ, MIME: detect.MIMEOf(typ), ExtractorVersion: Version, Warnings: r.warnings, Attachments: r.members}
	var sb strings.Builder
	pos := 0
	for i, m := range r.members {
		if i > 0 {
			sb.WriteString("\n")
			pos++
		}
		n := utf8.RuneCountInString(m.Name)
		res.Elements = append(res.Elements, document.Element{Page: 1, Seq: i, Category: document.ListItem, Text: m.Name,
			CharStart: pos, CharEnd: pos + n, Level: 1, TableSeq: -1})
		sb.WriteString(m.Name)
		pos += n
	}
	text := sb.String()
	res.Pages = []document.Page{{Number: 1, Text: text, Method: document.MethodNative, CharCount: document.RealChars(text)}}
	// A member that did not land is a lost document: said, not only
	// warned (an understated size read as "holds no files").
	var lost []string
	if len(r.lost) > 0 {
		names := r.lost
		if len(names) > 5 {
			names = append(names[:5:5], fmt.Sprintf("and %d more", len(r.lost)-5))
		}
		lost = append(lost, fmt.Sprintf("%d file(s) in the archive could not be read (damaged, encrypted, compressed by a method docket cannot decompress, or larger than declared) and did not land: %s",
			len(r.lost), strings.Join(names, ", ")))
	}
	if r.cutAfter != "" {
		lost = append(lost, fmt.Sprintf("the archive is damaged after member %q: whatever files follow it could not be read and did not land", r.cutAfter))
	}
	if len(lost) > 0 {
		res.Flag(0, document.ReviewMembersUnreadable, "%s", strings.Join(lost, "; "))
	}
	switch {
	case len(r.members) == 0 && len(r.lost) > 0:
		res.Flag(0, document.ReviewNoText, "none of the archive's files could be read; nothing landed from it")
	case len(r.members) == 0:
		res.Flag(0, document.ReviewNoText, "the archive holds no files (%d directories, links or other entries)", r.skipped)
	}
	res.Metadata.PageCount = 1
	res.Metadata.Extra = map[string]string{"members": fmt.Sprint(len(r.members)), "expanded_bytes": fmt.Sprint(r.total)}
	return res
}

func size(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
