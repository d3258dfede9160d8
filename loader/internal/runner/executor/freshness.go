package executor

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/docket-dev/docket/loader/internal/runner/compiler"
)

// Freshness statuses (dbt's).
const (
	FreshPass  = "pass"
	FreshWarn  = "warn"
	FreshError = "error"
	FreshRTE   = "runtime error"
)

// FreshnessResult is one source table's check; its JSON is one result of
// dbt's sources.json (v3).
type FreshnessResult struct {
	UniqueID        string              `json:"unique_id"`
	MaxLoadedAt     string              `json:"max_loaded_at,omitempty"`
	SnapshottedAt   string              `json:"snapshotted_at,omitempty"`
	AgeSeconds      *float64            `json:"max_loaded_at_time_ago_in_s,omitempty"`
	Status          string              `json:"status"`
	Error           *string             `json:"error,omitempty"`
	Criteria        *compiler.Freshness `json:"criteria,omitempty"`
	AdapterResponse map[string]any      `json:"adapter_response"`
	Timing          []Timing            `json:"timing,omitempty"`
	ThreadID        string              `json:"thread_id,omitempty"`
	ExecutionTime   *float64            `json:"execution_time,omitempty"`

	// For printing, not in sources.json.
	Source   string        `json:"-"` // source_name.table
	Age      time.Duration `json:"-"`
	FromLoad bool          `json:"-"` // max_loaded_at is docket's last completed load
}

// FreshnessOptions configure CheckFreshness.
type FreshnessOptions struct {
	Now func() time.Time // the clock (tests freeze it); time.Now when nil
	// LaterLoad: when the latest completed load that the database read
	// does not record finished (the read copy's stamp lists loads that
	// found nothing new and were not published); zero when none.
	LaterLoad time.Time
}

// CheckFreshness measures each source's newest load time against its
// criteria. A source whose query fails gets status "runtime error" with
// the reason; the others are still checked.
func CheckFreshness(ctx context.Context, db compiler.Querier, sources []*compiler.Node, o FreshnessOptions) []FreshnessResult {
	now := o.Now
	if now == nil {
		now = time.Now
	}
	var out []FreshnessResult
	for _, n := range sources {
		start := now()
		r := FreshnessResult{UniqueID: n.UniqueID, Source: n.SourceName + "." + n.Name}
		loaded, fromLoad, err := maxLoadedAt(ctx, db, n)
		if fromLoad && o.LaterLoad.After(loaded) {
			loaded, err = o.LaterLoad, nil
		}
		snap := now()
		if err != nil {
			msg := err.Error()
			r.Status, r.Error = FreshRTE, &msg
			out = append(out, r)
			continue
		}
		age := snap.Sub(loaded)
		// the age in float seconds from the two times, as dbt's
		// total_seconds(): time.Sub saturates past ~292 years (a far-future
		// sentinel, 2999-01-01, printed "loaded -2562047h47m16s ago" and
		// sources.json -9223372036.855)
		ageSecs := float64(snap.Unix()-loaded.Unix()) + float64(snap.Nanosecond()-loaded.Nanosecond())/1e9
		secs := math.Round(ageSecs*1000) / 1000
		exec := snap.Sub(start).Seconds()
		r.MaxLoadedAt, r.SnapshottedAt = isoTime(loaded), isoTime(snap)
		r.AgeSeconds, r.Age, r.FromLoad = &secs, age, fromLoad
		r.Criteria = n.Freshness
		r.Status = FreshPass
		if d := n.Freshness.WarnAfter.Duration(); d > 0 && ageSecs > d.Seconds() {
			r.Status = FreshWarn
		}
		if d := n.Freshness.ErrorAfter.Duration(); d > 0 && ageSecs > d.Seconds() {
			r.Status = FreshError
		}
		r.AdapterResponse = map[string]any{}
		r.Timing = []Timing{{Name: "execute", StartedAt: start.UTC(), CompletedAt: snap.UTC()}}
		r.ThreadID = "Thread-1"
		r.ExecutionTime = &exec
		out = append(out, r)
	}
	return out
}

// MarshalJSON writes a runtime error with only the keys dbt's
// SourceFreshnessRuntimeError allows.
func (r FreshnessResult) MarshalJSON() ([]byte, error) {
	if r.Status == FreshRTE {
		return json.Marshal(struct {
			UniqueID string  `json:"unique_id"`
			Error    *string `json:"error"`
			Status   string  `json:"status"`
		}{r.UniqueID, r.Error, r.Status})
	}
	type plain FreshnessResult
	p := plain(r)
	if p.AdapterResponse == nil {
		p.AdapterResponse = map[string]any{}
	}
	return json.Marshal(p)
}

func isoTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000000Z") }

// maxLoadedAt is max(loaded_at_field) of the source (with its filter), or
// for a loader-owned source without one, when the last completed load
// finished.
func maxLoadedAt(ctx context.Context, db compiler.Querier, n *compiler.Node) (time.Time, bool, error) {
	var q string
	fromLoad := false
	switch {
	case n.LoadedAtField != "":
		q = fmt.Sprintf("select max(%s)::timestamptz from %s", n.LoadedAtField, n.Relation)
		if n.Freshness.Filter != nil && strings.TrimSpace(*n.Freshness.Filter) != "" {
			q += " where " + *n.Freshness.Filter
		}
	case n.LoaderOwned:
		q = `select max(finished_at)::timestamptz from ops.load_runs where status = 'completed'`
		fromLoad = true
	default:
		return time.Time{}, false, fmt.Errorf("source %s.%s declares freshness but no loaded_at_field (only the tables docket load writes have a load time without one)", n.SourceName, n.Name)
	}
	_, rows, err := db.Query(ctx, q)
	var t time.Time
	valid := false
	if err == nil && len(rows) == 1 && len(rows[0]) == 1 && rows[0][0] != nil {
		if t, valid = rows[0][0].(time.Time); !valid {
			err = fmt.Errorf("not a time: %v (%T)", rows[0][0], rows[0][0])
		}
	}
	if err != nil {
		if fromLoad {
			return time.Time{}, true, fmt.Errorf("docket's load times (ops.load_runs): %w", err)
		}
		return time.Time{}, false, fmt.Errorf("loaded_at_field %s of %s: %w", n.LoadedAtField, n.Relation, err)
	}
	if !valid {
		if fromLoad {
			return time.Time{}, true, fmt.Errorf("no completed docket load yet (ops.load_runs is empty)")
		}
		return time.Time{}, false, fmt.Errorf("max(%s) is null: %s has no rows with a load time", n.LoadedAtField, n.Relation)
	}
	return t, fromLoad, nil
}

// SourcesArtifact is target/sources.json (dbt's sources/v3).
type SourcesArtifact struct {
	Metadata    map[string]any    `json:"metadata"`
	Results     []FreshnessResult `json:"results"`
	ElapsedTime float64           `json:"elapsed_time"`
}
