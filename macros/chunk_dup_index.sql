{# The rows of curated.chunk_dup_index (models/curated/chunk_dup_index.sql):
   change-scoped when incremental, else those of batch number `batch` of a
   full build (none: every chunk). this_rel is the model's table. #}
{% macro chunk_dup_index_rows(this_rel, incremental, batch=none) -%}
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

{% if incremental %}
-- Texts whose representative may have changed: a chunk that is not
-- indexed yet, or a text whose stored representative left (pre-hook).
touched as materialized (
    select distinct text_hash
    from {{ ref('doc_chunks') }}
    anti join {{ this_rel }} as indexed using (chunk_id)
    union
    select indexed.text_hash
    from {{ this_rel }} as indexed
    anti join (select text_hash from {{ this_rel }} where is_rep) as rep using (text_hash)
    where not indexed.is_rep
),

touched_chunks as (
    select * from current_chunks
    where text_hash in (select text_hash from touched)
),
{% else %}
-- a full build: the chunks of the texts in batch `batch` (all when none)
touched_chunks as (
    select * from current_chunks
    {% if batch is not none %}
    where hash(text_hash) % ({{ chunk_dup_index_batches() }}) = {{ batch }}
    {% endif %}
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

{% if incremental %}
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
    from {{ this_rel }} as indexed
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
    from {{ this_rel }}
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
    from {{ this_rel }} as indexed
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

-- the representative's ord of every member (not only of this batch's
-- texts: a window spans the whole bucket)
member_ords as (
    select text_hash, min(ord) as rep_ord
    from current_chunks
    where text_hash in (select text_hash from members)
    group by text_hash
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
    {% if incremental %}
    where later.text_hash in (select text_hash from recompute)
    {% elif batch is not none %}
    where hash(later.text_hash) % ({{ chunk_dup_index_batches() }}) = {{ batch }}
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
    {% if incremental %}
    union all
    -- the representative of every other text whose window was recomputed
    select
        indexed.chunk_id,
        indexed.text_hash,
        indexed.ord,
        true as is_rep,
        coalesce(first_hops.window_keys, []::ubigint[]) as window_keys,
        first_hops.near_of
    from {{ this_rel }} as indexed
    join recompute using (text_hash)
    anti join touched_reps using (text_hash)
    left join first_hops using (text_hash)
    where indexed.is_rep
    {% endif %}
)

select * from final
{%- endmacro %}

{# The number of batches of a full build of curated.chunk_dup_index, as a
   scalar query: doc_chunks' rows over var('dup_index_batch_chunks'), at
   least 1. #}
{% macro chunk_dup_index_batches() -%}
select greatest(1, ceil(count(*) / {{ var('dup_index_batch_chunks', 100000) }}))::ubigint from {{ ref('doc_chunks') }}
{%- endmacro %}

{# The batches after the first of a full build of curated.chunk_dup_index
   (its post-hook): each inserts the rows of the chunks whose text falls in
   the next hash bucket, so that picking representatives (a group by over
   every chunk) and writing the rows hold one batch at a time. The LSH
   buckets' members, their order and the windows are small (texts that
   share a bucket) and computed again in each batch, whole, so a window is
   the one-statement build's. Renders to nothing: the inserts run here,
   one statement each. #}
{% macro chunk_dup_index_more_batches(this_rel) -%}
{%- set n = run_query(chunk_dup_index_batches()).columns[0].values()[0] -%}
{%- for b in range(1, n | int) -%}
{%- do run_query("insert into " ~ this_rel ~ " " ~ chunk_dup_index_rows(this_rel, false, b)) -%}
{%- endfor -%}
{%- endmacro %}
