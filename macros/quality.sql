{# The quality verdicts whose documents' chunks are left out of
   curated.unique_chunks (and so of embeddings and retrieval), as a SQL
   list of string literals; never empty. #}
{% macro excluded_verdicts() -%}
{%- for v in var('quality_excluded_verdicts', ['too_repetitive', 'excessive_whitespace']) %}'{{ v }}', {% endfor %}'__none__'
{%- endmacro %}

{# Estimated Jaccard similarity of two MinHash signatures in plain SQL: the
   share of positions where they agree over their common length, 0 when
   empty. The same figure as the Go UDF jaccard_estimate (textproc), but
   computed by DuckDB's vectorized list functions instead of one Go call
   per pair. #}
{% macro jaccard(a, b) -%}
coalesce(len(list_filter(list_zip({{ a }}, {{ b }}), pair -> pair[1] = pair[2]))::double
    / nullif(least(len({{ a }}), len({{ b }})), 0), 0.0)
{%- endmacro %}

{# A text's 64-bit key: the first 16 hex digits of its sha256 text_hash as
   an integer, what curated.chunk_dup_index's stored windows hold (eight
   bytes a member instead of 64 characters). #}
{% macro text_key(text_hash) -%}
('0x' || left({{ text_hash }}, 16))::ubigint
{%- endmacro %}
