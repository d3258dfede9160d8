-- Characters per document, compared like with like: per completed load run
-- and detected type (pdf with pdf, text with text), against the pooled
-- documents of that type in the previous var('health_window') completed
-- runs that extracted the type. Aborted, failed and still-running loads are
-- neither judged nor part of a baseline. A run acknowledged in project.yaml
-- (health.acknowledged) is the new normal: later runs are compared with it
-- and what came after it, never with what came before.
{{ config(materialized = 'table') }}

{% set acknowledged = var('health_acknowledged_runs', []) %}

with runs as (
    select run_id, started_at
    from {{ source('ops', 'load_runs') }}
    where status = 'completed'
),

-- A content extracted once and seen under several names has its pages and
-- characters on one event only; the others get them from it.
all_events as (
    select
        * replace (
            coalesce(pages, max(pages) over (partition by source_hash)) as pages,
            coalesce(chars, max(chars) over (partition by source_hash)) as chars
        )
    from {{ source('ops', 'document_events') }}
),

events as (
    select events.*, runs.started_at, coalesce(events.detected_type, 'unknown') as type
    from all_events as events
    join runs using (run_id)
    where events.event not in ('unchanged', 'deleted')
),

per_type as (
    select
        run_id,
        any_value(started_at) as started_at,
        type as detected_type,
        count(*) as documents_processed,
        count(*) filter (where status = 'landed') as documents_landed,
        count(*) filter (where status = 'landed' and pages > 0) as documents_with_text,
        sum(chars) filter (where status = 'landed' and pages > 0) as chars
    from events
    group by run_id, type
),

sequenced as (
    select
        *,
        row_number() over (partition by detected_type order by started_at, run_id) as type_run,
        run_id in ({% for r in acknowledged %}'{{ r }}', {% endfor %}'') as acknowledged
    from per_type
),

last_acknowledged as (
    select cur.run_id, cur.detected_type, max(ack.type_run) as ack_run
    from sequenced as cur
    join sequenced as ack
      on ack.detected_type = cur.detected_type and ack.acknowledged and ack.type_run < cur.type_run
    group by all
),

baseline as (
    select
        cur.run_id,
        cur.detected_type,
        count(prev.run_id) as baseline_runs,
        coalesce(sum(prev.documents_with_text), 0) as baseline_documents,
        sum(prev.chars) / nullif(sum(prev.documents_with_text), 0) as baseline_mean_chars_per_document
    from sequenced as cur
    left join last_acknowledged as la using (run_id, detected_type)
    left join sequenced as prev
      on prev.detected_type = cur.detected_type
     and prev.type_run between greatest(cur.type_run - {{ var('health_window', 5) }}, coalesce(la.ack_run, 0)) and cur.type_run - 1
    group by all
),

-- The documents that pulled the figure down: landed with less than the
-- baseline allows, fewest characters first.
low as (
    select
        events.run_id,
        events.type as detected_type,
        count(*) as low_documents,
        list(docs.rel_path order by events.chars, docs.rel_path)[1:5] as lowest
    from events
    join baseline on baseline.run_id = events.run_id and baseline.detected_type = events.type
    left join {{ source('raw', 'documents') }} as docs using (doc_id)
    where events.status = 'landed' and events.pages > 0
      and events.chars < baseline.baseline_mean_chars_per_document * (1 - {{ var('health_max_mean_chars_drop', 0.5) }})
    group by all
),

final as (
    select
        s.run_id,
        s.started_at,
        s.detected_type,
        s.documents_processed,
        s.documents_landed,
        s.documents_with_text,
        s.chars / nullif(s.documents_with_text, 0) as mean_chars_per_document,
        b.baseline_runs,
        b.baseline_documents,
        b.baseline_mean_chars_per_document,
        (s.chars / nullif(s.documents_with_text, 0)) / nullif(b.baseline_mean_chars_per_document, 0) - 1 as mean_chars_change,
        coalesce(low.low_documents, 0) as low_documents,
        coalesce(array_to_string(low.lowest, ', '), '') as lowest_documents,
        s.acknowledged,
        s.type_run = max(s.type_run) over (partition by s.detected_type) as is_latest_for_type
    from sequenced as s
    join baseline as b using (run_id, detected_type)
    left join low using (run_id, detected_type)
)

select * from final
