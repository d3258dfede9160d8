-- Every current document has chunks, or a quality reason, or a quarantine reason.
select doc_id, rel_path, status, quality_verdict
from {{ ref('documents') }}
where chunks = 0
  and (quality_verdict is null or quality_verdict = 'passed')
  and (status <> 'quarantined' or error_kind is null)
