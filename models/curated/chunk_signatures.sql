-- MinHash signature and LSH band hashes per distinct chunk text, the stored
-- index curated.chunk_duplicates compares chunks with. Incremental per
-- text_hash: a build computes signatures only for texts that have none
-- yet; a pre-hook drops the texts no chunk has any more. Changing
-- minhash_shingle_words, minhash_permutations or lsh_bands needs
-- `docket build --full-refresh -s chunk_signatures+`.
{{ config(
    materialized = 'incremental',
    incremental_strategy = 'append',
    on_schema_change = 'fail',
    pre_hook = "{% if is_incremental() %}delete from {{ this }} as signed
        where not exists (select 1 from {{ ref('doc_chunks') }} as chunks where chunks.text_hash = signed.text_hash){% endif %}"
) }}

{% set k = var('minhash_shingle_words', 2) %}
{% set perm = var('minhash_permutations', 128) %}
{% set bands = var('lsh_bands', 20) %}

{% if is_incremental() %}
-- The chunks of unsigned texts are found over text_hash, then read whole
-- by rowid: the semi join on rowid lets DuckDB skip the row groups outside the
-- wanted rows' range (new chunks are appended together at the end of
-- doc_chunks), so the text of signed chunks is never read.
with wanted as materialized (
    select doc_chunks.rowid as row_id
    from {{ ref('doc_chunks') }} as doc_chunks
    anti join {{ this }} as signed using (text_hash)
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
