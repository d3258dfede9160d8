-- Characters per document did not drop sharply for any detected type in
-- the latest completed load that extracted that type, against the type's
-- rolling baseline (ops.extraction_health_by_type). A silent extraction
-- failure looks like this. Both the judged run and its baseline need at
-- least health.min_documents documents of the type; a run named in
-- project.yaml health.acknowledged is accepted and becomes the new normal.
{{ config(severity = var('health_severity', 'error')) }}

select
    run_id,
    detected_type,
    documents_with_text as documents,
    round(mean_chars_per_document) as mean_chars,
    round(baseline_mean_chars_per_document) as baseline_mean_chars,
    baseline_documents,
    printf('%.1f %%', 100 * mean_chars_change) as change,
    printf('%d low: %s', low_documents, lowest_documents) as documents_that_moved_it,
    'to accept: project.yaml health.acknowledged: [' || run_id || ']' as acknowledge
from {{ ref('extraction_health_by_type') }}
where is_latest_for_type
  and not acknowledged
  and documents_with_text >= {{ var('health_min_documents', 5) }}
  and baseline_documents >= {{ var('health_min_documents', 5) }}
  and mean_chars_change < -{{ var('health_max_mean_chars_drop', 0.5) }}
