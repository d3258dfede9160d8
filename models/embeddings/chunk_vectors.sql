-- One vector per distinct chunk text and embedding model. Incremental and
-- change-scoped: a build embeds only the unique chunk texts that have no
-- vector for the configured model yet (the count is the model's rows in
-- the build output). Changing the model adds vectors for it; start over
-- with `docket build --full-refresh -s embeddings`.
-- embed() is the Go UDF of the provider in project.yaml `embedding:`;
-- var('embedding_model') is set by docket from the same settings.
-- The SQL is the macro chunk_vectors_rows (macros/chunk_vectors.sql): a
-- full build (the first, or --full-refresh) embeds the distinct texts in
-- batches of about var('embedding_batch_texts') (100,000; a split by the
-- hash of text_hash), the first batch in the model's statement and the
-- others in its post-hook, so that its memory is one batch's (every text
-- at once ran out of memory at 200k documents); an incremental build
-- embeds the texts with no vector yet in one statement.
-- depends_on: {{ ref('unique_chunks') }}
{{ config(
    materialized = 'incremental',
    incremental_strategy = 'append',
    on_schema_change = 'fail',
    post_hook = "{% if not is_incremental() %}{{ batch_inserts(this, chunk_vectors_rows, batch_count(ref('unique_chunks'), 'embedding_batch_texts')) }}{% endif %}"
) }}

{{ chunk_vectors_rows(this, is_incremental(), none if is_incremental() else 0) }}
