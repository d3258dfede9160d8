package loader

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/docket-dev/docket/loader/internal/extract/version"
	"github.com/docket-dev/docket/loader/internal/warehouse"
	"github.com/docket-dev/docket/loader/internal/worker"
)

// ShardManifest is a finished shard's manifest.json, written last: a
// shard folder without one is unfinished, whatever else it holds.
type ShardManifest struct {
	PlanID        string                `json:"plan_id"`
	Shard         int                   `json:"shard"`
	Shards        int                   `json:"shards"`
	DocketVersion string                `json:"docket_version"`
	Host          string                `json:"host"`
	StartedAt     time.Time             `json:"started_at"`
	FinishedAt    time.Time             `json:"finished_at"`
	Files         []warehouse.ShardFile `json:"files"`
	// Summary is what the execution found (landed, quarantined, pages,
	// attachments seen); the plan's own counts are in plan.json.
	Summary Summary `json:"summary"`
	// ChangedSincePlan are the files whose bytes were not the plan's:
	// not extracted, left for the next load (an event records each).
	ChangedSincePlan []ChangedFile `json:"changed_since_plan"`
}

// ChangedFile is a file whose bytes changed between plan and shard.
type ChangedFile struct {
	DocID    string `json:"doc_id"`
	RelPath  string `json:"rel_path"`
	Expected string `json:"expected_hash"`
	Found    string `json:"found_hash"` // "" when it could not be read
}

const (
	shardManifestFile  = "manifest.json"
	eventChangedSince  = "changed_since_plan"
	changedSinceReason = "the file changed after `docket plan`: the shard did not extract it; the next plan or load does"
)

// ReadShardManifest reads a shard's manifest and checks its files; nil
// without error when the shard has not finished.
func ReadShardManifest(dir string, m *PlanManifest, k int) (*ShardManifest, error) {
	out := ShardDir(dir, k)
	b, err := os.ReadFile(filepath.Join(out, shardManifestFile))
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	sm := &ShardManifest{}
	if err := json.Unmarshal(b, sm); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(out, shardManifestFile), err)
	}
	if sm.PlanID != m.PlanID || sm.Shard != k {
		return nil, fmt.Errorf("%s is shard %d of plan %s, not shard %d of %s", out, sm.Shard, sm.PlanID, k, m.PlanID)
	}
	if err := warehouse.VerifyShardFiles(out, sm.Files); err != nil {
		return nil, fmt.Errorf("%s: %w", out, err)
	}
	return sm, nil
}

// RunShard executes shard k of the plan in dir and writes its output to
// ShardDir(dir, k): the execution of a local load (same workers, same
// landings) with a scratch database in place of the warehouse, exported
// as Parquet, then the manifest. A shard already finished is not run
// again (done is true); an unfinished one starts over.
func RunShard(ctx context.Context, dir string, k int, opts Options) (sm *ShardManifest, done bool, err error) {
	m, err := ReadPlan(dir)
	if err != nil {
		return nil, false, err
	}
	sp, err := ReadShardPlan(dir, m, k)
	if err != nil {
		return nil, false, err
	}
	if sm, err := ReadShardManifest(dir, m, k); err == nil && sm != nil {
		return sm, true, nil
	}
	out := ShardDir(dir, k)
	if err := os.RemoveAll(out); err != nil {
		return nil, false, err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, false, err
	}
	host, _ := os.Hostname()
	sm = &ShardManifest{PlanID: m.PlanID, Shard: k, Shards: len(m.Shards), DocketVersion: Version, Host: host, StartedAt: time.Now().UTC(),
		ChangedSincePlan: []ChangedFile{}}
	sum := &sm.Summary
	sum.ByKind = map[string]int{}

	plan, files := sp.asPlan()
	// The bytes must be the plan's: a file changed since is reported and
	// left for the next load, never landed against the plan's decision.
	var check []*entry
	expected := map[string]string{}
	for _, pf := range files {
		expected[pf.DocID] = pf.Hash
		if pf.Abs != "" && pf.Err == nil && pf.Action != ActVanished && pf.Hash != "" {
			check = append(check, &entry{docID: pf.DocID, source: pf.Source, rel: pf.Rel, abs: pf.Abs, stat: pf.Stat, hash: pf.Hash})
		}
	}
	hashAll(check, opts.Project.Loader.Workers)
	changed := map[string]*entry{}
	for _, f := range check {
		if !f.gone && f.hash != expected[f.docID] {
			changed[f.docID] = f
		}
	}
	var run []PlannedFile
	var events []warehouse.Landing
	for _, pf := range files {
		f, ok := changed[pf.DocID]
		if !ok {
			run = append(run, pf)
			continue
		}
		found := f.hash
		if f.err != nil {
			found = ""
		}
		sm.ChangedSincePlan = append(sm.ChangedSincePlan, ChangedFile{DocID: pf.DocID, RelPath: EscapePath(pf.Rel), Expected: pf.Hash, Found: found})
		events = append(events, warehouse.Landing{EventOnly: true, Event: eventChangedSince, Doc: warehouse.DocRow{DocID: pf.DocID, SourceName: pf.Source,
			RelPath: EscapePath(pf.Rel), RelPathBytes: rawBytes(pf.Rel), URI: pf.uri(), Hash: found, ErrorMessage: changedSinceReason}})
		sum.ChangedSincePlan++
		if pf.Action == ActNew {
			sum.New-- // the plan counted it as new
		}
	}

	scratchDir, err := newPrivateDir("docket-shard-")
	if err != nil {
		return nil, false, err
	}
	defer scratchDir.Close()
	p := opts.Project
	memory, _ := p.Loader.DuckDBMemory() // a too-small setting is warned by docket land, which lands the shards
	scratch, err := warehouse.OpenScratch(ctx, scratchDir.path, int64(memory))
	if err != nil {
		return nil, false, err
	}
	defer scratch.Close()
	pool := worker.NewPool(worker.PoolOptions{Command: opts.WorkerCommand, Env: opts.WorkerEnv, Size: p.Loader.Workers,
		Timeout: p.Loader.Timeout.Duration, MaxMemory: int64(p.Loader.MaxWorkerMemory), Versions: version.All()})
	defer pool.Close()
	if len(run) > 0 {
		pool.Warm()
	}
	w := NewWriter(scratch, "", sum)
	w.Again = fmt.Sprintf("nothing of this shard is kept (its scratch database is removed), run it again: `docket load --plan %s --shard %d`", dir, k)
	if len(events) > 0 {
		if err := w.Add(ctx, Family{Landings: events}); err != nil {
			return nil, false, err
		}
	}
	err = Execute(ctx, plan, run, opts, pool, sum, func(f Family) error { return w.Add(ctx, f) })
	if err == nil {
		err = w.Flush(ctx)
	}
	if ce := (*warehouse.CommitError)(nil); errors.As(err, &ce) && ce.OutOfMemory() {
		// docket load says so after its closing checkpoint; a shard has none
		err = fmt.Errorf("%w (%s before running the shard again)", err, ce.MemoryAdvice(int64(memory)))
	}
	if err != nil {
		return nil, false, err
	}
	pool.Release()
	if sm.Files, err = scratch.Export(ctx, out); err != nil {
		return nil, false, err
	}
	testKill("shard-before-manifest")
	sm.FinishedAt = time.Now().UTC()
	sum.Duration = sm.FinishedAt.Sub(sm.StartedAt)
	b, err := json.MarshalIndent(sm, "", "  ")
	if err != nil {
		return nil, false, err
	}
	if err := writeAtomic(filepath.Join(out, shardManifestFile), b); err != nil {
		return nil, false, err
	}
	return sm, false, nil
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// manifestSHA is the sha256 of shard k's manifest.json.
func manifestSHA(dir string, k int) (string, error) {
	b, err := os.ReadFile(filepath.Join(ShardDir(dir, k), shardManifestFile))
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), nil
}
