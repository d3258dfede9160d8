-- BM25 postings: term frequency per (term, chunk), with the chunk's length
-- in terms, so retrieval.bm25() weighs a posting at query time. Tokens come
-- from the tokenize() macro: lower-cased runs of letters, digits and marks,
-- the same tokens docket's Go code makes, so a query can be tokenized in
-- plain SQL. Written in term order, so a query reads mostly the row
-- groups of its terms.
-- Incremental per chunk: a pre-hook drops the postings of chunks that left
-- retrieval.search_chunks; the build tokenizes only chunks with no
-- postings yet (a chunk's terms depend on its text alone, which its
-- chunk_id fixes). Incremental builds append in term order per batch; a
-- `--full-refresh -s chunk_terms+` rewrites the whole table in term order.
{{ config(
    materialized = 'incremental',
    incremental_strategy = 'append',
    on_schema_change = 'fail',
    pre_hook = "{% if is_incremental() %}delete from {{ this }}
        where chunk_id not in (select chunk_id from {{ ref('search_chunks') }}){% endif %}"
) }}

with chunks as (
    select chunk_id, text, doc_length
    from {{ ref('search_chunks') }}
    {% if is_incremental() %}
    where chunk_id not in (select chunk_id from {{ this }})
    {% endif %}
),

tokens as (
    select chunk_id, doc_length, unnest({{ tokenize('text') }}) as term
    from chunks
),

final as (
    select term, chunk_id, count(*) as tf, doc_length
    from tokens
    group by term, chunk_id, doc_length
    order by term, chunk_id
)

select * from final
