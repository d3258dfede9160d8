{# The rows of curated.chunk_signatures (models/curated/chunk_signatures.sql):
   of the texts with no signature yet when incremental, else of batch number
   `batch` of a full build (none: every distinct text). this_rel is the
   model's table. #}
{% macro chunk_signatures_rows(this_rel, incremental, batch=none) -%}
{% set k = var('minhash_shingle_words', 2) %}
{% set perm = var('minhash_permutations', 128) %}
{% set bands = var('lsh_bands', 20) %}
{% if incremental %}
-- The chunks of unsigned texts are found over text_hash, then read whole
-- by rowid: the semi join on rowid lets DuckDB skip the row groups outside the
-- wanted rows' range (new chunks are appended together at the end of
-- doc_chunks), so the text of signed chunks is never read.
with wanted as materialized (
    select doc_chunks.rowid as row_id
    from {{ ref('doc_chunks') }} as doc_chunks
    anti join {{ this_rel }} as signed using (text_hash)
),

texts as (
    select doc_chunks.text_hash, any_value(doc_chunks.text) as text
    from {{ ref('doc_chunks') }} as doc_chunks
    where doc_chunks.rowid in (select row_id from wanted)
    group by doc_chunks.text_hash
),
{% else %}
with texts as (
    select text_hash, any_value(text) as text
    from {{ ref('doc_chunks') }}
    {% if batch is not none %}
    -- one batch of a full build: the texts whose hash falls in bucket
    -- `batch` of the batches of about var('signature_batch_texts') distinct texts
    where hash(text_hash) % ({{ batch_count(ref('doc_chunks'), 'signature_batch_texts') }}) = {{ batch }}
    {% endif %}
    group by text_hash
),
{% endif %}

signed as materialized (
    select text_hash, minhash(text, {{ k }}, {{ perm }}) as signature
    from texts
),

final as (
    select
        text_hash,
        signature,
        -- the 64-bit xxh3 hash of each LSH band (band index mixed in; the
        -- hex after the colon of lsh_band_keys): buckets join on integers
        list_transform(lsh_band_keys(signature, {{ bands }}), band_key -> ('0x' || split_part(band_key, ':', 2))::ubigint) as band_keys
    from signed
)

select * from final
{%- endmacro %}
