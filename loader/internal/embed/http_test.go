package embed

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeServer speaks the OpenAI or Ollama embeddings wire format. Each text
// gets the vector [len(text), i, 0, ...] of length dims; status, when set,
// scripts the answer to the n-th request (0-based) before the normal one.
type fakeServer struct {
	t      *testing.T
	wire   string // "openai" or "ollama"
	dims   int
	script func(n int, w http.ResponseWriter) bool // true: answered, stop

	mu       sync.Mutex
	requests []fakeRequest
}

type fakeRequest struct {
	Path, Auth, ContentType string
	Body                    map[string]any
	Input                   []string
}

func (f *fakeServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	raw, _ := io.ReadAll(r.Body)
	var body map[string]any
	if err := json.Unmarshal(raw, &body); err != nil {
		f.t.Errorf("request body is not JSON: %v: %s", err, raw)
	}
	var in struct{ Input []string }
	_ = json.Unmarshal(raw, &in)
	f.mu.Lock()
	n := len(f.requests)
	f.requests = append(f.requests, fakeRequest{r.URL.Path, r.Header.Get("Authorization"), r.Header.Get("Content-Type"), body, in.Input})
	f.mu.Unlock()
	if r.Method != http.MethodPost {
		http.Error(w, "want POST", http.StatusMethodNotAllowed)
		return
	}
	if f.script != nil && f.script(n, w) {
		return
	}
	vec := func(i int, s string) []float32 {
		v := make([]float32, f.dims)
		v[0], v[1] = float32(len(s)), float32(i)
		return v
	}
	w.Header().Set("Content-Type", "application/json")
	switch f.wire {
	case "openai":
		type item struct {
			Object    string    `json:"object"`
			Index     int       `json:"index"`
			Embedding []float32 `json:"embedding"`
		}
		var data []item
		for i := len(in.Input) - 1; i >= 0; i-- { // reversed: the client must sort by index
			data = append(data, item{"embedding", i, vec(i, in.Input[i])})
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data, "model": body["model"]})
	case "ollama":
		var embs [][]float32
		for i, s := range in.Input {
			embs = append(embs, vec(i, s))
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"model": body["model"], "embeddings": embs})
	}
}

func (f *fakeServer) reqs() []fakeRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]fakeRequest(nil), f.requests...)
}

func startFake(t *testing.T, wire string, dims int) (*fakeServer, *httptest.Server) {
	f := &fakeServer{t: t, wire: wire, dims: dims}
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	return f, srv
}

// fastCfg is a config with tiny backoffs for tests.
func fastCfg(provider, base string) Config {
	return Config{Provider: provider, Model: "test-model", Dimensions: 8, BaseURL: base, BatchSize: 4,
		Timeout: 2 * time.Second, RetryBase: time.Millisecond, RetryMax: 20 * time.Millisecond}
}

func texts(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = strings.Repeat("x", i+1) // vector[0] = len = i+1 identifies the text
	}
	return out
}

func TestHTTPRequestShapeAndBatching(t *testing.T) {
	for _, tc := range []struct {
		wire, base, path string
	}{
		{"openai", "", "/v1/embeddings"},
		{"openai", "/v1", "/v1/embeddings"}, // base already ends in /v1: not doubled
		{"openai", "/v1/", "/v1/embeddings"},
		{"ollama", "", "/api/embed"},
	} {
		t.Run(tc.wire+tc.base, func(t *testing.T) {
			f, srv := startFake(t, tc.wire, 8)
			t.Setenv("DOCKET_TEST_KEY", "sk-test-123")
			cfg := fastCfg(tc.wire, srv.URL+tc.base)
			cfg.APIKeyEnv = "DOCKET_TEST_KEY"
			p, err := New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			in := texts(10)
			got, err := p.Embed(context.Background(), in)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 10 {
				t.Fatalf("got %d vectors", len(got))
			}
			for i, v := range got {
				if int(v[0]) != i+1 || len(v) != 8 {
					t.Errorf("vector %d = %v: not in input order", i, v)
				}
			}
			reqs := f.reqs()
			if len(reqs) != 3 {
				t.Fatalf("10 texts with batch 4: want 3 requests, got %d", len(reqs))
			}
			wantSizes := []int{4, 4, 2}
			for i, r := range reqs {
				if r.Path != tc.path || r.Auth != "Bearer sk-test-123" || r.ContentType != "application/json" {
					t.Errorf("request %d: path %q auth %q type %q", i, r.Path, r.Auth, r.ContentType)
				}
				if r.Body["model"] != "test-model" {
					t.Errorf("request %d: model %v", i, r.Body["model"])
				}
				if _, ok := r.Body["dimensions"]; ok {
					t.Errorf("request %d: dimensions sent without send_dimensions", i)
				}
				if !reflect.DeepEqual(r.Input, in[4*i:4*i+wantSizes[i]]) {
					t.Errorf("request %d: input %q", i, r.Input)
				}
			}
			wantID := tc.wire + ":test-model"
			if p.ModelID() != wantID || p.Name() != tc.wire || p.Dimensions() != 8 {
				t.Errorf("got %s %s %d", p.ModelID(), p.Name(), p.Dimensions())
			}
		})
	}
}

func TestHTTPSendDimensionsAndNoKey(t *testing.T) {
	f, srv := startFake(t, "openai", 8)
	cfg := fastCfg("openai", srv.URL)
	cfg.SendDimensions = true
	p, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Embed(context.Background(), []string{"a"}); err != nil {
		t.Fatal(err)
	}
	r := f.reqs()[0]
	if r.Body["dimensions"] != float64(8) || r.Auth != "" {
		t.Errorf("body %v auth %q", r.Body, r.Auth)
	}
	if p.ModelID() != "openai:test-model/8" {
		t.Errorf("ModelID %s", p.ModelID())
	}
}

func TestHTTPEmptyInputSendsNothing(t *testing.T) {
	f, srv := startFake(t, "ollama", 8)
	p, _ := New(fastCfg("ollama", srv.URL))
	got, err := p.Embed(context.Background(), nil)
	if err != nil || len(got) != 0 || len(f.reqs()) != 0 {
		t.Errorf("got %v %v, %d requests", got, err, len(f.reqs()))
	}
}

func TestHTTP429ThenSuccess(t *testing.T) {
	for _, wire := range []string{"openai", "ollama"} {
		t.Run(wire, func(t *testing.T) {
			f, srv := startFake(t, wire, 8)
			f.script = func(n int, w http.ResponseWriter) bool {
				if n == 0 {
					w.Header().Set("Retry-After", "0")
					http.Error(w, `{"error":{"message":"Rate limit reached"}}`, http.StatusTooManyRequests)
					return true
				}
				return false
			}
			p, _ := New(fastCfg(wire, srv.URL))
			got, err := p.Embed(context.Background(), texts(3))
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 3 || len(f.reqs()) != 2 {
				t.Errorf("got %d vectors after %d requests, want 3 after 2", len(got), len(f.reqs()))
			}
		})
	}
}

func TestHTTP500StormClearError(t *testing.T) {
	f, srv := startFake(t, "openai", 8)
	f.script = func(n int, w http.ResponseWriter) bool {
		http.Error(w, "upstream model crashed\n\n  (CUDA out of memory)", http.StatusInternalServerError)
		return true
	}
	p, _ := New(fastCfg("openai", srv.URL+"/v1"))
	_, err := p.Embed(context.Background(), texts(2))
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("want *Error, got %v", err)
	}
	want := "embed: provider openai at " + srv.URL + "/v1/embeddings: HTTP 500 after 4 attempts: upstream model crashed (CUDA out of memory)"
	if err.Error() != want {
		t.Errorf("error\n got %s\nwant %s", err, want)
	}
	if e.Status != 500 || e.Attempts != 1+DefaultMaxRetries || len(f.reqs()) != 1+DefaultMaxRetries {
		t.Errorf("status %d attempts %d requests %d", e.Status, e.Attempts, len(f.reqs()))
	}
}

func TestHTTPClientErrorNotRetried(t *testing.T) {
	f, srv := startFake(t, "ollama", 8)
	f.script = func(n int, w http.ResponseWriter) bool {
		http.Error(w, `{"error":"model \"test-model\" not found, try pulling it first"}`, http.StatusNotFound)
		return true
	}
	p, _ := New(fastCfg("ollama", srv.URL))
	_, err := p.Embed(context.Background(), texts(1))
	want := "embed: provider ollama at " + srv.URL + `/api/embed: HTTP 404: model "test-model" not found, try pulling it first`
	if err == nil || err.Error() != want || len(f.reqs()) != 1 {
		t.Errorf("got %v after %d requests, want %s after 1", err, len(f.reqs()), want)
	}
}

func TestHTTPUnauthorizedNamesKeyVariable(t *testing.T) {
	f, srv := startFake(t, "openai", 8)
	f.script = func(n int, w http.ResponseWriter) bool {
		http.Error(w, `{"error":{"message":"Incorrect API key provided"}}`, http.StatusUnauthorized)
		return true
	}
	t.Setenv("DOCKET_TEST_KEY", "wrong")
	cfg := fastCfg("openai", srv.URL)
	cfg.APIKeyEnv = "DOCKET_TEST_KEY"
	p, _ := New(cfg)
	_, err := p.Embed(context.Background(), texts(1))
	if err == nil || !strings.Contains(err.Error(), "HTTP 401: Incorrect API key provided: check the API key in $DOCKET_TEST_KEY") {
		t.Errorf("got %v", err)
	}
}

func TestHTTPWrongDimension(t *testing.T) {
	for _, wire := range []string{"openai", "ollama"} {
		t.Run(wire, func(t *testing.T) {
			_, srv := startFake(t, wire, 12) // server answers 12, config says 8
			p, _ := New(fastCfg(wire, srv.URL))
			_, err := p.Embed(context.Background(), texts(2))
			if !errors.Is(err, ErrDimensions) {
				t.Fatalf("want ErrDimensions, got %v", err)
			}
			if !strings.Contains(err.Error(), "provider "+wire+" at "+srv.URL) ||
				!strings.Contains(err.Error(), `model "test-model" returned 12 dimensions for input 0, expected 8`) {
				t.Errorf("unclear message: %v", err)
			}
		})
	}
}

func TestHTTPDimensionsLearned(t *testing.T) {
	_, srv := startFake(t, "ollama", 12)
	cfg := fastCfg("ollama", srv.URL)
	cfg.Dimensions = 0
	p, _ := New(cfg)
	if p.Dimensions() != 0 {
		t.Fatal("dimensions known before any answer")
	}
	d, err := Probe(context.Background(), p)
	if err != nil || d != 12 || p.Dimensions() != 12 {
		t.Errorf("Probe = %d, %v; Dimensions %d", d, err, p.Dimensions())
	}
}

func TestHTTPWrongCount(t *testing.T) {
	f, srv := startFake(t, "ollama", 8)
	f.script = func(n int, w http.ResponseWriter) bool {
		_, _ = io.WriteString(w, `{"embeddings":[[1,2,3,4,5,6,7,8]]}`)
		return true
	}
	p, _ := New(fastCfg("ollama", srv.URL))
	_, err := p.Embed(context.Background(), texts(2))
	if !errors.Is(err, ErrProtocol) || !strings.Contains(err.Error(), "sent 2 texts, got 1 vectors") {
		t.Errorf("got %v", err)
	}
}

func TestHTTPServerDown(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := "http://" + ln.Addr().String()
	ln.Close() // nobody listens there now
	for _, wire := range []string{"openai", "ollama"} {
		cfg := fastCfg(wire, addr)
		cfg.MaxRetries = 2
		p, _ := New(cfg)
		_, err := p.Embed(context.Background(), texts(1))
		var e *Error
		if !errors.As(err, &e) || e.Attempts != 3 || e.Status != 0 {
			t.Fatalf("%s: got %v", wire, err)
		}
		msg := err.Error()
		if !strings.HasPrefix(msg, "embed: provider "+wire+" at "+addr+"/") || !strings.Contains(msg, "after 3 attempts") ||
			!strings.Contains(msg, "connection refused") {
			t.Errorf("%s: unclear message: %s", wire, msg)
		}
	}
}

func TestHTTPTimeout(t *testing.T) {
	f, srv := startFake(t, "openai", 8)
	// The handler answers only after the client has given up, however
	// slow the machine: no sleep races the 50 ms time-out.
	release := make(chan struct{})
	f.script = func(n int, w http.ResponseWriter) bool {
		<-release
		return false
	}
	cfg := fastCfg("openai", srv.URL)
	cfg.Timeout = 50 * time.Millisecond
	cfg.MaxRetries = -1 // never retry
	p, _ := New(cfg)
	_, err := p.Embed(context.Background(), texts(1))
	close(release)
	// On a loaded machine the 50 ms can pass before the server's handler
	// records the request: wait for the handler, then count. The point is
	// that a time-out is never retried (at most one request).
	srv.Close()
	if err == nil || !strings.Contains(err.Error(), "no answer within 50ms (embedding.timeout)") || len(f.reqs()) > 1 {
		t.Errorf("got %v after %d requests", err, len(f.reqs()))
	}
}

func TestHTTPMissingKey(t *testing.T) {
	t.Setenv("DOCKET_EMPTY_KEY", "")
	cfg := fastCfg("openai", "http://127.0.0.1:1")
	cfg.APIKeyEnv = "DOCKET_EMPTY_KEY"
	_, err := New(cfg)
	if err == nil || !strings.Contains(err.Error(), "environment variable DOCKET_EMPTY_KEY (embedding.api_key_env) is empty or unset") {
		t.Errorf("got %v", err)
	}
}

func TestBackoff(t *testing.T) {
	p := &httpProvider{cfg: Config{RetryBase: 100 * time.Millisecond, RetryMax: time.Second}}
	for attempt, want := range map[int]time.Duration{1: 100 * time.Millisecond, 2: 200 * time.Millisecond, 3: 400 * time.Millisecond} {
		for range 20 {
			if d := p.backoff(attempt, 0); d < want*3/4 || d > want*5/4 {
				t.Errorf("attempt %d: %s outside %s±25%%", attempt, d, want)
			}
		}
	}
	if d := p.backoff(30, 0); d > time.Second {
		t.Errorf("uncapped: %s", d)
	}
	if d := p.backoff(1, 700*time.Millisecond); d != 700*time.Millisecond {
		t.Errorf("Retry-After not honored: %s", d)
	}
	if d := p.backoff(1, time.Hour); d != time.Second {
		t.Errorf("Retry-After not bounded: %s", d)
	}
	if parseRetryAfter("2") != 2*time.Second || parseRetryAfter("junk") != 0 || parseRetryAfter("") != 0 {
		t.Error("parseRetryAfter")
	}
}
