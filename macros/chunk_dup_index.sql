{# The rows of curated.chunk_dup_index (models/curated/chunk_dup_index.sql):
   change-scoped when incremental, else those of batch number `batch` of a
   full build (none: every chunk). this_rel is the model's table. #}
{% macro chunk_dup_index_rows(this_rel, incremental, batch=none) -%}
{% set threshold = var('near_dup_threshold', 0.8) %}
{% set max_compare = var('lsh_max_bucket_compare', 100) %}

with current_chunks as (
    {{- chunk_dup_index_current_chunks() }}
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
    where hash(text_hash) % ({{ batch_count(ref('doc_chunks'), 'dup_index_batch_chunks') }}) = {{ batch }}
    {% endif %}
),
{% endif %}

touched_reps as materialized (
    select text_hash, arg_min(chunk_id, ord) as rep_id, min(ord) as rep_ord
    from touched_chunks
    group by text_hash
),

{% if incremental %}
-- One row per (text, LSH band key) of every current text: never
-- materialized (5.8M rows at 50k documents), only probed by a few keys.
all_bands as not materialized (
    select text_hash, unnest(band_keys) as band_key
    from {{ ref('chunk_signatures') }}
),

-- A touched text changes the window of the members that follow it within
-- lsh_max_bucket_compare in a bucket (a probe of every stored band key by
-- the touched texts' few).
{{ chunk_dup_index_positions('touched_positions', 'touched_reps', this_rel) }},

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

-- The members of the recomputed texts' buckets, in order.
{{ chunk_dup_index_positions('positions', 'recompute', this_rel) }},
{% else %}
-- The members of every bucket two texts or more share, in order: found
-- once per full build into a temporary table (the model's pre-hook,
-- chunk_dup_index_shared_positions), whatever batch this is.
positions as (
    select band_key, text_hash, rep_ord, pos from temp.chunk_dup_index_shared
),
{% endif %}

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
    where hash(later.text_hash) % ({{ batch_count(ref('doc_chunks'), 'dup_index_batch_chunks') }}) = {{ batch }}
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

{# The chunks of doc_chunks with their place in the order that picks
   representatives (ord: first seen document, then page, offset and
   chunk_id). #}
{% macro chunk_dup_index_current_chunks() %}

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
{% endmacro %}

{# CTEs name_members, name_ords and name (band_key, text_hash, rep_ord,
   pos) of an incremental build: the members of the LSH buckets that the
   texts of the CTE texts (text_hash, rep_ord: touched_reps or a superset)
   are in, each with its representative's ord (recomputed for the touched
   texts, touched_reps; stored for the others) and its position in the
   bucket in that order. #}
{% macro chunk_dup_index_positions(name, texts, this_rel) -%}
{{ name }}_members as materialized (
    select band_key, text_hash
    from all_bands
    where band_key in (
        select unnest(band_keys) from {{ ref('chunk_signatures') }}
        where text_hash in (select text_hash from {{ texts }}))
),

{{ name }}_ords as (
    select text_hash, rep_ord from touched_reps
    union all
    select indexed.text_hash, indexed.ord as rep_ord
    from {{ this_rel }} as indexed
    anti join touched_reps using (text_hash)
    where indexed.is_rep and indexed.text_hash in (select text_hash from {{ name }}_members)
),

{{ name }} as materialized (
    select
        members.band_key,
        members.text_hash,
        ords.rep_ord,
        row_number() over (partition by members.band_key order by ords.rep_ord) as pos
    from {{ name }}_members as members
    join {{ name }}_ords as ords using (text_hash)
)
{%- endmacro %}

{# The query of temp.chunk_dup_index_shared, which a full build's pre-hook
   creates once for all its batches: the members of every LSH bucket that
   two texts or more share (band_key, text_hash), each with its
   representative's ord (rep_ord: its earliest chunk's) and its position in
   the bucket in that order (pos). A few per cent of the band keys; the
   batches (whose windows span whole buckets, not only their own texts)
   found them again each, a sort of every band key per batch. #}
{% macro chunk_dup_index_shared_positions() -%}
with current_chunks as (
    {{- chunk_dup_index_current_chunks() }}
),

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
    select text_hash, unnest(band_keys) as band_key
    from {{ ref('chunk_signatures') }}
),

shared_members as (
    select band_key, text_hash
    from members
    where band_key in (select band_key from shared_buckets)
),

-- the representative's ord of every member (not only of one batch's
-- texts: a window spans the whole bucket)
member_ords as (
    select text_hash, min(ord) as rep_ord
    from current_chunks
    where text_hash in (select text_hash from shared_members)
    group by text_hash
)

select
    shared_members.band_key,
    shared_members.text_hash,
    member_ords.rep_ord,
    row_number() over (partition by shared_members.band_key order by member_ords.rep_ord) as pos
from shared_members
join member_ords using (text_hash)
{%- endmacro %}
