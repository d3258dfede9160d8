{#- dbt's relation macros a model or macro may call itself, as dbt-duckdb
    writes them (package "dbt"). -#}
{% macro create_view_as(relation, sql) -%}
create view {{ relation }} as (
{{ sql }}
);
{%- endmacro %}
{% macro get_create_view_as_sql(relation, sql) -%}{{ create_view_as(relation, sql) }}{%- endmacro %}
{% macro create_table_as(temporary, relation, compiled_code, language='sql') -%}
create {% if temporary %}temporary {% endif %}table {% if temporary %}{{ relation.identifier }}{% else %}{{ relation }}{% endif %} as (
{{ compiled_code }}
);
{%- endmacro %}
{% macro get_create_table_as_sql(temporary, relation, sql) -%}{{ create_table_as(temporary, relation, sql) }}{%- endmacro %}
{% macro drop_relation_if_exists(relation) -%}{% if relation is not none %}{{ adapter.drop_relation(relation) }}{% endif %}{%- endmacro %}
