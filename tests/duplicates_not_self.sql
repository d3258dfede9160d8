-- A duplicate never points at itself, and always at an existing chunk.
select d.chunk_id, d.duplicate_of
from {{ ref('chunk_duplicates') }} as d
left join {{ ref('doc_chunks') }} as c on c.chunk_id = d.duplicate_of
where d.chunk_id = d.duplicate_of or c.chunk_id is null
