-- How many searchable chunks have no vector for the configured embedding
-- model, counted once per build so that `docket search` does not join
-- every chunk with every vector for each query. One row: the model, the
-- searchable chunks (and their summed length in terms), those without a
-- vector, and the model's vectors. `docket search` uses the row only while
-- these counts still match the tables (a failed or partial build leaves it behind: it then counts
-- itself); the warning test vectors_cover_chunks reports the same figure.
{{ config(materialized = 'table') }}

with searchable as (
    select text_hash, doc_length from {{ ref('search_chunks') }}
),

vectors as (
    select text_hash from {{ ref('chunk_vectors') }}
    where model = '{{ var("embedding_model") }}'
)

select
    '{{ var("embedding_model") }}' as model,
    (select count(*) from searchable) as searchable_chunks,
    (select coalesce(sum(doc_length), 0) from searchable) as searchable_terms,
    (select count(*) from searchable where text_hash not in (select text_hash from vectors)) as chunks_without_vector,
    (select count(*) from vectors) as model_vectors
