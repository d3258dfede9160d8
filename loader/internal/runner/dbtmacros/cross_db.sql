{#- docket's dbt.* macros: dbt-core's cross-database macros written as the
    DuckDB SQL dbt-duckdb produces. Package "dbt"; callable as dbt.x() and,
    as in dbt, unqualified when no project or package macro has the name. -#}
{% macro date_trunc(datepart, date) -%}date_trunc('{{ datepart }}', {{ date }}){%- endmacro %}
{#- dateadd and datediff give what dbt-duckdb's duckdb__dateadd / duckdb__datediff give:
    an interval of one datepart times the amount; boundaries crossed, with weeks starting on
    Sunday (DuckDB's own date_diff('week') counts whole 7-day spans instead).
    A quoted literal ('2018-01-01') is read as a timestamp first, as Postgres, Snowflake and Redshift
    read it (DuckDB has no + for a string literal and an interval; dbt-utils' date_spine passes one). -#}
{% macro dateadd(datepart, interval, from_date_or_timestamp) -%}
{%- set d = from_date_or_timestamp | string | trim -%}
{%- if d[:1] == "'" and d[-1:] == "'" -%}cast({{ d }} as timestamp){%- else -%}{{ from_date_or_timestamp }}{%- endif %} + ((interval '1 {{ datepart }}') * ({{ interval }})){%- endmacro %}
{% macro datediff(first_date, second_date, datepart) -%}
{%- if datepart | lower == 'week' -%}
(date_diff('day', ({{ first_date }})::date, ({{ second_date }})::date) // 7 + case
  when dayofweek(({{ first_date }})::timestamp) <= dayofweek(({{ second_date }})::timestamp) then case when {{ first_date }} <= {{ second_date }} then 0 else -1 end
  else case when {{ first_date }} <= {{ second_date }} then 1 else 0 end end)
{%- elif datepart | lower in ['year', 'quarter', 'month', 'day'] -%}
date_diff('{{ datepart }}', ({{ first_date }})::date, ({{ second_date }})::date)
{%- else -%}
date_diff('{{ datepart }}', ({{ first_date }})::timestamp, ({{ second_date }})::timestamp)
{%- endif -%}
{%- endmacro %}
{% macro last_day(date, datepart) -%}cast(date_trunc('{{ datepart }}', {{ date }}) + interval 1 {{ datepart }} - interval 1 day as date){%- endmacro %}
{% macro type_string() -%}VARCHAR{%- endmacro %}
{% macro type_timestamp() -%}TIMESTAMP{%- endmacro %}
{#- type_float is DOUBLE, the 8-byte float it is on Postgres, Snowflake, BigQuery and Redshift;
    dbt-duckdb gives FLOAT, which DuckDB reads as the 4-byte REAL (a deviation, in the README). -#}
{% macro type_float() -%}DOUBLE{%- endmacro %}
{% macro type_numeric() -%}NUMERIC(28,6){%- endmacro %}
{% macro type_bigint() -%}BIGINT{%- endmacro %}
{% macro type_int() -%}INTEGER{%- endmacro %}
{% macro type_boolean() -%}BOOLEAN{%- endmacro %}
{% macro safe_cast(field, type) -%}try_cast({{ field }} as {{ type }}){%- endmacro %}
{% macro cast(field, type) -%}cast({{ field }} as {{ type }}){%- endmacro %}
{% macro concat(fields) -%}{{ fields | join(' || ') }}{%- endmacro %}
{% macro hash(field) -%}md5(cast({{ field }} as VARCHAR)){%- endmacro %}
{% macro split_part(string_text, delimiter_text, part_number) -%}
{#- a part past the end is '' (dbt-duckdb's duckdb__split_part), not null -#}
{%- if part_number >= 0 -%}coalesce(string_split({{ string_text }}, {{ delimiter_text }})[{{ part_number }}], '')
{%- else -%}coalesce(string_split({{ string_text }}, {{ delimiter_text }})[len(string_split({{ string_text }}, {{ delimiter_text }})) + 1 + {{ part_number }}], '')
{%- endif -%}
{%- endmacro %}
{% macro listagg(measure, delimiter_text="','", order_by_clause=none, limit_num=none) -%}
{%- if limit_num -%}array_to_string(list_slice(array_agg({{ measure }}{% if order_by_clause %} {{ order_by_clause }}{% endif %}), 1, {{ limit_num }}), {{ delimiter_text }})
{%- else -%}string_agg({{ measure }}, {{ delimiter_text }}{% if order_by_clause %} {{ order_by_clause }}{% endif %})
{%- endif -%}
{%- endmacro %}
{% macro current_timestamp() -%}now(){%- endmacro %}
{% macro current_timestamp_backcompat() -%}current_timestamp::timestamp{%- endmacro %}
{% macro current_timestamp_in_utc_backcompat() -%}current_timestamp::timestamp{%- endmacro %}
{% macro snapshot_get_time() -%}now(){%- endmacro %}
{% macro any_value(expression) -%}any_value({{ expression }}){%- endmacro %}
{% macro bool_or(expression) -%}bool_or({{ expression }}){%- endmacro %}
{% macro cast_bool_to_text(field) -%}cast({{ field }} as VARCHAR){%- endmacro %}
{% macro escape_single_quotes(expression) -%}{{ expression | replace("'", "''") }}{%- endmacro %}
{% macro except() -%}except{%- endmacro %}
{% macro intersect() -%}intersect{%- endmacro %}
{% macro length(expression) -%}length({{ expression }}){%- endmacro %}
{% macro position(substring_text, string_text) -%}position({{ substring_text }} in {{ string_text }}){%- endmacro %}
{% macro replace(field, old_chars, new_chars) -%}replace({{ field }}, {{ old_chars }}, {{ new_chars }}){%- endmacro %}
{% macro right(string_text, length_expression) -%}right({{ string_text }}, {{ length_expression }}){%- endmacro %}
{% macro string_literal(value) -%}'{{ docket_dbt_name(value) }}'{%- endmacro %}
{% macro array_construct(inputs=[], data_type=none) -%}{% if inputs %}[{{ inputs | join(', ') }}]{% else %}[]::{{ data_type or 'VARCHAR' }}[]{% endif %}{%- endmacro %}
{% macro array_append(array, new_element) -%}list_append({{ array }}, {{ new_element }}){%- endmacro %}
{% macro array_concat(array_1, array_2) -%}list_concat({{ array_1 }}, {{ array_2 }}){%- endmacro %}
{% macro date(year, month, day) -%}make_date({{ year }}, {{ month }}, {{ day }}){%- endmacro %}
{% macro should_store_failures() -%}{{ return(false) }}{%- endmacro %}
{% macro should_full_refresh() -%}{{ return(false) }}{%- endmacro %}
