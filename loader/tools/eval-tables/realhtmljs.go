package main

// realScript runs in a real page (its own scripts removed) laid out by
// Chromium at the printed page's width, and turns it into the document
// that is printed: one page (div.dk-page, realPageW x realPageH CSS
// pixels) per candidate table (not nested, rendered, two rows with two
// cells of text or a th; at most realMaxTables a page; dataTable in Go has
// the last word), each holding the table with the chain of elements it
// sat in (shallow copies keeping their classes and ids, so the page's own
// CSS still applies, with their widths, floats and positions undone) and
// up to two text blocks before it and one after it at its own level and
// its parent's. The page's style sheets are flattened into one: media
// rules kept when they match here (screen, this width), dropped
// otherwise, so that the print lays out what was measured. A table too
// wide for the page is zoomed to fit (a printout shrinks it too); a table
// too long loses its last rows until the page holds it. The script then
// records, in the hidden pre#dk-truth, every page's table (rows of cells
// with text, spans, th, rendered or not; its box; role; zoom) and whether
// the page still overflows, and removes every script.
const realScript = `<script>
(()=>{
const W=%d,H=%d,PAD=%d,MAXT=%d;
const txt=e=>(e.innerText||'').replace(/\s+/g,' ').trim();
const shown=e=>{const r=e.getBoundingClientRect();const s=getComputedStyle(e);return r.width>0&&r.height>0&&s.visibility!=='hidden'};
const cands=[];
for(const t of document.querySelectorAll('table')){
  if(cands.length>=MAXT)break;
  if((t.parentElement&&t.parentElement.closest('table'))||t.querySelector('table')||!shown(t))continue;
  let full=0;for(const r of t.rows){let n=0;for(const c of r.cells)if(txt(c))n++;if(n>=2)full++}
  if(full<2&&!t.querySelector('th'))continue;
  cands.push(t);
}
const css=[];
const flat=rules=>{for(const r of rules){
  if(r instanceof CSSMediaRule){if(matchMedia(r.media.mediaText).matches)flat(r.cssRules)}
  else if(r instanceof CSSImportRule){try{if(r.styleSheet&&(!r.media.mediaText||matchMedia(r.media.mediaText).matches))flat(r.styleSheet.cssRules)}catch(e){}}
  else if(r instanceof CSSPageRule){}
  else css.push(r.cssText)}};
for(const s of document.styleSheets){try{if(s.disabled||(s.media.mediaText&&!matchMedia(s.media.mediaText).matches))continue;flat(s.cssRules)}catch(e){}}
const text=e=>{const s=getComputedStyle(e);if(s.position==='absolute'||s.position==='fixed'||s.float!=='none'||!shown(e)||e.querySelector('table,iframe'))return false;const n=txt(e).length;return n>0&&n<=1200};
const around=(el,keep)=>{const before=[],after=[];
  for(let s=el.previousElementSibling;s&&before.length<2;s=s.previousElementSibling){if(text(s))before.unshift(s.cloneNode(true));else if(s.tagName==='TABLE')break}
  for(let s=el.nextElementSibling;s&&after.length<1;s=s.nextElementSibling){if(text(s))after.push(s.cloneNode(true));else if(s.tagName==='TABLE')break}
  return [before,after]};
const undo='position:static!important;float:none!important;width:auto!important;min-width:0!important;max-width:none!important;height:auto!important;min-height:0!important;max-height:none!important;margin-left:0!important;margin-right:0!important;overflow:visible!important;transform:none!important;columns:auto!important;display:block!important';
const pages=cands.map((t,k)=>{
  let node=t.cloneNode(true);node.setAttribute('data-dk',k);
  let cur=t,level=0;
  while(cur.parentElement&&cur.parentElement!==document.body&&cur.parentElement!==document.documentElement){
    const p=cur.parentElement,pc=p.cloneNode(false);pc.style.cssText+=';'+undo;
    if(pc.tagName==='DETAILS')pc.open=true;
    const [b,a]=level<2?around(cur):[[],[]];
    pc.append(...b,node,...a);node=pc;cur=p;level++;
  }
  const pg=document.createElement('div');pg.className='dk-page';
  if(level<2){const [b,a]=around(cur);pg.append(...b,node,...a)}else pg.append(node);
  return pg});
for(const s of document.querySelectorAll('style,link[rel~=stylesheet]'))s.remove();
const st=document.createElement('style');st.id='dk-css';
st.textContent=css.join('\n')+'\n@page{size:'+W+'px '+H+'px;margin:0}\n'+
 'html,html body{margin:0!important;padding:0!important;width:auto!important;min-width:0!important;max-width:none!important;height:auto!important;display:block!important;overflow:visible!important;transform:none!important}\n'+
 'html body div.dk-page{width:'+W+'px!important;height:'+H+'px!important;max-width:none!important;overflow:hidden!important;box-sizing:border-box!important;padding:'+PAD+'px!important;margin:0!important;break-after:page!important;position:relative!important;display:block!important;float:none!important;columns:auto!important;transform:none!important;zoom:1!important}';
document.head.appendChild(st);
document.body.replaceChildren(...pages);
const out={mode:document.compatMode,pages:[]};
pages.forEach((pg,k)=>{
  const t=pg.querySelector('table[data-dk]'),root=pg.firstElementChild;let z=1;
  for(let i=0;i<3&&pg.scrollWidth>pg.clientWidth+1;i++){z*=(W-2*PAD)/(pg.scrollWidth-PAD);root.style.zoom=z}
  while(pg.scrollHeight>pg.clientHeight+1&&t.rows.length>2)t.rows[t.rows.length-1].remove();
  const pr=pg.getBoundingClientRect(),r=t.getBoundingClientRect();
  const rows=[];let g=-1,prev=null;
  for(const tr of t.rows){if(tr.parentElement!==prev){g++;prev=tr.parentElement}
    rows.push({g:g,c:[...tr.cells].map(c=>({t:txt(c),rs:c.rowSpan,cs:c.colSpan,th:c.tagName==='TH',hid:c.getClientRects().length===0}))})}
  out.pages.push({over:pg.scrollHeight>pg.clientHeight+1||pg.scrollWidth>pg.clientWidth+1,zoom:z,
    table:{rows:rows,hid:!shown(t),role:t.getAttribute('role')||'',form:!!t.querySelector('input:not([type=hidden]),select,textarea,button'),box:[r.left-pr.left,r.top-pr.top,r.right-pr.left,r.bottom-pr.top]}});
});
for(const s of document.querySelectorAll('script'))s.remove();
const pre=document.createElement('pre');pre.id='dk-truth';pre.style.display='none';pre.textContent=JSON.stringify(out);document.body.appendChild(pre);
})();
</script>`
