-- Every chunk belongs to the current landed version of its document.
select chunks.chunk_id, chunks.doc_id, chunks.source_hash
from {{ ref('doc_chunks') }} as chunks
left join {{ ref('stg_documents') }} as documents
  on documents.doc_id = chunks.doc_id and documents.source_hash = chunks.source_hash and documents.status = 'landed'
where documents.doc_id is null
