-- Every chunk can be traced back: normalizing the page text between its
-- offsets gives the chunk text again.
select chunks.chunk_id, chunks.doc_id, chunks.page_number, chunks.char_offset, chunks.char_end
from {{ ref('doc_chunks') }} as chunks
join {{ ref('stg_pages') }} as pages using (doc_id, page_number)
where normalize_text(substr(pages.text, chunks.char_offset + 1, chunks.char_end - chunks.char_offset)) <> chunks.text
