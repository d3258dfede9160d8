{#- dbt-core's series and comparison macros (package "dbt"): equals,
    get_powers_of_two, generate_series, get_intervals_between, date_spine. -#}
{% macro equals(expr1, expr2) -%}
{%- if adapter.behavior.enable_truthy_nulls_equals_macro.no_warn -%}
case when (({{ expr1 }} = {{ expr2 }}) or ({{ expr1 }} is null and {{ expr2 }} is null)) then 0 else 1 end = 0
{%- else -%}
({{ expr1 }} = {{ expr2 }})
{%- endif -%}
{%- endmacro %}
{% macro get_powers_of_two(upper_bound) -%}
{%- if upper_bound <= 0 -%}{{ exceptions.raise_compiler_error("upper bound must be positive") }}{%- endif -%}
{%- for n in range(1, 100) -%}{%- if upper_bound <= 2 ** n -%}{{ return(n) }}{%- endif -%}{%- endfor -%}
{%- endmacro %}
{% macro generate_series(upper_bound) -%}
select generated_number from generate_series(1, {{ upper_bound }}) as series(generated_number)
{%- endmacro %}
{% macro get_intervals_between(start_date, end_date, datepart) -%}
{%- call statement('get_intervals_between', fetch_result=True) %}select {{ dbt.datediff(start_date, end_date, datepart) }}{%- endcall -%}
{%- set value_list = load_result('get_intervals_between') -%}
{%- if value_list and value_list['data'] -%}{{ return(value_list['data'][0][0]) }}{%- else -%}{{ return(1) }}{%- endif -%}
{%- endmacro %}
{% macro date_spine(datepart, start_date, end_date) -%}
with rawdata as (
    {{ dbt.generate_series(dbt.get_intervals_between(start_date, end_date, datepart)) }}
),
all_periods as (
    select ({{ dbt.dateadd(datepart, "row_number() over (order by generated_number) - 1", start_date) }}) as date_{{ datepart }}
    from rawdata
),
filtered as (
    select * from all_periods where date_{{ datepart }} <= {{ end_date }}
)
select * from filtered
{%- endmacro %}
