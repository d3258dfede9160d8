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

with indexed as (
    select chunk_id, text_hash, is_rep, near_of
    from {{ ref('chunk_dup_index') }}
),

-- every text's representative
reps as (
    select text_hash, chunk_id as rep_id
    from indexed
    where is_rep
),

-- each representative with a near hop points at the earlier text's
-- representative
first_hop as (
    select mine.chunk_id, reps.rep_id
    from indexed as mine
    join reps on reps.text_hash = mine.near_of
    where mine.is_rep and mine.near_of is not null
),

-- Follow chains (a ~ b ~ c) up to the earliest chunk of the group.
resolved as (
    select
        h1.chunk_id,
        coalesce(h4.rep_id, h3.rep_id, h2.rep_id, h1.rep_id) as rep_id
    from first_hop as h1
    left join first_hop as h2 on h2.chunk_id = h1.rep_id
    left join first_hop as h3 on h3.chunk_id = h2.rep_id
    left join first_hop as h4 on h4.chunk_id = h3.rep_id
),

resolved_texts as (
    select
        resolved.chunk_id,
        resolved.rep_id,
        mine.text_hash as mine_hash,
        rep.text_hash as rep_hash
    from resolved
    join indexed as mine on mine.chunk_id = resolved.chunk_id
    join indexed as rep on rep.chunk_id = resolved.rep_id
),

-- Signatures are read for the resolved pairs' texts only.
signatures as (
    select text_hash, signature as sig
    from {{ ref('chunk_signatures') }}
    where text_hash in (select mine_hash from resolved_texts union all select rep_hash from resolved_texts)
),

near as (
    select
        resolved_texts.chunk_id,
        resolved_texts.rep_id as duplicate_of,
        'near' as kind,
        {{ jaccard('mine.sig', 'rep.sig') }} as similarity
    from resolved_texts
    join signatures as mine on mine.text_hash = resolved_texts.mine_hash
    join signatures as rep on rep.text_hash = resolved_texts.rep_hash
),

exact as (
    select
        indexed.chunk_id,
        coalesce(resolved.rep_id, reps.rep_id) as duplicate_of,
        'exact' as kind,
        1.0::double as similarity
    from indexed
    join reps using (text_hash)
    left join resolved on resolved.chunk_id = reps.rep_id
    where not indexed.is_rep
),

final as (
    select * from exact
    union all
    select * from near
)

select * from final
