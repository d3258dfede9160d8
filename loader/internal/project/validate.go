package project

import (
	"errors"
	"fmt"
	"runtime"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/docket-dev/docket/loader/internal/embed"
)

// MaxWorkersPerCore caps loader.workers: more worker processes than this
// many per core only queue for the CPU and multiply the memory in use.
const MaxWorkersPerCore = 4

// keyLines maps the keys of a YAML document ("loader.workers",
// "sources[1].name") to their line, for messages.
func keyLines(root *yaml.Node) map[string]int {
	lines, _ := keyLinesAndNulls(root)
	return lines
}

// keyLinesAndNulls is keyLines and, in the same walk, the keys written
// with no value (`timeout:`), in the file's order (their lines are in
// lines).
func keyLinesAndNulls(root *yaml.Node) (lines map[string]int, nulls []string) {
	out := map[string]int{}
	var walk func(n *yaml.Node, prefix string)
	walk = func(n *yaml.Node, prefix string) {
		switch n.Kind {
		case yaml.DocumentNode:
			for _, c := range n.Content {
				walk(c, prefix)
			}
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				k := n.Content[i].Value
				if prefix != "" {
					k = prefix + "." + k
				}
				out[k] = n.Content[i].Line
				if v := n.Content[i+1]; v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
					nulls = append(nulls, k)
				}
				walk(n.Content[i+1], k)
			}
		case yaml.SequenceNode:
			for i, c := range n.Content {
				k := fmt.Sprintf("%s[%d]", prefix, i)
				out[k] = c.Line
				walk(c, k)
			}
		}
	}
	walk(root, "")
	return out, nulls
}

// errAt builds "file:line: message" errors for keys of the project file.
type errAt struct {
	file  string
	lines map[string]int
	errs  []error
}

func (e *errAt) bad(key, format string, a ...any) {
	pos := e.file
	if l := e.lines[key]; l > 0 {
		pos = fmt.Sprintf("%s:%d", e.file, l)
	}
	e.errs = append(e.errs, fmt.Errorf("%s: "+format, append([]any{pos}, a...)...))
}

// validateRaw checks the values as written, before defaults fill the
// zeros in: a zero or negative duration or count is an error, not "use
// the default" (issue 18: timeout: -1s quarantined every new document).
func (p *Project) validateRaw(lines map[string]int) []error {
	e := &errAt{file: p.File, lines: lines}
	l := p.Loader
	durations := map[string]Duration{"loader.timeout": l.Timeout, "loader.lock_timeout": l.LockTimeout}
	for key, d := range durations {
		if _, set := lines[key]; set && d.Duration <= 0 {
			e.bad(key, "%s must be a positive duration (like 30s), got %s", key, d.Duration)
		}
	}
	// workers and threads: 0 means one per core.
	for key, n := range map[string]int{"loader.workers": l.Workers, "threads": p.Threads} {
		if n < 0 {
			e.bad(key, "%s must be 0 (one per core) or more, got %d", key, n)
		}
	}
	ints := map[string]int{"loader.max_pages": l.MaxPages, "loader.min_chars_per_page": l.MinCharsPerPage,
		"loader.max_attachment_depth": l.MaxAttachmentDepth, "loader.max_sheet_rows": l.MaxSheetRows,
		"loader.max_archive_members": l.MaxArchiveMembers, "loader.max_attempts": l.MaxAttempts,
		"loader.max_page_chars": l.MaxPageChars, "loader.max_doc_chars": l.MaxDocChars, "loader.max_image_pixels": l.MaxImagePixels,
		"loader.max_page_tokens": l.MaxPageTokens}
	for key, n := range ints {
		if _, set := lines[key]; set && n <= 0 {
			e.bad(key, "%s must be at least 1, got %d", key, n)
		}
	}
	sizes := map[string]Size{"loader.max_file_size": l.MaxFileSize, "loader.max_worker_memory": l.MaxWorkerMemory,
		"loader.max_archive_bytes": l.MaxArchiveBytes, "loader.memory_limit": l.MemoryLimit, "build.memory_limit": p.Build.MemoryLimit}
	for key, n := range sizes {
		if _, set := lines[key]; set && n <= 0 {
			e.bad(key, "%s must be a positive size (like 64MB), got %d", key, n)
		}
	}
	// OCR: Tesseract reads 70 dpi at the least (it takes 70 for less);
	// past 1200 dpi a page is a 10,000-pixel image for no better reading.
	// Confidences are Tesseract's 0-100.
	if _, set := lines["ocr.dpi"]; set && (p.OCR.DPI < 70 || p.OCR.DPI > 1200) {
		e.bad("ocr.dpi", "ocr.dpi must be from 70 to 1200, got %d", p.OCR.DPI)
	}
	for key, v := range map[string]float64{"ocr.min_word_confidence": p.OCR.MinWordConfidence, "ocr.review_below": p.OCR.ReviewBelow} {
		if v < 0 || v > 100 {
			e.bad(key, "%s must be from 0 to 100, got %g", key, v)
		}
	}
	if cap := MaxWorkersPerCore * runtime.NumCPU(); l.Workers > cap {
		e.bad("loader.workers", "loader.workers is %d, more than %d per core (%d cores): at most %d", l.Workers, MaxWorkersPerCore, runtime.NumCPU(), cap)
	}
	sort.Slice(e.errs, func(i, j int) bool { return e.errs[i].Error() < e.errs[j].Error() })
	return e.errs
}

func (p *Project) validate(lines map[string]int) []error {
	e := &errAt{file: p.File, lines: lines}
	if p.Version != 1 {
		e.bad("version", "version must be 1 (got %d)", p.Version)
	}
	seen := map[string]bool{}
	for i, s := range p.Sources {
		key := fmt.Sprintf("sources[%d]", i)
		switch {
		case s.Name == "":
			e.bad(key, "sources[%d] has no name", i)
		case seen[s.Name]:
			e.bad(key, "source %q is declared twice", s.Name)
		case strings.ContainsAny(s.Name, `/\#`) || strings.TrimSpace(s.Name) != s.Name || hasControl(s.Name):
			// Document ids are sha256(source name "/" path): a "/" in a
			// name made sources a/b and a share ids.
			e.bad(key, "source name %q may not contain '/', '\\', '#', control characters or leading/trailing spaces", s.Name)
		}
		seen[s.Name] = true
		if s.Path == "" {
			e.bad(key, "source %q has no path", s.Name)
		}
	}
	switch p.Loader.Symlinks {
	case SymlinksSkip, SymlinksFollow:
	default:
		e.bad("loader.symlinks", "loader.symlinks must be skip or follow (got %q)", p.Loader.Symlinks)
	}
	switch p.Loader.Verify {
	case VerifyStat, VerifyHash:
	default:
		e.bad("loader.verify", "loader.verify must be stat or hash (got %q)", p.Loader.Verify)
	}
	for _, key := range []string{"name", "warehouse", "target_dir", "build.temp_directory"} {
		if _, set := e.lines[key]; set && p.stringSetting(key) == "" {
			e.bad(key, "%s must not be empty (leave the key out for the default)", key)
		}
	}
	if _, set := e.lines["ocr.languages"]; set && len(p.OCR.Languages) == 0 {
		e.bad("ocr.languages", "ocr.languages lists no language: OCR needs at least one (leave the key out for [eng]; ocr.enabled: false turns OCR off)")
	}
	if err := p.Embedding.Check(); err != nil {
		for _, one := range unjoin(err) {
			key := "embedding"
			var ke *embed.KeyError
			if errors.As(one, &ke) {
				if _, ok := e.lines[ke.Key]; ok {
					key = ke.Key
				}
			}
			e.bad(key, "%v", one)
		}
	}
	switch p.Retrieval.VectorIndex {
	case "exact", "hnsw", "auto":
	default:
		e.bad("retrieval.vector_index", "retrieval.vector_index must be exact, hnsw or auto (got %q)", p.Retrieval.VectorIndex)
	}
	switch p.Health.Severity {
	case "error", "warn":
	default:
		e.bad("health.severity", "health.severity must be error or warn (got %q)", p.Health.Severity)
	}
	p.Health.validate(e)
	return e.errs
}

// stringSetting is the value of a string key validate checks for "".
func (p *Project) stringSetting(key string) string {
	switch key {
	case "name":
		return p.Name
	case "warehouse":
		return p.Warehouse
	case "target_dir":
		return p.TargetDir
	case "build.temp_directory":
		return p.Build.TempDirectory
	}
	return ""
}

// unjoin lists the errors errors.Join joined (err itself otherwise).
func unjoin(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}

// noValueWarnings: a setting key written with no value (`timeout:`) is no
// setting; it is dropped from lines, so the default fills it, and a
// warning at its line says so (before, it was an error saying "got 0s",
// or for health.window the default without a word). Sections (loader:,
// health:, ...) and the dbt-style maps (vars, models, seeds, sources) may
// be empty; what is inside those maps is not a setting of docket's.
func (p *Project) noValueWarnings(lines map[string]int, nulls []string) {
	sections := map[string]bool{"loader": true, "ocr": true, "embedding": true, "retrieval": true, "health": true, "build": true}
	for _, key := range nulls {
		top, rest, nested := strings.Cut(key, ".")
		setting := !nested && !sections[top] && top != "vars" && top != "models" && top != "seeds" && top != "sources" ||
			nested && sections[top] && !strings.ContainsAny(rest, ".[") && !strings.Contains(top, "[")
		if setting {
			p.Warnings = append(p.Warnings, Warning{File: p.File, Line: lines[key], Msg: key + " has no value: the default is used"})
			delete(lines, key)
		}
	}
}

// httpEmbeddingKeys are the embedding settings only the HTTP providers
// (openai, ollama) use.
var httpEmbeddingKeys = []string{"base_url", "api_key_env", "send_dimensions", "timeout", "max_retries"}

// embeddingWarnings warns, at its line, of each HTTP provider's setting
// given to the hash provider, which makes no request: not applied.
func (p *Project) embeddingWarnings(lines map[string]int) {
	if p.Embedding.Provider != embed.ProviderHash {
		return
	}
	for _, k := range httpEmbeddingKeys {
		if l := lines["embedding."+k]; l > 0 {
			p.Warnings = append(p.Warnings, Warning{File: p.File, Line: l,
				Msg: fmt.Sprintf("embedding.%s: the hash provider runs in docket and makes no request, so this is not applied (it is for provider openai or ollama)", k)})
		}
	}
}

func hasControl(s string) bool {
	for _, r := range s {
		if r < 0x20 || r == 0x7f {
			return true
		}
	}
	return false
}
