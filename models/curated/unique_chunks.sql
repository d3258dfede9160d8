-- The chunks that embeddings and retrieval read: every chunk that is not a
-- duplicate of an earlier one, from documents whose quality verdict is not
-- in var('quality_excluded_verdicts').
{{ config(materialized = 'table') }}

with doc_chunks as (
    select * from {{ ref('doc_chunks') }}
),

duplicates as (
    select chunk_id from {{ ref('chunk_duplicates') }}
),

excluded_documents as (
    select doc_id
    from {{ ref('doc_quality') }}
    where verdict in (
        {%- for v in var('quality_excluded_verdicts', ['too_repetitive', 'excessive_whitespace']) %}
        '{{ v }}'{% if not loop.last %},{% endif %}
        {%- endfor %}
        , '__none__'
    )
),

final as (
    select doc_chunks.*
    from doc_chunks
    where chunk_id not in (select chunk_id from duplicates)
      and doc_id not in (select doc_id from excluded_documents)
)

select * from final
