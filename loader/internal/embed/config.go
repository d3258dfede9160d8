package embed

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// Provider names accepted in Config.Provider.
const (
	ProviderHash   = "hash"
	ProviderOpenAI = "openai"
	ProviderOllama = "ollama"
)

// Defaults applied by Config.WithDefaults.
const (
	DefaultHashModel      = "hash-v1"
	DefaultHashDimensions = 256
	DefaultBatchSize      = 64
	// DefaultTimeout bounds one request. A request that times out is not
	// retried (the server is hung or overloaded), so a hung provider costs
	// a build or a search this long, not minutes.
	DefaultTimeout       = 20 * time.Second
	DefaultMaxRetries    = 3
	DefaultRetryBase     = 500 * time.Millisecond
	DefaultRetryMax      = 5 * time.Second
	DefaultOpenAIBaseURL = "https://api.openai.com/v1"
	DefaultOpenAIKeyEnv  = "OPENAI_API_KEY"
	DefaultOllamaBaseURL = "http://localhost:11434"
)

// Config is the `embedding:` section of project.yaml. Zero fields take
// defaults (WithDefaults). It decodes from YAML with these keys, rejecting
// unknown ones:
//
//	embedding:
//	  provider: hash            # hash (default) | openai | ollama
//	  model: hash-v1            # required for openai and ollama
//	  dimensions: 256           # hash: 256 by default; HTTP: 0 = whatever the model returns
//	  base_url: http://localhost:8000/v1
//	  api_key_env: OPENAI_API_KEY
//	  batch_size: 64
//	  timeout: 30s              # per HTTP request, a Go duration
//	  max_retries: 5            # default 3; 0 or negative = no retries
//	  send_dimensions: false    # send "dimensions" in requests (OpenAI text-embedding-3 can shorten vectors)
type Config struct {
	Provider   string `yaml:"provider"`
	Model      string `yaml:"model"`
	Dimensions int    `yaml:"dimensions"`
	BaseURL    string `yaml:"base_url"`
	APIKeyEnv  string `yaml:"api_key_env"`
	BatchSize  int    `yaml:"batch_size"`
	// Timeout bounds each HTTP request (one attempt); YAML form "20s". A
	// request that times out is not retried.
	Timeout time.Duration `yaml:"timeout"`
	// MaxRetries is how many times a failed request (429, 5xx, connection
	// error) is retried; a negative value means never. 0 is
	// DefaultMaxRetries for a Go caller, but project.yaml's written
	// max_retries: 0 means no retries (WithDefaultsExcept fills only keys
	// the file does not write).
	MaxRetries int `yaml:"max_retries"`
	// SendDimensions adds "dimensions": Dimensions to HTTP requests. Off by
	// default because many OpenAI-compatible servers reject the field; turn
	// it on for models that can shorten their vectors (text-embedding-3-*).
	SendDimensions bool `yaml:"send_dimensions"`

	// RetryBase is the first backoff delay (doubling per attempt, with
	// jitter); RetryMax caps any single wait, including a server's
	// Retry-After. Not in project.yaml; tests set them small.
	RetryBase time.Duration `yaml:"-"`
	RetryMax  time.Duration `yaml:"-"`
}

var yamlKeys = []string{"provider", "model", "dimensions", "base_url", "api_key_env",
	"batch_size", "timeout", "max_retries", "send_dimensions"}

// UnmarshalYAML decodes the `embedding:` mapping strictly: unknown or
// repeated keys are errors with their line, and timeout is a Go duration
// string ("30s", "2m").
func (c *Config) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.MappingNode {
		return fmt.Errorf("line %d: embedding: want a mapping", n.Line)
	}
	var out Config
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		key := k.Value
		if seen[key] {
			return fmt.Errorf("line %d: embedding.%s given twice", k.Line, key)
		}
		seen[key] = true
		var err error
		switch key {
		case "provider":
			err = v.Decode(&out.Provider)
		case "model":
			err = v.Decode(&out.Model)
		case "dimensions":
			err = v.Decode(&out.Dimensions)
		case "base_url":
			err = v.Decode(&out.BaseURL)
		case "api_key_env":
			err = v.Decode(&out.APIKeyEnv)
		case "batch_size":
			err = v.Decode(&out.BatchSize)
		case "max_retries":
			err = v.Decode(&out.MaxRetries)
		case "send_dimensions":
			err = v.Decode(&out.SendDimensions)
		case "timeout":
			var s string
			if err = v.Decode(&s); err == nil {
				out.Timeout, err = time.ParseDuration(strings.TrimSpace(s))
				if err != nil || v.Tag == "!!int" || v.Tag == "!!float" {
					err = fmt.Errorf("want a duration such as \"30s\" or \"2m\", got %q", s)
				}
			}
		default:
			return fmt.Errorf("line %d: unknown key embedding.%s (known: %s)", k.Line, key, strings.Join(yamlKeys, ", "))
		}
		if err != nil {
			return fmt.Errorf("line %d: embedding.%s: %w", v.Line, key, err)
		}
	}
	*c = out
	return nil
}

// MarshalYAML writes c with the keys UnmarshalYAML reads (timeout as "30s"),
// leaving out zero fields.
func (c Config) MarshalYAML() (any, error) {
	type out struct {
		Provider       string `yaml:"provider,omitempty"`
		Model          string `yaml:"model,omitempty"`
		Dimensions     int    `yaml:"dimensions,omitempty"`
		BaseURL        string `yaml:"base_url,omitempty"`
		APIKeyEnv      string `yaml:"api_key_env,omitempty"`
		BatchSize      int    `yaml:"batch_size,omitempty"`
		Timeout        string `yaml:"timeout,omitempty"`
		MaxRetries     int    `yaml:"max_retries,omitempty"`
		SendDimensions bool   `yaml:"send_dimensions,omitempty"`
	}
	o := out{c.Provider, c.Model, c.Dimensions, c.BaseURL, c.APIKeyEnv, c.BatchSize, "", c.MaxRetries, c.SendDimensions}
	if c.Timeout != 0 {
		o.Timeout = c.Timeout.String()
	}
	return o, nil
}

// WithDefaults returns c with zero fields filled: provider hash; for hash,
// model hash-v1 and 256 dimensions; for openai without base_url, the OpenAI
// API and OPENAI_API_KEY; for ollama, http://localhost:11434; batch 64,
// timeout 20s, 3 retries, backoff 500ms doubling up to 5s.
func (c Config) WithDefaults() Config { return c.WithDefaultsExcept(nil) }

// WithDefaultsExcept is WithDefaults filling only the keys (project.yaml's
// names: "batch_size") that written does not hold: a key written with its
// zero value keeps it, for Check to accept or reject (project.yaml's
// `batch_size: 0` is an error, not 64), and a written max_retries: 0
// means no retries (MaxRetries -1), not the default.
func (c Config) WithDefaultsExcept(written map[string]bool) Config {
	fill := func(key string) bool { return !written[key] }
	c.Provider = strings.ToLower(strings.TrimSpace(c.Provider))
	if c.Provider == "" && fill("provider") {
		c.Provider = ProviderHash
	}
	switch c.Provider {
	case ProviderHash:
		if c.Model == "" && fill("model") {
			c.Model = DefaultHashModel
		}
		if c.Dimensions == 0 && fill("dimensions") {
			c.Dimensions = DefaultHashDimensions
		}
	case ProviderOpenAI:
		if c.BaseURL == "" && fill("base_url") {
			c.BaseURL = DefaultOpenAIBaseURL
			if c.APIKeyEnv == "" && fill("api_key_env") {
				c.APIKeyEnv = DefaultOpenAIKeyEnv
			}
		}
	case ProviderOllama:
		if c.BaseURL == "" && fill("base_url") {
			c.BaseURL = DefaultOllamaBaseURL
		}
	}
	if c.BatchSize == 0 && fill("batch_size") {
		c.BatchSize = DefaultBatchSize
	}
	if c.Timeout == 0 && fill("timeout") {
		c.Timeout = DefaultTimeout
	}
	if c.MaxRetries == 0 {
		if fill("max_retries") {
			c.MaxRetries = DefaultMaxRetries
		} else {
			c.MaxRetries = -1
		}
	}
	if c.RetryBase <= 0 {
		c.RetryBase = DefaultRetryBase
	}
	if c.RetryMax <= 0 {
		c.RetryMax = DefaultRetryMax
	}
	return c
}

// Validate reports every problem in c (after defaults) at once, each naming
// its project.yaml key.
func (c Config) Validate() error { return c.WithDefaults().Check() }

// KeyError is one invalid setting Check found: its project.yaml key
// ("embedding.model") and what is wrong.
type KeyError struct{ Key, Msg string }

func (e *KeyError) Error() string { return e.Key + ": " + e.Msg }

// Check is Validate without filling defaults first: zero fields are
// judged as they are (project.yaml's explicit zeros, see
// WithDefaultsExcept). Each error is a *KeyError (errors.Join'ed).
func (c Config) Check() error {
	var errs []error
	bad := func(key, format string, args ...any) {
		errs = append(errs, &KeyError{Key: "embedding." + key, Msg: fmt.Sprintf(format, args...)})
	}
	switch c.Provider {
	case ProviderHash:
		if c.Model != DefaultHashModel {
			bad("model", "the hash provider has one model, %q; got %q", DefaultHashModel, c.Model)
		}
		if c.Dimensions < 8 || c.Dimensions > 1<<16 {
			bad("dimensions", "want 8 to 65536 for the hash provider, got %d", c.Dimensions)
		}
	case ProviderOpenAI, ProviderOllama:
		if strings.TrimSpace(c.Model) == "" {
			bad("model", "required for provider %s", c.Provider)
		}
		if c.Dimensions < 0 {
			bad("dimensions", "must not be negative, got %d", c.Dimensions)
		}
		if c.SendDimensions && c.Dimensions == 0 {
			bad("send_dimensions", "needs embedding.dimensions")
		}
		u, err := url.Parse(c.BaseURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			bad("base_url", "want an http:// or https:// URL, got %q", c.BaseURL)
		}
	default:
		bad("provider", "unknown provider %q (want %s, %s or %s)", c.Provider, ProviderHash, ProviderOpenAI, ProviderOllama)
	}
	if c.BatchSize < 1 {
		bad("batch_size", "must be at least 1, got %d", c.BatchSize)
	}
	if c.Timeout <= 0 {
		bad("timeout", "must be positive, got %s", c.Timeout)
	}
	if c.APIKeyEnv != "" && !validEnvName(c.APIKeyEnv) {
		bad("api_key_env", "%q is not an environment variable name (give the variable's name, not the key)", c.APIKeyEnv)
	}
	return errors.Join(errs...)
}

func validEnvName(s string) bool {
	for i, r := range s {
		ok := r == '_' || ('A' <= r && r <= 'Z') || ('a' <= r && r <= 'z') || (i > 0 && '0' <= r && r <= '9')
		if !ok {
			return false
		}
	}
	return s != ""
}
