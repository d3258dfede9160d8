package embed

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"
)

// Error is a failed embedding request: which provider, which URL, and the
// HTTP status (0 when no answer came), the attempts made and the cause.
type Error struct {
	Provider string
	URL      string
	Status   int    // HTTP status of the last answer; 0 when none
	Attempts int    // requests sent, including the first
	Body     string // snippet of the last error answer (server message when it has one)
	Err      error  // transport or protocol cause; nil for a plain HTTP error
}

func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "embed: provider %s at %s: ", e.Provider, e.URL)
	after := ""
	if e.Attempts > 1 {
		after = fmt.Sprintf(" after %d attempts", e.Attempts)
	}
	switch {
	case e.Status != 0:
		fmt.Fprintf(&b, "HTTP %d%s", e.Status, after)
		if e.Body != "" {
			b.WriteString(": " + e.Body)
		}
		if e.Err != nil {
			b.WriteString(": " + e.Err.Error())
		}
	case after != "":
		fmt.Fprintf(&b, "request failed%s: %v", after, e.Err)
	default:
		fmt.Fprint(&b, e.Err)
	}
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// ErrDimensions is wrapped by errors about vectors of the wrong length.
var ErrDimensions = errors.New("wrong vector dimensions")

// ErrBadVector is wrapped by errors about vectors that cannot be compared:
// all zeros (no direction, so cosine is undefined) or not finite.
var ErrBadVector = errors.New("unusable vector")

// ErrProtocol is wrapped by errors about answers that are not what the wire
// format promises (bad JSON, wrong count, bad indices).
var ErrProtocol = errors.New("unexpected answer")

// wire is one provider's request and response format.
type wire struct {
	name     string
	endpoint func(base string) string
	encode   func(model string, texts []string, dims int) any
	decode   func(body []byte, n int) ([][]float32, error)
}

type httpProvider struct {
	cfg    Config
	wire   wire
	url    string
	key    string
	dims   atomic.Int64 // configured, or learned from the first answer when 0
	client *http.Client
	sleep  func(ctx context.Context, d time.Duration) error
}

func newHTTP(cfg Config) (*httpProvider, error) {
	w := openAIWire
	if cfg.Provider == ProviderOllama {
		w = ollamaWire
	}
	p := &httpProvider{cfg: cfg, wire: w, url: w.endpoint(cfg.BaseURL), client: &http.Client{}, sleep: sleepCtx}
	if cfg.APIKeyEnv != "" {
		p.key = strings.TrimSpace(os.Getenv(cfg.APIKeyEnv))
		if p.key == "" {
			return nil, fmt.Errorf("embed: provider %s at %s: environment variable %s (embedding.api_key_env) is empty or unset; export the API key in it, or remove api_key_env for a server without authentication",
				cfg.Provider, p.url, cfg.APIKeyEnv)
		}
	}
	p.dims.Store(int64(cfg.Dimensions))
	return p, nil
}

func (p *httpProvider) Name() string { return p.cfg.Provider }
func (p *httpProvider) ModelID() string {
	id := p.cfg.Provider + ":" + p.cfg.Model
	if p.cfg.SendDimensions {
		id += "/" + strconv.Itoa(p.cfg.Dimensions)
	}
	return id
}
func (p *httpProvider) Dimensions() int { return int(p.dims.Load()) }

// Embed sends texts in batches of BatchSize, one batch after the other, and
// returns the vectors in input order.
func (p *httpProvider) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, 0, len(texts))
	for from := 0; from < len(texts); from += p.cfg.BatchSize {
		batch := texts[from:min(from+p.cfg.BatchSize, len(texts))]
		vecs, err := p.embedBatch(ctx, batch)
		if err != nil {
			return nil, err
		}
		if err := p.check(vecs, len(batch), from); err != nil {
			return nil, err
		}
		out = append(out, vecs...)
	}
	return out, nil
}

// check verifies count and lengths; with no configured dimensions the first
// answer fixes them.
func (p *httpProvider) check(vecs [][]float32, n, offset int) error {
	if len(vecs) != n {
		return p.fail(1, fmt.Errorf("%w: sent %d texts, got %d vectors", ErrProtocol, n, len(vecs)))
	}
	want := int(p.dims.Load())
	if want == 0 && n > 0 {
		if len(vecs[0]) == 0 {
			return p.fail(1, fmt.Errorf("%w: empty vector for input %d", ErrDimensions, offset))
		}
		p.dims.CompareAndSwap(0, int64(len(vecs[0])))
		want = int(p.dims.Load())
	}
	for i, v := range vecs {
		if len(v) != want {
			return p.fail(1, fmt.Errorf("%w: model %q returned %d dimensions for input %d, expected %d (embedding.dimensions)",
				ErrDimensions, p.cfg.Model, len(v), offset+i, want))
		}
		if why := unusable(v); why != "" {
			return p.fail(1, fmt.Errorf("%w: model %q returned %s for input %d; the server is misconfigured or the model failed to load",
				ErrBadVector, p.cfg.Model, why, offset+i))
		}
	}
	return nil
}

// unusable says why v cannot be searched with cosine distance, or "".
func unusable(v []float32) string {
	zero := true
	for _, x := range v {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return "a vector with NaN or infinite values"
		}
		if x != 0 {
			zero = false
		}
	}
	if zero {
		return "an all-zero vector"
	}
	return ""
}

func (p *httpProvider) fail(attempts int, err error) *Error {
	return &Error{Provider: p.cfg.Provider, URL: p.url, Attempts: attempts, Err: err}
}

// embedBatch posts one batch, retrying 429, 5xx and transport errors.
func (p *httpProvider) embedBatch(ctx context.Context, texts []string) ([][]float32, error) {
	dims := 0
	if p.cfg.SendDimensions {
		dims = p.cfg.Dimensions
	}
	payload, err := json.Marshal(p.wire.encode(p.cfg.Model, texts, dims))
	if err != nil {
		return nil, p.fail(0, fmt.Errorf("encoding request: %w", err))
	}
	maxAttempts := 1 + max(p.cfg.MaxRetries, 0)
	for attempt := 1; ; attempt++ {
		status, body, retryAfter, err := p.post(ctx, payload)
		if ctx.Err() != nil {
			return nil, p.fail(attempt, ctx.Err())
		}
		var e *Error
		switch {
		case errors.Is(err, context.DeadlineExceeded):
			return nil, p.fail(attempt, err) // hung or overloaded: retrying would multiply the wait
		case err != nil:
			e = p.fail(attempt, err)
		case status == http.StatusOK:
			vecs, derr := p.wire.decode(body, len(texts))
			if derr != nil {
				return nil, p.fail(attempt, fmt.Errorf("%w: %v", ErrProtocol, derr))
			}
			return vecs, nil
		default:
			e = &Error{Provider: p.cfg.Provider, URL: p.url, Status: status, Attempts: attempt, Body: errorSnippet(body)}
			if status != http.StatusTooManyRequests && status < 500 {
				if status == http.StatusUnauthorized || status == http.StatusForbidden {
					e.Err = fmt.Errorf("check the API key in $%s (embedding.api_key_env)", p.cfg.APIKeyEnv)
					if p.cfg.APIKeyEnv == "" {
						e.Err = errors.New("the server wants an API key: set embedding.api_key_env")
					}
				}
				return nil, e // a client error does not get better by retrying
			}
		}
		if attempt >= maxAttempts {
			return nil, e
		}
		if err := p.sleep(ctx, p.backoff(attempt, retryAfter)); err != nil {
			return nil, p.fail(attempt, err)
		}
	}
}

// post sends one request bounded by the configured timeout.
func (p *httpProvider) post(ctx context.Context, payload []byte) (status int, body []byte, retryAfter time.Duration, err error) {
	ctx, cancel := context.WithTimeout(ctx, p.cfg.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.url, bytes.NewReader(payload))
	if err != nil {
		return 0, nil, 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", "docket")
	if p.key != "" {
		req.Header.Set("Authorization", "Bearer "+p.key)
	}
	resp, err := p.client.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // the URL is already in the message
		}
		if errors.Is(err, context.DeadlineExceeded) {
			err = fmt.Errorf("no answer within %s (embedding.timeout): %w", p.cfg.Timeout, err)
		}
		return 0, nil, 0, err
	}
	defer resp.Body.Close()
	body, err = io.ReadAll(io.LimitReader(resp.Body, 1<<30))
	if err != nil {
		return 0, nil, 0, fmt.Errorf("reading answer (HTTP %d): %w", resp.StatusCode, err)
	}
	return resp.StatusCode, body, parseRetryAfter(resp.Header.Get("Retry-After")), nil
}

// backoff is RetryBase·2^(attempt-1) with ±25% jitter, at least the server's
// Retry-After, at most RetryMax.
func (p *httpProvider) backoff(attempt int, retryAfter time.Duration) time.Duration {
	d := p.cfg.RetryBase << min(attempt-1, 20)
	if d <= 0 || d > p.cfg.RetryMax {
		d = p.cfg.RetryMax
	}
	d = time.Duration(float64(d) * (0.75 + 0.5*rand.Float64()))
	d = max(d, retryAfter)
	return min(d, p.cfg.RetryMax)
}

func parseRetryAfter(v string) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil && s >= 0 {
		return time.Duration(s * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(time.Until(t), 0)
	}
	return 0
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// errorSnippet extracts the server's message from an error body ({"error":
// {"message": ...}}, {"error": "..."}, {"message": ...}, {"detail": ...}) or
// else returns its first 300 characters on one line.
func errorSnippet(body []byte) string {
	var m struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
		Detail  json.RawMessage `json:"detail"`
	}
	if json.Unmarshal(body, &m) == nil {
		var s string
		var obj struct {
			Message string `json:"message"`
		}
		switch {
		case json.Unmarshal(m.Error, &obj) == nil && obj.Message != "":
			return clip(obj.Message)
		case json.Unmarshal(m.Error, &s) == nil && s != "":
			return clip(s)
		case m.Message != "":
			return clip(m.Message)
		case json.Unmarshal(m.Detail, &s) == nil && s != "":
			return clip(s)
		}
	}
	return clip(string(body))
}

func clip(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	const limit = 300
	if len(s) <= limit {
		return s
	}
	cut := limit
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
