-- The state curated.chunk_duplicates is resolved from, one row per current
-- chunk: its text, its place in the order that picks representatives
-- (ord: first seen document, then page, offset and chunk_id), whether it
-- is its text's representative (the earliest chunk of the text), and on a
-- representative's row its LSH window and first near hop:
--   window_keys: the texts (text_key, the first 64 bits of text_hash) it
--     was compared with: in each LSH bucket it shares, the up to
--     lsh_max_bucket_compare members just before it in ord order;
--   near_of: the text_hash of the earliest of those whose estimated
--     Jaccard reaches near_dup_threshold (null: no near duplicate).
-- Incremental, change-scoped: a build recomputes the representative of
-- texts that gained or lost chunks, and the window and first hop only of
-- the texts whose window can have changed: those texts, the members that
-- follow one of them closely in a shared bucket (a probe of the stored
-- band keys by the few touched texts' keys), and the texts whose stored
-- window names a text that changed or left. The result is the full
-- build's, row for row (TestIncrementalEqualsFullRefresh and, with
-- lsh_max_bucket_compare 1, TestDuplicateIndexEqualsFullRefreshNarrowWindow).
-- Changing near_dup_threshold or lsh_max_bucket_compare needs
-- `docket build --full-refresh -s chunk_dup_index+`.
-- Cost: the logic is change-scoped, but a build still reads two columns of
-- curated.chunk_signatures whole (the window texts' signatures and every
-- band key, to probe): at 50k documents about as much CPU as the full model.
-- The SQL is the macro chunk_dup_index_rows (macros/chunk_dup_index.sql).
-- A full build (the first, or --full-refresh) writes the chunks in batches
-- of about var('dup_index_batch_chunks') (100,000; a split by the hash of
-- text_hash, so a text's chunks share a batch), the first in the model's
-- statement and the others in its post-hook: picking every text's
-- representative in one statement ran out of memory at 200k documents.
-- The LSH buckets are not split: the second pre-hook finds the shared
-- buckets and their members' order once, whole (a few per cent of the band
-- keys), into a temporary table that every batch reads (the post-hook
-- drops it), and each batch keeps the windows of its own texts, so the
-- rows are the one-statement build's (TestChunkDupIndexBatchedFullBuild).
-- The batching macros are in macros/batching.sql.
-- depends_on: {{ ref('doc_chunks') }} {{ ref('stg_documents') }} {{ ref('chunk_signatures') }}
-- The first pre-hook (incremental) drops the rows of chunks that left or whose document's
-- first_seen_at moved (an anti join: a correlated NOT EXISTS on the struct
-- field was 35x slower).
{{ config(
    materialized = 'incremental',
    incremental_strategy = 'delete+insert',
    unique_key = 'chunk_id',
    on_schema_change = 'fail',
    pre_hook = [
        "{% if is_incremental() %}delete from {{ this }} where chunk_id in (
            select indexed.chunk_id from {{ this }} as indexed
            anti join (
                select chunks.chunk_id, documents.first_seen_at
                from {{ ref('doc_chunks') }} as chunks
                join {{ ref('stg_documents') }} as documents using (doc_id)
            ) as current_chunks
              on current_chunks.chunk_id = indexed.chunk_id
             and current_chunks.first_seen_at = indexed.ord.first_seen_at){% endif %}",
        "{% if not is_incremental() %}create or replace temp table chunk_dup_index_shared as
            {{ chunk_dup_index_shared_positions() }}{% endif %}"
    ],
    post_hook = [
        "{% if not is_incremental() %}{{ batch_inserts(this, chunk_dup_index_rows, batch_count(ref('doc_chunks'), 'dup_index_batch_chunks')) }}{% endif %}",
        "{% if not is_incremental() %}drop table if exists temp.chunk_dup_index_shared{% endif %}"
    ]
) }}

{{ chunk_dup_index_rows(this, is_incremental(), none if is_incremental() else 0) }}
