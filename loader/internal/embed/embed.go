// Package embed turns texts into vectors. It takes an embedding Config (the
// `embedding:` section of project.yaml) and a batch of texts, and produces one
// float32 vector per text, in input order, from one of three providers:
//
//   - hash: built in, no model, no network. Deterministic feature hashing of
//     words, word pairs and character n-grams. Lexical, not semantic: it
//     finds texts that share words and word pieces, not texts that mean the
//     same thing in other words.
//   - openai: any OpenAI-compatible POST /v1/embeddings endpoint (OpenAI,
//     vLLM, text-embeddings-inference, LM Studio).
//   - ollama: Ollama's POST /api/embed.
//
// HTTP providers batch requests, retry 429/5xx and connection errors with
// bounded exponential backoff, bound every request by a timeout, check the
// number and length of the vectors they get back, and fail with an *Error
// that names the provider, the URL and what went wrong.
//
// The package also exports Tokenize (shared with BM25, reproducible in DuckDB
// SQL, see TokenizeSQL) and Cosine. It never prints.
package embed

import (
	"context"
	"fmt"
	"math"
)

// Provider embeds texts. Implementations are safe for concurrent use.
type Provider interface {
	// Name is the provider kind: "hash", "openai" or "ollama".
	Name() string
	// ModelID is the stable identifier stored beside each vector (the
	// `model` column of embeddings.chunk_vectors), e.g. "hash-v1/256",
	// "openai:text-embedding-3-small", "ollama:nomic-embed-text". Vectors
	// with different ModelIDs must never be compared.
	ModelID() string
	// Dimensions is the vector length. For HTTP providers configured
	// without dimensions it is 0 until the first successful Embed (see
	// Probe), and the observed length afterwards.
	Dimensions() int
	// Embed returns one vector per text, in input order. An empty input
	// returns an empty result without any request.
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// New builds the provider described by cfg after filling defaults
// (Config.WithDefaults) and validating it. For HTTP providers it also reads
// the API key from the environment variable named by APIKeyEnv and fails when
// that variable is empty. It makes no network request.
func New(cfg Config) (Provider, error) {
	cfg = cfg.WithDefaults()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	switch cfg.Provider {
	case ProviderHash:
		return newHash(cfg), nil
	case ProviderOpenAI, ProviderOllama:
		return newHTTP(cfg)
	}
	return nil, fmt.Errorf("embed: unknown provider %q", cfg.Provider) // unreachable after Validate
}

// Probe returns p's vector length, embedding one short text when the
// provider does not know it yet (an HTTP provider configured without
// dimensions). Use it before creating a FLOAT[d] column.
func Probe(ctx context.Context, p Provider) (int, error) {
	if d := p.Dimensions(); d > 0 {
		return d, nil
	}
	v, err := p.Embed(ctx, []string{"dimension probe"})
	if err != nil {
		return 0, err
	}
	return len(v[0]), nil
}

// Cosine returns the cosine similarity of a and b, in [-1, 1]. It returns 0
// when the lengths differ or either vector is all zeros.
func Cosine(a, b []float32) float32 {
	if len(a) != len(b) || len(a) == 0 {
		return 0
	}
	var dot, na, nb float64
	for i := range a {
		x, y := float64(a[i]), float64(b[i])
		dot += x * y
		na += x * x
		nb += y * y
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return float32(dot / math.Sqrt(na*nb))
}
