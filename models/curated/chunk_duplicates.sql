-- One row per duplicate chunk: exact duplicates share a text_hash; near
-- duplicates are LSH candidates (MinHash over k-word shingles, banded)
-- confirmed by estimated Jaccard >= var('near_dup_threshold'). Each points
-- at its representative, the earliest chunk (first seen document, then
-- page and offset) of its group; no chunk points at itself.
-- Change-scoped: the MinHash work (a Go UDF per distinct text) is done
-- once per text in curated.chunk_signatures, and the LSH comparisons once
-- per change in curated.chunk_dup_index (each text's representative and
-- first near hop, maintained by delta). This table only resolves that
-- index's links in plain SQL over the duplicates' rows, so a removed
-- representative hands its group to the next earliest chunk exactly as a
-- full rebuild would. Changing near_dup_threshold or
-- lsh_max_bucket_compare needs `docket build --full-refresh -s
-- chunk_dup_index+`; the MinHash vars need `docket build --full-refresh
-- -s chunk_signatures+`.
{{ config(materialized = 'table') }}

-- The CTEs read by more than one join are materialized: inlined, each
-- reader would scan the index again.
with links as materialized (
    -- representatives with a near hop
    select chunk_id, text_hash, near_of
    from {{ ref('chunk_dup_index') }}
    where is_rep and near_of is not null
),

copies as materialized (
    -- chunks that are not their text's representative
    select chunk_id, text_hash
    from {{ ref('chunk_dup_index') }}
    where not is_rep
),

-- the representatives of the texts those rows name
named_reps as materialized (
    select text_hash, chunk_id as rep_id
    from {{ ref('chunk_dup_index') }}
    where is_rep
      and text_hash in (select near_of from links union all select text_hash from copies)
),

-- each representative with a near hop points at the earlier text's
-- representative
first_hop as materialized (
    select links.chunk_id, links.text_hash, named_reps.rep_id, links.near_of as rep_hash
    from links
    join named_reps on named_reps.text_hash = links.near_of
),

-- Follow chains (a ~ b ~ c) up to the earliest chunk of the group.
resolved as materialized (
    select
        h1.chunk_id,
        h1.text_hash,
        coalesce(h4.rep_id, h3.rep_id, h2.rep_id, h1.rep_id) as rep_id,
        coalesce(h4.rep_hash, h3.rep_hash, h2.rep_hash, h1.rep_hash) as rep_hash
    from first_hop as h1
    left join first_hop as h2 on h2.chunk_id = h1.rep_id
    left join first_hop as h3 on h3.chunk_id = h2.rep_id
    left join first_hop as h4 on h4.chunk_id = h3.rep_id
),

-- Signatures are read for the resolved pairs' texts only.
signatures as materialized (
    select text_hash, signature as sig
    from {{ ref('chunk_signatures') }}
    where text_hash in (select text_hash from resolved union all select rep_hash from resolved)
),

near as (
    select
        resolved.chunk_id,
        resolved.rep_id as duplicate_of,
        'near' as kind,
        {{ jaccard('mine.sig', 'rep.sig') }} as similarity
    from resolved
    join signatures as mine on mine.text_hash = resolved.text_hash
    join signatures as rep on rep.text_hash = resolved.rep_hash
),

exact as (
    select
        copies.chunk_id,
        coalesce(resolved.rep_id, named_reps.rep_id) as duplicate_of,
        'exact' as kind,
        1.0::double as similarity
    from copies
    join named_reps using (text_hash)
    left join resolved on resolved.chunk_id = named_reps.rep_id
),

final as (
    select * from exact
    union all
    select * from near
)

select * from final
