-- Normalized chunks of every current document, with provenance: doc, page
-- and 0-based code point offsets into staging page text, so that
-- normalize_text(substr(page.text, char_offset + 1, char_end - char_offset)) = text.
-- Chunks follow structure: they never cross a Title-started section, page
-- headers, footers, page numbers and images are left out, and each table
-- is chunked on its own, between rows (element_categories [Table]; its
-- cells as rows are curated.table_rows).
-- Incremental per document: only documents whose current extraction is
-- not chunked yet are (re)chunked; their old chunks are replaced in the
-- same build, and chunks of anything no longer current (a deleted
-- document, a version with no chunks) leave (pre-hook: a retraction that
-- retracts nothing leaves the model's readers up to date). Changing
-- chunk_size or chunk_overlap needs `docket build --full-refresh -s doc_chunks+`.
-- A table built before tables were chunked (no table chunk, though
-- staging has tables) has its documents with a table re-chunked, once,
-- by the next build (macros/doc_chunks.sql).
-- Reads staging.pages/elements by rowid (a view has none), so the DAG edge
-- to the staging views is declared as dbt does it: `-s stg_pages+` selects
-- this node. A project that filters pages in stg_pages edits the same
-- filter here too.
-- The SQL is the macro doc_chunks_rows (macros/doc_chunks.sql): a full
-- build (the first, or --full-refresh) chunks var('chunk_batch_documents')
-- documents at a time (doc_id order), the first batch in the model's
-- statement and the others in its post-hook, so that its memory is one
-- batch's, not the corpus's; an incremental build chunks the documents not
-- chunked yet in one statement.
-- depends_on: {{ ref('stg_pages') }}, {{ ref('stg_elements') }}, {{ ref('stg_documents') }}, {{ source('staging', 'extractions') }}, {{ source('staging', 'pages') }}, {{ source('staging', 'elements') }}
{{ config(
    materialized = 'incremental',
    incremental_strategy = 'delete+insert',
    unique_key = 'doc_id',
    on_schema_change = 'fail',
    pre_hook = "{% if is_incremental() %}delete from {{ this }} where chunk_id in (
        select chunks.chunk_id from {{ this }} as chunks
        anti join (
            select documents.doc_id, documents.source_hash, extractions.extracted_at
            from {{ ref('stg_documents') }} as documents
            join {{ source('staging', 'extractions') }} as extractions using (source_hash)
            where documents.status = 'landed'
        ) as current_documents
          on current_documents.doc_id = chunks.doc_id
         and current_documents.source_hash = chunks.source_hash
         and current_documents.extracted_at = chunks.extracted_at){% endif %}",
    post_hook = "{% if not is_incremental() %}{{ batch_inserts(this, doc_chunks_rows, batch_count(doc_chunks_documents(), 'chunk_batch_documents', 20000)) }}{% endif %}"
) }}

{{ doc_chunks_rows(this, is_incremental(), none if is_incremental() else 0) }}
