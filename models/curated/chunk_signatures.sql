-- MinHash signature and LSH band hashes per distinct chunk text, the stored
-- index curated.chunk_duplicates compares chunks with. Incremental per
-- text_hash: a build computes signatures only for texts that have none
-- yet; a pre-hook drops the texts no chunk has any more. Changing
-- minhash_shingle_words, minhash_permutations or lsh_bands needs
-- `docket build --full-refresh -s chunk_signatures+`.
-- The SQL is the macro chunk_signatures_rows (macros/chunk_signatures.sql):
-- a full build (the first, or --full-refresh) signs the distinct texts in
-- batches of about var('signature_batch_texts') (a split by the hash of
-- text_hash), the first batch in the model's statement and the others in
-- its post-hook, so that its memory is one batch's, not the corpus's; an
-- incremental build signs the texts with no signature yet in one statement.
-- depends_on: {{ ref('doc_chunks') }}
{{ config(
    materialized = 'incremental',
    incremental_strategy = 'append',
    on_schema_change = 'fail',
    pre_hook = "{% if is_incremental() %}delete from {{ this }} as signed
        where not exists (select 1 from {{ ref('doc_chunks') }} as chunks where chunks.text_hash = signed.text_hash){% endif %}",
    post_hook = "{% if not is_incremental() %}{{ batch_inserts(this, chunk_signatures_rows, batch_count(ref('doc_chunks'), 'signature_batch_texts')) }}{% endif %}"
) }}

{{ chunk_signatures_rows(this, is_incremental(), none if is_incremental() else 0) }}
