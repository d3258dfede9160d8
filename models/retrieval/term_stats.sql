-- Document frequency and BM25 idf per term, over the current
-- retrieval.search_chunks. A view: df and idf change with every load (idf
-- with the number of chunks), so they are computed when read, from the
-- postings in retrieval.chunk_terms; retrieval.bm25() computes the same
-- figures for the query's terms only.
{{ config(materialized = 'view') }}

with corpus as (
    select count(*) as n_chunks from {{ ref('search_chunks') }}
),

document_frequency as (
    select term, count(*) as df
    from {{ ref('chunk_terms') }}
    group by term
),

final as (
    select
        document_frequency.term,
        document_frequency.df,
        {{ bm25_idf('corpus.n_chunks', 'document_frequency.df') }} as idf
    from document_frequency, corpus
)

select * from final
