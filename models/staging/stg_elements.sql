-- Typed blocks (titles, paragraphs, list items, tables...) of each current
-- document's current content, one row per document and element.
with documents as (
    select doc_id, source_hash
    from {{ ref('stg_documents') }}
    where status = 'landed'
),

elements as (
    select * from {{ source('staging', 'elements') }}
),

final as (
    select
        documents.doc_id || ':' || elements.element_id as doc_element_id,
        documents.doc_id,
        elements.element_id,
        elements.source_hash,
        elements.seq,
        elements.page_number,
        elements.category,
        elements.text,
        elements.x0,
        elements.y0,
        elements.x1,
        elements.y1,
        elements.char_start,
        elements.char_end,
        elements.level,
        elements.section,
        elements.table_seq
    from elements
    join documents on documents.source_hash = elements.source_hash
)

select * from final
