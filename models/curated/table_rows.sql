-- One row per body row of every detected table of current documents, as a
-- JSON object keyed by the table's normalized header names: lower case,
-- runs of other characters than a-z and 0-9 turned into one underscore,
-- trimmed; an empty name becomes column_N (N = 1-based position); repeated
-- names get _2, _3 in column order. Tables without a header row are keyed
-- column_1, column_2, ...
-- Values are JSON numbers when every non-empty cell of the column is a
-- number: thousands separators (space, comma, dot groups), decimal comma,
-- a trailing percent sign (dropped: 12.5% -> 12.5) and negatives in
-- parentheses are read; placeholders ("-", ":", "n.a.", "..") count as
-- empty. Empty cells are JSON null; everything else stays a string.
-- Incremental per document: a pre-hook retracts the rows of documents
-- whose current version (source_hash, extracted_at) is not the one they
-- were made from (changed, re-extracted, deleted); the build adds the rows
-- of documents that have tables and no rows. The first pre-hook adds
-- extracted_at to a table built before it (its rows are then redone).
{{ config(
    materialized = 'incremental',
    incremental_strategy = 'delete+insert',
    unique_key = 'doc_id',
    on_schema_change = 'fail',
    pre_hook = [
        "{% if is_incremental() %}alter table {{ this }} add column if not exists extracted_at timestamp{% endif %}",
        "{% if is_incremental() %}delete from {{ this }} as table_rows where not exists (
        select 1 from {{ ref('stg_documents') }} as documents
        join {{ source('staging', 'extractions') }} as extractions using (source_hash)
        where documents.status = 'landed' and documents.doc_id = table_rows.doc_id
          and documents.source_hash = table_rows.source_hash and extractions.extracted_at = table_rows.extracted_at){% endif %}"
    ]
) }}

with tables as (
    select
        stg_tables.doc_table_id,
        stg_tables.doc_id,
        stg_tables.source_hash,
        extractions.extracted_at,
        stg_tables.table_id,
        stg_tables.page_number,
        coalesce(stg_tables.header, []) as header,
        coalesce(stg_tables.cells, []) as cells
    from {{ ref('stg_tables') }} as stg_tables
    join {{ source('staging', 'extractions') }} as extractions using (source_hash)
    {% if is_incremental() %}
    -- only documents with no rows from their current version
    anti join {{ this }} as done on done.doc_id = stg_tables.doc_id
    {% endif %}
),

table_columns as (
    select
        tables.doc_table_id,
        cols.col_index,
        tables.header[cols.col_index] as header_text
    from tables
    cross join generate_series(
        1,
        greatest(len(tables.header), coalesce(list_max(list_transform(tables.cells, r -> len(r))), 0))
    ) as cols(col_index)
),

column_bases as (
    select
        doc_table_id,
        col_index,
        coalesce(
            nullif(trim(regexp_replace(lower(coalesce(header_text, '')), '[^a-z0-9]+', '_', 'g'), '_'), ''),
            'column_' || col_index
        ) as base_name
    from table_columns
),

column_names as (
    select
        doc_table_id,
        col_index,
        case
            when row_number() over (partition by doc_table_id, base_name order by col_index) = 1 then base_name
            else base_name || '_' || row_number() over (partition by doc_table_id, base_name order by col_index)
        end as column_name
    from column_bases
),

table_rows as (
    select
        tables.doc_table_id,
        tables.doc_id,
        tables.source_hash,
        tables.table_id,
        tables.page_number,
        tables.extracted_at,
        rows.row_number,
        tables.cells[rows.row_number] as row_cells
    from tables
    cross join generate_series(1, len(tables.cells)) as rows(row_number)
),

cells as (
    select
        table_rows.doc_table_id,
        table_rows.row_number,
        column_names.col_index,
        column_names.column_name,
        nullif(trim(table_rows.row_cells[column_names.col_index]), '') as raw_text
    from table_rows
    join column_names on column_names.doc_table_id = table_rows.doc_table_id
),

cells_cleaned as (
    select
        *,
        case
            when lower(raw_text) in ('-', '–', '—', ':', '..', '...', 'n.a.', 'n/a', 'na') then null
            else raw_text
        end as value_text
    from cells
),

-- number candidates: no spaces, (x) -> -x, no trailing %, unicode minus
numbers_stripped as (
    select
        *,
        regexp_replace(
            regexp_replace(
                regexp_replace(replace(replace(value_text, '−', '-'), '–', '-'), '[\s\x{00A0}\x{202F}'']', '', 'g'),
                '^\((.*)\)$', '-\1'
            ),
            '%$', ''
        ) as num_text
    from cells_cleaned
),

numbers_parsed as (
    select
        *,
        case
            when num_text is null then null
            -- 1,234,567 or 1.234.567 (two or more groups): thousands only
            when regexp_full_match(num_text, '-?\d{1,3}(,\d{3})+') then try_cast(replace(num_text, ',', '') as double)
            when regexp_full_match(num_text, '-?\d{1,3}(\.\d{3}){2,}') then try_cast(replace(num_text, '.', '') as double)
            -- 1.234,5 (comma last): dots group, comma is decimal
            when regexp_full_match(num_text, '-?\d{1,3}(\.\d{3})+,\d+') then try_cast(replace(replace(num_text, '.', ''), ',', '.') as double)
            -- 1,234.5 (dot last): commas group
            when regexp_full_match(num_text, '-?\d{1,3}(,\d{3})+\.\d+') then try_cast(replace(num_text, ',', '') as double)
            -- 12,5: decimal comma
            when regexp_full_match(num_text, '-?\d+,\d+') then try_cast(replace(num_text, ',', '.') as double)
            when regexp_full_match(num_text, '-?(\d+\.?\d*|\.\d+)') then try_cast(num_text as double)
        end as num_value
    from numbers_stripped
),

numeric_columns as (
    select
        doc_table_id,
        col_index,
        count(value_text) > 0 and count(value_text) = count(num_value) as is_numeric
    from numbers_parsed
    group by doc_table_id, col_index
),

typed_cells as (
    select
        numbers_parsed.doc_table_id,
        numbers_parsed.row_number,
        numbers_parsed.col_index,
        numbers_parsed.column_name,
        case
            when numbers_parsed.value_text is null then 'null'::json
            when numeric_columns.is_numeric and numbers_parsed.num_value = trunc(numbers_parsed.num_value)
                and abs(numbers_parsed.num_value) < 1e15
                then to_json(numbers_parsed.num_value::bigint)
            when numeric_columns.is_numeric then to_json(numbers_parsed.num_value)
            else to_json(numbers_parsed.value_text)
        end as value_json
    from numbers_parsed
    join numeric_columns
        on numeric_columns.doc_table_id = numbers_parsed.doc_table_id
        and numeric_columns.col_index = numbers_parsed.col_index
),

row_objects as (
    select
        doc_table_id,
        row_number,
        ('{' || string_agg(to_json(column_name)::varchar || ':' || value_json::varchar, ',' order by col_index) || '}')::json as row_json
    from typed_cells
    group by doc_table_id, row_number
),

final as (
    select
        table_rows.doc_id || ':' || table_rows.table_id || ':' || table_rows.row_number as row_id,
        table_rows.doc_id,
        table_rows.source_hash,
        table_rows.page_number,
        table_rows.table_id,
        table_rows.row_number,
        coalesce(row_objects.row_json, '{}'::json) as row_json,
        table_rows.extracted_at
    from table_rows
    left join row_objects
        on row_objects.doc_table_id = table_rows.doc_table_id
        and row_objects.row_number = table_rows.row_number
)

select * from final
