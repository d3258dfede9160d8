// Package project reads project.yaml: it takes a folder and produces a
// validated Project with every relative path resolved against that folder.
// Unknown keys are errors that name the file and line.
package project

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/docket-dev/docket/loader/internal/embed"
)

// FileName is the project file's name.
const FileName = "project.yaml"

// Project is a loaded project.yaml.
type Project struct {
	Dir       string         `yaml:"-"` // absolute folder holding project.yaml
	File      string         `yaml:"-"` // absolute path of project.yaml
	Version   int            `yaml:"version"`
	Name      string         `yaml:"name"`
	Warehouse string         `yaml:"warehouse"` // absolute after Load
	Sources   []Source       `yaml:"sources"`
	Loader    Loader         `yaml:"loader"`
	OCR       OCR            `yaml:"ocr"`
	Models    map[string]any `yaml:"models"` // per-folder model defaults, dbt-style
	Seeds     map[string]any `yaml:"seeds"`
	Vars      map[string]any `yaml:"vars"`
	Embedding embed.Config   `yaml:"embedding"`
	Retrieval Retrieval      `yaml:"retrieval"`
	Health    Health         `yaml:"health"`
	Build     Build          `yaml:"build"`   // DuckDB memory for model commands (build.go)
	Threads   int            `yaml:"threads"` // model runner threads
	TargetDir string         `yaml:"target_dir"`
	// PackagesDir is dbt_project.yml's packages-install-path (absolute;
	// default <Dir>/dbt_packages): where installed packages are read.
	PackagesDir string `yaml:"-"`

	DBT      *DBT      `yaml:"-"` // dbt_project.yml, when the folder has one
	Target   Target    `yaml:"-"` // the dbt target (profiles.yml or docket defaults)
	Warnings []Warning `yaml:"-"` // settings read but not applied as written

	setWarehouse bool
	// ownFile: the folder has a project.yaml (not only dbt_project.yml):
	// it names the warehouse, so a missing dbt profile is no setting lost.
	ownFile bool
}

// Source is one folder scanned recursively.
type Source struct {
	Name string `yaml:"name"`
	Path string `yaml:"path"` // absolute after Load
}

// Loader settings.
type Loader struct {
	Workers            int      `yaml:"workers"` // 0 = one per core
	Timeout            Duration `yaml:"timeout"`
	MaxFileSize        Size     `yaml:"max_file_size"`
	MaxPages           int      `yaml:"max_pages"`
	MinCharsPerPage    int      `yaml:"min_chars_per_page"`
	MaxWorkerMemory    Size     `yaml:"max_worker_memory"`
	MaxAttachmentDepth int      `yaml:"max_attachment_depth"`
	MaxSheetRows       int      `yaml:"max_sheet_rows"`
	MaxArchiveMembers  int      `yaml:"max_archive_members"` // more members: the archive is quarantined too_large
	MaxArchiveBytes    Size     `yaml:"max_archive_bytes"`   // more expanded bytes: quarantined too_large (zip bombs)
	LockTimeout        Duration `yaml:"lock_timeout"`
	Exclude            []string `yaml:"exclude"`          // glob patterns on relative paths
	Symlinks           string   `yaml:"symlinks"`         // skip (default) | follow (links to files inside the source)
	MaxAttempts        int      `yaml:"max_attempts"`     // extractions of a content that crashed or timed out before it waits for --retry-quarantined
	MaxPageChars       int      `yaml:"max_page_chars"`   // longer pages are split (one-page text) or truncated, with a review reason
	MaxDocChars        int      `yaml:"max_doc_chars"`    // text past this many characters per document is dropped, with a review reason
	MaxPageTokens      int      `yaml:"max_page_tokens"`  // PDF pages whose content holds more tokens are landed empty, page_unreadable (content-stream bombs)
	MaxImagePixels     int      `yaml:"max_image_pixels"` // larger images are quarantined too_large; larger PDF pages are OCR'd at a lower resolution
	Verify             string   `yaml:"verify"`           // stat (default: a file whose size, mtime, inode and ctime match the last load is not read) | hash (every file is re-hashed)
	MemoryLimit        Size     `yaml:"memory_limit"`     // DuckDB's memory_limit during docket load (default DefaultLoadMemory)

	memoryLimitAt string // "file:line" of memory_limit, for DuckDBMemory's warning
}

// loader.verify values.
const (
	VerifyStat = "stat"
	VerifyHash = "hash"
)

// loader.symlinks values.
const (
	SymlinksSkip   = "skip"
	SymlinksFollow = "follow"
)

// OCR settings.
type OCR struct {
	Enabled           *bool    `yaml:"enabled"`
	Languages         []string `yaml:"languages"`
	DPI               int      `yaml:"dpi"`
	MinWordConfidence float64  `yaml:"min_word_confidence"`
	ReviewBelow       float64  `yaml:"review_below"`

	languagesAt string // "file:line" of languages (LanguagesAt)
}

// LanguagesAt is where ocr.languages is written ("file:line"), or the
// project file when it is not.
func (o OCR) LanguagesAt() string { return o.languagesAt }

// Retrieval settings.
type Retrieval struct {
	VectorIndex string `yaml:"vector_index"` // exact | hnsw | auto
}

// Health thresholds, turned into data tests on ops.extraction_health and
// ops.extraction_health_by_type (see health.go).
type Health struct {
	MinSuccessRate   *float64 `yaml:"min_success_rate"`    // default 0.5; 0 turns the check off
	MaxMeanCharsDrop *float64 `yaml:"max_mean_chars_drop"` // fraction, e.g. 0.5 = a 50% drop fails; default 0.5
	Severity         string   `yaml:"severity"`            // error | warn
	MinDocuments     int      `yaml:"min_documents"`       // smallest sample judged (run and baseline); default 5
	Window           int      `yaml:"window"`              // completed runs in a type's baseline; default 5
	Acknowledged     []Ack    `yaml:"acknowledged"`        // runs whose alarms a person accepted
}

// OCREnabled reports whether OCR runs (default true).
func (p *Project) OCREnabled() bool { return p.OCR.Enabled == nil || *p.OCR.Enabled }

// Duration is a time.Duration written as "30s" in YAML.
type Duration struct{ time.Duration }

// UnmarshalYAML implements yaml.Unmarshaler.
func (d *Duration) UnmarshalYAML(n *yaml.Node) error {
	v, err := time.ParseDuration(n.Value)
	if err != nil {
		return fmt.Errorf("line %d: %q is not a duration (like 30s, 2m)", n.Line, n.Value)
	}
	d.Duration = v
	return nil
}

// Size is a byte count written as 1048576, "64MB" or "2GiB".
type Size int64

var sizeRe = regexp.MustCompile(`^\s*([0-9.]+)\s*([KMGT]?I?B?)?\s*$`)

// UnmarshalYAML implements yaml.Unmarshaler.
func (s *Size) UnmarshalYAML(n *yaml.Node) error {
	v, err := ParseSize(n.Value)
	if err != nil {
		return fmt.Errorf("line %d: %w", n.Line, err)
	}
	*s = v
	return nil
}

// ParseSize parses "64MB", "2GiB", "1048576".
func ParseSize(str string) (Size, error) {
	m := sizeRe.FindStringSubmatch(strings.ToUpper(str))
	if m == nil {
		return 0, fmt.Errorf("%q is not a size (like 64MB)", str)
	}
	f, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a size (like 64MB)", str)
	}
	mult := map[string]float64{"": 1, "B": 1, "K": 1 << 10, "KB": 1 << 10, "KIB": 1 << 10, "M": 1 << 20, "MB": 1 << 20, "MIB": 1 << 20,
		"G": 1 << 30, "GB": 1 << 30, "GIB": 1 << 30, "T": 1 << 40, "TB": 1 << 40, "TIB": 1 << 40}[m[2]]
	if f*mult >= 1<<63 { // would wrap to a negative size ("must be a positive size, got -9223372036854775808")
		return 0, fmt.Errorf("%q is too large a size (at most 8388607TB)", str)
	}
	return Size(f * mult), nil
}

// Find returns the folder holding project.yaml: dir if given, else the
// current folder or its nearest parent that has one.
func Find(dir string) (string, error) {
	if dir != "" {
		abs, err := filepath.Abs(dir)
		if err != nil {
			return "", err
		}
		if !hasProjectFile(abs) {
			return "", fmt.Errorf("no %s or %s in %s", FileName, DBTFileName, abs)
		}
		return abs, nil
	}
	cwd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for d := cwd; ; d = filepath.Dir(d) {
		if hasProjectFile(d) {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("no %s in %s or its parents (use --project DIR, or `docket init DIR`)", FileName, cwd)
		}
	}
}

func hasProjectFile(dir string) bool {
	for _, f := range []string{FileName, DBTFileName} {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			return true
		}
	}
	return false
}

// Load reads and validates DIR/project.yaml and, when present,
// DIR/dbt_project.yml (and profiles.yml for its default target). A folder
// with only dbt_project.yml gets docket's defaults for everything else.
func Load(dir string) (*Project, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	file := filepath.Join(abs, FileName)
	data, err := os.ReadFile(file)
	own := err == nil
	if errors.Is(err, os.ErrNotExist) {
		if _, derr := os.Stat(filepath.Join(abs, DBTFileName)); derr == nil {
			data, err = []byte("version: 1\n"), nil
		}
	}
	if err != nil {
		return nil, err
	}
	p, err := Parse(file, data)
	if err != nil {
		return nil, err
	}
	p.ownFile = own
	set := map[string]bool{}
	var top map[string]any
	if yaml.Unmarshal(data, &top) == nil {
		for k, v := range top {
			set[k] = true
			if k == "vars" {
				if vm, ok := v.(map[string]any); ok {
					for vk := range vm {
						set["vars."+vk] = true
					}
				}
			}
		}
	}
	p.setWarehouse = set["warehouse"]
	if err := p.readDBT(set); err != nil {
		return nil, err
	}
	if err := p.UseTarget(""); err != nil {
		return nil, err
	}
	return p, nil
}

// Parse decodes project.yaml bytes; file is used for messages and to
// resolve relative paths.
func Parse(file string, data []byte) (*Project, error) {
	p := &Project{}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(p); err != nil {
		return nil, yamlErr(file, err)
	}
	p.File = file
	p.Dir = filepath.Dir(file)
	var root yaml.Node
	yaml.Unmarshal(data, &root) // decoded above: only the key lines (and meta's order) are wanted
	if len(root.Content) == 1 {
		doc := root.Content[0]
		for i := 0; i+1 < len(doc.Content); i += 2 {
			switch doc.Content[i].Value {
			case "models":
				metaInOrder(p.Models, doc.Content[i+1])
			case "seeds":
				metaInOrder(p.Seeds, doc.Content[i+1])
			}
		}
	}
	lines, nulls := keyLinesAndNulls(&root)
	p.noValueWarnings(lines, nulls)
	if errs := p.validateRaw(lines); len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	p.applyDefaults(lines)
	if errs := p.validate(lines); len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	p.memoryWarnings(lines)
	p.embeddingWarnings(lines)
	p.Target = Target{Name: "dev", Schema: "main", Type: "duckdb", Threads: p.Threads}
	return p, nil
}

var lineRe = regexp.MustCompile(`line (\d+): (.*)`)

func yamlErr(file string, err error) error {
	var te *yaml.TypeError
	msgs := []string{err.Error()}
	if errors.As(err, &te) {
		msgs = te.Errors
	}
	var out []error
	for _, m := range msgs {
		m = strings.TrimPrefix(m, "yaml: ")
		if sm := lineRe.FindStringSubmatch(m); sm != nil {
			msg := sm[2]
			if f := regexp.MustCompile(`field (\S+) not found in type \S+`).FindStringSubmatch(msg); f != nil {
				msg = fmt.Sprintf("unknown key %q", f[1])
			}
			out = append(out, fmt.Errorf("%s:%s: %s", file, sm[1], msg))
		} else {
			out = append(out, fmt.Errorf("%s: %s", file, m))
		}
	}
	return errors.Join(out...)
}

// applyDefaults fills the settings the file does not write (lines holds
// the keys it writes). A key written with its zero value ("", 0, [])
// keeps it: validate rejects it at its line where it is no setting
// (warehouse: ""), and it is applied where it means something (ocr
// confidences 0: keep every word; health.min_success_rate: 0 turns the
// check off); workers and threads 0 mean one per core, as documented.
func (p *Project) applyDefaults(lines map[string]int) {
	fill(lines, "name", &p.Name, filepath.Base(p.Dir))
	fill(lines, "warehouse", &p.Warehouse, "warehouse.duckdb")
	if p.Warehouse != "" {
		p.Warehouse = p.abs(p.Warehouse)
	}
	for i := range p.Sources {
		if p.Sources[i].Path != "" {
			p.Sources[i].Path = p.abs(p.Sources[i].Path)
		}
	}
	l := &p.Loader
	if l.Workers <= 0 {
		l.Workers = runtime.NumCPU()
	}
	fill(lines, "loader.timeout", &l.Timeout.Duration, 5*time.Minute)
	fill(lines, "loader.lock_timeout", &l.LockTimeout.Duration, 10*time.Second)
	fill(lines, "loader.max_file_size", &l.MaxFileSize, 512<<20)
	fill(lines, "loader.max_worker_memory", &l.MaxWorkerMemory, 4<<30)
	fill(lines, "loader.max_archive_bytes", &l.MaxArchiveBytes, 256<<20)
	fill(lines, "loader.memory_limit", &l.MemoryLimit, DefaultLoadMemory)
	fill(lines, "loader.max_pages", &l.MaxPages, 5000)
	fill(lines, "loader.min_chars_per_page", &l.MinCharsPerPage, 16)
	fill(lines, "loader.max_attachment_depth", &l.MaxAttachmentDepth, 3)
	fill(lines, "loader.max_sheet_rows", &l.MaxSheetRows, 10000)
	fill(lines, "loader.max_archive_members", &l.MaxArchiveMembers, 10000)
	fill(lines, "loader.max_attempts", &l.MaxAttempts, 3)
	fill(lines, "loader.max_page_chars", &l.MaxPageChars, 1_000_000)
	fill(lines, "loader.max_doc_chars", &l.MaxDocChars, 20_000_000)
	fill(lines, "loader.max_page_tokens", &l.MaxPageTokens, DefaultMaxPageTokens)
	// Pillow's decompression-bomb limit (2 x 89,478,485 pixels): a 600 dpi
	// scan of an A2 sheet; about 1 GB of worker memory to OCR.
	fill(lines, "loader.max_image_pixels", &l.MaxImagePixels, 178_956_970)
	fill(lines, "loader.symlinks", &l.Symlinks, SymlinksSkip)
	fill(lines, "loader.verify", &l.Verify, VerifyStat)
	fill(lines, "ocr.languages", &p.OCR.Languages, []string{"eng"})
	fill(lines, "ocr.dpi", &p.OCR.DPI, 300)
	fill(lines, "ocr.min_word_confidence", &p.OCR.MinWordConfidence, 60)
	fill(lines, "ocr.review_below", &p.OCR.ReviewBelow, 70)
	fill(lines, "retrieval.vector_index", &p.Retrieval.VectorIndex, "auto")
	fill(lines, "health.severity", &p.Health.Severity, "error")
	fill(lines, "health.min_documents", &p.Health.MinDocuments, 5)
	fill(lines, "health.window", &p.Health.Window, 5)
	fill(lines, "target_dir", &p.TargetDir, "target")
	written := map[string]bool{}
	for k := range lines {
		if key, ok := strings.CutPrefix(k, "embedding."); ok {
			written[key] = true
		}
	}
	p.Embedding = p.Embedding.WithDefaultsExcept(written)
	if p.Health.MinSuccessRate == nil {
		v := 0.5
		p.Health.MinSuccessRate = &v
	}
	if p.Health.MaxMeanCharsDrop == nil {
		v := 0.5
		p.Health.MaxMeanCharsDrop = &v
	}
	if p.Threads <= 0 {
		p.Threads = runtime.NumCPU()
	}
	if p.TargetDir != "" {
		p.TargetDir = p.abs(p.TargetDir)
	}
	if p.PackagesDir == "" {
		p.PackagesDir = filepath.Join(p.Dir, "dbt_packages")
	}
	if p.Vars == nil {
		p.Vars = map[string]any{}
	}
}

// fill sets *v to def when the file does not write key.
func fill[T any](lines map[string]int, key string, v *T, def T) {
	if _, written := lines[key]; !written {
		*v = def
	}
}

func (p *Project) abs(s string) string {
	if s == ":memory:" || filepath.IsAbs(s) {
		return s
	}
	return filepath.Join(p.Dir, s)
}

// SourceNames lists source names sorted.
func (p *Project) SourceNames() []string {
	var out []string
	for _, s := range p.Sources {
		out = append(out, s.Name)
	}
	sort.Strings(out)
	return out
}

// DefaultMaxPageTokens bounds the content-stream tokens (operators and
// operands, forms included) MuPDF interprets for one PDF page: far above
// real pages (see README), far below a content-stream bomb's.
const DefaultMaxPageTokens = 20_000_000
