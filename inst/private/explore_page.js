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
  // a weight in a sentence: 2 significant digits (0.62, 0.091, 1.0)
  function short(v) { return v.toPrecision(2); }

  // ---- the colour scheme (attn_heatmap's) -----------------------------------
  // A matrix with no negative value (weights, probabilities) runs from white
  // (0) to blue, 0 to 1, or to its largest value when that is above 1; a
  // signed one (scores, logits, Q) from red through white (0) to blue, -b to
  // b with b its largest magnitude.  Masked cells are grey and hatched.
  const BLUE = [31, 111, 180], RED = [214, 39, 40];
  function colour(x) {                 // x: the value over b, in [-1, 1]
    const c = x < 0 ? RED : BLUE, t = 0.9 * Math.min(1, Math.abs(x));
    return "rgb(" + c.map(function (v) { return Math.round(255 - t * (255 - v)); }).join(",") + ")";
  }
  function scaleOf(pages) {            // b: the value drawn darkest
    let big = 0, signed = false;
    pages.forEach(function (p) {
      p.forEach(function (r) {
        r.forEach(function (v) {
          if (v === null) return;
          big = Math.max(big, Math.abs(v));
          signed = signed || v < 0;
        });
      });
    });
    return signed ? big : Math.max(big, 1);
  }
  function legend(box) {
    const ramp = function (from, to) {      // a shade every 1/8
      const r = el("span", {"class": "ramp"});
      for (let s = 8 * from; s <= 8 * to; s++) {
        const x = s / 8;
        r.appendChild(el("span", {"class": "shade", "data-x": String(x), style: "background:" + colour(x)}));
      }
      return r;
    };
    const item = function (parts) {
      const p = el("span", {"class": "item"});
      parts.forEach(function (x) { p.appendChild(typeof x === "string" ? el("span", {}, x) : x); });
      box.appendChild(p);
    };
    item(["no negative value (weights, probabilities): 0 ", ramp(0, 1),
          " 1, or the table's largest value when above 1"]);
    item(["signed (scores, logits, Q, K, V): \u2212b ", ramp(-1, 1),
          " +b, white = 0, b = the table's largest magnitude"]);
    item([el("span", {"class": "masked swatch"}), " masked (score \u2212\u221e, weight 0)"]);
  }
  document.querySelectorAll(".legend").forEach(legend);

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
  const views = ["heads", "model", "matrices", "decoding"];
  function show(view) {
    if (view === "model") drawModel();
    views.forEach(function (v) {
      const s = document.getElementById(v);
      const b = document.getElementById("tab-" + v);
      if (s) s.hidden = v !== view;
      if (b) b.className = v === view ? "on" : "";
    });
    document.body.setAttribute("data-view", view);
    // the head view measures its labels, which it can only once shown
    if (view === "heads" && state.key) drawHeads();
  }
  views.forEach(function (v) {
    const b = document.getElementById("tab-" + v);
    if (b) b.addEventListener("click", function () { show(v); });
  });

  // ---- head view ---------------------------------------------------------
  // state.side is "q" when the token under the pointer (state.token) is a
  // query on the left, "k" when it is a key on the right
  const state = {key: null, layer: 1, head: "all", side: "q", token: null, pinned: false};
  const selBlock = document.getElementById("sel-block");
  const selLayer = document.getElementById("sel-layer");
  const selHead = document.getElementById("sel-head");
  const svg = document.getElementById("svg-heads");
  const reads = document.getElementById("reads");
  const headKey = document.getElementById("head-key");

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

  // the widest of the labels as drawn in the SVG
  function labelWidth(labels) {
    let w = 0;
    labels.forEach(function (t) {
      const e = svg.appendChild(sv("text", {"class": "tok"}, t));
      w = Math.max(w, e.getComputedTextLength());
      svg.removeChild(e);
    });
    return Math.ceil(w);
  }

  // what token i of a side reads (side "q") or is read by (side "k") in
  // head h, largest weight first: the first five of 0.01 or more, then
  // how many more and their sum; masked pairs are counted
  function readRow(b, h, side, i) {
    const A = b.A.pages[h - 1], mask = b.A.mask && b.A.mask[h - 1];
    const own = side === "q" ? b.A.rows : b.A.cols, other = side === "q" ? b.A.cols : b.A.rows;
    const pairs = [];
    let masked = 0;
    other.forEach(function (t, j) {
      const r = side === "q" ? i : j, c = side === "q" ? j : i;
      if (mask && mask[r][c] === "1") masked++;
      else pairs.push({t: t, w: A[r][c]});
    });
    pairs.sort(function (x, y) { return y.w - x.w; });
    const p = el("div", {"class": "readrow", "data-h": h});
    p.appendChild(el("span", {"class": "sw", style: "background:" + COLOURS[(h - 1) % COLOURS.length]}));
    p.appendChild(el("span", {}, "head " + h + ": " + own[i] + (side === "q" ? " reads " : " is read by ")));
    let n = 0;
    while (n < pairs.length && n < 5 && pairs[n].w >= 0.01) {
      p.appendChild(el("span", {"class": "pair", "data-v": String(pairs[n].w)},
                       pairs[n].t + " " + short(pairs[n].w)));
      n++;
    }
    const rest = pairs.slice(n);
    if (n === 0 && rest.length) p.appendChild(el("span", {"class": "pair"}, "nothing above 0.01"));
    if (rest.length) {
      const sum = rest.reduce(function (s, x) { return s + x.w; }, 0);
      p.appendChild(el("span", {"class": "pair rest"},
                       "+ " + rest.length + " more: " + (sum < 0.01 ? "< 0.01" : short(sum)) + " together"));
    }
    if (masked) p.appendChild(el("span", {"class": "pair masked"}, masked + " masked"));
    return p;
  }

  function drawHeads() {
    const b = current();
    svg.textContent = "";
    const q = b.A.rows, k = b.A.cols;
    // the query labels end at xq, the key labels start at xk; the drawing
    // fits the window when it can, else its box scrolls sideways
    const wq = labelWidth(q), wk = labelWidth(k);
    const room = document.documentElement.clientWidth - 32;
    const W = Math.max(wq + wk + 140, Math.min(660, room));
    const step = 26, top = 52, xq = 6 + wq, xk = W - 6 - wk;
    const n = Math.max(q.length, k.length);
    svg.setAttribute("width", W);
    svg.setAttribute("height", top + step * n + 10);
    svg.setAttribute("data-block", b.key);
    svg.setAttribute("data-layer", b.layer);
    svg.setAttribute("data-head", state.head);
    svg.setAttribute("data-side", state.side);
    svg.setAttribute("data-token", state.token === null ? "" : state.token);
    svg.appendChild(sv("text", {x: 4, y: 16, "class": "colhead"},
                       b.key === "encoder" ? "query (source)" : "query (target: word written)"));
    svg.appendChild(sv("text", {x: W - 4, y: 34, "text-anchor": "end", "class": "colhead"},
                       b.key === "decoder" ? "key (target read: this position and earlier)" : "key (source)"));
    const heads = state.head === "all" ? b.A.pages.map(function (p, i) { return i + 1; })
                                       : [Number(state.head)];
    const lines = sv("g", {"class": "lines"});
    svg.appendChild(lines);
    const pointed = function (i, j) {
      return state.token === null || (state.side === "q" ? i : j) + 1 === state.token;
    };
    heads.forEach(function (h, hi) {
      const off = heads.length > 1 ? (hi - (heads.length - 1) / 2) * 2.5 : 0;
      const A = b.A.pages[h - 1];
      for (let i = 0; i < q.length; i++) {
        for (let j = 0; j < k.length; j++) {
          const w = A[i][j];
          if (w === null || w <= 0.005 || !pointed(i, j)) continue;
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
      const on = state.side === "q" && state.token === i + 1;
      svg.appendChild(sv("text", {x: xq, y: top + step * i + 5, "text-anchor": "end",
                                  id: "q" + (i + 1), "class": on ? "tok q on" : "tok q",
                                  "data-i": i + 1}, t));
    });
    k.forEach(function (t, j) {
      const on = state.side === "k" && state.token === j + 1;
      svg.appendChild(sv("text", {x: xk, y: top + step * j + 5, id: "k" + (j + 1),
                                  "class": on ? "tok k on" : "tok k", "data-j": j + 1}, t));
    });
    headKey.textContent = "";
    heads.forEach(function (h) {
      headKey.appendChild(el("span", {"class": "sw", style: "background:" + COLOURS[(h - 1) % COLOURS.length]}));
      headKey.appendChild(el("span", {"class": "hk"}, "head " + h));
    });
    headKey.appendChild(el("span", {}, " A line's thickness is its weight (none below 0.005)."));
    // what the pointed token reads, or what reads it, in words
    reads.textContent = "";
    if (state.token === null) {
      reads.textContent = "Point at a token: on the left its lines go to the tokens it reads, " +
        "on the right they come from the tokens that read it." +
        (b.masked ? " Masked (future) keys get no line." : "");
    } else {
      heads.forEach(function (h) { reads.appendChild(readRow(b, h, state.side, state.token - 1)); });
    }
  }

  function setToken(side, i) {
    if (state.pinned || (state.side === side && state.token === i)) return;
    state.side = side;
    state.token = i;
    drawHeads();
  }
  // the token element an event is on: [side, position] or null
  function tokenAt(ev) {
    const t = ev.target.closest ? ev.target.closest(".tok") : null;
    if (!t) return null;
    return t.classList.contains("q") ? ["q", Number(t.getAttribute("data-i"))]
                                     : ["k", Number(t.getAttribute("data-j"))];
  }
  svg.addEventListener("mouseover", function (ev) {
    const t = tokenAt(ev);
    if (t) setToken(t[0], t[1]);
  });
  svg.addEventListener("mouseleave", function () { setToken(state.side, null); });
  // a click pins the token (a second click on it lets go)
  svg.addEventListener("click", function (ev) {
    const t = tokenAt(ev);
    if (!t) return;
    state.pinned = !(state.pinned && state.side === t[0] && state.token === t[1]);
    state.side = t[0];
    state.token = state.pinned ? t[1] : null;
    drawHeads();
  });
  window.addEventListener("resize", function () {
    if (state.key && !document.getElementById("heads").hidden) drawHeads();
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

  // ---- model view: every layer × head of each kind at once ------------------
  // one small square per head, a cell per weight in the colours of the
  // tables; a click opens the head in the head view
  const grid = document.getElementById("model-grid");
  function thumb(b, h) {
    const A = b.A.pages[h - 1], mask = b.A.mask && b.A.mask[h - 1];
    const n = b.A.rows.length, m = b.A.cols.length;
    const c = Math.max(1, Math.min(12, Math.floor(96 / Math.max(n, m, 1))));
    const s = sv("svg", {width: m * c, height: n * c, "class": "thumb", tabindex: 0,
                         id: "thumb-" + b.key + "-" + b.layer + "-" + h, "data-block": b.key,
                         "data-layer": b.layer, "data-head": h});
    s.appendChild(sv("title", {}, KINDS[b.key] + ", layer " + b.layer + ", head " + h +
                     " (" + n + " queries \u00d7 " + m + " keys): click to open"));
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < m; j++) {
        const masked = mask && mask[i][j] === "1";
        s.appendChild(sv("rect", {x: j * c, y: i * c, width: c, height: c,
                                  fill: masked ? "#c7c7c7" : colour(A[i][j])}));
        // a masked cell's hatch: one diagonal in a darker grey
        if (masked && c > 2)
          s.appendChild(sv("line", {x1: j * c, y1: (i + 1) * c, x2: (j + 1) * c, y2: i * c,
                                    stroke: "#808080", "stroke-width": 1}));
      }
    }
    return s;
  }
  function drawModel() {
    if (grid.firstChild) return;       // drawn when first shown
    Object.keys(KINDS).forEach(function (key) {
      const bs = blocks.filter(function (b) { return b.key === key; });
      if (!bs.length) return;
      grid.appendChild(el("h2", {}, KINDS[key] + ": " + bs[0].A.rows.length + " queries \u00d7 " +
                          bs[0].A.cols.length + " keys"));
      const t = el("table", {"class": "model", "data-block": key});
      const hr = el("tr");
      hr.appendChild(el("th"));
      const most = Math.max.apply(null, bs.map(function (b) { return b.heads; }));
      for (let h = 1; h <= most; h++) hr.appendChild(el("th", {}, "head " + h));
      t.appendChild(hr);
      bs.forEach(function (b) {
        const tr = el("tr");
        tr.appendChild(el("th", {"class": "row"}, "layer " + b.layer));
        for (let h = 1; h <= b.heads; h++) {
          const td = el("td");
          td.appendChild(thumb(b, h));
          tr.appendChild(td);
        }
        t.appendChild(tr);
      });
      const box = el("div", {"class": "scroll"});
      box.appendChild(t);
      grid.appendChild(box);
    });
  }
  function openThumb(t) {
    state.key = t.getAttribute("data-block");
    state.layer = Number(t.getAttribute("data-layer"));
    state.head = Number(t.getAttribute("data-head"));
    state.token = null; state.pinned = false;
    fillSelects(); show("heads");
  }
  grid.addEventListener("click", function (ev) {
    const t = ev.target.closest ? ev.target.closest(".thumb") : null;
    if (t) openThumb(t);
  });
  grid.addEventListener("keydown", function (ev) {
    if ((ev.key === "Enter" || ev.key === " ") && ev.target.classList.contains("thumb")) {
      ev.preventDefault();
      openThumb(ev.target);
    }
  });

  // ---- tables (matrix view, head output) ----------------------------------
  function table(m, page, small) {
    const vals = m.pages[page];
    const big = scaleOf(m.pages);      // one scale for all heads of a matrix
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
          td = el("td", {"data-i": i + 1, "data-j": j + 1, "data-v": String(v), title: String(v),
                         "class": Math.abs(v) > 0.6 * big ? "dark" : "",
                         style: "background:" + colour(v / big)}, fmt(v));
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
    if (!box.firstChild) {
      m.pages.forEach(function (p, i) {
        box.appendChild(el("div", {"class": "scroll"})).appendChild(table(m, i, false));
      });
    }
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

  // the model's output: each row's three most probable words or classes
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
    pooled.appendChild(el("div", {"class": "scroll"})).appendChild(table(byName.c, 0, true));
    if (byName.pool_weights)
      pooled.appendChild(el("div", {"class": "scroll"})).appendChild(table(byName.pool_weights, 0, true));
  }
  if (byName.readout) {
    pooled.appendChild(el("h2", {}, "The readout row (what the classifier reads)"));
    pooled.appendChild(el("div", {"class": "scroll"})).appendChild(table(byName.readout, 0, true));
  }

  // ---- decoding view -----------------------------------------------------
  const dec = D.decoding;
  if (dec) {
    document.getElementById("dec-summary").textContent = dec.summary;
    document.getElementById("dec-about").textContent = dec.about;
    document.getElementById("dec-kind").textContent = dec.kind;
    const steps = document.getElementById("dec-steps");
    const selL = document.getElementById("sel-dec-layer");
    for (let l = 1; l <= dec.layers; l++) selL.appendChild(el("option", {value: l}, "layer " + l));
    if (dec.layers === 0) selL.parentNode.hidden = true;
    // step t's new row: a row per head over the keys it reads
    function attentionRow(t, l) {
      const c = el("table", {"class": "attnrow", "data-step": t + 1});
      const rows = dec.rows[t][l], keys = dec.keys.slice(0, rows[0].length);
      const hr = el("tr");
      hr.appendChild(el("th"));
      keys.forEach(function (s) { hr.appendChild(el("th", {"class": "col"}, s)); });
      c.appendChild(hr);
      rows.forEach(function (a, h) {
        const tr = el("tr");
        tr.appendChild(el("th", {"class": "row"}, "head " + (h + 1)));
        a.forEach(function (w, j) {
          tr.appendChild(el("td", {"data-v": String(w), title: keys[j] + ": " + String(w),
                                   "class": w > 0.6 ? "dark" : "",
                                   style: "background:" + colour(w)}, w.toFixed(2)));
        });
        c.appendChild(tr);
      });
      const box = el("div", {"class": "scroll"});
      box.appendChild(c);
      return box;
    }
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
        if (dec.rows.length) row.appendChild(attentionRow(t, l));
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
    if (hash.key) { state.side = "k"; state.token = Number(hash.key); state.pinned = true; }
    drawHeads();
    // #hover=3 points at query 3, #hover=k3 at key 3
    if (hash.hover) {
      const t = document.getElementById(/^\d+$/.test(hash.hover) ? "q" + hash.hover : hash.hover);
      if (t) t.dispatchEvent(new MouseEvent("mouseover", {bubbles: true}));
    }
  }
  show(views.indexOf(hash.view) >= 0 && document.getElementById(hash.view) ? hash.view : "heads");
  // #click=cross.2.3 clicks that head's square in the model view
  if (hash.click) {
    drawModel();
    const t = document.getElementById("thumb-" + hash.click.split(".").join("-"));
    if (t) t.dispatchEvent(new MouseEvent("click", {bubbles: true}));
  }
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
