-- No chunk is longer than the configured chunk size.
select chunk_id, text_length
from {{ ref('doc_chunks') }}
where text_length > {{ var('chunk_size', 1000) }}
