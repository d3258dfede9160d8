-- BM25 postings: term frequency per (term, chunk), with the chunk's length
-- in terms (retrieval.bm25() weighs a posting when it runs) and its
-- chunk_key. Tokens come from the tokenize() macro: lower-cased runs of letters, digits and marks,
-- the same tokens docket's Go code makes, so a query can be tokenized in
-- plain SQL. Written in term order, so a query reads mostly the row
-- groups of its terms.
-- Incremental per chunk: a pre-hook drops the postings of chunks that left
-- retrieval.search_chunks; the build tokenizes only chunks with no
-- postings yet (a chunk's terms depend on its text alone, which its
-- chunk_id fixes). chunk_key (the first 64 bits of chunk_id) is what
-- these set operations compare: scanning an integer column over all
-- postings is cheap, a 64-character id is not, and it is scanned once:
-- a pre-hook keeps the indexed keys in a temporary table (scratch, not a
-- data change) that the retraction and the build read. The retraction
-- finds no rows to delete without reading the postings when no chunk
-- left (its semi join's other side is empty). Incremental builds append
-- in term order per batch, and so does a full build (the first, or
-- `docket build --full-refresh -s chunk_terms+`): it writes the chunks in
-- batches of about var('terms_batch_chunks') (100,000; a split by the hash
-- of chunk_id), each sorted by term, the first in the model's statement
-- and the others in its post-hook (the SQL is the macro chunk_terms_rows,
-- macros/chunk_terms.sql). One sort of every posting spilled ~10 GB at
-- 200k documents (a posting carries its chunk_id) and filled the disk. The first pre-hooks add
-- doc_length and chunk_key to a table built before them; its postings
-- are then redone.
{{ config(
    materialized = 'incremental',
    incremental_strategy = 'append',
    on_schema_change = 'fail',
    pre_hook = [
        "{% if is_incremental() %}alter table {{ this }} add column if not exists doc_length bigint{% endif %}",
        "{% if is_incremental() %}alter table {{ this }} add column if not exists chunk_key ubigint{% endif %}",
        "{% if is_incremental() %}delete from {{ this }} where chunk_key is null{% endif %}",
        "{% if is_incremental() %}create or replace temp table chunk_terms_indexed as
            select distinct chunk_key from {{ this }}{% endif %}",
        "{% if is_incremental() %}delete from {{ this }} where chunk_key in (
            select chunk_key from temp.chunk_terms_indexed
            except
            select {{ chunk_key('chunk_id') }} from {{ ref('search_chunks') }}){% endif %}"
    ],
    post_hook = "{% if not is_incremental() %}{{ batch_inserts(this, chunk_terms_rows, batch_count(ref('search_chunks'), 'terms_batch_chunks')) }}{% endif %}"
) }}

-- depends_on: {{ ref('search_chunks') }}
{{ chunk_terms_rows(this, is_incremental(), none if is_incremental() else 0) }}
