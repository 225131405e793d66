// The attention explorer: draws DATA (written by attn_explore) as three
// views.  Plain JavaScript and SVG; every token string is set through
// textContent, never parsed as HTML.
"use strict";
(function () {
  const D = DATA;
  const COLOURS = ["#1f6fb4", "#d62728", "#2a9d2a", "#e8840c",
                   "#8e5cc2", "#8c564b", "#d0459c", "#139aa8"];
  const SVGNS = "http://www.w3.org/2000/svg";
  const byName = {};
  D.matrices.forEach(function (m) { byName[m.name] = m; });

  function el(tag, attrs, text) {
    const e = document.createElement(tag);
    for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function sv(tag, attrs, text) {
    const e = document.createElementNS(SVGNS, tag);
    for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function fmt(v) {
    if (v === null) return "-Inf";
    return Number.isInteger(v) ? String(v) : v.toFixed(2);
  }

  // The state a URL fragment can set: #view=heads&block=cross&layer=1&head=all&token=2
  const hash = {};
  location.hash.slice(1).split("&").forEach(function (kv) {
    const i = kv.indexOf("=");
    if (i > 0) hash[decodeURIComponent(kv.slice(0, i))] = decodeURIComponent(kv.slice(i + 1));
  });

  // ---- the attention blocks of the trace ---------------------------------
  const KINDS = {encoder: "encoder self-attention",
                 decoder: "decoder masked self-attention",
                 cross: "cross-attention"};
  const blocks = [];
  D.matrices.forEach(function (m) {
    const r = /^(encoder|decoder)\.(\d+)\.(self|cross)\.A$/.exec(m.name);
    if (!r) return;
    const key = r[3] === "cross" ? "cross" : r[1];
    blocks.push({key: key, layer: Number(r[2]), A: m, heads: m.pages.length,
                 masked: r[1] === "decoder" && r[3] === "self"});
  });
  const inventory = document.getElementById("inventory");
  blocks.forEach(function (b) {
    inventory.appendChild(el("li", {"data-block": b.key, "data-layer": b.layer,
                                    "data-heads": b.heads},
      KINDS[b.key] + ", layer " + b.layer + ": " + b.heads +
      (b.heads > 1 ? " heads" : " head")));
  });

  // ---- view switching ----------------------------------------------------
  const views = ["heads", "matrices", "decoding"];
  function show(view) {
    views.forEach(function (v) {
      const s = document.getElementById(v);
      const b = document.getElementById("tab-" + v);
      if (s) s.hidden = v !== view;
      if (b) b.className = v === view ? "on" : "";
    });
    document.body.setAttribute("data-view", view);
  }
  views.forEach(function (v) {
    const b = document.getElementById("tab-" + v);
    if (b) b.addEventListener("click", function () { show(v); });
  });

  // ---- head view ---------------------------------------------------------
  const state = {key: null, layer: 1, head: "all", token: null, pinned: false};
  const selBlock = document.getElementById("sel-block");
  const selLayer = document.getElementById("sel-layer");
  const selHead = document.getElementById("sel-head");
  const svg = document.getElementById("svg-heads");
  const reads = document.getElementById("reads");

  function current() {
    return blocks.find(function (b) { return b.key === state.key && b.layer === state.layer; });
  }
  function fillSelects() {
    selBlock.textContent = "";
    Object.keys(KINDS).forEach(function (k) {
      if (blocks.some(function (b) { return b.key === k; }))
        selBlock.appendChild(el("option", {value: k}, KINDS[k]));
    });
    selBlock.value = state.key;
    selLayer.textContent = "";
    blocks.filter(function (b) { return b.key === state.key; }).forEach(function (b) {
      selLayer.appendChild(el("option", {value: b.layer}, String(b.layer)));
    });
    selLayer.value = state.layer;
    selHead.textContent = "";
    const b = current();
    selHead.appendChild(el("option", {value: "all"}, "all heads"));
    for (let h = 1; h <= b.heads; h++)
      selHead.appendChild(el("option", {value: h}, "head " + h));
    if (state.head !== "all" && state.head > b.heads) state.head = "all";
    selHead.value = state.head;
  }

  function drawHeads() {
    const b = current();
    svg.textContent = "";
    const q = b.A.rows, k = b.A.cols;
    const step = 26, top = 34, xq = 200, xk = 460;
    const n = Math.max(q.length, k.length);
    svg.setAttribute("height", top + step * n + 10);
    svg.setAttribute("data-block", b.key);
    svg.setAttribute("data-layer", b.layer);
    svg.setAttribute("data-head", state.head);
    svg.setAttribute("data-token", state.token === null ? "" : state.token);
    svg.appendChild(sv("text", {x: xq, y: 16, "text-anchor": "end", "class": "colhead"},
                       b.key === "encoder" ? "query (source)" : "query (target: word written)"));
    svg.appendChild(sv("text", {x: xk, y: 16, "class": "colhead"},
                       b.key === "decoder" ? "key (target read: this position and earlier)" : "key (source)"));
    const heads = state.head === "all" ? b.A.pages.map(function (p, i) { return i + 1; })
                                       : [Number(state.head)];
    const lines = sv("g", {"class": "lines"});
    svg.appendChild(lines);
    heads.forEach(function (h, hi) {
      const off = heads.length > 1 ? (hi - (heads.length - 1) / 2) * 2.5 : 0;
      const A = b.A.pages[h - 1];
      for (let i = 0; i < q.length; i++) {
        if (state.token !== null && i + 1 !== state.token) continue;
        for (let j = 0; j < k.length; j++) {
          const w = A[i][j];
          if (w === null || w <= 0.005) continue;
          lines.appendChild(sv("line", {
            x1: xq + 8, y1: top + step * i + off, x2: xk - 8, y2: top + step * j + off,
            stroke: COLOURS[(h - 1) % COLOURS.length],
            "stroke-width": (0.5 + 9 * w).toFixed(2),
            "stroke-opacity": state.token === null ? (0.15 + 0.5 * w).toFixed(2) : "0.85",
            "class": "w", "data-i": i + 1, "data-j": j + 1, "data-h": h, "data-w": String(w)}));
        }
      }
    });
    q.forEach(function (t, i) {
      const on = state.token === i + 1;
      const g = sv("text", {x: xq, y: top + step * i + 5, "text-anchor": "end",
                            id: "q" + (i + 1), "class": on ? "tok q on" : "tok q",
                            "data-i": i + 1}, t);
      svg.appendChild(g);
    });
    k.forEach(function (t, j) {
      svg.appendChild(sv("text", {x: xk, y: top + step * j + 5, id: "k" + (j + 1),
                                  "class": "tok k"}, t));
    });
    // what the pointed token reads, in words
    reads.textContent = "";
    if (state.token === null) {
      reads.textContent = "Point at a token on the left: its lines go to the tokens it reads, " +
        "as thick as the weight." + (b.masked ? " Masked (future) keys get no line." : "");
    } else {
      heads.forEach(function (h) {
        const A = b.A.pages[h - 1][state.token - 1];
        const p = el("div", {"class": "readrow"});
        p.appendChild(el("span", {"class": "sw", style: "background:" + COLOURS[(h - 1) % COLOURS.length]}));
        p.appendChild(el("span", {}, "head " + h + ": " + q[state.token - 1] + " reads "));
        k.forEach(function (t, j) {
          const mask = b.A.mask && b.A.mask[h - 1][state.token - 1][j] === "1";
          p.appendChild(el("span", {"class": mask ? "pair masked" : "pair"},
                           t + " " + (mask ? "masked" : String(A[j]))));
        });
        reads.appendChild(p);
      });
    }
  }

  function setToken(i) {
    if (state.pinned || state.token === i) return;
    state.token = i;
    drawHeads();
  }
  svg.addEventListener("mouseover", function (ev) {
    const t = ev.target.closest ? ev.target.closest(".q") : null;
    if (t) setToken(Number(t.getAttribute("data-i")));
  });
  svg.addEventListener("mouseleave", function () { setToken(null); });
  // a click pins the token (a second click on it lets go)
  svg.addEventListener("click", function (ev) {
    const t = ev.target.closest ? ev.target.closest(".q") : null;
    if (!t) return;
    const i = Number(t.getAttribute("data-i"));
    state.pinned = !(state.pinned && state.token === i);
    state.token = state.pinned ? i : null;
    drawHeads();
  });
  selBlock.addEventListener("change", function () {
    state.key = selBlock.value;
    state.layer = blocks.find(function (b) { return b.key === state.key; }).layer;
    state.token = null; state.pinned = false;
    fillSelects(); drawHeads();
  });
  selLayer.addEventListener("change", function () {
    state.layer = Number(selLayer.value); fillSelects(); drawHeads();
  });
  selHead.addEventListener("change", function () {
    state.head = selHead.value === "all" ? "all" : Number(selHead.value); drawHeads();
  });

  // ---- tables (matrix view, head output) ----------------------------------
  function table(m, page, small) {
    const vals = m.pages[page];
    let big = 0;
    vals.forEach(function (r) { r.forEach(function (v) { if (v !== null) big = Math.max(big, Math.abs(v)); }); });
    const t = el("table", {"class": small ? "mat small" : "mat", "data-name": m.name,
                           "data-page": page + 1});
    if (m.pages.length > 1) t.appendChild(el("caption", {}, "head " + (page + 1)));
    if (m.groups > 1) {
      const g = el("tr");
      g.appendChild(el("th"));
      const w = m.cols.length / m.groups;
      for (let h = 1; h <= m.groups; h++)
        g.appendChild(el("th", {colspan: w, "class": "group"}, "head " + h));
      t.appendChild(g);
    }
    const hr = el("tr");
    hr.appendChild(el("th"));
    m.cols.forEach(function (c) { hr.appendChild(el("th", {"class": "col"}, c)); });
    t.appendChild(hr);
    vals.forEach(function (r, i) {
      const tr = el("tr");
      tr.appendChild(el("th", {"class": "row"}, m.rows[i]));
      r.forEach(function (v, j) {
        const masked = m.mask && m.mask[page][i][j] === "1";
        let td;
        if (masked) {
          td = el("td", {"class": "masked", "data-i": i + 1, "data-j": j + 1,
                         title: "masked: " + (v === null ? "-Inf" : String(v))},
                  v === null ? "-\u221e" : "\u00b7");
        } else {
          const a = big > 0 ? Math.abs(v) / big : 0;
          td = el("td", {"data-i": i + 1, "data-j": j + 1, "data-v": String(v), title: String(v),
                         style: "background:" + (v >= 0 ? "rgba(31,111,180," : "rgba(214,39,40,") +
                                (0.6 * a).toFixed(3) + ")"}, fmt(v));
        }
        tr.appendChild(td);
      });
      t.appendChild(tr);
    });
    return t;
  }
  function shape(m) {
    return m.rows.length + "\u00d7" + m.cols.length + (m.pages.length > 1 ? "\u00d7" + m.pages.length : "");
  }

  const list = document.getElementById("mat-list");
  D.matrices.forEach(function (m) {
    const d = el("details", {"data-name": m.name});
    const s = el("summary");
    s.appendChild(el("b", {}, m.name));
    s.appendChild(el("span", {"class": "shape"}, " " + shape(m) + " "));
    s.appendChild(el("span", {"class": "note"}, m.note));
    d.appendChild(s);
    d.appendChild(el("div", {"class": "pages"}));
    // tables are made when first opened: a large model stays quick to load
    d.addEventListener("toggle", function () { if (d.open) fill(d); });
    list.appendChild(d);
  });
  function fill(d) {
    const box = d.lastChild, m = byName[d.getAttribute("data-name")];
    if (!box.firstChild) m.pages.forEach(function (p, i) { box.appendChild(table(m, i, false)); });
  }
  function openMatrix(d) { fill(d); d.open = true; }
  const readout = document.getElementById("readout");
  list.addEventListener("mouseover", function (ev) {
    const td = ev.target.closest ? ev.target.closest("td") : null;
    if (!td) return;
    const t = td.closest("table"), m = byName[t.getAttribute("data-name")];
    const i = Number(td.getAttribute("data-i")), j = Number(td.getAttribute("data-j"));
    readout.textContent = m.name + (m.pages.length > 1 ? " (head " + t.getAttribute("data-page") + ")" : "") +
      " [" + m.rows[i - 1] + ", " + m.cols[j - 1] + "] = " + td.title;
  });

  // the head's output: each row's three most probable labels
  const out = document.getElementById("output");
  const probs = byName.probs;
  if (probs) {
    probs.pages[0].forEach(function (r, i) {
      const order = r.map(function (v, j) { return j; })
                     .sort(function (a, b) { return r[b] - r[a]; }).slice(0, 3);
      const tr = el("tr");
      tr.appendChild(el("th", {"class": "row"}, probs.rows[i]));
      order.forEach(function (j) {
        tr.appendChild(el("td", {"class": "pick", title: String(r[j])}, probs.cols[j] + " " + r[j].toFixed(3)));
      });
      out.appendChild(tr);
    });
  }
  const pooled = document.getElementById("pooled");
  if (byName.c) {
    pooled.appendChild(el("h2", {}, "The pooled vector c (all the decoder reads of the source) and its weights"));
    pooled.appendChild(table(byName.c, 0, true));
    if (byName.pool_weights) pooled.appendChild(table(byName.pool_weights, 0, true));
  }
  if (byName.readout) {
    pooled.appendChild(el("h2", {}, "The readout row (what the classifier reads)"));
    pooled.appendChild(table(byName.readout, 0, true));
  }

  // ---- decoding view -----------------------------------------------------
  const dec = D.decoding;
  if (dec) {
    const sum = document.getElementById("dec-summary");
    sum.textContent = dec.summary;
    const steps = document.getElementById("dec-steps");
    const selL = document.getElementById("sel-dec-layer");
    for (let l = 1; l <= dec.layers; l++) selL.appendChild(el("option", {value: l}, "layer " + l));
    if (dec.layers === 0) selL.parentNode.hidden = true;
    function drawSteps() {
      steps.textContent = "";
      const l = Number(selL.value || 1) - 1;
      dec.tokens.forEach(function (tok, t) {
        const row = el("div", {"class": "step", "data-step": t + 1});
        const head = el("div", {"class": "produced"});
        head.appendChild(el("span", {"class": "n"}, "step " + (t + 1)));
        head.appendChild(el("b", {}, tok));
        row.appendChild(head);
        const top = el("table", {"class": "top5"});
        dec.top[t].forEach(function (w, r) {
          const p = dec.topp[t][r];
          const tr = el("tr", {"class": w === tok && r === 0 ? "chosen" : ""});
          tr.appendChild(el("td", {"class": "w"}, w));
          const bar = el("td", {"class": "bar"});
          bar.appendChild(el("span", {style: "width:" + Math.round(120 * p) + "px"}));
          tr.appendChild(bar);
          tr.appendChild(el("td", {"class": "p", "data-v": String(p)}, String(p)));
          top.appendChild(tr);
        });
        row.appendChild(top);
        if (dec.cross.length) {
          const c = el("table", {"class": "crossrow", "data-step": t + 1});
          const hr = el("tr");
          hr.appendChild(el("th"));
          dec.source.forEach(function (s) { hr.appendChild(el("th", {"class": "col"}, s)); });
          c.appendChild(hr);
          dec.cross[t][l].forEach(function (a, h) {
            const tr = el("tr");
            tr.appendChild(el("th", {"class": "row"}, "head " + (h + 1)));
            a.forEach(function (w, j) {
              tr.appendChild(el("td", {"data-v": String(w), title: dec.source[j] + ": " + String(w),
                                       style: "background:rgba(31,111,180," + (0.8 * w).toFixed(3) + ")"},
                                w.toFixed(2)));
            });
            c.appendChild(tr);
          });
          row.appendChild(c);
        } else {
          row.appendChild(el("div", {"class": "nocross"}, dec.nocross));
        }
        steps.appendChild(row);
      });
    }
    selL.addEventListener("change", drawSteps);
    drawSteps();
  }

  // ---- start from the fragment ----------------------------------------------
  if (blocks.length) {
    state.key = KINDS[hash.block] && blocks.some(function (b) { return b.key === hash.block; })
      ? hash.block : blocks[0].key;
    const layers = blocks.filter(function (b) { return b.key === state.key; });
    state.layer = layers.some(function (b) { return b.layer === Number(hash.layer); })
      ? Number(hash.layer) : layers[0].layer;
    if (hash.head && hash.head !== "all") state.head = Number(hash.head);
    fillSelects();
    if (hash.token) { state.token = Number(hash.token); state.pinned = true; }
    drawHeads();
    if (hash.hover) {
      const t = document.getElementById("q" + hash.hover);
      if (t) t.dispatchEvent(new MouseEvent("mouseover", {bubbles: true}));
    }
  }
  show(views.indexOf(hash.view) >= 0 && document.getElementById(hash.view) ? hash.view : "heads");
  // #open=NAME,NAME,... opens those matrices, #open=all every one
  if (hash.open) {
    let first = null;
    list.querySelectorAll("details").forEach(function (d) {
      const name = d.getAttribute("data-name");
      if (hash.open === "all" || hash.open.split(",").indexOf(name) >= 0) {
        openMatrix(d);
        first = first || d;
      }
    });
    if (first) first.scrollIntoView();
  }
  document.body.setAttribute("data-ready", "1");
})();
