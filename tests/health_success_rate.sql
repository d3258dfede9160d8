-- The latest completed load that extracted anything succeeded for at least
-- health.min_success_rate of its documents (project.yaml). Aborted, failed
-- and running loads are not judged; loads of fewer than
-- health.min_documents documents are too small to judge; a run named in
-- health.acknowledged is accepted.
{{ config(severity = var('health_severity', 'error')) }}

select
    run_id,
    started_at,
    documents_processed,
    documents_landed,
    round(success_rate, 3) as success_rate,
    failure_modes,
    quarantined_documents,
    'to accept: project.yaml health.acknowledged: [' || run_id || ']' as acknowledge
from {{ ref('extraction_health') }}
where is_latest_judged
  and not acknowledged
  and documents_processed >= {{ var('health_min_documents', 5) }}
  and success_rate < {{ var('health_min_success_rate', 0.5) }}
