{# The history of each document's status and quality verdict across loads:
   one row per version, valid from the build that first saw it until the one
   that saw it change (dbt_valid_to null = current). A document that leaves
   (deleted from the inbox) gets its last version closed. Ask it, e.g.:
   select * from snapshots.doc_quality_history where rel_path = 'x.pdf' order by dbt_valid_from #}
{% snapshot doc_quality_history %}
{{ config(
    unique_key = 'doc_id',
    strategy = 'check',
    check_cols = ['source_hash', 'status', 'quality_verdict', 'needs_review'],
    hard_deletes = 'invalidate'
) }}
select doc_id, rel_path, source_hash, status, quality_verdict, quality_reason, needs_review
from {{ ref('documents') }}
{% endsnapshot %}
