// Runs each query (argv[3..]) on a DuckDB file opened read-only and prints
// {version, rows: [count per query], errors: [...]}.
import { DuckDBInstance } from '@duckdb/node-api';

const [path, ...queries] = process.argv.slice(2);
const instance = await DuckDBInstance.create(path, { access_mode: 'READ_ONLY' });
const con = await instance.connect();
const out = { version: (await con.runAndReadAll('select version()')).getRows()[0][0], rows: [], errors: [] };
for (const q of queries) {
  try {
    out.rows.push((await con.runAndReadAll(q)).getRows().length);
  } catch (e) {
    out.errors.push(q + ': ' + e.message.split('\n')[0]);
  }
}
console.log(JSON.stringify(out));
