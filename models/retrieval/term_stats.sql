-- Document frequency and BM25 idf per term.
{{ config(materialized = 'table') }}

with postings as (
    select * from {{ ref('chunk_terms') }}
),

corpus as (
    select count(*) as n_chunks from {{ ref('search_chunks') }}
),

final as (
    select
        postings.term,
        count(*) as df,
        ln(1 + (corpus.n_chunks - count(*) + 0.5) / (count(*) + 0.5)) as idf
    from postings, corpus
    group by postings.term, corpus.n_chunks
)

select * from final
