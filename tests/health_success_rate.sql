-- The latest load that extracted anything succeeded for at least
-- health.min_success_rate of its documents (project.yaml). Loads of fewer
-- than var('health_min_documents') documents are too small to judge.
{{ config(severity = var('health_severity', 'error')) }}

select run_id, started_at, documents_processed, documents_landed, success_rate, failure_modes
from {{ ref('extraction_health') }}
where documents_processed > 0
  and documents_processed >= {{ var('health_min_documents', 5) }}
  and started_at = (select max(started_at) from {{ ref('extraction_health') }} where documents_processed > 0)
  and success_rate < {{ var('health_min_success_rate', 0.5) }}
