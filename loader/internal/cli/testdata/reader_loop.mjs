// A notebook that never lets go: opens the published warehouse copy
// read-only and queries it in a loop until the stop file appears.
//   mode "hold":      one connection for the whole run (it must keep seeing
//                     the state it opened);
//   mode "reconnect": a new connection every few queries (it must see each
//                     new published state, and only completed ones).
// Prints one JSON line per query: {"state": [counts...]} or {"error": "..."}.
import { DuckDBInstance } from '@duckdb/node-api';
import { existsSync } from 'node:fs';

const [path, mode, stopFile] = process.argv.slice(2);
const counts = `select
  (select count(*) from raw.documents)::integer,
  (select count(*) from raw.document_versions)::integer,
  (select count(*) from ops.load_runs)::integer,
  (select count(*) from curated.doc_chunks)::integer,
  (select count(*) from curated.documents)::integer,
  (select count(*) from retrieval.search_chunks)::integer,
  (select count(*) from embeddings.chunk_vectors)::integer,
  (select count(*) from retrieval.bm25('licence renewal', k := 3))::integer`;

let instance = null, con = null, n = 0;
const open = async () => {
  instance = await DuckDBInstance.create(path, { access_mode: 'READ_ONLY' });
  con = await instance.connect();
};
const close = () => { con.closeSync(); instance.closeSync(); };
await open();
console.log(JSON.stringify({ ready: true }));
while (!existsSync(stopFile)) {
  try {
    const r = await con.runAndReadAll(counts);
    console.log(JSON.stringify({ state: r.getRows()[0] }));
  } catch (e) {
    console.log(JSON.stringify({ error: e.message.split('\n')[0] }));
  }
  n++;
  if (mode === 'reconnect' && n % 3 === 0) {
    close();
    try { await open(); } catch (e) { console.log(JSON.stringify({ error: 'reopen: ' + e.message.split('\n')[0] })); await new Promise((r) => setTimeout(r, 50)); await open(); }
  }
  await new Promise((r) => setTimeout(r, 20));
}
close();
console.log(JSON.stringify({ queries: n }));
