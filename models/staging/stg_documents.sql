-- Current documents: every file still present in its source (tombstones
-- excluded), landed or quarantined, with its current content hash.
--
-- It reads raw.documents only, so it changes only when a load writes a
-- document (new, changed, retried, deleted, ...), not with every load:
-- what reads it stays up to date after a load that found nothing new.
-- last_written_at / last_written_run_id: when a load last wrote the row.
-- When the file was last seen (every completed load of its source sees
-- it) is staging.stg_document_sightings, and curated.documents.
with documents as (
    select * from {{ source('raw', 'documents') }}
),

final as (
    select
        doc_id,
        source_name,
        rel_path,
        source_uri,
        source_hash,
        size_bytes,
        detected_type,
        mime_type,
        status,
        error_kind,
        error_message,
        parent_doc_id,
        depth,
        title,
        author,
        language_hint,
        page_count,
        metadata,
        first_seen_at,
        last_seen_at as last_written_at,
        last_run_id as last_written_run_id
    from documents
    where status <> 'deleted'
)

select * from final
