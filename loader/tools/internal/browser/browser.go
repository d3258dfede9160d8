// Package browser prints HTML to PDF with headless Chromium, for the
// evaluation sets that need a PDF producer no rule here was written
// against (eval-tables' and eval-rtl's browser sets). It takes an HTML
// document and returns the printed PDF and, on request, the DOM after the
// page's scripts ran.
package browser

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

// ErrNoChromium is Find's error: a set that needs Chromium is skipped on
// a machine without one (any other failure of a print is an error).
var ErrNoChromium = errors.New("no chromium on PATH (make setup-test installs Debian's)")

// Find returns Debian's chromium or another Chromium on PATH.
func Find() (string, error) {
	for _, n := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(n); err == nil {
			return p, nil
		}
	}
	return "", ErrNoChromium
}

// Printer prints HTML documents in a scratch folder.
type Printer struct {
	bin, dir string
}

// New finds Chromium and prints in dir (its profile is kept there too).
func New(dir string) (*Printer, error) {
	bin, err := Find()
	if err != nil {
		return nil, err
	}
	return &Printer{bin: bin, dir: dir}, nil
}

func (p *Printer) run(args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	// The flags of a machine with no network: without the background
	// ones Chromium tries (and fails) to reach Google's hosts.
	flags := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir=" + filepath.Join(p.dir, "profile")}
	out, err := exec.CommandContext(ctx, p.bin, append(flags, args...)...).Output()
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", p.bin, args[0], err)
	}
	return out, nil
}

// write saves the document as name.html and returns its file URL.
func (p *Printer) write(name, html string) (string, error) {
	f := filepath.Join(p.dir, name+".html")
	if err := os.WriteFile(f, []byte(html), 0o644); err != nil {
		return "", err
	}
	return "file://" + f, nil
}

// PDF prints the document (its @page rule sets the paper; no header or
// footer) and returns the PDF, also kept as name.pdf.
func (p *Printer) PDF(name, html string) ([]byte, error) {
	u, err := p.write(name, html)
	if err != nil {
		return nil, err
	}
	out := filepath.Join(p.dir, name+".pdf")
	if _, err := p.run("--no-pdf-header-footer", "--print-to-pdf="+out, u); err != nil {
		return nil, err
	}
	return os.ReadFile(out)
}

// DOM lays the document out in a window of w x h CSS pixels and returns
// the DOM after its scripts ran.
func (p *Printer) DOM(name, html string, w, h int) ([]byte, error) {
	u, err := p.write(name, html)
	if err != nil {
		return nil, err
	}
	return p.run(fmt.Sprintf("--window-size=%d,%d", w, h), "--dump-dom", u)
}
