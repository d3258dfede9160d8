-- Every searchable chunk has a vector for the configured embedding model.
-- When the embedding step failed (provider down, time-out, rejected
-- vectors) or has not run since new chunks arrived, the retrieval tables
-- still hold those chunks and BM25 finds them, but vector search cannot:
-- this warns with the count, and `docket search` says the same.
-- It refs the last retrieval model (so it runs after the whole layer) and
-- reads retrieval.search_chunks by name: a test that refs a model gates
-- that model's children, and the BM25 tables must be rebuilt even when
-- the embedding step failed.
-- depends_on: {{ ref('bm25_postings') }}
{{ config(severity = 'warn') }}

with searchable as (
    select text_hash from retrieval.search_chunks
),

missing as (
    select count(*) as n from searchable
    where text_hash not in (
        select text_hash from {{ ref('chunk_vectors') }} where model = '{{ var("embedding_model") }}'
    )
)

select
    missing.n as chunks_without_vectors,
    (select count(*) from searchable) as searchable_chunks,
    '{{ var("embedding_model") }}' as model,
    'run `docket build -s embeddings+` once the provider answers' as fix
from missing
where missing.n > 0
