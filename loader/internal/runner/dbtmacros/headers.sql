{#- dbt's set_sql_header: the caller's SQL becomes the node's sql_header config. -#}
{% macro set_sql_header(config) -%}{{ config.set('sql_header', caller()) }}{%- endmacro %}
