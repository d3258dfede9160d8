{#- What dbt's materializations call besides statement() and adapter
    (a custom {% materialization %} block runs with these, package "dbt"). -#}
{% macro load_cached_relation(relation) -%}{{ return(adapter.get_relation(database=relation.database, schema=relation.schema, identifier=relation.identifier)) }}{%- endmacro %}
{% macro load_relation(relation) -%}{{ return(load_cached_relation(relation)) }}{%- endmacro %}
{% macro make_temp_relation(base_relation, suffix='__dbt_tmp') -%}{{ return(base_relation.incorporate(path={"identifier": base_relation.identifier ~ suffix})) }}{%- endmacro %}
{% macro make_intermediate_relation(base_relation, suffix='__dbt_tmp') -%}{{ return(make_temp_relation(base_relation, suffix)) }}{%- endmacro %}
{% macro make_backup_relation(base_relation, backup_relation_type, suffix='__dbt_backup') -%}{{ return(base_relation.incorporate(path={"identifier": base_relation.identifier ~ suffix}, type=backup_relation_type)) }}{%- endmacro %}
{#- docket applies persist_docs to the model's relation after its build; grants and indexes do not exist in DuckDB -#}
{% macro persist_docs(relation, model, for_relation=true, for_columns=true) -%}{%- endmacro %}
{% macro should_revoke(existing_relation, full_refresh_mode=true) -%}{{ return(false) }}{%- endmacro %}
{% macro apply_grants(relation, grant_config, should_revoke=false) -%}{%- endmacro %}
{% macro create_indexes(relation) -%}{%- endmacro %}
{% macro drop_indexes_on_relation(relation) -%}{%- endmacro %}
{#- hooks as dbt-core's global project writes them: JSON a pre_hook/post_hook reads as {"sql", "transaction"} -#}
{% macro make_hook_config(sql, inside_transaction) -%}{{ tojson({"sql": sql, "transaction": inside_transaction}) }}{%- endmacro %}
{% macro before_begin(sql) -%}{{ make_hook_config(sql, inside_transaction=False) }}{%- endmacro %}
{% macro in_transaction(sql) -%}{{ make_hook_config(sql, inside_transaction=True) }}{%- endmacro %}
{% macro after_commit(sql) -%}{{ make_hook_config(sql, inside_transaction=False) }}{%- endmacro %}
