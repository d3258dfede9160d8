-- One row per duplicate chunk: exact duplicates share a text_hash; near
-- duplicates are LSH candidates (MinHash over k-word shingles, banded)
-- confirmed by estimated Jaccard >= var('near_dup_threshold'). Each points
-- at its representative, the earliest chunk (first seen document, then
-- page and offset) of its group; no chunk points at itself.
{{ config(materialized = 'table') }}

{% set k = var('minhash_shingle_words', 2) %}
{% set perm = var('minhash_permutations', 128) %}
{% set bands = var('lsh_bands', 20) %}
{% set threshold = var('near_dup_threshold', 0.8) %}
{% set max_compare = var('lsh_max_bucket_compare', 100) %}

with chunks as (
    select
        doc_chunks.chunk_id,
        doc_chunks.text_hash,
        doc_chunks.text,
        row_number() over (
            order by documents.first_seen_at, doc_chunks.doc_id, doc_chunks.page_number, doc_chunks.char_offset, doc_chunks.chunk_id
        ) as ord
    from {{ ref('doc_chunks') }} as doc_chunks
    join {{ ref('stg_documents') }} as documents using (doc_id)
),

exact_groups as (
    select text_hash, arg_min(chunk_id, ord) as rep_id, min(ord) as rep_ord
    from chunks
    group by text_hash
),

-- Near duplicates are searched among one chunk per distinct text.
signatures as (
    select chunks.chunk_id, chunks.ord, minhash(chunks.text, {{ k }}, {{ perm }}) as sig
    from chunks
    join exact_groups on exact_groups.rep_id = chunks.chunk_id
),

band_members as (
    select chunk_id, ord, unnest(lsh_band_keys(sig, {{ bands }})) as band_key
    from signatures
),

bucketed as (
    select *, row_number() over (partition by band_key order by ord) as pos
    from band_members
),

-- Each chunk is compared with at most max_compare earlier members of a
-- bucket, so boilerplate buckets cannot make this quadratic.
candidates as (
    select distinct earlier.chunk_id as earlier_id, later.chunk_id as later_id
    from bucketed as later
    join bucketed as earlier
      on earlier.band_key = later.band_key
     and earlier.pos < later.pos
     and earlier.pos >= later.pos - {{ max_compare }}
),

confirmed as (
    select
        candidates.later_id,
        candidates.earlier_id,
        earlier.ord as earlier_ord,
        jaccard_estimate(earlier.sig, later.sig) as similarity
    from candidates
    join signatures as earlier on earlier.chunk_id = candidates.earlier_id
    join signatures as later on later.chunk_id = candidates.later_id
    where jaccard_estimate(earlier.sig, later.sig) >= {{ threshold }}
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

near as (
    select
        resolved.chunk_id,
        resolved.rep_id as duplicate_of,
        'near' as kind,
        jaccard_estimate(mine.sig, rep.sig) as similarity
    from resolved
    join signatures as mine on mine.chunk_id = resolved.chunk_id
    join signatures as rep on rep.chunk_id = resolved.rep_id
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
