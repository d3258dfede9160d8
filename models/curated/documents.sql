-- Current documents with what analysts ask first: status, type, pages,
-- how much was OCR'd and how sure OCR was, whether a person should look at
-- it and why (staging review reasons), language and quality verdict.
{{ config(materialized = 'table') }}

with documents as (
    select * from {{ ref('stg_documents') }}
),

pages as (
    select
        doc_id,
        count(*) as pages,
        count(*) filter (where method = 'ocr') as ocr_pages,
        count(*) filter (where needs_ocr and method <> 'ocr') as pages_without_text,
        count(*) filter (where review_reason is not null) as pages_to_review,
        avg(ocr_confidence) as mean_ocr_confidence,
        sum(char_count) as chars
    from {{ ref('stg_pages') }}
    group by doc_id
),

chunks as (
    select doc_id, count(*) as chunks
    from {{ ref('doc_chunks') }}
    group by doc_id
),

reviews as (
    select
        doc_id,
        count(*) as review_reasons,
        string_agg(
            case when page_number is null then message else 'page ' || page_number || ': ' || message end,
            '; ' order by coalesce(page_number, 0), reason_code
        ) as review
    from {{ ref('stg_reviews') }}
    group by doc_id
),

quality as (
    select doc_id, verdict, reason, language, language_confidence
    from {{ ref('doc_quality') }}
),

sightings as (
    select doc_id, last_seen_at, last_run_id
    from {{ ref('stg_document_sightings') }}
),

final as (
    select
        documents.doc_id,
        documents.source_name,
        documents.rel_path,
        documents.source_uri,
        documents.source_hash,
        documents.parent_doc_id,
        documents.detected_type,
        documents.mime_type,
        documents.status,
        documents.error_kind,
        documents.error_message,
        documents.title,
        documents.author,
        coalesce(pages.pages, 0) as pages,
        coalesce(pages.ocr_pages, 0) as ocr_pages,
        case when pages.pages > 0 then pages.ocr_pages / pages.pages end as ocr_share,
        pages.mean_ocr_confidence,
        coalesce(pages.pages_to_review, 0) as pages_to_review,
        coalesce(pages.pages_without_text, 0) as pages_without_text,
        coalesce(pages.chars, 0) as chars,
        coalesce(reviews.review_reasons, 0) > 0 as needs_review,
        reviews.review,
        coalesce(chunks.chunks, 0) as chunks,
        coalesce(quality.language, documents.language_hint) as language,
        quality.language_confidence,
        quality.verdict as quality_verdict,
        quality.reason as quality_reason,
        documents.first_seen_at,
        sightings.last_seen_at
    from documents
    left join pages using (doc_id)
    left join chunks using (doc_id)
    left join reviews using (doc_id)
    left join quality using (doc_id)
    left join sightings using (doc_id)
)

select * from final
