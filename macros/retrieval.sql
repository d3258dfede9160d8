{# Tokenization shared by the BM25 models and the retrieval.bm25 macro; the
   same tokens as docket's Go tokenizer (embed.Tokenize) on normalized text. #}
{% macro tokenize(expr) -%}
regexp_extract_all(lower(nfc_normalize({{ expr }})), '[\p{L}\p{N}\p{M}]+')
{%- endmacro %}

{# The BM25 table macro (k1 = 1.2, b = 0.75). Plain SQL over retrieval
   tables: callable from any DuckDB client without docket. #}
{% macro bm25_macro() -%}
create or replace macro retrieval.bm25(query, k := 10) as table
with query_terms as (
    select distinct unnest({{ tokenize('query') }}) as term
),
corpus as (
    select avg(doc_length) as avg_length from retrieval.search_chunks
),
scored as (
    select
        postings.chunk_id,
        sum(stats.idf * postings.tf * (1.2 + 1)
            / (postings.tf + 1.2 * (1 - 0.75 + 0.75 * chunks.doc_length / corpus.avg_length))) as score
    from query_terms
    join retrieval.chunk_terms as postings using (term)
    join retrieval.term_stats as stats using (term)
    join retrieval.search_chunks as chunks using (chunk_id)
    cross join corpus
    group by postings.chunk_id
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
limit k
{%- endmacro %}
