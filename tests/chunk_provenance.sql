-- Every chunk can be traced back: normalizing the page text between its
-- offsets gives the chunk text again.
--
-- scoped_to: `docket build` checks only the chunks doc_chunks wrote since
-- this test last passed. A chunk's page text is fixed by its document's
-- content and extraction (source_hash, extracted_at), and
-- chunks_are_current checks every chunk against the current ones, so an
-- older chunk cannot stop matching its page without being rewritten.
-- `docket test`, --force and --full-refresh check every chunk.
{{ config(scoped_to = 'doc_chunks') }}

select chunks.chunk_id, chunks.doc_id, chunks.page_number, chunks.char_offset, chunks.char_end
from {{ ref('doc_chunks') }} as chunks
join {{ ref('stg_pages') }} as pages using (doc_id, page_number)
-- a page over max_page_chars has no chunks; the condition keeps DuckDB
-- from reading its text
where pages.char_count <= {{ var('max_page_chars', 20000000) }}
  and normalize_text(substr(pages.text, chunks.char_offset + 1, chunks.char_end - chunks.char_offset)) <> chunks.text
