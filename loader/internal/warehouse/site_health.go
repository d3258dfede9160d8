package warehouse

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// SiteRun is one load run with what it did to documents, computed from
// ops.load_runs and ops.document_events like models/ops/extraction_health
// (which may not be built yet when the site is generated).
type SiteRun struct {
	RunID                         string
	StartedAt                     time.Time
	Status                        string
	Seen, Unchanged, Deleted      int
	Processed, Landed, Quarantine int
	Pages, OCRPages, ReviewPages  int
	SuccessRate                   *float64 // landed / processed; nil when nothing was processed
	MeanChars                     *float64 // characters per landed document with pages
	MeanOCRConfidence             *float64
	FailureModes                  map[string]int // error_kind -> documents
	DurationMS                    int64
}

// SiteRuns lists every load run, oldest first.
func (w *DB) SiteRuns(ctx context.Context) ([]SiteRun, error) {
	var out []SiteRun
	idx := map[string]int{}
	err := w.each(ctx, `
		with ev as (
			select * from ops.document_events where event not in ('unchanged', 'deleted')
		), per_run as (
			select run_id,
				count(*) as processed,
				count(*) filter (where status = 'landed') as landed,
				count(*) filter (where status = 'quarantined') as quarantined,
				avg(chars) filter (where status = 'landed' and pages > 0) as mean_chars,
				coalesce(sum(pages), 0) as pages, coalesce(sum(ocr_pages), 0) as ocr_pages, coalesce(sum(review_pages), 0) as review_pages,
				sum(mean_ocr_confidence * ocr_pages) / nullif(sum(ocr_pages) filter (where mean_ocr_confidence is not null), 0) as conf
			from ev group by run_id
		)
		select r.run_id, r.started_at, r.status, coalesce(r.seen, 0), coalesce(r.unchanged, 0), coalesce(r.deleted, 0),
			coalesce(p.processed, 0), coalesce(p.landed, 0), coalesce(p.quarantined, 0),
			coalesce(p.pages, 0)::bigint, coalesce(p.ocr_pages, 0)::bigint, coalesce(p.review_pages, 0)::bigint,
			p.mean_chars, p.conf, coalesce(r.duration_ms, 0)
		from ops.load_runs r left join per_run p using (run_id)
		order by r.started_at, r.run_id`, func(r *sql.Rows) error {
		var s SiteRun
		var chars, conf sql.NullFloat64
		if err := r.Scan(&s.RunID, &s.StartedAt, &s.Status, &s.Seen, &s.Unchanged, &s.Deleted, &s.Processed, &s.Landed, &s.Quarantine,
			&s.Pages, &s.OCRPages, &s.ReviewPages, &chars, &conf, &s.DurationMS); err != nil {
			return err
		}
		if s.Processed > 0 {
			v := float64(s.Landed) / float64(s.Processed)
			s.SuccessRate = &v
		}
		if chars.Valid {
			s.MeanChars = &chars.Float64
		}
		if conf.Valid {
			s.MeanOCRConfidence = &conf.Float64
		}
		s.FailureModes = map[string]int{}
		idx[s.RunID] = len(out)
		out = append(out, s)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("warehouse: load runs: %w", err)
	}
	err = w.each(ctx, `select run_id, coalesce(error_kind, 'unknown'), count(*) from ops.document_events
		where status = 'quarantined' and event not in ('unchanged', 'deleted') group by all`, func(r *sql.Rows) error {
		var run, kind string
		var n int
		if err := r.Scan(&run, &kind, &n); err != nil {
			return err
		}
		if i, ok := idx[run]; ok {
			out[i].FailureModes[kind] = n
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("warehouse: failure modes: %w", err)
	}
	return out, nil
}

// PageFigure is one page of a current landed document, for distributions
// and the review list.
type PageFigure struct {
	DocID, RelPath string
	Page           int
	Chars          int
	Method         string
	OCRConfidence  *float64
	ReviewReason   string
}

// SitePageFigures lists the pages of current landed documents.
func (w *DB) SitePageFigures(ctx context.Context) ([]PageFigure, error) {
	var out []PageFigure
	err := w.each(ctx, `select d.doc_id, d.rel_path, p.page_number, p.char_count, p.method, p.ocr_confidence, coalesce(p.review_reason, '')
		from raw.documents d join staging.pages p on p.source_hash = d.source_hash
		where d.status = 'landed' order by d.source_name, d.rel_path, p.page_number`, func(r *sql.Rows) error {
		var f PageFigure
		var conf sql.NullFloat64
		if err := r.Scan(&f.DocID, &f.RelPath, &f.Page, &f.Chars, &f.Method, &conf, &f.ReviewReason); err != nil {
			return err
		}
		if conf.Valid {
			f.OCRConfidence = &conf.Float64
		}
		out = append(out, f)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("warehouse: page figures: %w", err)
	}
	return out, nil
}

// SiteWordConfidences counts OCR words of current documents per 5-point
// confidence bin (bin i holds [5i, 5i+5); 100 goes to the last bin).
func (w *DB) SiteWordConfidences(ctx context.Context) ([20]int, error) {
	var bins [20]int
	err := w.each(ctx, `select least(greatest(floor(coalesce(w.confidence, 0) / 5), 0), 19)::integer, count(*)
		from staging.ocr_words w where w.source_hash in (select source_hash from raw.documents where status = 'landed')
		group by 1`, func(r *sql.Rows) error {
		var b, n int
		if err := r.Scan(&b, &n); err != nil {
			return err
		}
		bins[b] = n
		return nil
	})
	if err != nil {
		return bins, fmt.Errorf("warehouse: word confidences: %w", err)
	}
	return bins, nil
}
