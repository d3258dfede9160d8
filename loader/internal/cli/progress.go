package cli

import (
	"fmt"
	"io"
	"log/slog"
	"strings"
	"time"

	"github.com/docket-dev/docket/loader/internal/loader"
)

// progress draws a bar on a terminal and logs a line per document otherwise.
type progress struct {
	w     io.Writer
	tty   bool
	log   *slog.Logger
	start time.Time
	pages int
	drawn bool
}

func newProgress(w io.Writer, tty bool, log *slog.Logger) *progress {
	return &progress{w: w, tty: tty, log: log, start: time.Now()}
}

func (p *progress) update(ev loader.Progress) {
	if p == nil {
		return
	}
	p.pages += ev.Pages
	if !p.tty {
		if ev.Reused { // pages=0 alone read as a lost document
			p.log.Info("document", "done", ev.Done, "total", ev.Total, "path", ev.Path, "pages", ev.Pages, "same_content_as_earlier", true)
			return
		}
		p.log.Info("document", "done", ev.Done, "total", ev.Total, "path", ev.Path, "pages", ev.Pages)
		return
	}
	const width = 30
	n := width * ev.Done / max(ev.Total, 1)
	rate := float64(p.pages) / time.Since(p.start).Seconds()
	path := ev.Path
	if len(path) > 40 {
		path = "…" + path[len(path)-39:]
	}
	fmt.Fprintf(p.w, "\r[%s%s] %d/%d docs %d pages %.0f pages/s %-40s", strings.Repeat("#", n), strings.Repeat(" ", width-n), ev.Done, ev.Total, p.pages, rate, path)
	p.drawn = true
}

func (p *progress) finish() {
	if p == nil {
		return
	}
	if p.drawn {
		fmt.Fprint(p.w, "\r\033[K")
	}
}
