{# The rows of retrieval.chunk_terms (models/retrieval/chunk_terms.sql): the
   postings of the chunks with none yet when incremental, else of batch
   number `batch` of a full build (none: every chunk; macros/batching.sql).
   this_rel (the model's table) is unused: the rows macros of batched
   models share one signature. #}
{% macro chunk_terms_rows(this_rel, incremental, batch=none) -%}
{% if incremental %}
-- The chunks with no postings are found over keys, then read whole by
-- rowid: the semi join on rowid lets DuckDB skip the row groups outside the
-- wanted rows' range (new chunks are appended together at the end of
-- search_chunks), so the text of indexed chunks is never read.
with wanted as materialized (
    select search_chunks.rowid as row_id
    from {{ ref('search_chunks') }} as search_chunks
    anti join temp.chunk_terms_indexed as indexed
      on indexed.chunk_key = {{ chunk_key('search_chunks.chunk_id') }}
),

chunks as (
    select search_chunks.chunk_id, search_chunks.text, search_chunks.doc_length
    from {{ ref('search_chunks') }} as search_chunks
    where search_chunks.rowid in (select row_id from wanted)
),
{% else %}
with chunks as (
    select search_chunks.chunk_id, search_chunks.text, search_chunks.doc_length
    from {{ ref('search_chunks') }} as search_chunks
    {% if batch is not none %}
    -- one batch of a full build: the chunks whose id falls in bucket
    -- `batch` of var('terms_batch_chunks')-sized batches
    where hash(search_chunks.chunk_id) % ({{ batch_count(ref('search_chunks'), 'terms_batch_chunks') }}) = {{ batch }}
    {% endif %}
),
{% endif %}

-- A chunk's term frequencies are counted within the chunk (a histogram of
-- its token list): a group by (term, chunk) over every token was a hash
-- aggregate of all postings (25M groups at 50k documents) before the sort.
postings as (
    select chunk_id, doc_length, unnest(map_entries(list_aggregate({{ tokenize('text') }}, 'histogram'))) as posting
    from chunks
),

final as (
    select posting.key as term, chunk_id, posting.value::bigint as tf, doc_length, {{ chunk_key('chunk_id') }} as chunk_key
    from postings
    order by term, chunk_id
)

select * from final
{%- endmacro %}
