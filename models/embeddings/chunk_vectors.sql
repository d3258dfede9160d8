-- One vector per distinct chunk text and embedding model. Incremental and
-- change-scoped: a build embeds only the unique chunk texts that have no
-- vector for the configured model yet (the count is the model's rows in
-- the build output). Changing the model adds vectors for it; start over
-- with `docket build --full-refresh -s embeddings`.
-- embed() is the Go UDF of the provider in project.yaml `embedding:`;
-- var('embedding_model') is set by docket from the same settings.
{{ config(
    materialized = 'incremental',
    incremental_strategy = 'append',
    on_schema_change = 'fail'
) }}

-- An anti join before grouping: only texts with no vector are hashed and
-- carried (NOT IN after grouping read and grouped every text).
with pending as (
    select unique_chunks.text_hash, any_value(unique_chunks.text) as text
    from {{ ref('unique_chunks') }} as unique_chunks
    {% if is_incremental() %}
    anti join (
        select text_hash from {{ this }} where model = '{{ var("embedding_model") }}'
    ) as embedded using (text_hash)
    {% endif %}
    group by unique_chunks.text_hash
),

final as (
    select
        text_hash,
        '{{ var("embedding_model") }}' as model,
        embed(text) as embedding,
        now()::timestamp as embedded_at
    from pending
)

select * from final
