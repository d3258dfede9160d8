-- What a reader needs to cite a search hit: one row per unique chunk with
-- its document, source path, page and character offsets, and its terms'
-- length for BM25, chunk_key, the integer key the BM25 postings of
-- retrieval.chunk_terms use (see the chunk_key macro), and is_table, true
-- for a chunk of a table's rows. Plain SQL, so any DuckDB client can search.
-- Incremental per chunk: a pre-hook retracts chunks that left
-- curated.unique_chunks or whose citation changed (document title, path,
-- offsets, section, table or not); the build adds the unique chunks not
-- here yet, so only new chunks are tokenized. The first pre-hooks add and
-- fill chunk_key and is_table in a table built before them. The retraction is an anti join:
-- the same rows as a correlated NOT EXISTS, about 4x less CPU at 50k
-- documents.
{{ config(
    materialized = 'incremental',
    incremental_strategy = 'delete+insert',
    unique_key = 'chunk_id',
    on_schema_change = 'fail',
    pre_hook = [
        "{% if is_incremental() %}alter table {{ this }} add column if not exists chunk_key ubigint{% endif %}",
        "{% if is_incremental() %}update {{ this }} set chunk_key = {{ chunk_key('chunk_id') }} where chunk_key is null{% endif %}",
        "{% if is_incremental() %}alter table {{ this }} add column if not exists is_table boolean{% endif %}",
        "{% if is_incremental() %}update {{ this }} as searchable set is_table = coalesce(list_contains(chunks.element_categories, 'Table'), false)
        from {{ ref('unique_chunks') }} as chunks where chunks.chunk_id = searchable.chunk_id and searchable.is_table is null{% endif %}",
        "{% if is_incremental() %}delete from {{ this }} where chunk_id in (
        select searchable.chunk_id from {{ this }} as searchable
        anti join (
            select chunks.chunk_id, chunks.doc_id, chunks.char_end, chunks.section_title,
                coalesce(list_contains(chunks.element_categories, 'Table'), false) as is_table,
                documents.source_name, documents.rel_path, documents.source_uri, documents.title
            from {{ ref('unique_chunks') }} as chunks
            join {{ ref('stg_documents') }} as documents using (doc_id)
        ) as current_chunks
          on current_chunks.chunk_id = searchable.chunk_id
         and current_chunks.doc_id = searchable.doc_id
         and current_chunks.char_end = searchable.char_end
         and current_chunks.section_title is not distinct from searchable.section_title
         and current_chunks.is_table = searchable.is_table
         and current_chunks.source_name = searchable.source_name
         and current_chunks.rel_path = searchable.rel_path
         and current_chunks.source_uri = searchable.source_uri
         and current_chunks.title is not distinct from searchable.title){% endif %}"
    ]
) }}

{% if is_incremental() %}
-- The chunks to add are found over ids, then read whole by rowid: the
-- semi join on rowid lets DuckDB skip the row groups outside the wanted rows'
-- range (new chunks are appended together at the end of unique_chunks),
-- so the text of chunks already here is never read.
with wanted as materialized (
    select unique_chunks.rowid as row_id
    from {{ ref('unique_chunks') }} as unique_chunks
    anti join {{ this }} as searchable using (chunk_id)
),

chunks as (
    select unique_chunks.*
    from {{ ref('unique_chunks') }} as unique_chunks
    where unique_chunks.rowid in (select row_id from wanted)
),
{% else %}
with chunks as (
    select unique_chunks.*
    from {{ ref('unique_chunks') }} as unique_chunks
),
{% endif %}

documents as (
    select doc_id, source_name, rel_path, source_uri, title
    from {{ ref('stg_documents') }}
),

final as (
    select
        chunks.chunk_id,
        chunks.doc_id,
        documents.source_name,
        documents.rel_path,
        documents.source_uri,
        documents.title,
        chunks.page_number,
        chunks.char_offset,
        chunks.char_end,
        chunks.section_title,
        chunks.text,
        chunks.text_hash,
        len({{ tokenize('chunks.text') }}) as doc_length,
        {{ chunk_key('chunks.chunk_id') }} as chunk_key,
        coalesce(list_contains(chunks.element_categories, 'Table'), false) as is_table
    from chunks
    join documents using (doc_id)
)

select * from final
