package embed

import (
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"
)

func TestConfigYAML(t *testing.T) {
	src := `
embedding:
  provider: openai
  model: text-embedding-3-small
  dimensions: 512
  base_url: http://localhost:8000/v1
  api_key_env: MY_KEY
  batch_size: 16
  timeout: 45s
  max_retries: 2
  send_dimensions: true
`
	var doc struct {
		Embedding Config `yaml:"embedding"`
	}
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		t.Fatal(err)
	}
	want := Config{Provider: "openai", Model: "text-embedding-3-small", Dimensions: 512, BaseURL: "http://localhost:8000/v1",
		APIKeyEnv: "MY_KEY", BatchSize: 16, Timeout: 45 * time.Second, MaxRetries: 2, SendDimensions: true}
	if doc.Embedding != want {
		t.Errorf("got %+v\nwant %+v", doc.Embedding, want)
	}
	out, err := yaml.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	var back Config
	if err := yaml.Unmarshal(out, &back); err != nil || back != want {
		t.Errorf("round trip: %v\n%s", err, out)
	}
}

func TestConfigYAMLErrors(t *testing.T) {
	tests := []struct{ src, want string }{
		{"provider: hash\nmodle: x\n", "line 2: unknown key embedding.modle"},
		{"timeout: 30\n", "line 1: embedding.timeout: want a duration"},
		{"timeout: soon\n", "embedding.timeout: want a duration"},
		{"dimensions: many\n", "line 1: embedding.dimensions:"},
		{"model: a\nmodel: b\n", "line 2: embedding.model given twice"},
		{"- a\n", "want a mapping"},
	}
	for _, tt := range tests {
		var c Config
		err := yaml.Unmarshal([]byte(tt.src), &c)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: got %v, want %q", tt.src, err, tt.want)
		}
	}
}

func TestConfigDefaults(t *testing.T) {
	got := Config{}.WithDefaults()
	want := Config{Provider: "hash", Model: "hash-v1", Dimensions: 256, BatchSize: 64, Timeout: 20 * time.Second,
		MaxRetries: 3, RetryBase: DefaultRetryBase, RetryMax: DefaultRetryMax}
	if got != want {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
	o := Config{Provider: "OpenAI", Model: "m"}.WithDefaults()
	if o.Provider != "openai" || o.BaseURL != DefaultOpenAIBaseURL || o.APIKeyEnv != "OPENAI_API_KEY" || o.Dimensions != 0 {
		t.Errorf("openai defaults: %+v", o)
	}
	l := Config{Provider: "openai", Model: "m", BaseURL: "http://localhost:8000"}.WithDefaults()
	if l.APIKeyEnv != "" {
		t.Errorf("a local server gets no default key variable: %+v", l)
	}
	if b := (Config{Provider: "ollama", Model: "m"}).WithDefaults().BaseURL; b != "http://localhost:11434" {
		t.Errorf("ollama base %s", b)
	}
}

func TestConfigValidate(t *testing.T) {
	tests := []struct {
		cfg  Config
		want string // "" = valid
	}{
		{Config{}, ""},
		{Config{Provider: "ollama", Model: "nomic-embed-text"}, ""},
		{Config{Provider: "openai", Model: "m", Dimensions: 1536, BaseURL: "https://api.example.com/v1"}, ""},
		{Config{Provider: "cohere"}, `embedding.provider: unknown provider "cohere"`},
		{Config{Model: "minilm"}, `embedding.model: the hash provider has one model, "hash-v1"`},
		{Config{Dimensions: 4}, "embedding.dimensions: want 8 to 65536"},
		{Config{Provider: "openai"}, "embedding.model: required for provider openai"},
		{Config{Provider: "ollama", Model: "m", BaseURL: "localhost:11434"}, "embedding.base_url: want an http:// or https:// URL"},
		{Config{Provider: "openai", Model: "m", SendDimensions: true}, "embedding.send_dimensions: needs embedding.dimensions"},
		{Config{BatchSize: -1}, "embedding.batch_size: must be at least 1"},
		{Config{Timeout: -time.Second}, "embedding.timeout: must be positive"},
		{Config{Provider: "openai", Model: "m", APIKeyEnv: "sk-abc123"}, "embedding.api_key_env: \"sk-abc123\" is not an environment variable name"},
	}
	for _, tt := range tests {
		err := tt.cfg.Validate()
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%+v: unexpected %v", tt.cfg, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%+v: got %v, want %q", tt.cfg, err, tt.want)
		}
		if _, nerr := New(tt.cfg); (nerr == nil) != (err == nil) && tt.cfg.APIKeyEnv == "" && tt.cfg.Provider != "openai" {
			t.Errorf("%+v: New and Validate disagree: %v vs %v", tt.cfg, nerr, err)
		}
	}
}
