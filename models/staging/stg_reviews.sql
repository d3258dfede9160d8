-- Review reasons of each current document's current content: one row per
-- document and reason (page_number null for the whole document), e.g. a
-- page the file declares but docket could not read, or a text that is
-- mostly undecodable characters.
with documents as (
    select doc_id, source_hash
    from {{ ref('stg_documents') }}
    where status = 'landed'
),

reviews as (
    select * from {{ source('staging', 'reviews') }}
),

final as (
    select
        documents.doc_id,
        reviews.source_hash,
        reviews.page_number,
        reviews.reason_code,
        reviews.message
    from reviews
    join documents on documents.source_hash = reviews.source_hash
)

select * from final
