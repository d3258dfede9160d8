// A notebook that opens a DuckDB file and keeps it open until killed:
// mode "ro" read-only, "rw" read-write (DuckDB's default).
import { DuckDBInstance } from '@duckdb/node-api';

const [path, mode] = process.argv.slice(2);
const instance = await DuckDBInstance.create(path, mode === 'ro' ? { access_mode: 'READ_ONLY' } : {});
const con = await instance.connect();
await con.runAndReadAll('select count(*) from raw.documents');
console.log('holding');
setInterval(() => {}, 1000);
