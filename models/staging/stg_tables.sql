-- Detected tables of each current document's current content, one row per
-- document and table; curated.table_rows unnests the cells.
with documents as (
    select doc_id, source_hash
    from {{ ref('stg_documents') }}
    where status = 'landed'
),

tables as (
    select * from {{ source('staging', 'tables') }}
),

final as (
    select
        documents.doc_id || ':' || tables.table_id as doc_table_id,
        documents.doc_id,
        tables.table_id,
        tables.source_hash,
        tables.table_seq,
        tables.page_number,
        tables.x0,
        tables.y0,
        tables.x1,
        tables.y1,
        tables.header,
        tables.cells,
        tables.n_rows,
        tables.n_cols,
        tables.spans,
        tables.continues_table_id
    from tables
    join documents on documents.source_hash = tables.source_hash
)

select * from final
