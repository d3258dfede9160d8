// A different DuckDB client (Node's @duckdb/node-api) opens the warehouse
// read-only, reads every table and view of docket's schemas and calls the
// BM25 macro. Prints JSON: {tables: {name: rows}, bm25: [chunk_id...]}.
import { DuckDBInstance } from '@duckdb/node-api';

const [path, query] = process.argv.slice(2);
const instance = await DuckDBInstance.create(path, { access_mode: 'READ_ONLY' });
const con = await instance.connect();
const rel = await con.runAndReadAll(`select table_schema, table_name from information_schema.tables
  where table_schema in ('raw','staging','ops','seeds','curated','embeddings','retrieval') order by all`);
const tables = {};
for (const [schema, name] of rel.getRows()) {
  const r = await con.runAndReadAll(`select count(*)::integer from "${schema}"."${name}"`);
  tables[`${schema}.${name}`] = r.getRows()[0][0];
}
const hits = await con.runAndReadAll(`select chunk_id from retrieval.bm25($1, 5)`, [query]);
console.log(JSON.stringify({ tables, bm25: hits.getRows().map((r) => r[0]), version: (await con.runAndReadAll('select version()')).getRows()[0][0] }));
