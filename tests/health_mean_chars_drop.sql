-- Characters per successful document did not drop sharply against the
-- previous load (a silent extraction failure looks like this). Loads of
-- fewer than var('health_min_documents') documents are too small to judge.
{{ config(severity = var('health_severity', 'error')) }}

select run_id, started_at, mean_chars_per_document, previous_mean_chars_per_document, mean_chars_change
from {{ ref('extraction_health') }}
where documents_processed > 0
  and documents_landed >= {{ var('health_min_documents', 5) }}
  and started_at = (select max(started_at) from {{ ref('extraction_health') }} where documents_processed > 0)
  and mean_chars_change < -{{ var('health_max_mean_chars_drop', 0.5) }}
