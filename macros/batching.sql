{# Full builds in batches (curated.doc_chunks, curated.chunk_signatures,
   curated.chunk_dup_index, embeddings.chunk_vectors, retrieval.chunk_terms):
   the model's statement writes batch 0 and its post-hook the others, one
   insert statement each, so that a statement holds one batch's rows, not
   the corpus's. A model's rows macro takes (this_rel, incremental, batch)
   and picks the rows of batch `batch` (none: every row) out of the number
   of batches batch_count() gives. #}

{# The number of batches of a full build, as a scalar query: the rows of
   relation (a table, or a query in parentheses) over the var var_name
   (default when the project does not set it), at least 1. #}
{% macro batch_count(relation, var_name, default=100000) -%}
select greatest(1, ceil(count(*) / {{ var(var_name, default) }}))::ubigint from {{ relation }}
{%- endmacro %}

{# The batches after the first (a model's post-hook): inserts into this_rel
   the rows macro's rows(this_rel, false, b) for b = 1 .. n - 1, n being
   what the scalar query batches (batch_count) returns. Renders to nothing:
   the inserts run here, one statement each. #}
{% macro batch_inserts(this_rel, rows, batches) -%}
{%- set n = run_query(batches).columns[0].values()[0] -%}
{%- for b in range(1, n | int) -%}
{%- do run_query("insert into " ~ this_rel ~ " " ~ rows(this_rel, false, b)) -%}
{%- endfor -%}
{%- endmacro %}
