-- Every chunk belongs to the current landed version of its document and
-- to its current extraction (a re-extraction, e.g. --reocr, rewrites the
-- page text the chunk's offsets point into).
select chunks.chunk_id, chunks.doc_id, chunks.source_hash, chunks.extracted_at
from {{ ref('doc_chunks') }} as chunks
left join {{ ref('stg_documents') }} as documents
  on documents.doc_id = chunks.doc_id and documents.source_hash = chunks.source_hash and documents.status = 'landed'
left join {{ source('staging', 'extractions') }} as extractions
  on extractions.source_hash = chunks.source_hash and extractions.extracted_at = chunks.extracted_at
where documents.doc_id is null or extractions.source_hash is null
