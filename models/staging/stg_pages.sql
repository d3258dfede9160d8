-- Pages of each current document's current content. Staging is keyed by
-- content, so a content shared by two documents yields one row per document.
with documents as (
    select doc_id, source_hash
    from {{ ref('stg_documents') }}
    where status = 'landed'
),

pages as (
    select * from {{ source('staging', 'pages') }}
),

final as (
    select
        documents.doc_id || ':' || pages.page_number as page_id,
        documents.doc_id,
        pages.source_hash,
        pages.page_number,
        pages.text,
        pages.char_count,
        pages.width,
        pages.height,
        pages.method,
        pages.needs_ocr,
        pages.ocr_confidence,
        pages.review_reason,
        pages.extractor_version
    from pages
    join documents on documents.source_hash = pages.source_hash
)

select * from final
