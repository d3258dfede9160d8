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
-- carried (NOT IN after grouping read and grouped every text). The chunks
-- are found over text_hash, then read whole by rowid: the join on rowid
-- lets DuckDB skip the row groups outside the wanted rows' range (new
-- chunks are appended together at the end of unique_chunks), so the text
-- of chunks already embedded is never read.
{% if is_incremental() %}
with wanted as materialized (
    select unique_chunks.rowid as row_id
    from {{ ref('unique_chunks') }} as unique_chunks
    anti join (
        select text_hash from {{ this }} where model = '{{ var("embedding_model") }}'
    ) as embedded using (text_hash)
),

pending as (
    select unique_chunks.text_hash, any_value(unique_chunks.text) as text
    from {{ ref('unique_chunks') }} as unique_chunks
    where unique_chunks.rowid in (select row_id from wanted)
    group by unique_chunks.text_hash
),
{% else %}
with pending as (
    select unique_chunks.text_hash, any_value(unique_chunks.text) as text
    from {{ ref('unique_chunks') }} as unique_chunks
    group by unique_chunks.text_hash
),
{% endif %}

final as (
    select
        text_hash,
        '{{ var("embedding_model") }}' as model,
        embed(text) as embedding,
        now()::timestamp as embedded_at
    from pending
)

select * from final
