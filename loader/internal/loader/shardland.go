package loader

import (
	"context"
	"fmt"
	"time"

	"github.com/docket-dev/docket/loader/internal/warehouse"
)

// LandReport is what a land did and what it left.
type LandReport struct {
	PlanID  string `json:"plan_id"`
	RunID   string `json:"run_id,omitempty"` // "" when there was nothing to land
	Landed  []int  `json:"landed"`
	Already []int  `json:"already_landed"`
	// Unfinished shards have output but no manifest (still running, or
	// killed: run them again); Missing ones have no output at all.
	Unfinished []int          `json:"unfinished"`
	Missing    []int          `json:"missing"`
	Bad        map[int]string `json:"bad,omitempty"` // output that does not match its manifest
	// ChangedSincePlan are the files the landed shards found changed
	// since the plan: not landed, left for the next load.
	ChangedSincePlan []ChangedFile `json:"changed_since_plan"`
	Summary          *Summary      `json:"summary"`
}

// Complete reports whether every shard of the plan is landed.
func (r *LandReport) Complete() bool {
	return len(r.Unfinished) == 0 && len(r.Missing) == 0 && len(r.Bad) == 0
}

// LandPlan lands the finished shards of the plan in dir into the
// warehouse, in one writer: each shard in one transaction with the record
// that it landed, so landing again changes nothing. The plan's own
// decisions (unchanged documents, skipped entries, deletions) land with
// the first shards. The run is recorded in ops.load_runs like a local
// load's, with the same events.
func LandPlan(ctx context.Context, db *warehouse.DB, dir string) (*LandReport, error) {
	m, err := ReadPlan(dir)
	if err != nil {
		return nil, err
	}
	if err := db.EnsureSchema(ctx); err != nil {
		return nil, err
	}
	landed, err := db.LandedShards(ctx, m.PlanID)
	if err != nil {
		return nil, err
	}
	rep := &LandReport{PlanID: m.PlanID, Landed: []int{}, Already: []int{}, Unfinished: []int{}, Missing: []int{}, Bad: map[int]string{},
		ChangedSincePlan: []ChangedFile{}}
	var ready []*ShardManifest
	for _, s := range m.Shards {
		k := s.Shard
		if landed[k] {
			rep.Already = append(rep.Already, k)
			continue
		}
		sm, err := ReadShardManifest(dir, m, k)
		switch {
		case err != nil:
			rep.Bad[k] = err.Error()
		case sm != nil:
			ready = append(ready, sm)
		case exists(ShardDir(dir, k)):
			rep.Unfinished = append(rep.Unfinished, k)
		default:
			rep.Missing = append(rep.Missing, k)
		}
	}
	planDone := landed[-1]
	if len(ready) == 0 && planDone {
		return rep, nil
	}
	stale, err := db.RunsSince(ctx, m.BaseRun, m.PlanID)
	if err != nil {
		return nil, err
	}
	if len(stale) > 0 {
		return nil, fmt.Errorf("the warehouse changed since plan %s was made (run %s): its decisions are stale; make a new plan", m.PlanID, stale[len(stale)-1])
	}
	start := time.Now()
	sum := &Summary{RunID: newRunID(start), ByKind: map[string]int{}}
	rep.RunID, rep.Summary = sum.RunID, sum
	shardIDs := []int{}
	for _, sm := range ready {
		shardIDs = append(shardIDs, sm.Shard)
	}
	run := warehouse.Run{ID: sum.RunID, StartedAt: start, Version: Version, Options: map[string]any{
		"plan_id": m.PlanID, "shards": shardIDs, "plan_options": m.Options}}
	if err := db.StartRun(ctx, run); err != nil {
		return nil, fmt.Errorf("land: start run: %w", err)
	}
	fail := func(err error) (*LandReport, error) {
		db.FinishRun(context.Background(), runRow(run, sum, "failed"))
		return rep, err
	}
	redo := map[string]bool{}
	for _, h := range m.Redo {
		redo[h] = true
	}
	for _, sm := range ready {
		sha, _ := manifestSHA(dir, sm.Shard)
		reused, err := db.LandShard(ctx, sum.RunID, time.Now(), ShardDir(dir, sm.Shard), warehouse.ShardLand{PlanID: m.PlanID, Shard: sm.Shard, ManifestSHA256: sha}, redo)
		if err != nil {
			return fail(fmt.Errorf("land shard %d: %w", sm.Shard, landStopped(err)))
		}
		rep.Landed = append(rep.Landed, sm.Shard)
		rep.ChangedSincePlan = append(rep.ChangedSincePlan, sm.ChangedSincePlan...)
		sum.add(&sm.Summary)
		// Contents another shard landed first count once, as in a local load.
		sum.Extracted -= reused.Contents
		sum.Pages -= reused.Pages
		sum.OCRPages -= reused.OCRPages
		testKill(fmt.Sprintf("land-shard:%d", sm.Shard))
	}
	if !planDone {
		// Then, in one transaction, the plan's own decisions: skipped
		// entries, stats of unchanged files read again (unchanged
		// documents are not written, as in a local load), tombstones.
		n, err := db.LandDecisions(ctx, sum.RunID, time.Now(), m.PlanID, m.Skips, m.Restats, m.Deleted)
		if err != nil {
			return fail(landStopped(err))
		}
		sum.add(&m.Counts)
		sum.Skipped = len(m.Skips)
		sum.Deleted = n
	}
	sum.Duration = time.Since(start)
	if err := db.FinishRun(ctx, runRow(run, sum, "completed")); err != nil {
		return rep, err
	}
	return rep, nil
}

// add adds another summary's counts (a plan's or a shard's) to s.
func (s *Summary) add(o *Summary) {
	s.Seen += o.Seen
	s.New += o.New
	s.Changed += o.Changed
	s.Unchanged += o.Unchanged
	s.Deleted += o.Deleted
	s.Quarantined += o.Quarantined
	s.Landed += o.Landed
	s.Extracted += o.Extracted
	s.Pages += o.Pages
	s.OCRPages += o.OCRPages
	s.NeedsOCR += o.NeedsOCR
	s.Flagged += o.Flagged
	s.Vanished += o.Vanished
	s.ChangedDuringLoad += o.ChangedDuringLoad
	s.ChangedSincePlan += o.ChangedSincePlan
	s.BytesHashed += o.BytesHashed
	for k, n := range o.ByKind {
		s.ByKind[k] += n
	}
}

// landStopped says, for a failed commit (warehouse.CommitError), that
// the land writes nothing more and to run it again; other errors are
// returned as they are.
func landStopped(err error) error {
	if !warehouse.IsCommitError(err) {
		return err
	}
	return fmt.Errorf("the warehouse could not commit it, and this land writes nothing more (after a failed commit DuckDB's state in this process is not to be trusted); "+
		"the shards landed before it are kept, run `docket land` again to land the rest: %w", err)
}
