package pageimg

import (
	"context"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The test binary is the render worker when PAGEIMG_TEST_WORKER=1.
func TestMain(m *testing.M) {
	if os.Getenv("PAGEIMG_TEST_WORKER") == "1" {
		if err := Serve(os.Stdin, os.Stdout); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func worker(t *testing.T, timeout time.Duration) *Renderer {
	exe, _ := os.Executable()
	r := NewRenderer([]string{exe}, []string{"PAGEIMG_TEST_WORKER=1"}, timeout)
	t.Cleanup(r.Close)
	return r
}

func TestRenderPagesAndBadInput(t *testing.T) {
	r := worker(t, time.Minute)
	dir := t.TempDir()
	pdf := "../../../../examples/inbox/remote-work-policy.pdf"
	for page := 1; page <= 2; page++ {
		out := filepath.Join(dir, "p", "x.png")
		rep, err := r.Render(context.Background(), Request{Path: pdf, Page: page, MaxSide: 400, Out: out})
		if err != nil || rep.Err != "" {
			t.Fatalf("page %d: %v %s", page, err, rep.Err)
		}
		f, err := os.Open(out)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		// an A4 page (595x842 pt) with its long side at 400 px
		b := img.Bounds()
		if b.Dy() < 395 || b.Dy() > 400 || b.Dx() < 279 || b.Dx() > 285 || rep.W != b.Dx() || rep.Bytes == 0 {
			t.Errorf("page %d: %dx%d (reply %+v), want ~283x400", page, b.Dx(), b.Dy(), rep)
		}
	}
	rep, err := r.Render(context.Background(), Request{Path: pdf, Page: 3, MaxSide: 400, Out: filepath.Join(dir, "3.png")})
	if err != nil || !strings.Contains(rep.Err, "out of range") {
		t.Errorf("page 3 of 2: %v %+v", err, rep)
	}
	bad := filepath.Join(dir, "bad.pdf")
	os.WriteFile(bad, []byte("%PDF-1.7 not really"), 0o644)
	rep, err = r.Render(context.Background(), Request{Path: bad, Page: 1, MaxSide: 400, Out: filepath.Join(dir, "b.png")})
	if err != nil || rep.Err == "" {
		t.Errorf("corrupt PDF: %v %+v, want an error reply from a live worker", err, rep)
	}
	// the same worker still renders after the bad file
	if rep, err := r.Render(context.Background(), Request{Path: pdf, Page: 1, MaxSide: 200, Out: filepath.Join(dir, "again.png")}); err != nil || rep.Err != "" {
		t.Errorf("after a bad file: %v %+v", err, rep)
	}
}

// A worker that dies or hangs costs one page; the next page gets a new
// worker.
func TestWorkerCrashAndTimeout(t *testing.T) {
	r := NewRenderer([]string{"/bin/sh", "-c", `read line; echo "boom" >&2; kill -9 $$`}, nil, time.Minute)
	defer r.Close()
	_, err := r.Render(context.Background(), Request{Path: "x.pdf", Page: 1, MaxSide: 10, Out: "/dev/null"})
	if err == nil || !strings.Contains(err.Error(), "crashed") {
		t.Errorf("crash: %v", err)
	}
	h := NewRenderer([]string{"/bin/sh", "-c", `sleep 30`}, nil, 300*time.Millisecond)
	defer h.Close()
	t0 := time.Now()
	_, err = h.Render(context.Background(), Request{Path: "x.pdf", Page: 1, MaxSide: 10, Out: "/dev/null"})
	if err == nil || !strings.Contains(err.Error(), "longer than") || time.Since(t0) > 10*time.Second {
		t.Errorf("hang: %v after %s", err, time.Since(t0))
	}
	// replaced: a second request starts a new process (and times out again)
	_, err = h.Render(context.Background(), Request{Path: "x.pdf", Page: 2, MaxSide: 10, Out: "/dev/null"})
	if err == nil || !strings.Contains(err.Error(), "page 2") {
		t.Errorf("second request: %v", err)
	}
}
