-- The state curated.chunk_duplicates is resolved from, one row per current
-- chunk: its text, its place in the order that picks representatives
-- (ord: first seen document, then page, offset and chunk_id), whether it
-- is its text's representative (the earliest chunk of the text), and on a
-- representative's row its LSH window and first near hop:
--   window_keys: the texts (text_key, the first 64 bits of text_hash) it
--     was compared with: in each LSH bucket it shares, the up to
--     lsh_max_bucket_compare members just before it in ord order;
--   near_of: the text_hash of the earliest of those whose estimated
--     Jaccard reaches near_dup_threshold (null: no near duplicate).
-- Incremental, change-scoped: a build recomputes the representative of
-- texts that gained or lost chunks, and the window and first hop only of
-- the texts whose window can have changed: those texts, the members that
-- follow one of them closely in a shared bucket (a probe of the stored
-- band keys by the few touched texts' keys), and the texts whose stored
-- window names a text that changed or left. The result is the full
-- build's, row for row (TestIncrementalEqualsFullRefresh and, with
-- lsh_max_bucket_compare 1, TestDuplicateIndexEqualsFullRefreshNarrowWindow).
-- Changing near_dup_threshold or lsh_max_bucket_compare needs
-- `docket build --full-refresh -s chunk_dup_index+`.
-- Cost: the logic is change-scoped, but a build still reads two columns of
-- curated.chunk_signatures whole (the window texts' signatures and every
-- band key, to probe): at 50k documents about as much CPU as the full model.
-- The pre-hook drops the rows of chunks that left or whose document's
-- first_seen_at moved (an anti join: a correlated NOT EXISTS on the struct
-- field was 35x slower).
{{ config(
    materialized = 'incremental',
    incremental_strategy = 'delete+insert',
    unique_key = 'chunk_id',
    on_schema_change = 'fail',
    pre_hook = "{% if is_incremental() %}delete from {{ this }} where chunk_id in (
        select indexed.chunk_id from {{ this }} as indexed
        anti join (
            select chunks.chunk_id, documents.first_seen_at
            from {{ ref('doc_chunks') }} as chunks
            join {{ ref('stg_documents') }} as documents using (doc_id)
        ) as current_chunks
          on current_chunks.chunk_id = indexed.chunk_id
         and current_chunks.first_seen_at = indexed.ord.first_seen_at){% endif %}"
) }}

{% set threshold = var('near_dup_threshold', 0.8) %}
{% set max_compare = var('lsh_max_bucket_compare', 100) %}

with current_chunks as (
    select
        chunks.chunk_id,
        chunks.text_hash,
        {
            'first_seen_at': documents.first_seen_at,
            'doc_id': chunks.doc_id,
            'page_number': chunks.page_number,
            'char_offset': chunks.char_offset,
            'chunk_id': chunks.chunk_id
        } as ord
    from {{ ref('doc_chunks') }} as chunks
    join {{ ref('stg_documents') }} as documents using (doc_id)
),

{% if is_incremental() %}
-- Texts whose representative may have changed: a chunk that is not
-- indexed yet, or a text whose stored representative left (pre-hook).
touched as materialized (
    select distinct text_hash
    from {{ ref('doc_chunks') }}
    anti join {{ this }} as indexed using (chunk_id)
    union
    select indexed.text_hash
    from {{ this }} as indexed
    anti join (select text_hash from {{ this }} where is_rep) as rep using (text_hash)
    where not indexed.is_rep
),

touched_chunks as (
    select * from current_chunks
    where text_hash in (select text_hash from touched)
),
{% else %}
touched_chunks as (
    select * from current_chunks
),
{% endif %}

touched_reps as materialized (
    select text_hash, arg_min(chunk_id, ord) as rep_id, min(ord) as rep_ord
    from touched_chunks
    group by text_hash
),

-- One row per (text, LSH band key) of every current text: never
-- materialized (5.8M rows at 50k documents), only probed by a few keys.
all_bands as not materialized (
    select text_hash, unnest(band_keys) as band_key
    from {{ ref('chunk_signatures') }}
),

{% if is_incremental() %}
-- A touched text changes the window of the members that follow it within
-- lsh_max_bucket_compare in a bucket (a probe of every stored band key by
-- the touched texts' few).
touched_members as materialized (
    select band_key, text_hash
    from all_bands
    where band_key in (
        select unnest(band_keys) from {{ ref('chunk_signatures') }}
        where text_hash in (select text_hash from touched_reps))
),

-- the representative's ord of each member: recomputed for touched
-- texts, stored for the others
touched_ords as (
    select text_hash, rep_ord from touched_reps
    union all
    select indexed.text_hash, indexed.ord as rep_ord
    from {{ this }} as indexed
    anti join touched_reps using (text_hash)
    where indexed.is_rep and indexed.text_hash in (select text_hash from touched_members)
),

touched_positions as materialized (
    select
        touched_members.band_key,
        touched_members.text_hash,
        row_number() over (partition by touched_members.band_key order by touched_ords.rep_ord) as pos
    from touched_members
    join touched_ords using (text_hash)
),

followers as (
    select later.text_hash
    from touched_positions as later
    join touched_positions as x
      on x.band_key = later.band_key
     and x.pos < later.pos
     and x.pos >= later.pos - {{ max_compare }}
    where x.text_hash in (select text_hash from touched_reps)
),

-- Stored windows that name a touched text or one that left (no current
-- chunk: no signature).
stored_windows as materialized (
    select text_hash, unnest(window_keys) as window_key
    from {{ this }}
    where is_rep and len(window_keys) > 0
),

present_keys as (
    select {{ text_key('text_hash') }} as window_key
    from {{ ref('chunk_signatures') }}
    where {{ text_key('text_hash') }} in (select window_key from stored_windows)
),

stale as (
    select text_hash from stored_windows
    where window_key in (select {{ text_key('text_hash') }} from touched_reps)
    union
    select stored_windows.text_hash from stored_windows
    anti join present_keys using (window_key)
),

recompute as materialized (
    select text_hash from touched_reps
    union
    select text_hash from followers
    union
    select text_hash from stale
),

-- The members of the recomputed texts' buckets.
members as materialized (
    select band_key, text_hash
    from all_bands
    where band_key in (
        select unnest(band_keys) from {{ ref('chunk_signatures') }}
        where text_hash in (select text_hash from recompute))
),

member_ords as (
    select text_hash, rep_ord from touched_reps
    union all
    select indexed.text_hash, indexed.ord as rep_ord
    from {{ this }} as indexed
    anti join touched_reps using (text_hash)
    where indexed.is_rep and indexed.text_hash in (select text_hash from members)
),
{% else %}
-- Only a bucket that two texts or more share can hold a pair: found by
-- sorting the keys and looking at the neighbours, about four times
-- cheaper in DuckDB than grouping over the (nearly all distinct) keys.
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

members as (
    select band_key, text_hash
    from all_bands
    where band_key in (select band_key from shared_buckets)
),

member_ords as (
    select text_hash, rep_ord from touched_reps
),
{% endif %}

positions as materialized (
    select
        members.band_key,
        members.text_hash,
        member_ords.rep_ord,
        row_number() over (partition by members.band_key order by member_ords.rep_ord) as pos
    from members
    join member_ords using (text_hash)
),

-- Each text is compared with at most lsh_max_bucket_compare earlier
-- members of a bucket, so boilerplate buckets cannot make this quadratic.
windows as materialized (
    select distinct
        later.text_hash as later_hash,
        earlier.text_hash as earlier_hash,
        earlier.rep_ord as earlier_ord
    from positions as later
    join positions as earlier
      on earlier.band_key = later.band_key
     and earlier.pos < later.pos
     and earlier.pos >= later.pos - {{ max_compare }}
    {% if is_incremental() %}
    where later.text_hash in (select text_hash from recompute)
    {% endif %}
),

-- Signatures are read for the windows' texts only.
signatures as (
    select text_hash, signature as sig
    from {{ ref('chunk_signatures') }}
    where text_hash in (select later_hash from windows union all select earlier_hash from windows)
),

first_hops as (
    select
        windows.later_hash as text_hash,
        list_sort(list({{ text_key('windows.earlier_hash') }})) as window_keys,
        arg_min(windows.earlier_hash, windows.earlier_ord)
            filter (where {{ jaccard('earlier.sig', 'later.sig') }} >= {{ threshold }}) as near_of
    from windows
    join signatures as earlier on earlier.text_hash = windows.earlier_hash
    join signatures as later on later.text_hash = windows.later_hash
    group by windows.later_hash
),

final as (
    -- every chunk of a touched text
    select
        touched_chunks.chunk_id,
        touched_chunks.text_hash,
        touched_chunks.ord,
        touched_chunks.chunk_id = touched_reps.rep_id as is_rep,
        case when touched_chunks.chunk_id = touched_reps.rep_id then coalesce(first_hops.window_keys, []::ubigint[]) end as window_keys,
        case when touched_chunks.chunk_id = touched_reps.rep_id then first_hops.near_of end as near_of
    from touched_chunks
    join touched_reps using (text_hash)
    left join first_hops using (text_hash)
    {% if is_incremental() %}
    union all
    -- the representative of every other text whose window was recomputed
    select
        indexed.chunk_id,
        indexed.text_hash,
        indexed.ord,
        true as is_rep,
        coalesce(first_hops.window_keys, []::ubigint[]) as window_keys,
        first_hops.near_of
    from {{ this }} as indexed
    join recompute using (text_hash)
    anti join touched_reps using (text_hash)
    left join first_hops using (text_hash)
    where indexed.is_rep
    {% endif %}
)

select * from final
