-- When each current document was last seen: last_seen_at / last_run_id of
-- the last load that found the file present.
--
-- A load writes only the documents it acts on (new, changed, retried,
-- ...), so raw.documents keeps when each row was last written; a
-- completed load lists every file of its sources and tombstones the ones
-- gone, so a document it left live was seen by it. The later of the two
-- is when the document was last seen. It reads ops.load_runs, which every
-- load changes: kept apart from stg_documents so that only what needs the
-- sighting (curated.documents) is rebuilt after a load that found nothing
-- new.
with documents as (
    select doc_id, source_name, last_seen_at, last_run_id
    from {{ source('raw', 'documents') }}
    where status <> 'deleted'
),

source_loads as (
    select run_id, started_at, unnest(from_json(json_extract(options, '$.sources'), '["VARCHAR"]')) as source_name
    from {{ source('ops', 'load_runs') }}
    where status = 'completed'
),

last_loads as (
    select source_name, max(started_at) as seen_at, arg_max(run_id, started_at) as run_id
    from source_loads
    group by source_name
),

final as (
    select
        doc_id,
        case when last_loads.seen_at > documents.last_seen_at then last_loads.seen_at else documents.last_seen_at end as last_seen_at,
        case when last_loads.seen_at > documents.last_seen_at then last_loads.run_id else documents.last_run_id end as last_run_id
    from documents
    left join last_loads using (source_name)
)

select * from final
