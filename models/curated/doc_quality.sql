-- One quality verdict per current document, with the figures behind it.
-- Verdicts, first match wins: extraction_failed, too_large (a page over
-- var('max_page_chars'): not measured or chunked), too_short,
-- excessive_whitespace, too_repetitive, wrong_language, passed.
-- Thresholds are vars; stop words come from the stop_words seed.
-- Incremental per document: only documents whose current version
-- (source_hash, status, extracted_at) has no verdict yet are judged; their
-- old verdict is replaced in the same build, and deleted documents leave
-- (pre-hook). Changing a threshold var, languages, max_page_chars or the
-- stop_words seed needs `docket build --full-refresh -s doc_quality+`.
-- The pre-hooks add the version columns to a table built before they
-- existed; its verdicts then count as not judged and are redone.
-- Reads staging.pages by rowid (a view has none), so the DAG edge
-- to the staging views is declared as dbt does it: `-s stg_pages+` selects
-- this node. A project that filters pages in stg_pages edits the same
-- filter here too.
-- depends_on: {{ ref('stg_pages') }}
{{ config(
    materialized = 'incremental',
    incremental_strategy = 'delete+insert',
    unique_key = 'doc_id',
    on_schema_change = 'fail',
    pre_hook = [
        "{% if is_incremental() %}alter table {{ this }} add column if not exists source_hash varchar{% endif %}",
        "{% if is_incremental() %}alter table {{ this }} add column if not exists extracted_at timestamp{% endif %}",
        "{% if is_incremental() %}delete from {{ this }} as quality where not exists (
            select 1 from {{ ref('stg_documents') }} as documents where documents.doc_id = quality.doc_id){% endif %}"
    ]
) }}

{% set languages = var('languages', ['eng']) %}

with documents as (
    select stg_documents.doc_id, stg_documents.status, stg_documents.source_hash, extractions.extracted_at
    from {{ ref('stg_documents') }} as stg_documents
    left join {{ source('staging', 'extractions') }} as extractions using (source_hash)
    {% if is_incremental() %}
    -- only documents whose current version has no verdict yet (an anti
    -- join: the same rows as a correlated NOT EXISTS, about 8x less CPU at
    -- 50k documents)
    anti join {{ this }} as judged
      on judged.doc_id = stg_documents.doc_id
     and judged.status = stg_documents.status
     and judged.source_hash is not distinct from stg_documents.source_hash
     and judged.extracted_at is not distinct from extractions.extracted_at
    {% endif %}
),

-- The pages of the documents to judge, found over narrow columns; their
-- text is then read by rowid: the semi join on rowid lets DuckDB skip the
-- rows outside the wanted rows' range (a load appends a new content's
-- pages together), so an incremental build never reads the text of
-- documents judged already. (staging.pages joined with the landed
-- documents is what stg_pages gives; a view has no rowid.)
-- text_pages: the document's pages within max_page_chars, which its text
-- joins with a blank line in page order; text_start: where the page's
-- text begins in that text.
doc_pages as materialized (
    select
        documents.doc_id,
        pages.rowid as row_id,
        pages.page_number,
        pages.char_count,
        max(pages.char_count) over per_document as largest_page_chars,
        count(*) filter (where pages.char_count <= {{ var('max_page_chars', 20000000) }}) over per_document as text_pages,
        coalesce(sum(pages.char_count + 2) filter (where pages.char_count <= {{ var('max_page_chars', 20000000) }}) over (
            per_document order by pages.page_number rows between unbounded preceding and 1 preceding), 0)::bigint as text_start
    from {{ source('staging', 'pages') }} as pages
    join documents on documents.source_hash = pages.source_hash
    where documents.status = 'landed'
    window per_document as (partition by documents.doc_id)
),

page_stats as (
    select
        doc_id,
        max(char_count) as largest_page_chars,
        arg_max(page_number, char_count) as largest_page,
        count(*) as pages,
        count(*) filter (where char_count > 0) as pages_with_text
    from doc_pages
    group by doc_id
),

-- Each document's text: its pages within max_page_chars (a where clause
-- on the scan, not an aggregate filter: DuckDB then never reads a longer
-- page's text; with the filter it loaded a 384 MB page whole, over a
-- 256 MB memory_limit). Text flows through once and never into a join's
-- hash table or a materialized CTE, so DuckDB streams it: a one-page
-- document's text is its page's; only documents of several pages go
-- through string_agg, whose states DuckDB holds until the aggregate ends
-- (every document's text in one aggregate, and the text kept for the
-- stop word count, ran out of memory at 50k documents under 512MB).
texts as (
    select doc_id, largest_page_chars, text
    from (
        select doc_pages.doc_id, doc_pages.page_number, doc_pages.largest_page_chars, pages.text
        from (
            select rowid as row_id, text
            from {{ source('staging', 'pages') }}
            where rowid in (select row_id from doc_pages where text_pages = 1)
              and char_count <= {{ var('max_page_chars', 20000000) }}
        ) as pages
        join doc_pages using (row_id)
    )
    union all
    select doc_id, largest_page_chars, string_agg(text, chr(10) || chr(10) order by page_number) as text
    from (
        select doc_pages.doc_id, doc_pages.page_number, doc_pages.largest_page_chars, pages.text
        from (
            select rowid as row_id, text
            from {{ source('staging', 'pages') }}
            where rowid in (select row_id from doc_pages where text_pages > 1)
              and char_count <= {{ var('max_page_chars', 20000000) }}
        ) as pages
        join doc_pages using (row_id)
    )
    group by doc_id, largest_page_chars
),

measured as (
    select
        page_stats.*,
        texts.stats,
        texts.language
    from page_stats
    left join (
        select
            doc_id,
            case when largest_page_chars <= {{ var('max_page_chars', 20000000) }} then text_stats(text) end as stats,
            detect_language(left(text, 20000)) as language
        from texts
    ) as texts using (doc_id)
),

stop_words as (
    select lower(word) as word from {{ ref('stop_words') }}
),

-- Stop words among the words of the first 200,000 characters of the
-- document's text, counted page by page: the pages are joined by a blank
-- line, which splits words as the page ends do, so the page starting at
-- text_start contributes the words of its first 200,000 - text_start
-- characters.
word_counts as (
    select doc_id, count(*) filter (where word in (select word from stop_words)) as stop_words
    from (
        select doc_pages.doc_id, unnest(regexp_split_to_array(lower(left(pages.text, 200000 - doc_pages.text_start)), '[^\p{L}\p{N}]+')) as word
        from (
            select rowid as row_id, text
            from {{ source('staging', 'pages') }}
            where rowid in (select row_id from doc_pages where text_start < 200000)
              and char_count <= {{ var('max_page_chars', 20000000) }}
        ) as pages
        join doc_pages using (row_id)
    )
    group by doc_id
),

judged as (
    select
        documents.doc_id,
        documents.status,
        coalesce(measured.pages, 0) as pages,
        coalesce(measured.stats.chars, 0) as chars,
        measured.stats.words as words,
        measured.stats.lines as lines,
        measured.stats.unique_line_ratio as unique_line_ratio,
        measured.stats.non_whitespace_ratio as non_whitespace_ratio,
        measured.stats.mean_word_length as mean_word_length,
        measured.stats.symbol_ratio as symbol_ratio,
        measured.stats.dup_ngram_share as dup_ngram_share,
        coalesce(word_counts.stop_words, 0) as stop_words,
        measured.language.lang as language,
        measured.language.confidence as language_confidence,
        measured.largest_page,
        measured.largest_page_chars,
        documents.source_hash,
        documents.extracted_at,
        case
            when documents.status = 'quarantined' then 'extraction_failed'
            when coalesce(measured.pages_with_text, 0) = 0 then 'extraction_failed'
            when measured.largest_page_chars > {{ var('max_page_chars', 20000000) }} then 'too_large'
            when measured.stats.chars < {{ var('min_doc_chars', 200) }} then 'too_short'
            when measured.stats.non_whitespace_ratio < {{ var('min_non_whitespace_ratio', 0.5) }} then 'excessive_whitespace'
            when (measured.stats.lines > 5 and measured.stats.unique_line_ratio < {{ var('min_unique_line_ratio', 0.5) }})
              or measured.stats.dup_ngram_share > {{ var('max_dup_ngram_share', 0.5) }} then 'too_repetitive'
            when measured.language.lang not in ({% for l in languages %}'{{ l }}', {% endfor %}'und')
              and measured.language.confidence >= {{ var('min_language_confidence', 0.5) }} then 'wrong_language'
            else 'passed'
        end as verdict
    from documents
    left join measured using (doc_id)
    left join word_counts using (doc_id)
),

final as (
    select
        * exclude (source_hash, extracted_at),
        case verdict
            when 'extraction_failed' then
                case when status = 'quarantined' then 'the document could not be extracted (see raw.documents.error_kind)'
                     else 'no page yielded text (image-only pages without OCR, or OCR found nothing)' end
            when 'too_large' then 'page ' || largest_page || ' has ' || largest_page_chars || ' characters, over max_page_chars = {{ var("max_page_chars", 20000000) }}: not chunked or measured (split the file, or raise vars.max_page_chars)'
            when 'too_short' then 'only ' || chars || ' characters, under min_doc_chars = {{ var("min_doc_chars", 200) }}'
            when 'excessive_whitespace' then 'non-whitespace ratio ' || round(non_whitespace_ratio, 2) || ' < {{ var("min_non_whitespace_ratio", 0.5) }}'
            when 'too_repetitive' then 'unique line ratio ' || round(unique_line_ratio, 2) || ', duplicate 5-gram share ' || round(dup_ngram_share, 2)
            when 'wrong_language' then 'language ' || language || ' (confidence ' || round(language_confidence, 2) || ') not in {{ languages | join(", ") }}'
            else 'passed all checks'
        end as reason,
        source_hash,
        extracted_at
    from judged
)

select * from final
