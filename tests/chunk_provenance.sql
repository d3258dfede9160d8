-- Every chunk can be traced back: normalizing the page text between its
-- offsets gives the chunk text again.
--
-- scoped_to: `docket build` checks only the chunks doc_chunks wrote since
-- this test last passed. A chunk's page text is fixed by its document's
-- content and extraction (source_hash, extracted_at), and
-- chunks_are_current checks every chunk against the current ones, so an
-- older chunk cannot stop matching its page without being rewritten.
-- `docket test`, --force and --full-refresh check every chunk.
-- The chunks' current pages (stg_pages: the pages of the landed document's
-- content) are found over narrow columns and their text read by rowid, so
-- a scoped check reads only the text of the pages it compares (the join
-- on rowid lets DuckDB skip the row groups outside their range).
-- Reads staging.pages by rowid (a view has none), so the DAG edge
-- to the staging views is declared as dbt does it: `-s stg_pages+` selects
-- this test. A project that filters pages in stg_pages edits the same
-- filter here too.
-- depends_on: {{ ref('stg_pages') }}
{{ config(scoped_to = 'doc_chunks') }}

with chunks as materialized (
    select chunk_id, doc_id, page_number, char_offset, char_end, text
    from {{ ref('doc_chunks') }}
),

chunk_pages as materialized (
    select chunks.doc_id, chunks.page_number, pages.rowid as row_id
    from (select distinct doc_id, page_number from chunks) as chunks
    join {{ ref('stg_documents') }} as documents
      on documents.doc_id = chunks.doc_id and documents.status = 'landed'
    join {{ source('staging', 'pages') }} as pages
      on pages.source_hash = documents.source_hash and pages.page_number = chunks.page_number
),

-- a page over max_page_chars has no chunks; the condition keeps DuckDB
-- from reading its text
page_text as (
    select chunk_pages.doc_id, chunk_pages.page_number, pages.text
    from (
        select rowid as row_id, text, char_count
        from {{ source('staging', 'pages') }}
        where rowid in (select row_id from chunk_pages)
    ) as pages
    join chunk_pages using (row_id)
    where pages.char_count <= {{ var('max_page_chars', 20000000) }}
)

select chunks.chunk_id, chunks.doc_id, chunks.page_number, chunks.char_offset, chunks.char_end
from chunks
join page_text using (doc_id, page_number)
where normalize_text(substr(page_text.text, chunks.char_offset + 1, chunks.char_end - chunks.char_offset)) <> chunks.text
