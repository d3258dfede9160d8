{# The rows of curated.doc_chunks (models/curated/doc_chunks.sql): of the
   documents not chunked yet when incremental, else of batch number `batch`
   of a full build (none: every document). this_rel is the model's table. #}
{% macro doc_chunks_rows(this_rel, incremental, batch=none) -%}
with extractions as (
    select source_hash, extracted_at
    from {{ source('staging', 'extractions') }}
),

{% if incremental %}
table_sources as materialized (
    select distinct source_hash
    from {{ source('staging', 'elements') }}
    where category = 'Table' and char_end > char_start
),

{% endif %}
documents as (
    select stg_documents.doc_id, stg_documents.source_hash, extractions.extracted_at
    from {{ ref('stg_documents') }} as stg_documents
    join extractions using (source_hash)
    where stg_documents.status = 'landed'
    {% if incremental %}
      -- only documents whose current extraction is not chunked yet
      -- (new, changed, or re-extracted with --reocr / --retry-quarantined)
      and (not exists (
          select 1 from {{ this_rel }} as chunked
          where chunked.doc_id = stg_documents.doc_id
            and chunked.source_hash = stg_documents.source_hash
            and chunked.extracted_at = extractions.extracted_at
      )
      -- or, once, every document with a table when the table was built
      -- before tables were chunked (it has no table chunk though staging
      -- has tables): their chunks then are a full build's
      or (stg_documents.source_hash in (select source_hash from table_sources)
          and (select not exists (
              select 1 from {{ this_rel }} as chunked
              where list_contains(chunked.element_categories, 'Table')))))
    {% endif %}
    {% if batch is not none %}
      -- one batch of a full build: the batch-th run of
      -- var('chunk_batch_documents') documents in doc_id order
      qualify (row_number() over (order by stg_documents.doc_id, stg_documents.source_hash) - 1)
          // {{ var('chunk_batch_documents', 20000) }} = {{ batch }}
    {% endif %}
),

-- A page over var('max_page_chars') is not chunked (curated.doc_quality
-- gives the document the verdict too_large): the Go UDFs would hold
-- several copies of it in memory.
-- The pages and elements of the documents to chunk are found over narrow
-- columns, then read by rowid: the join on rowid lets DuckDB skip the row
-- groups outside the wanted rows' range (a load appends a new content's
-- pages and elements together), so an incremental build never reads the
-- text or elements of documents chunked already. (staging.pages and
-- staging.elements joined with the documents is what stg_pages and
-- stg_elements give for landed documents; a view has no rowid.)
doc_pages as materialized (
    select documents.doc_id, pages.source_hash, pages.rowid as row_id
    from {{ source('staging', 'pages') }} as pages
    join documents using (source_hash)
    where pages.char_count > 0 and pages.char_count <= {{ var('max_page_chars', 20000000) }}
),

pages as (
    select doc_pages.doc_id, doc_pages.source_hash, pages.page_number, pages.text
    from (
        select rowid as row_id, page_number, text, char_count
        from {{ source('staging', 'pages') }}
        where rowid in (select row_id from doc_pages)
    ) as pages
    join doc_pages using (row_id)
    where pages.char_count > 0 and pages.char_count <= {{ var('max_page_chars', 20000000) }}
),

doc_elements as materialized (
    select documents.doc_id, elements.rowid as row_id
    from {{ source('staging', 'elements') }} as elements
    join documents using (source_hash)
),

page_elements as (
    select
        doc_elements.doc_id,
        elements.page_number,
        list({
            'char_start': elements.char_start,
            'char_end': elements.char_end,
            'category': elements.category,
            'section': elements.section
        } order by elements.seq) as spans
    from (
        select rowid as row_id, page_number, seq, char_start, char_end, category, section
        from {{ source('staging', 'elements') }}
        where rowid in (select row_id from doc_elements)
    ) as elements
    join doc_elements using (row_id)
    group by doc_elements.doc_id, elements.page_number
),

chunked as (
    select
        pages.doc_id,
        pages.source_hash,
        documents.extracted_at,
        pages.page_number,
        unnest(chunk_elements(
            pages.text,
            {{ var('chunk_size', 1000) }},
            {{ var('chunk_overlap', 150) }},
            coalesce(page_elements.spans, [])
        )) as chunk
    from pages
    join documents using (doc_id, source_hash)
    left join page_elements using (doc_id, page_number)
),

normalized as (
    select
        doc_id,
        source_hash,
        extracted_at,
        page_number,
        chunk.char_offset,
        chunk.char_end,
        chunk.section as section_title,
        chunk.categories as element_categories,
        normalize_text(chunk.text) as text
    from chunked
),

final as (
    select
        sha256(concat_ws('|', doc_id, page_number, char_offset, text)) as chunk_id,
        doc_id,
        source_hash,
        page_number,
        char_offset,
        char_end,
        section_title,
        element_categories,
        text,
        sha256(text) as text_hash,
        length(text) as text_length,
        extracted_at
    from normalized
    where text <> ''
)

select * from final
{%- endmacro %}

{# The landed documents doc_chunks chunks in a full build, as a relation
   for batch_count (its batches are runs of var('chunk_batch_documents')
   documents in doc_id order). #}
{% macro doc_chunks_documents() -%}
(select 1 from {{ ref('stg_documents') }} as d join {{ source('staging', 'extractions') }} using (source_hash) where d.status = 'landed')
{%- endmacro %}
