package project

import (
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestExplicitZeroAppliedOrRejected: every documented project.yaml key
// written with its zero value ("", 0, false, [], no value) or an odd one
// is applied as written or rejected at its file:line, never silently
// swapped for the default. Before, defaults filled every zero after
// decoding, so health.window: 0, ocr.languages: [], loader.verify: "",
// embedding.batch_size: 0, retrieval.vector_index: "" and the like were
// taken and replaced by the default without a word (only the two OCR
// confidences had been restored by hand).
func TestExplicitZeroAppliedOrRejected(t *testing.T) {
	cases := []struct {
		name, yaml string
		err        string                // an error containing this (file:line first)
		check      func(p *Project) bool // else: the value as written is applied
		warn       string                // and, when set, a warning starting with this
	}{
		{name: "name", yaml: "name: ''\n", err: "/p/project.yaml:2: name must not be empty"},
		{name: "warehouse", yaml: "warehouse: ''\n", err: "/p/project.yaml:2: warehouse must not be empty"},
		{name: "target_dir", yaml: "target_dir: ''\n", err: "/p/project.yaml:2: target_dir must not be empty"},
		{name: "threads 0 = one per core", yaml: "threads: 0\n", check: func(p *Project) bool { return p.Threads == runtime.NumCPU() }},
		{name: "workers 0 = one per core", yaml: "loader:\n  workers: 0\n", check: func(p *Project) bool { return p.Loader.Workers == runtime.NumCPU() }},
		{name: "timeout", yaml: "loader:\n  timeout: 0s\n", err: "/p/project.yaml:3: loader.timeout must be a positive duration"},
		{name: "lock_timeout", yaml: "loader:\n  lock_timeout: 0s\n", err: "/p/project.yaml:3: loader.lock_timeout must be a positive duration"},
		{name: "max_file_size", yaml: "loader:\n  max_file_size: 0\n", err: "/p/project.yaml:3: loader.max_file_size must be a positive size"},
		{name: "max_worker_memory", yaml: "loader:\n  max_worker_memory: 0\n", err: "/p/project.yaml:3: loader.max_worker_memory must be a positive size"},
		{name: "max_archive_bytes", yaml: "loader:\n  max_archive_bytes: 0\n", err: "/p/project.yaml:3: loader.max_archive_bytes must be a positive size"},
		{name: "memory_limit", yaml: "loader:\n  memory_limit: 0\n", err: "/p/project.yaml:3: loader.memory_limit must be a positive size"},
		{name: "max_pages", yaml: "loader:\n  max_pages: 0\n", err: "/p/project.yaml:3: loader.max_pages must be at least 1"},
		{name: "min_chars_per_page", yaml: "loader:\n  min_chars_per_page: 0\n", err: "/p/project.yaml:3: loader.min_chars_per_page must be at least 1"},
		{name: "max_attachment_depth", yaml: "loader:\n  max_attachment_depth: 0\n", err: "/p/project.yaml:3: loader.max_attachment_depth must be at least 1"},
		{name: "max_sheet_rows", yaml: "loader:\n  max_sheet_rows: 0\n", err: "/p/project.yaml:3: loader.max_sheet_rows must be at least 1"},
		{name: "max_archive_members", yaml: "loader:\n  max_archive_members: 0\n", err: "/p/project.yaml:3: loader.max_archive_members must be at least 1"},
		{name: "max_attempts", yaml: "loader:\n  max_attempts: 0\n", err: "/p/project.yaml:3: loader.max_attempts must be at least 1"},
		{name: "max_page_chars", yaml: "loader:\n  max_page_chars: 0\n", err: "/p/project.yaml:3: loader.max_page_chars must be at least 1"},
		{name: "max_doc_chars", yaml: "loader:\n  max_doc_chars: 0\n", err: "/p/project.yaml:3: loader.max_doc_chars must be at least 1"},
		{name: "max_page_tokens", yaml: "loader:\n  max_page_tokens: 0\n", err: "/p/project.yaml:3: loader.max_page_tokens must be at least 1"},
		{name: "max_image_pixels", yaml: "loader:\n  max_image_pixels: 0\n", err: "/p/project.yaml:3: loader.max_image_pixels must be at least 1"},
		{name: "symlinks", yaml: "loader:\n  symlinks: ''\n", err: "/p/project.yaml:3: loader.symlinks must be skip or follow"},
		{name: "verify", yaml: "loader:\n  verify: ''\n", err: "/p/project.yaml:3: loader.verify must be stat or hash"},
		{name: "exclude", yaml: "loader:\n  exclude: []\n", check: func(p *Project) bool { return len(p.Loader.Exclude) == 0 }},
		{name: "ocr.enabled", yaml: "ocr:\n  enabled: false\n", check: func(p *Project) bool { return !p.OCREnabled() }},
		{name: "ocr.languages", yaml: "ocr:\n  languages: []\n", err: "/p/project.yaml:3: ocr.languages lists no language"},
		{name: "ocr.dpi", yaml: "ocr:\n  dpi: 0\n", err: "/p/project.yaml:3: ocr.dpi must be from 70 to 1200, got 0"},
		{name: "ocr.min_word_confidence", yaml: "ocr:\n  min_word_confidence: 0\n", check: func(p *Project) bool { return p.OCR.MinWordConfidence == 0 }},
		{name: "ocr.review_below", yaml: "ocr:\n  review_below: 0\n", check: func(p *Project) bool { return p.OCR.ReviewBelow == 0 }},
		{name: "embedding.provider", yaml: "embedding:\n  provider: ''\n", err: "/p/project.yaml:3: embedding.provider"},
		{name: "embedding.model hash", yaml: "embedding:\n  model: ''\n", err: "/p/project.yaml:3: embedding.model"},
		{name: "embedding.dimensions hash", yaml: "embedding:\n  dimensions: 0\n", err: "/p/project.yaml:3: embedding.dimensions"},
		{name: "embedding.dimensions openai = the model's", yaml: "embedding:\n  provider: openai\n  model: m\n  dimensions: 0\n",
			check: func(p *Project) bool { return p.Embedding.Dimensions == 0 }},
		{name: "embedding.batch_size", yaml: "embedding:\n  batch_size: 0\n", err: "/p/project.yaml:3: embedding.batch_size: must be at least 1"},
		{name: "embedding.batch_size negative", yaml: "embedding:\n  provider: hash\n  batch_size: -4\n", err: "/p/project.yaml:4: embedding.batch_size: must be at least 1"},
		{name: "embedding.timeout", yaml: "embedding:\n  provider: openai\n  model: m\n  timeout: 0s\n", err: "/p/project.yaml:5: embedding.timeout: must be positive"},
		{name: "embedding.max_retries 0 = no retries", yaml: "embedding:\n  provider: ollama\n  model: m\n  max_retries: 0\n",
			check: func(p *Project) bool { return p.Embedding.MaxRetries < 0 }},
		{name: "embedding.base_url", yaml: "embedding:\n  provider: openai\n  model: m\n  base_url: ''\n", err: "/p/project.yaml:5: embedding.base_url"},
		{name: "embedding.api_key_env none", yaml: "embedding:\n  provider: openai\n  model: m\n  api_key_env: ''\n",
			check: func(p *Project) bool { return p.Embedding.APIKeyEnv == "" }},
		{name: "embedding.send_dimensions", yaml: "embedding:\n  provider: openai\n  model: m\n  send_dimensions: false\n",
			check: func(p *Project) bool { return !p.Embedding.SendDimensions }},
		{name: "retrieval.vector_index", yaml: "retrieval:\n  vector_index: ''\n", err: "/p/project.yaml:3: retrieval.vector_index must be exact, hnsw or auto"},
		{name: "health.min_success_rate 0 = off", yaml: "health:\n  min_success_rate: 0\n", check: func(p *Project) bool { return *p.Health.MinSuccessRate == 0 }},
		{name: "health.max_mean_chars_drop", yaml: "health:\n  max_mean_chars_drop: 0\n", check: func(p *Project) bool { return *p.Health.MaxMeanCharsDrop == 0 }},
		{name: "health.severity", yaml: "health:\n  severity: ''\n", err: "/p/project.yaml:3: health.severity must be error or warn"},
		{name: "health.min_documents", yaml: "health:\n  min_documents: 0\n", err: "/p/project.yaml:3: health.min_documents must be at least 1"},
		{name: "health.window", yaml: "health:\n  window: 0\n", err: "/p/project.yaml:3: health.window must be at least 1"},
		{name: "health.window negative", yaml: "health:\n  severity: warn\n  window: -2\n", err: "/p/project.yaml:4: health.window must be at least 1"},
		{name: "health.max_mean_chars_drop odd", yaml: "health:\n  severity: warn\n  max_mean_chars_drop: 2\n", err: "/p/project.yaml:4: health.max_mean_chars_drop is a fraction"},
		{name: "health.acknowledged", yaml: "health:\n  acknowledged: []\n", check: func(p *Project) bool { return len(p.Health.Acknowledged) == 0 }},
		{name: "build.memory_limit", yaml: "build:\n  memory_limit: 0\n", err: "/p/project.yaml:3: build.memory_limit must be a positive size"},
		{name: "build.temp_directory", yaml: "build:\n  temp_directory: ''\n", err: "/p/project.yaml:3: build.temp_directory must not be empty"},
		// A key with no value is not a setting: the default is used, and said.
		{name: "no value", yaml: "loader:\n  workers: 1\n  timeout:\n", check: func(p *Project) bool { return p.Loader.Timeout.Duration == 5*time.Minute },
			warn: "/p/project.yaml:4: loader.timeout has no value: the default is used"},
		{name: "no value in health", yaml: "health:\n  window:\n", check: func(p *Project) bool { return p.Health.Window == 5 },
			warn: "/p/project.yaml:3: health.window has no value: the default is used"},
	}
	for _, c := range cases {
		p, err := Parse("/p/project.yaml", []byte("version: 1\n"+c.yaml))
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: %q: want an error containing %q, got %v", c.name, c.yaml, c.err, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %q: %v", c.name, c.yaml, err)
			continue
		}
		if !c.check(p) {
			t.Errorf("%s: %q: not applied as written: loader %+v ocr %+v embedding %+v health %+v", c.name, c.yaml, p.Loader, p.OCR, p.Embedding, p.Health)
		}
		found := c.warn == ""
		for _, w := range p.Warnings {
			found = found || strings.HasPrefix(w.String(), c.warn)
		}
		if !found {
			t.Errorf("%s: %q: no warning %q in %v", c.name, c.yaml, c.warn, p.Warnings)
		}
	}
}
