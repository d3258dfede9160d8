package embed

import (
	"context"
	"errors"
	"io"
	"math"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestHTTPRejectsUnusableVectors: an all-zero vector has no direction
// (cosine is undefined); it is refused with the provider and the input
// named. (NaN cannot travel in JSON; unusable checks it all the same.)
func TestHTTPRejectsUnusableVectors(t *testing.T) {
	for _, tc := range []struct{ body, want string }{
		{`{"embeddings":[[1,2,3,4,5,6,7,8],[0,0,0,0,0,0,0,0]]}`, "an all-zero vector for input 1"},
	} {
		f, srv := startFake(t, "ollama", 8)
		f.script = func(n int, w http.ResponseWriter) bool {
			_, _ = io.WriteString(w, tc.body)
			return true
		}
		p, _ := New(fastCfg("ollama", srv.URL))
		_, err := p.Embed(context.Background(), texts(2))
		if !errors.Is(err, ErrBadVector) || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "provider ollama at "+srv.URL) {
			t.Errorf("%s: got %v", tc.body, err)
		}
	}
}

// TestHTTPWrongDimensionsNamesProvider: a vector of another length than
// embedding.dimensions fails with the provider, model and both lengths.
func TestHTTPWrongDimensionsNamesProvider(t *testing.T) {
	_, srv := startFake(t, "openai", 12)
	p, _ := New(fastCfg("openai", srv.URL)) // expects 8
	_, err := p.Embed(context.Background(), texts(1))
	if !errors.Is(err, ErrDimensions) || !strings.Contains(err.Error(), "provider openai at "+srv.URL) ||
		!strings.Contains(err.Error(), `model "test-model" returned 12 dimensions for input 0, expected 8`) {
		t.Errorf("got %v", err)
	}
}

// TestHTTPHungServerCostsOneTimeout: a server that accepts and never
// answers costs one time-out, not retries of it (which made a hung
// provider block builds for minutes).
func TestHTTPHungServerCostsOneTimeout(t *testing.T) {
	release := make(chan struct{})
	f, srv := startFake(t, "openai", 8)
	f.script = func(n int, w http.ResponseWriter) bool {
		<-release
		return true
	}
	defer close(release)
	cfg := fastCfg("openai", srv.URL)
	cfg.Timeout = 200 * time.Millisecond
	cfg.MaxRetries = 0 // the default number of retries
	p, _ := New(cfg)
	t0 := time.Now()
	_, err := p.Embed(context.Background(), texts(1))
	if err == nil || !strings.Contains(err.Error(), "no answer within 200ms (embedding.timeout)") {
		t.Fatalf("got %v", err)
	}
	if n := len(f.reqs()); n != 1 {
		t.Errorf("a time-out was retried: %d requests", n)
	}
	if d := time.Since(t0); d > 2*time.Second {
		t.Errorf("hung server held the caller %s", d)
	}
	if d := (Config{Provider: "openai", Model: "m"}).WithDefaults().Timeout; d > 30*time.Second || d < 5*time.Second {
		t.Errorf("default timeout %s is not a matter of seconds", d)
	}
}

func TestUnusable(t *testing.T) {
	nan := float32(math.NaN())
	for v, want := range map[*[]float32]string{
		{0, 0, 0}: "an all-zero vector", {0, nan, 1}: "a vector with NaN or infinite values", {0, 0, 1e-30}: "",
	} {
		if got := unusable(*v); got != want {
			t.Errorf("%v: got %q want %q", *v, got, want)
		}
	}
}
