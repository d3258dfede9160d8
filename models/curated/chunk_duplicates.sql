-- One row per duplicate chunk: exact duplicates share a text_hash; near
-- duplicates are LSH candidates (MinHash over k-word shingles, banded)
-- confirmed by estimated Jaccard >= var('near_dup_threshold'). Each points
-- at its representative, the earliest chunk (first seen document, then
-- page and offset) of its group; no chunk points at itself.
-- Change-scoped: the MinHash work (a Go UDF per distinct text) is done
-- once per text in curated.chunk_signatures; this model joins the stored
-- signatures and band keys in plain SQL over ids, so a removed
-- representative hands its group to the next earliest chunk exactly as a
-- full rebuild would. Changing near_dup_threshold or
-- lsh_max_bucket_compare takes effect on the next build; the MinHash vars
-- need `docket build --full-refresh -s chunk_signatures+`.
{{ config(materialized = 'table') }}

{% set threshold = var('near_dup_threshold', 0.8) %}
{% set max_compare = var('lsh_max_bucket_compare', 100) %}

with chunks as (
    select
        doc_chunks.chunk_id,
        doc_chunks.text_hash,
        -- the order that picks representatives, as a comparable struct
        -- (cheaper than numbering every chunk with a sort)
        (documents.first_seen_at, doc_chunks.doc_id, doc_chunks.page_number, doc_chunks.char_offset, doc_chunks.chunk_id) as ord
    from {{ ref('doc_chunks') }} as doc_chunks
    join {{ ref('stg_documents') }} as documents using (doc_id)
),

exact_groups as (
    select text_hash, arg_min(chunk_id, ord) as rep_id, min(ord) as rep_ord
    from chunks
    group by text_hash
),

-- Near duplicates are searched among one chunk per distinct text, by the
-- band hashes stored in curated.chunk_signatures (one row per current
-- text). Only a bucket that two texts or more share can hold a pair: found
-- by sorting the keys and looking at the neighbours, about four times
-- cheaper in DuckDB than grouping over the (nearly all distinct) keys.
-- The keys are unnested twice on purpose: a CTE read twice would be
-- materialized with its text hashes.
shared_buckets as (
    select distinct band_key
    from (
        select
            band_key,
            lag(band_key) over sorted as previous_key,
            lead(band_key) over sorted as next_key
        from (select unnest(band_keys) as band_key from {{ ref('chunk_signatures') }})
        window sorted as (order by band_key)
    )
    where previous_key = band_key or next_key = band_key
),

shared_members as (
    select text_hash, band_key
    from (select text_hash, unnest(band_keys) as band_key from {{ ref('chunk_signatures') }})
    where band_key in (select band_key from shared_buckets)
),

bucketed as (
    select
        exact_groups.rep_id as chunk_id,
        exact_groups.rep_ord as ord,
        exact_groups.text_hash,
        shared_members.band_key,
        row_number() over (partition by shared_members.band_key order by exact_groups.rep_ord) as pos
    from shared_members
    join exact_groups using (text_hash)
),

-- Each chunk is compared with at most max_compare earlier members of a
-- bucket, so boilerplate buckets cannot make this quadratic.
candidates as (
    select distinct
        earlier.chunk_id as earlier_id,
        earlier.ord as earlier_ord,
        earlier.text_hash as earlier_hash,
        later.chunk_id as later_id,
        later.text_hash as later_hash
    from bucketed as later
    join bucketed as earlier
      on earlier.band_key = later.band_key
     and earlier.pos < later.pos
     and earlier.pos >= later.pos - {{ max_compare }}
),

-- Signatures are read for the candidates' texts only.
signatures as (
    select text_hash, signature as sig
    from {{ ref('chunk_signatures') }}
    where text_hash in (select earlier_hash from candidates union all select later_hash from candidates)
),

confirmed as (
    select
        candidates.later_id,
        candidates.earlier_id,
        candidates.earlier_ord,
        {{ jaccard('earlier.sig', 'later.sig') }} as similarity
    from candidates
    join signatures as earlier on earlier.text_hash = candidates.earlier_hash
    join signatures as later on later.text_hash = candidates.later_hash
    where {{ jaccard('earlier.sig', 'later.sig') }} >= {{ threshold }}
),

first_hop as (
    select later_id as chunk_id, arg_min(earlier_id, earlier_ord) as rep_id
    from confirmed
    group by later_id
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

-- Every chunk of a near pair is a representative in a shared bucket.
bucket_members as (
    select distinct chunk_id, text_hash from bucketed
),

near as (
    select
        resolved.chunk_id,
        resolved.rep_id as duplicate_of,
        'near' as kind,
        {{ jaccard('mine.sig', 'rep.sig') }} as similarity
    from resolved
    join bucket_members as mine_member on mine_member.chunk_id = resolved.chunk_id
    join bucket_members as rep_member on rep_member.chunk_id = resolved.rep_id
    join signatures as mine on mine.text_hash = mine_member.text_hash
    join signatures as rep on rep.text_hash = rep_member.text_hash
),

exact as (
    select
        chunks.chunk_id,
        coalesce(resolved.rep_id, exact_groups.rep_id) as duplicate_of,
        'exact' as kind,
        1.0::double as similarity
    from chunks
    join exact_groups using (text_hash)
    left join resolved on resolved.chunk_id = exact_groups.rep_id
    where chunks.chunk_id <> exact_groups.rep_id
),

final as (
    select * from exact
    union all
    select * from near
)

select * from final
