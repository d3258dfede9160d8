{# Tokenization shared by the BM25 models and the retrieval.bm25 macro; the
   same tokens as docket's Go tokenizer (embed.Tokenize) on normalized text. #}
{% macro tokenize(expr) -%}
regexp_extract_all(lower(nfc_normalize({{ expr }})), '[\p{L}\p{N}\p{M}]+')
{%- endmacro %}

{# BM25's idf of a term found in df of n chunks, and the weight of one
   posting (k1 = var('bm25_k1', 1.2), b = var('bm25_b', 0.75)). Weights are
   computed when read (idf and the mean length change with every load):
   the retrieval.term_stats and retrieval.bm25_postings views and the
   retrieval.bm25 macro all use these two expressions. #}
{% macro bm25_idf(n, df) -%}
ln(1 + ({{ n }} - {{ df }} + 0.5) / ({{ df }} + 0.5))
{%- endmacro %}

{% macro bm25_weight(idf, tf, doc_length, avg_length) -%}
{%- set k1 = var('bm25_k1', 1.2) -%}
{%- set b = var('bm25_b', 0.75) -%}
{{ idf }} * {{ tf }} * ({{ k1 }} + 1)
    / ({{ tf }} + {{ k1 }} * (1 - {{ b }} + {{ b }} * {{ doc_length }} / {{ avg_length }}))
{%- endmacro %}

{# The BM25 table macros. Plain SQL over retrieval tables: callable from any
   DuckDB client without docket. retrieval.bm25_scores(query, k) ranks: it
   reads the postings of the query's terms from retrieval.chunk_terms
   (stored in term order, keyed by chunk_key), counts their document
   frequency from those same postings, and weighs them with the chunk count
   and mean length of retrieval.search_chunks (the scores of
   retrieval.bm25_postings, computed for the query's terms only); ties rank
   by chunk_key, which orders as chunk_id does (a key is a prefix of the
   id). retrieval.bm25(query, k) adds what cites each hit: it finds the
   hits' rows over chunk_key alone, then reads them by rowid. A join on
   chunk_key that reads the citation columns decompresses every chunk's
   text in DuckDB (the keys reach the scan only as min/max filters, which
   prune almost nothing); a join on rowid reads only the hits' vectors. #}
{% macro bm25_scores_macro() -%}
create or replace macro retrieval.bm25_scores(query, k := 10) as table
with query_terms as (
    select distinct unnest({{ tokenize('query') }}) as term
),
corpus as (
    select count(*) as n_chunks, avg(doc_length) as avg_length
    from retrieval.search_chunks
),
postings as materialized (
    select term, chunk_key, tf, doc_length
    from retrieval.chunk_terms
    where term in (select term from query_terms)
),
stats as (
    select term, {{ bm25_idf('corpus.n_chunks', 'count(*)') }} as idf
    from postings, corpus
    group by term, corpus.n_chunks
)
select
    postings.chunk_key,
    sum({{ bm25_weight('stats.idf', 'postings.tf', 'postings.doc_length', 'corpus.avg_length') }}) as score
from postings
join stats using (term)
cross join corpus
group by postings.chunk_key
order by score desc, postings.chunk_key
limit k
{%- endmacro %}

{% macro bm25_macro() -%}
create or replace macro retrieval.bm25(query, k := 10) as table
with scored as materialized (
    select chunk_key, score from retrieval.bm25_scores(query, k := k)
),
hit_rows as materialized (
    select chunks.rowid as row_id, scored.score
    from retrieval.search_chunks as chunks
    join scored using (chunk_key)
)
select
    chunks.chunk_id,
    hit_rows.score,
    chunks.doc_id,
    chunks.rel_path,
    chunks.source_uri,
    chunks.title,
    chunks.page_number,
    chunks.char_offset,
    chunks.char_end,
    chunks.section_title,
    chunks.text
from retrieval.search_chunks as chunks
join hit_rows on chunks.rowid = hit_rows.row_id
order by hit_rows.score desc, chunks.chunk_id
{%- endmacro %}

{# A chunk's 64-bit key: the first 16 hex digits of its chunk_id (a
   sha256) as UBIGINT, stored as retrieval.search_chunks.chunk_key (unique)
   and beside chunk_id in retrieval.chunk_terms: integers for the
   incremental build's set operations, for scoring's group by (the BM25
   macros read chunk_key, never the 64-character id) and for looking a
   hit's citation up. Two of a million chunks share a key with odds of
   about 1 in 30 million (search_chunks' unique test would say). #}
{% macro chunk_key(chunk_id) -%}
('0x' || left({{ chunk_id }}, 16))::ubigint
{%- endmacro %}
