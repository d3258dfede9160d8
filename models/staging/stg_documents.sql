-- Current documents: every file still present in its source (tombstones
-- excluded), landed or quarantined, with its current content hash.
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
        last_seen_at,
        last_run_id
    from documents
    where status <> 'deleted'
)

select * from final
