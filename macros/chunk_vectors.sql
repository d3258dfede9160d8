{# The rows of embeddings.chunk_vectors (models/embeddings/chunk_vectors.sql):
   of the texts with no vector for the configured model yet when
   incremental, else of batch number `batch` of a full build (none: every
   distinct text). this_rel is the model's table. #}
{% macro chunk_vectors_rows(this_rel, incremental, batch=none) -%}
-- An anti join before grouping: only texts with no vector are hashed and
-- carried (NOT IN after grouping read and grouped every text). The chunks
-- are found over text_hash, then read whole by rowid: the join on rowid
-- lets DuckDB skip the row groups outside the wanted rows' range (new
-- chunks are appended together at the end of unique_chunks), so the text
-- of chunks already embedded is never read.
{% if incremental %}
with wanted as materialized (
    select unique_chunks.rowid as row_id
    from {{ ref('unique_chunks') }} as unique_chunks
    anti join (
        select text_hash from {{ this_rel }} where model = '{{ var("embedding_model") }}'
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
    {% if batch is not none %}
    -- one batch of a full build: the texts whose hash falls in bucket
    -- `batch` of the batches of about var('embedding_batch_texts') distinct texts
    where hash(unique_chunks.text_hash) % ({{ batch_count(ref('unique_chunks'), 'embedding_batch_texts') }}) = {{ batch }}
    {% endif %}
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
{%- endmacro %}
