package docs

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/url"
	"os"
	"strings"

	"github.com/docket-dev/docket/loader/internal/docs/pageimg"
	"github.com/docket-dev/docket/loader/internal/warehouse"
)

// renderable types: what MuPDF opens with the same page geometry the
// extractor used (PDF pages in points, images in pixels).
var renderable = map[string]bool{"pdf": true, "png": true, "jpeg": true, "tiff": true, "bmp": true, "gif": true}

// renderJob renders the pages of one site generation.
type renderJob struct {
	s        *site
	r        *pageimg.Renderer
	cache    *pageimg.Cache
	stats    pageimg.Stats
	warnings []string
	files    map[string]string   // content hash -> verified file, "" when none
	byHash   map[string][]string // content hash -> source URIs of current documents
	fullOnce bool
}

func newRenderJob(s *site) *renderJob {
	j := &renderJob{s: s, files: map[string]string{},
		cache: &pageimg.Cache{Dir: s.dir, MaxBytes: max(s.o.MaxCacheBytes, 0), MaxSide: s.o.MaxImageSide}}
	j.byHash = map[string][]string{}
	for _, d := range s.docs {
		j.byHash[d.SourceHash] = append(j.byHash[d.SourceHash], d.SourceURI)
	}
	if err := j.cache.Scan(); err != nil {
		j.warnings = append(j.warnings, fmt.Sprintf("page images: cannot measure the cache: %v", err))
	}
	if len(s.o.RenderCmd) > 0 {
		j.r = pageimg.NewRenderer(s.o.RenderCmd, s.o.RenderEnv, s.o.RenderTimeout)
	}
	return j
}

func (j *renderJob) close() {
	if j.r != nil {
		j.r.Close()
	}
}

// pageImage is one page's picture, or why there is none.
type pageImage struct {
	Rel  string // relative to the site root
	Note string
}

// images returns the page images of a document by page number, rendering
// the ones not cached.
func (j *renderJob) images(ctx context.Context, d *warehouse.SiteDoc, c *warehouse.Content) map[int]pageImage {
	out := map[int]pageImage{}
	if c == nil || !renderable[d.DetectedType] {
		return out
	}
	for _, p := range c.Pages {
		if p.Number > j.s.o.MaxDocPages {
			out[p.Number] = pageImage{Note: fmt.Sprintf("not rendered: only the first %d pages of a document are (docs --max-doc-pages)", j.s.o.MaxDocPages)}
			j.stats.Skipped++
			continue
		}
		if j.cache.Has(d.SourceHash, p.Number) {
			out[p.Number] = pageImage{Rel: j.cache.Rel(d.SourceHash, p.Number)}
			j.stats.Cached++
			continue
		}
		if j.r == nil {
			out[p.Number] = pageImage{Note: "not rendered (no render worker)"}
			j.stats.Skipped++
			continue
		}
		if j.cache.Full() {
			if !j.fullOnce {
				j.fullOnce = true
				j.warnings = append(j.warnings, fmt.Sprintf("page images: the cache reached its cap of %d MB; further pages are not rendered (docs --max-image-mb)", j.cache.MaxBytes>>20))
			}
			out[p.Number] = pageImage{Note: "not rendered: the page-image cache is full"}
			j.stats.Skipped++
			continue
		}
		path, why := j.file(d)
		if path == "" {
			out[p.Number] = pageImage{Note: why}
			j.stats.Skipped++
			continue
		}
		rep, err := j.r.Render(ctx, pageimg.Request{Path: path, Page: p.Number, MaxSide: j.cache.MaxSide, Out: j.cache.Abs(d.SourceHash, p.Number)})
		if err == nil && rep.Err != "" {
			err = fmt.Errorf("%s", rep.Err)
		}
		if err != nil {
			j.stats.Failed++
			msg := fmt.Sprintf("page image not rendered: %v", err)
			j.warnings = append(j.warnings, fmt.Sprintf("%s page %d: %s", d.Display, p.Number, msg))
			out[p.Number] = pageImage{Note: msg}
			continue
		}
		j.cache.Add(rep.Bytes)
		j.stats.Rendered++
		out[p.Number] = pageImage{Rel: j.cache.Rel(d.SourceHash, p.Number)}
	}
	return out
}

// file finds a file holding the document's content: its own, or another
// current document's with the same bytes (an attachment has no file of
// its own). The file must still hash to the landed content.
func (j *renderJob) file(d *warehouse.SiteDoc) (string, string) {
	if p, ok := j.files[d.SourceHash]; ok {
		if p == "" {
			return "", "not rendered: no file on disk holds this content any more (changed or moved since the load?)"
		}
		return p, ""
	}
	var candidates []string
	for _, uri := range j.byHash[d.SourceHash] {
		u, err := url.Parse(uri)
		if err != nil || u.Scheme != "file" || u.Fragment != "" || strings.Contains(uri, "#") {
			continue
		}
		candidates = append(candidates, u.Path)
	}
	for _, p := range candidates {
		if h, err := fileHash(p); err == nil && h == d.SourceHash {
			j.files[d.SourceHash] = p
			return p, ""
		}
	}
	j.files[d.SourceHash] = ""
	if len(candidates) == 0 {
		return "", "not rendered: the content came out of another document (an attachment) and has no file of its own"
	}
	j.warnings = append(j.warnings, fmt.Sprintf("%s: the file changed since it was loaded: page images not rendered (run docket load)", d.Display))
	return "", "not rendered: the file changed since it was loaded (run docket load)"
}

func fileHash(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
