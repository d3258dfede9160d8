-- Pipeline health per load run: of the documents a run extracted, how many
-- succeeded, how much text they gave, how they failed, how much was OCR'd
-- and how confident OCR was, and the change against the previous completed
-- run that extracted anything. Runs that did not complete (aborted by a
-- kill, failed, or still running) are listed but never judged: `judged`
-- is false and they are no one's "previous". Thresholds from project.yaml
-- `health:` become the data tests in tests/health_*.sql, so silent failures
-- fail `docket test`; ops.extraction_health_by_type compares like with like.
{{ config(materialized = 'table') }}

{% set acknowledged = var('health_acknowledged_runs', []) %}

with runs as (
    select run_id, started_at, finished_at, status as run_status, seen, new, changed, unchanged, deleted
    from {{ source('ops', 'load_runs') }}
),

events as (
    select *
    from {{ source('ops', 'document_events') }}
    where event not in ('unchanged', 'deleted')
),

per_run as (
    select
        run_id,
        count(*) as documents_processed,
        count(*) filter (where status = 'landed') as documents_landed,
        count(*) filter (where status = 'quarantined') as documents_quarantined,
        avg(chars) filter (where status = 'landed' and pages > 0) as mean_chars_per_document,
        sum(pages) as pages,
        sum(ocr_pages) as ocr_pages,
        sum(review_pages) as review_pages,
        sum(mean_ocr_confidence * ocr_pages) / nullif(sum(ocr_pages) filter (where mean_ocr_confidence is not null), 0) as mean_ocr_confidence
    from events
    group by run_id
),

failure_modes as (
    select run_id, json_group_object(error_kind, n) as failure_modes
    from (
        select run_id, error_kind, count(*) as n
        from events
        where status = 'quarantined'
        group by all
    )
    group by run_id
),

quarantined as (
    select
        events.run_id,
        array_to_string(list(coalesce(docs.rel_path, events.doc_id) || ' (' || coalesce(events.error_kind, '?') || ')'
            order by docs.rel_path)[1:5], ', ') as quarantined_documents
    from events
    left join {{ source('raw', 'documents') }} as docs using (doc_id)
    where events.status = 'quarantined'
    group by events.run_id
),

joined as (
    select
        runs.*,
        coalesce(per_run.documents_processed, 0) as documents_processed,
        coalesce(per_run.documents_landed, 0) as documents_landed,
        coalesce(per_run.documents_quarantined, 0) as documents_quarantined,
        per_run.documents_landed / nullif(per_run.documents_processed, 0) as success_rate,
        per_run.mean_chars_per_document,
        coalesce(failure_modes.failure_modes, '{}'::json) as failure_modes,
        coalesce(per_run.pages, 0) as pages,
        coalesce(per_run.ocr_pages, 0) as ocr_pages,
        per_run.ocr_pages / nullif(per_run.pages, 0) as ocr_page_share,
        per_run.mean_ocr_confidence,
        coalesce(per_run.review_pages, 0) as review_pages,
        coalesce(quarantined.quarantined_documents, '') as quarantined_documents,
        runs.run_status = 'completed' as judged,
        runs.run_id in ({% for r in acknowledged %}'{{ r }}', {% endfor %}'') as acknowledged
    from runs
    left join per_run using (run_id)
    left join failure_modes using (run_id)
    left join quarantined using (run_id)
),

with_previous as (
    select
        *,
        lag(success_rate) over (partition by judged and documents_processed > 0 order by started_at) as previous_success_rate,
        lag(mean_chars_per_document) over (partition by judged and documents_processed > 0 order by started_at) as previous_mean_chars_per_document
    from joined
),

final as (
    select
        *,
        success_rate - previous_success_rate as success_rate_change,
        mean_chars_per_document / nullif(previous_mean_chars_per_document, 0) - 1 as mean_chars_change,
        row_number() over (order by started_at desc) = 1 as is_latest,
        judged and documents_processed > 0
            and started_at = max(started_at) filter (where judged and documents_processed > 0) over () as is_latest_judged
    from with_previous
)

select * from final
