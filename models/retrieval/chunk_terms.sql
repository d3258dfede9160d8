-- BM25 postings: term frequency per (term, chunk), with the chunk's length
-- in terms (retrieval.bm25() weighs a posting when it runs) and its
-- chunk_key. Tokens come from the tokenize() macro: lower-cased runs of letters, digits and marks,
-- the same tokens docket's Go code makes, so a query can be tokenized in
-- plain SQL. Written in term order, so a query reads mostly the row
-- groups of its terms.
-- Incremental per chunk: a pre-hook drops the postings of chunks that left
-- retrieval.search_chunks; the build tokenizes only chunks with no
-- postings yet (a chunk's terms depend on its text alone, which its
-- chunk_id fixes). chunk_key (the first 64 bits of chunk_id) is what
-- these set operations compare: scanning an integer column over all
-- postings is cheap, a 64-character id is not, and it is scanned once:
-- a pre-hook keeps the indexed keys in a temporary table (scratch, not a
-- data change) that the retraction and the build read. The retraction
-- finds no rows to delete without reading the postings when no chunk
-- left (its semi join's other side is empty). Incremental builds append
-- in term order per batch; `docket build --full-refresh -s chunk_terms+`
-- rewrites the whole table in term order. The first pre-hooks add
-- doc_length and chunk_key to a table built before them; its postings
-- are then redone.
{{ config(
    materialized = 'incremental',
    incremental_strategy = 'append',
    on_schema_change = 'fail',
    pre_hook = [
        "{% if is_incremental() %}alter table {{ this }} add column if not exists doc_length bigint{% endif %}",
        "{% if is_incremental() %}alter table {{ this }} add column if not exists chunk_key ubigint{% endif %}",
        "{% if is_incremental() %}delete from {{ this }} where chunk_key is null{% endif %}",
        "{% if is_incremental() %}create or replace temp table chunk_terms_indexed as
            select distinct chunk_key from {{ this }}{% endif %}",
        "{% if is_incremental() %}delete from {{ this }} where chunk_key in (
            select chunk_key from temp.chunk_terms_indexed
            except
            select {{ chunk_key('chunk_id') }} from {{ ref('search_chunks') }}){% endif %}"
    ]
) }}

{% if is_incremental() %}
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
