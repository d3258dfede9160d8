package warehouse

import (
	"context"
	"fmt"
	"slices"
	"strconv"
)

// ContentFilter says, without a query, that the warehouse has no
// extraction of a content: it holds the first 64 bits of every landed
// content's hash (8 bytes a content: 1.6 MB at 200k documents). Since
// schema version 11 staging.extractions has no key, so ExtractionOf scans
// the table's hashes (~10 ms at 200k); a non-first load asks it for every
// content it extracts, and almost all of those are new.
type ContentFilter struct {
	prefixes []uint64 // sorted
	// odd: a hash that is not hex was found (none that docket makes):
	// every content may be there.
	odd bool
}

// ContentFilter reads the hash prefixes of staging.extractions.
func (w *DB) ContentFilter(ctx context.Context) (*ContentFilter, error) {
	f := &ContentFilter{}
	if err := w.sql.QueryRowContext(ctx, `select count(*) filter (where try_cast('0x' || source_hash[1:16] as ubigint) is null or length(source_hash) < 16) > 0
		from staging.extractions`).Scan(&f.odd); err != nil {
		return nil, fmt.Errorf("warehouse: content filter: %w", err)
	}
	rows, err := w.sql.QueryContext(ctx, `select distinct try_cast('0x' || source_hash[1:16] as ubigint) p from staging.extractions where p is not null`)
	if err != nil {
		return nil, fmt.Errorf("warehouse: content filter: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var p uint64
		if err := rows.Scan(&p); err != nil {
			return nil, fmt.Errorf("warehouse: content filter: %w", err)
		}
		f.prefixes = append(f.prefixes, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("warehouse: content filter: %w", err)
	}
	slices.Sort(f.prefixes)
	return f, nil
}

// MayHave is false when the warehouse had no extraction of the content
// hash when the filter was read; true says only that it may have one.
func (f *ContentFilter) MayHave(hash string) bool {
	if f.odd || len(hash) < 16 {
		return true
	}
	p, err := strconv.ParseUint(hash[:16], 16, 64)
	if err != nil {
		return true
	}
	_, found := slices.BinarySearch(f.prefixes, p)
	return found
}
