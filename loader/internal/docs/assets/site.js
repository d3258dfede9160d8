// docket docs: small vanilla script, no dependencies; works from file://.
(function () {
  "use strict";
  function $(sel, root) { return (root || document).querySelector(sel); }
  function $$(sel, root) { return Array.prototype.slice.call((root || document).querySelectorAll(sel)); }

  // Lineage: drag to pan, wheel or buttons to zoom; hover a node to light its edges.
  function lineage() {
    var wrap = $(".lineage-wrap"); if (!wrap) return;
    var svg = $("svg", wrap), vp = $(".viewport", svg);
    var s = Math.min(1, wrap.clientWidth / svg.viewBox.baseVal.width), x = 0, y = 0;
    function apply() { vp.setAttribute("transform", "translate(" + x + "," + y + ") scale(" + s + ")"); }
    function zoom(f, cx, cy) {
      var ns = Math.max(0.1, Math.min(4, s * f));
      x = cx - (cx - x) * ns / s; y = cy - (cy - y) * ns / s; s = ns; apply();
    }
    svg.setAttribute("width", wrap.clientWidth); svg.setAttribute("height", wrap.clientHeight);
    svg.removeAttribute("viewBox");
    apply();
    wrap.addEventListener("wheel", function (e) {
      e.preventDefault(); var r = wrap.getBoundingClientRect();
      zoom(e.deltaY < 0 ? 1.15 : 1 / 1.15, e.clientX - r.left, e.clientY - r.top);
    }, { passive: false });
    var drag = null, moved = false;
    wrap.addEventListener("mousedown", function (e) { drag = { x: e.clientX - x, y: e.clientY - y }; moved = false; wrap.style.cursor = "grabbing"; });
    window.addEventListener("mousemove", function (e) { if (!drag) return; moved = true; x = e.clientX - drag.x; y = e.clientY - drag.y; apply(); });
    window.addEventListener("mouseup", function () { drag = null; wrap.style.cursor = ""; });
    wrap.addEventListener("click", function (e) { if (moved) { e.preventDefault(); moved = false; } }, true);
    $$(".zoom-ctl button").forEach(function (b) {
      b.addEventListener("click", function () {
        var f = b.dataset.zoom;
        if (f === "reset") { s = Math.min(1, wrap.clientWidth / svg.getBBox().width); x = 0; y = 0; apply(); }
        else zoom(parseFloat(f), wrap.clientWidth / 2, wrap.clientHeight / 2);
      });
    });
    $$("a.node", svg).forEach(function (n) {
      var id = n.dataset.id;
      n.addEventListener("mouseenter", function () { $$(".edge", svg).forEach(function (e) { if (e.dataset.from === id || e.dataset.to === id) e.classList.add("hi"); }); });
      n.addEventListener("mouseleave", function () { $$(".edge.hi", svg).forEach(function (e) { e.classList.remove("hi"); }); });
    });
  }

  // Document list: client-side filters.
  function docFilters() {
    var table = $("#doc-table"); if (!table) return;
    var sels = $$(".filters select"), text = $(".filters input[type=search]"), count = $("#doc-count");
    function run() {
      var q = (text && text.value || "").toLowerCase(), n = 0;
      $$("tbody tr", table).forEach(function (tr) {
        var ok = sels.every(function (s) { return !s.value || tr.dataset[s.name] === s.value; });
        if (ok && q) ok = tr.dataset.path.toLowerCase().indexOf(q) >= 0;
        tr.classList.toggle("hidden", !ok); if (ok) n++;
      });
      if (count) count.textContent = n;
    }
    sels.forEach(function (s) { s.addEventListener("change", run); });
    if (text) text.addEventListener("input", run);
    run();
  }

  // Document page: toggles, chunk highlighting, and #hl=PAGE:START:END from search.
  function docPage() {
    $$(".ctl input[data-toggle]").forEach(function (cb) {
      cb.addEventListener("change", function () {
        $$(".page-view").forEach(function (v) { v.classList.toggle(cb.dataset.toggle, !cb.checked); });
      });
    });
    function mark(page, start, end, cls, scroll) {
      $$(".seg." + cls).forEach(function (s) { s.classList.remove(cls); });
      var pre = $('.page-text[data-page="' + page + '"]'); if (!pre) return;
      var first = null;
      $$(".seg", pre).forEach(function (s) {
        var a = +s.dataset.s, b = +s.dataset.e;
        if (a < end && b > start) { s.classList.add(cls); if (!first) first = s; }
      });
      if (first && scroll) first.scrollIntoView({ block: "center" });
    }
    $$(".chunks tr[data-page]").forEach(function (tr) {
      tr.addEventListener("click", function () {
        $$(".chunks tr.on").forEach(function (t) { t.classList.remove("on"); });
        tr.classList.add("on");
        mark(tr.dataset.page, +tr.dataset.s, +tr.dataset.e, "on", true);
      });
    });
    var m = /hl=(\d+):(\d+):(\d+)/.exec(location.hash);
    if (m) mark(m[1], +m[2], +m[3], "hl", true);
  }

  // Live search (only under `docket docs serve`).
  function liveSearch() {
    var form = $("#search-form"); if (!form) return;
    var out = $("#search-results"), note = $("#search-note");
    if (location.protocol !== "http:" && location.protocol !== "https:") {
      note.textContent = "Live search needs the server: run `docket docs serve` and open this page from it.";
      form.querySelector("button").disabled = true; return;
    }
    function go(q) {
      out.textContent = "searching…";
      fetch("/api/search?k=10&q=" + encodeURIComponent(q)).then(function (r) { return r.json(); }).then(function (res) {
        out.textContent = "";
        if (res.error) { out.textContent = res.error; return; }
        if (!res.hits || !res.hits.length) { out.textContent = "no results"; return; }
        res.hits.forEach(function (h) {
          var d = document.createElement("div"); d.className = "hit";
          var a = document.createElement("a"); a.href = h.href; a.textContent = h.path + " · page " + h.page + " · chars " + h.char_offset + "–" + h.char_end;
          var sc = document.createElement("span"); sc.className = "muted"; sc.textContent = "  " + h.score.toFixed(4);
          var p = document.createElement("div"); p.className = "snip"; p.textContent = h.text.length > 300 ? h.text.slice(0, 300) + "…" : h.text;
          d.appendChild(a); d.appendChild(sc); d.appendChild(p); out.appendChild(d);
        });
      }).catch(function (e) { out.textContent = "search failed: " + e; });
    }
    form.addEventListener("submit", function (e) { e.preventDefault(); var q = form.q.value.trim(); if (q) { history.replaceState(null, "", "?q=" + encodeURIComponent(q)); go(q); } });
    var q0 = new URLSearchParams(location.search).get("q"); if (q0) { form.q.value = q0; go(q0); }
  }

  document.addEventListener("DOMContentLoaded", function () { lineage(); docFilters(); docPage(); liveSearch(); });
})();
