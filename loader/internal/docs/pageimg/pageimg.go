// Package pageimg renders document pages to PNG for the docs site. MuPDF
// runs in a separate process (`docket docs render-worker`, Serve's side):
// a page that crashes or hangs MuPDF costs that page's picture, the
// worker is replaced and the site generation goes on. Images are cached
// by content hash and page, so a rebuild after a small load renders only
// the new contents' pages.
package pageimg

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/png"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/gen2brain/go-fitz"
)

// Version goes into the cache key: bump it when the rendering changes.
const Version = "1"

// Request asks the worker to render one page.
type Request struct {
	Path    string `json:"path"`
	Page    int    `json:"page"`     // 1-based
	MaxSide int    `json:"max_side"` // longest side in pixels
	Out     string `json:"out"`      // PNG file to write
}

// Reply is the worker's answer.
type Reply struct {
	Err   string `json:"err,omitempty"`
	W     int    `json:"w"`
	H     int    `json:"h"`
	Bytes int64  `json:"bytes"`
}

// Serve is the worker's loop: one JSON request per line on in, one JSON
// reply per line on out. The last opened document is kept open, since
// pages of a document are asked for in a row.
func Serve(in io.Reader, out io.Writer) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	enc := json.NewEncoder(out)
	var doc *fitz.Document
	var docPath string
	defer func() {
		if doc != nil {
			doc.Close()
		}
	}()
	for sc.Scan() {
		var req Request
		var rep Reply
		if err := json.Unmarshal(sc.Bytes(), &req); err != nil {
			rep.Err = "bad request: " + err.Error()
		} else {
			if docPath != req.Path {
				if doc != nil {
					doc.Close()
					doc = nil
				}
				d, err := fitz.New(req.Path)
				if err != nil {
					rep.Err = "MuPDF cannot open the file: " + err.Error()
				} else {
					doc, docPath = d, req.Path
				}
			}
			if doc != nil {
				rep = renderPage(doc, req)
			}
		}
		if err := enc.Encode(rep); err != nil {
			return err
		}
	}
	return sc.Err()
}

func renderPage(doc *fitz.Document, req Request) Reply {
	if req.Page < 1 || req.Page > doc.NumPage() {
		return Reply{Err: fmt.Sprintf("page %d out of range 1..%d", req.Page, doc.NumPage())}
	}
	b, err := doc.Bound(req.Page - 1)
	if err != nil {
		return Reply{Err: "MuPDF cannot size the page: " + err.Error()}
	}
	long := max(b.Dx(), b.Dy(), 1)
	dpi := 72 * float64(req.MaxSide) / float64(long)
	img, err := doc.ImageDPI(req.Page-1, dpi)
	if err != nil {
		return Reply{Err: "MuPDF cannot render the page: " + err.Error()}
	}
	n, err := writePNG(req.Out, img)
	if err != nil {
		return Reply{Err: err.Error()}
	}
	return Reply{W: img.Bounds().Dx(), H: img.Bounds().Dy(), Bytes: n}
}

func writePNG(path string, img image.Image) (int64, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return 0, err
	}
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return 0, err
	}
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(f, img); err != nil {
		f.Close()
		os.Remove(tmp)
		return 0, err
	}
	st, _ := f.Stat()
	if err := f.Close(); err != nil {
		return 0, err
	}
	return st.Size(), os.Rename(tmp, path)
}

// Renderer is the parent side: one worker process, restarted after a
// crash or a time-out.
type Renderer struct {
	cmd     []string
	env     []string
	timeout time.Duration

	mu     sync.Mutex
	proc   *exec.Cmd
	stdin  io.WriteCloser
	stdout *bufio.Reader
	stderr *strings.Builder
}

// NewRenderer starts workers with cmd (e.g. docket docs render-worker)
// and gives each page timeout.
func NewRenderer(cmd []string, env []string, timeout time.Duration) *Renderer {
	return &Renderer{cmd: cmd, env: env, timeout: timeout}
}

func (r *Renderer) start() error {
	c := exec.Command(r.cmd[0], r.cmd[1:]...)
	c.Env = append(os.Environ(), r.env...)
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // stop kills the worker's children too
	c.WaitDelay = 2 * time.Second
	in, err := c.StdinPipe()
	if err != nil {
		return err
	}
	out, err := c.StdoutPipe()
	if err != nil {
		return err
	}
	r.stderr = &strings.Builder{}
	c.Stderr = r.stderr
	if err := c.Start(); err != nil {
		return fmt.Errorf("pageimg: start render worker: %w", err)
	}
	r.proc, r.stdin, r.stdout = c, in, bufio.NewReader(out)
	return nil
}

func (r *Renderer) stop() {
	if r.proc == nil {
		return
	}
	r.stdin.Close()
	syscall.Kill(-r.proc.Process.Pid, syscall.SIGKILL)
	r.proc.Process.Kill()
	r.proc.Wait()
	r.proc = nil
}

// Render renders one page in the worker.
func (r *Renderer) Render(ctx context.Context, req Request) (Reply, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.proc == nil {
		if err := r.start(); err != nil {
			return Reply{}, err
		}
	}
	b, _ := json.Marshal(req)
	if _, err := r.stdin.Write(append(b, '\n')); err != nil {
		r.stop()
		return Reply{}, fmt.Errorf("pageimg: render worker gone: %w", err)
	}
	type answer struct {
		line []byte
		err  error
	}
	ch := make(chan answer, 1)
	go func() {
		line, err := r.stdout.ReadBytes('\n')
		ch <- answer{line, err}
	}()
	timer := time.NewTimer(r.timeout)
	defer timer.Stop()
	select {
	case a := <-ch:
		if a.err != nil {
			r.stop()
			return Reply{}, fmt.Errorf("pageimg: render worker crashed on %s page %d: %s", req.Path, req.Page, lastLine(r.stderr.String()))
		}
		var rep Reply
		if err := json.Unmarshal(a.line, &rep); err != nil {
			r.stop()
			return Reply{}, fmt.Errorf("pageimg: bad reply from render worker: %w", err)
		}
		return rep, nil
	case <-timer.C:
		r.stop()
		return Reply{}, fmt.Errorf("pageimg: rendering %s page %d took longer than %s: stopped", req.Path, req.Page, r.timeout)
	case <-ctx.Done():
		r.stop()
		return Reply{}, ctx.Err()
	}
}

// Close stops the worker.
func (r *Renderer) Close() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stop()
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	if s == "" {
		return "no message"
	}
	return s
}

// Cache places page images under dir (target/docs/pages) by content hash
// and page and keeps the folder under a size cap.
type Cache struct {
	Dir      string
	MaxBytes int64 // 0: no cap
	MaxSide  int
	used     int64
}

// Rel is the image's path relative to the site root.
func (c *Cache) Rel(hash string, page int) string {
	return fmt.Sprintf("pages/%s/%s-p%d-v%s-%d.png", hash[:2], hash, page, Version, c.MaxSide)
}

// Stats of one site generation's rendering.
type Stats struct {
	Rendered, Cached, Failed, Skipped int
	Bytes                             int64 // the cache's size after the run
}

// Scan measures the cache folder (existing images count against the cap).
func (c *Cache) Scan() error {
	c.used = 0
	err := filepath.WalkDir(filepath.Join(c.Dir, "pages"), func(p string, d os.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, os.ErrNotExist) {
				return nil
			}
			return err
		}
		if !d.IsDir() {
			if info, err := d.Info(); err == nil {
				c.used += info.Size()
			}
		}
		return nil
	})
	return err
}

// Has reports whether the page is cached.
func (c *Cache) Has(hash string, page int) bool {
	_, err := os.Stat(filepath.Join(c.Dir, filepath.FromSlash(c.Rel(hash, page))))
	return err == nil
}

// Full reports whether the cap is reached.
func (c *Cache) Full() bool { return c.MaxBytes > 0 && c.used >= c.MaxBytes }

// Add counts a newly written image.
func (c *Cache) Add(n int64) { c.used += n }

// Used is the cache's size in bytes.
func (c *Cache) Used() int64 { return c.used }

// Abs is the absolute file of a page image.
func (c *Cache) Abs(hash string, page int) string {
	return filepath.Join(c.Dir, filepath.FromSlash(c.Rel(hash, page)))
}
