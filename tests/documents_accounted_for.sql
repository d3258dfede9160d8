-- Every current document has chunks, or table rows (a document that is all
-- tables), or a quality reason, or a quarantine reason.
select doc_id, rel_path, status, quality_verdict
from {{ ref('documents') }}
where chunks = 0
  and doc_id not in (select doc_id from {{ ref('table_rows') }})
  and (quality_verdict is null or quality_verdict = 'passed')
  and (status <> 'quarantined' or error_kind is null)
