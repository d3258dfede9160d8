-- BM25 weight per (term, chunk) (k1 = var('bm25_k1', 1.2), b =
-- var('bm25_b', 0.75)) over the postings of retrieval.chunk_terms. A view:
-- a weight depends on the term's idf and the mean chunk length, which
-- change with every load, so it is computed when read (the same formula
-- retrieval.bm25() applies to the query's terms). Its post-hook creates
-- the table macros retrieval.bm25_scores(query, k) (chunk_key, score) and
-- retrieval.bm25(query, k) (the same hits with their citations) that any
-- DuckDB client can call:
--   select * from retrieval.bm25('termination notice period', k := 5);
{{ config(
    materialized = 'view',
    post_hook = [bm25_scores_macro(), bm25_macro()]
) }}

with postings as (
    select * from {{ ref('chunk_terms') }}
),

stats as (
    select term, idf from {{ ref('term_stats') }}
),

corpus as (
    select avg(doc_length) as avg_length from {{ ref('search_chunks') }}
),

final as (
    select
        postings.term,
        postings.chunk_id,
        {{ bm25_weight('stats.idf', 'postings.tf', 'postings.doc_length', 'corpus.avg_length') }} as weight,
        postings.tf,
        postings.doc_length
    from postings
    join stats using (term)
    cross join corpus
)

select * from final
