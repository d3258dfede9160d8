package loader

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"time"
	"unicode/utf8"

	"github.com/docket-dev/docket/loader/internal/warehouse"
)

// Beyond one machine (DESIGN §10): `docket plan --shards N` writes a plan
// folder (plan.json and one shard-K.json per shard); `docket load --plan
// DIR --shard K` executes one shard anywhere the files are readable and
// writes shard-K/ (Parquet files of what Land would write, then
// manifest.json, last); `docket land DIR` lands the finished shards in
// one writer. A shard's plan is self-contained: its files with their
// actions and expected hashes, and the warehouse's knowledge its
// execution may reuse.

// PlanManifest is a plan folder's plan.json: what the plan decided for
// the files no shard executes (unchanged, deleted, skipped entries) and
// where its shards are.
type PlanManifest struct {
	PlanID        string    `json:"plan_id"`
	DocketVersion string    `json:"docket_version"`
	CreatedAt     time.Time `json:"created_at"`
	Warehouse     string    `json:"warehouse"`
	// BaseRun is the warehouse's latest load run when the plan was made:
	// a land refuses the plan if another run came after it (its decisions
	// would be stale).
	BaseRun string         `json:"base_run"`
	Options map[string]any `json:"options"`
	Shards  []ShardInfo    `json:"shards"`
	// Counts are the plan's own counts (seen, new, changed, unchanged,
	// bytes hashed); each shard adds what its execution found.
	Counts    Summary          `json:"counts"`
	Unchanged []string         `json:"unchanged"`
	Deleted   []string         `json:"deleted"`
	Skips     []warehouse.Skip `json:"skips"`
	// Restats are the stats of unchanged files the plan read again.
	Restats []warehouse.StatUpdate `json:"restats"`
	// Redo are contents the warehouse has that this plan extracts again
	// (retries, re-OCR, repairs): a shard's rows replace the warehouse's.
	// Any other content a shard extracted that is landed already was
	// extracted by another shard too (an attachment with the bytes of a
	// file elsewhere): the first landed stays, as in a local load.
	Redo []string `json:"redo"`
}

// ShardInfo is one shard of a plan.
type ShardInfo struct {
	Shard  int    `json:"shard"`
	Files  int    `json:"files"`
	Bytes  int64  `json:"bytes"`
	SHA256 string `json:"sha256"` // of shard-K.json
}

// ShardPlan is shard-K.json: the files one shard executes, in order, and
// the knowledge the execution may reuse.
type ShardPlan struct {
	PlanID      string                               `json:"plan_id"`
	Shard       int                                  `json:"shard"`
	Shards      int                                  `json:"shards"`
	Files       []WireFile                           `json:"files"`
	Contents    map[string]warehouse.Extraction      `json:"contents"`
	Attachments map[string][]warehouse.AttachmentRef `json:"attachments"`
	Children    map[string][]string                  `json:"children"`
	ChildHashes map[string]string                    `json:"child_hashes"`
}

// WireFile is a planned file as written to a shard plan: paths that are
// not valid UTF-8 travel as bytes too (a JSON string cannot hold them).
type WireFile struct {
	PlannedFile
	RelBytes []byte `json:"rel_path_bytes,omitempty"`
	AbsBytes []byte `json:"path_bytes,omitempty"`
}

func wire(f PlannedFile) WireFile {
	f.URI = f.uri() // as shard plans always had it
	w := WireFile{PlannedFile: f}
	if !utf8.ValidString(f.Rel) {
		w.RelBytes = []byte(f.Rel)
	}
	if !utf8.ValidString(f.Abs) {
		w.AbsBytes = []byte(f.Abs)
	}
	return w
}

func (w WireFile) planned() PlannedFile {
	f := w.PlannedFile
	if w.RelBytes != nil {
		f.Rel = string(w.RelBytes)
	}
	if w.AbsBytes != nil {
		f.Abs = string(w.AbsBytes)
	}
	return f
}

// SplitPlan assigns the files a plan executes to n shards: files with
// the same expected bytes go together (their content is extracted once,
// as in a local load), each group to the shard with the fewest bytes so
// far, biggest group first, ties by document id, so the same plan always
// splits the same way. Each shard keeps the plan's order and carries the
// contents, attachments and children its files may need.
func SplitPlan(plan *Plan, n int, planID string) []ShardPlan {
	todo := plan.Todo()
	type group struct {
		key   string // smallest doc id
		bytes int64
		idx   []int
	}
	byKey := map[string]*group{}
	var groups []*group
	for i, f := range todo {
		k := "doc:" + f.DocID
		if f.Hash != "" {
			k = "hash:" + f.Hash
		}
		g := byKey[k]
		if g == nil {
			g = &group{key: f.DocID}
			byKey[k] = g
			groups = append(groups, g)
		}
		g.bytes += f.Stat.Size
		g.idx = append(g.idx, i)
		if f.DocID < g.key {
			g.key = f.DocID
		}
	}
	sort.Slice(groups, func(i, j int) bool {
		if groups[i].bytes != groups[j].bytes {
			return groups[i].bytes > groups[j].bytes
		}
		return groups[i].key < groups[j].key
	})
	load := make([]int64, n)
	assign := make([]int, len(todo))
	for _, g := range groups {
		best := 0
		for k := 1; k < n; k++ {
			if load[k] < load[best] {
				best = k
			}
		}
		load[best] += g.bytes
		for _, i := range g.idx {
			assign[i] = best
		}
	}
	shards := make([]ShardPlan, n)
	for k := range shards {
		shards[k] = ShardPlan{PlanID: planID, Shard: k, Shards: n, Files: []WireFile{},
			Contents: map[string]warehouse.Extraction{}, Attachments: map[string][]warehouse.AttachmentRef{}, Children: map[string][]string{},
			ChildHashes: map[string]string{}}
	}
	for i, f := range todo {
		sp := &shards[assign[i]]
		sp.Files = append(sp.Files, wire(f))
		addKnowledge(sp, plan, f.Hash)
		addChildren(sp, plan, f.DocID)
	}
	return shards
}

// addKnowledge copies what the plan knows of a content (and, recursively,
// of its attachments' contents) into a shard plan.
func addKnowledge(sp *ShardPlan, plan *Plan, hash string) {
	if hash == "" {
		return
	}
	if _, done := sp.Contents[hash]; done {
		return
	}
	if ex, ok := plan.Content(hash); ok {
		sp.Contents[hash] = ex
	}
	if refs, ok := plan.Attachments[hash]; ok {
		if _, done := sp.Attachments[hash]; done {
			return
		}
		sp.Attachments[hash] = refs
		for _, r := range refs {
			addKnowledge(sp, plan, r.ChildHash)
		}
	}
}

func addChildren(sp *ShardPlan, plan *Plan, id string) {
	kids, ok := plan.Children[id]
	if !ok {
		return
	}
	if _, done := sp.Children[id]; done {
		return
	}
	sp.Children[id] = kids
	for _, c := range kids {
		if h, ok := plan.ChildHashes[c]; ok {
			sp.ChildHashes[c] = h
		}
		addChildren(sp, plan, c)
	}
}

// asPlan is the shard's part as a Plan Execute runs.
func (sp *ShardPlan) asPlan() (*Plan, []PlannedFile) {
	files := make([]PlannedFile, len(sp.Files))
	for i, w := range sp.Files {
		files[i] = w.planned()
	}
	return &Plan{Files: files, Contents: sp.Contents, Attachments: sp.Attachments, Children: sp.Children, ChildHashes: sp.ChildHashes}, files
}

// NewPlanManifest records a plan's own decisions.
func NewPlanManifest(plan *Plan, planID, warehousePath, baseRun string, opts Options) *PlanManifest {
	m := &PlanManifest{PlanID: planID, DocketVersion: Version, CreatedAt: time.Now().UTC(), Warehouse: warehousePath, BaseRun: baseRun,
		Options:   map[string]any{"retry_quarantined": opts.RetryQuarantined, "reocr": opts.ReOCR, "sources": opts.Project.SourceNames()},
		Unchanged: nonNil(plan.IDs(ActUnchanged)), Deleted: nonNil(plan.IDs(ActDeleted)), Skips: plan.Skips, Restats: plan.Restats(), Redo: []string{}}
	if m.Skips == nil {
		m.Skips = []warehouse.Skip{}
	}
	m.Counts.addPlan(plan)
	m.Redo = append(m.Redo, plan.Dropped...)
	return m
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// NewPlanID names a plan.
func NewPlanID() string { return "plan-" + newRunID(time.Now()) }

// Plan folder layout.
func shardPlanPath(dir string, k int) string {
	return filepath.Join(dir, fmt.Sprintf("shard-%d.json", k))
}

// ShardDir is where shard k writes its output.
func ShardDir(dir string, k int) string { return filepath.Join(dir, fmt.Sprintf("shard-%d", k)) }

const planFile = "plan.json"

// WritePlan writes the shard plans, then plan.json (last, atomically:
// a folder without it is no plan).
func WritePlan(dir string, m *PlanManifest, shards []ShardPlan) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(dir, planFile)); err == nil {
		return fmt.Errorf("%s already holds a plan (plan.json): plan into a new folder", dir)
	}
	m.Shards = nil
	for k, sp := range shards {
		b, err := json.Marshal(sp)
		if err != nil {
			return err
		}
		if err := writeAtomic(shardPlanPath(dir, k), b); err != nil {
			return err
		}
		sum := sha256.Sum256(b)
		info := ShardInfo{Shard: k, Files: len(sp.Files), SHA256: hex.EncodeToString(sum[:])}
		for _, f := range sp.Files {
			info.Bytes += f.Stat.Size
		}
		m.Shards = append(m.Shards, info)
	}
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return writeAtomic(filepath.Join(dir, planFile), b)
}

// ReadPlan reads a plan folder's plan.json.
func ReadPlan(dir string) (*PlanManifest, error) {
	b, err := os.ReadFile(filepath.Join(dir, planFile))
	if err != nil {
		return nil, fmt.Errorf("%s is not a plan folder (run `docket plan --out %s` first): %w", dir, dir, err)
	}
	m := &PlanManifest{}
	if err := json.Unmarshal(b, m); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, planFile), err)
	}
	return m, nil
}

// ReadShardPlan reads shard k's plan and checks it against plan.json.
func ReadShardPlan(dir string, m *PlanManifest, k int) (*ShardPlan, error) {
	if k < 0 || k >= len(m.Shards) {
		return nil, fmt.Errorf("shard %d: the plan has shards 0 to %d", k, len(m.Shards)-1)
	}
	b, err := os.ReadFile(shardPlanPath(dir, k))
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(b)
	if hex.EncodeToString(sum[:]) != m.Shards[k].SHA256 {
		return nil, fmt.Errorf("%s does not match plan.json's checksum", shardPlanPath(dir, k))
	}
	sp := &ShardPlan{}
	if err := json.Unmarshal(b, sp); err != nil {
		return nil, err
	}
	if sp.PlanID != m.PlanID || sp.Shard != k {
		return nil, fmt.Errorf("%s is shard %d of plan %s, not shard %d of %s", shardPlanPath(dir, k), sp.Shard, sp.PlanID, k, m.PlanID)
	}
	return sp, nil
}

// writeAtomic writes a file under a temporary name, syncs it and renames
// it into place, so a reader sees all of it or nothing.
func writeAtomic(path string, b []byte) error {
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		return err
	}
	if d, err := os.Open(filepath.Dir(path)); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

// PlanShards decides every file's action from the warehouse (hashing
// every file, new ones too: a shard checks the bytes it extracts against
// them) and writes a plan folder with n shards. Nothing is extracted.
func PlanShards(ctx context.Context, db *warehouse.DB, opts Options, n int, dir string) (*PlanManifest, error) {
	if n < 1 {
		return nil, fmt.Errorf("--shards must be at least 1")
	}
	if err := db.EnsureSchema(ctx); err != nil {
		return nil, err
	}
	base, err := db.LatestRun(ctx)
	if err != nil {
		return nil, err
	}
	st, err := ReadState(ctx, db, opts.ReOCR)
	if err != nil {
		return nil, err
	}
	opts.HashNew = true
	plan, err := MakePlan(st, List(opts.Project, st.Known), opts)
	if err != nil {
		return nil, err
	}
	id := NewPlanID()
	m := NewPlanManifest(plan, id, db.Path, base, opts)
	if err := WritePlan(dir, m, SplitPlan(plan, n, id)); err != nil {
		return nil, err
	}
	return m, nil
}
