-- BM25 impact per (term, chunk), precomputed (k1 = 1.2, b = 0.75), stored
-- in term order so a query reads only the row groups of its terms. Its
-- post-hook creates the table macro retrieval.bm25(query, k) that any
-- DuckDB client can call:
--   select * from retrieval.bm25('termination notice period', 5);
{{ config(
    materialized = 'table',
    post_hook = bm25_macro()
) }}

{% set k1 = var('bm25_k1', 1.2) %}
{% set b = var('bm25_b', 0.75) %}

with postings as (
    select * from {{ ref('chunk_terms') }}
),

stats as (
    select term, idf from {{ ref('term_stats') }}
),

lengths as (
    select chunk_id, doc_length from {{ ref('search_chunks') }}
),

corpus as (
    select avg(doc_length) as avg_length from {{ ref('search_chunks') }}
),

final as (
    select
        postings.term,
        postings.chunk_id,
        stats.idf * postings.tf * ({{ k1 }} + 1)
            / (postings.tf + {{ k1 }} * (1 - {{ b }} + {{ b }} * lengths.doc_length / corpus.avg_length)) as weight
    from postings
    join stats using (term)
    join lengths using (chunk_id)
    cross join corpus
    order by postings.term, postings.chunk_id
)

select * from final
