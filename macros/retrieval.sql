{# Tokenization shared by the BM25 models and the retrieval.bm25 macro; the
   same tokens as docket's Go tokenizer (embed.Tokenize) on normalized text. #}
{% macro tokenize(expr) -%}
regexp_extract_all(lower(nfc_normalize({{ expr }})), '[\p{L}\p{N}\p{M}]+')
{%- endmacro %}

{# The BM25 table macro over the precomputed impacts of
   retrieval.bm25_postings. Plain SQL over retrieval tables: callable from
   any DuckDB client without docket. #}
{% macro bm25_macro() -%}
create or replace macro retrieval.bm25(query, k := 10) as table
with query_terms as (
    select distinct unnest({{ tokenize('query') }}) as term
),
scored as (
    select chunk_id, sum(weight) as score
    from retrieval.bm25_postings
    where term in (select term from query_terms)
    group by chunk_id
    order by score desc, chunk_id
    limit k
)
select
    scored.chunk_id,
    scored.score,
    chunks.doc_id,
    chunks.rel_path,
    chunks.source_uri,
    chunks.title,
    chunks.page_number,
    chunks.char_offset,
    chunks.char_end,
    chunks.section_title,
    chunks.text
from scored
join retrieval.search_chunks as chunks using (chunk_id)
order by scored.score desc, scored.chunk_id
{%- endmacro %}
