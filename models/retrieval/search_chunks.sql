-- What a reader needs to cite a search hit: one row per unique chunk with
-- its document, source path, page and character offsets, and its terms'
-- length for BM25. Plain SQL, so any DuckDB client can search.
{{ config(materialized = 'table') }}

with chunks as (
    select * from {{ ref('unique_chunks') }}
),

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
        len({{ tokenize('chunks.text') }}) as doc_length
    from chunks
    join documents using (doc_id)
)

select * from final
