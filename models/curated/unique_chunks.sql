-- The chunks that embeddings and retrieval read: every chunk that is not a
-- duplicate of an earlier one, from documents whose quality verdict is not
-- in var('quality_excluded_verdicts').
-- Incremental per chunk: a pre-hook retracts chunks that left doc_chunks
-- (or whose document was re-chunked), became duplicates or whose document
-- is now excluded; the build adds the chunks that qualify and are missing.
-- Only ids are compared over the whole corpus; text is read and copied
-- for new chunks only. Changing quality_excluded_verdicts needs
-- `docket build --full-refresh -s unique_chunks+`.
{{ config(
    materialized = 'incremental',
    incremental_strategy = 'delete+insert',
    unique_key = 'chunk_id',
    on_schema_change = 'fail',
    pre_hook = "{% if is_incremental() %}delete from {{ this }} as kept where kept.chunk_id in (
            select stored.chunk_id from {{ this }} as stored
            anti join {{ ref('doc_chunks') }} as chunks
              on chunks.chunk_id = stored.chunk_id and chunks.source_hash = stored.source_hash
             and chunks.extracted_at = stored.extracted_at)
        or kept.chunk_id in (select chunk_id from {{ ref('chunk_duplicates') }})
        or kept.doc_id in (select doc_id from {{ ref('doc_quality') }} where verdict in ({{ excluded_verdicts() }})){% endif %}"
) }}

with doc_chunks as (
    select * from {{ ref('doc_chunks') }}
),

duplicates as (
    select chunk_id from {{ ref('chunk_duplicates') }}
),

excluded_documents as (
    select doc_id
    from {{ ref('doc_quality') }}
    where verdict in ({{ excluded_verdicts() }})
),

-- Anti joins, not NOT IN: DuckDB's null-aware NOT IN is several times
-- slower when the rows carry their text.
{% if is_incremental() %}
-- The chunks to add are found over ids, then read whole by rowid: the
-- semi join on rowid lets DuckDB skip the row groups outside the wanted rows'
-- range (a build's new chunks are appended together at the end of
-- doc_chunks), so the text of unchanged chunks is never read.
wanted as materialized (
    select doc_chunks.rowid as row_id
    from {{ ref('doc_chunks') }} as doc_chunks
    anti join duplicates using (chunk_id)
    anti join excluded_documents using (doc_id)
    anti join {{ this }} as kept using (chunk_id)
),

final as (
    select doc_chunks.*
    from {{ ref('doc_chunks') }} as doc_chunks
    where doc_chunks.rowid in (select row_id from wanted)
)
{% else %}
final as (
    select doc_chunks.*
    from doc_chunks
    anti join duplicates using (chunk_id)
    anti join excluded_documents using (doc_id)
)
{% endif %}

select * from final
