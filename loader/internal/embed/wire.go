package embed

import (
	"encoding/json"
	"fmt"
	"strings"
)

// openAIWire: POST {base}/v1/embeddings {"model", "input": [...],
// "dimensions"?} → {"data": [{"index", "embedding": [...]}]}.
var openAIWire = wire{
	name: ProviderOpenAI,
	endpoint: func(base string) string {
		base = strings.TrimRight(base, "/")
		switch {
		case strings.HasSuffix(base, "/embeddings"):
			return base
		case strings.HasSuffix(base, "/v1"):
			return base + "/embeddings"
		}
		return base + "/v1/embeddings"
	},
	encode: func(model string, texts []string, dims int) any {
		return struct {
			Model      string   `json:"model"`
			Input      []string `json:"input"`
			Dimensions int      `json:"dimensions,omitempty"`
		}{model, texts, dims}
	},
	decode: func(body []byte, n int) ([][]float32, error) {
		var r struct {
			Data []struct {
				Index     *int      `json:"index"`
				Embedding []float32 `json:"embedding"`
			} `json:"data"`
		}
		if err := json.Unmarshal(body, &r); err != nil {
			return nil, fmt.Errorf("invalid JSON: %w: %s", err, clip(string(body)))
		}
		if len(r.Data) != n {
			return nil, fmt.Errorf("sent %d texts, got %d vectors", n, len(r.Data))
		}
		out := make([][]float32, n)
		for pos, d := range r.Data {
			i := pos // servers that omit index answer in order
			if d.Index != nil {
				i = *d.Index
			}
			if i < 0 || i >= n || out[i] != nil {
				return nil, fmt.Errorf("data[%d] has index %d, outside 0..%d or repeated", pos, i, n-1)
			}
			if d.Embedding == nil {
				d.Embedding = []float32{}
			}
			out[i] = d.Embedding
		}
		return out, nil
	},
}

// ollamaWire: POST {base}/api/embed {"model", "input": [...],
// "dimensions"?} → {"embeddings": [[...], ...]} in input order.
var ollamaWire = wire{
	name: ProviderOllama,
	endpoint: func(base string) string {
		base = strings.TrimRight(base, "/")
		switch {
		case strings.HasSuffix(base, "/api/embed"):
			return base
		case strings.HasSuffix(base, "/api"):
			return base + "/embed"
		}
		return base + "/api/embed"
	},
	encode: func(model string, texts []string, dims int) any {
		return struct {
			Model      string   `json:"model"`
			Input      []string `json:"input"`
			Dimensions int      `json:"dimensions,omitempty"`
		}{model, texts, dims}
	},
	decode: func(body []byte, n int) ([][]float32, error) {
		var r struct {
			Embeddings [][]float32 `json:"embeddings"`
		}
		if err := json.Unmarshal(body, &r); err != nil {
			return nil, fmt.Errorf("invalid JSON: %w: %s", err, clip(string(body)))
		}
		if len(r.Embeddings) != n {
			return nil, fmt.Errorf("sent %d texts, got %d vectors", n, len(r.Embeddings))
		}
		return r.Embeddings, nil
	},
}
