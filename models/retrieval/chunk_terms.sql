-- BM25 postings: term frequency per (term, chunk). Tokens come from the
-- tokenize() macro: lower-cased runs of letters, digits and marks, the same
-- tokens docket's Go code makes, so a query can be tokenized in plain SQL.
{{ config(materialized = 'table') }}

with tokens as (
    select chunk_id, unnest({{ tokenize('text') }}) as term
    from {{ ref('search_chunks') }}
),

final as (
    select term, chunk_id, count(*) as tf
    from tokens
    group by term, chunk_id
)

select * from final
