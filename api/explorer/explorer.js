// graphmem explorer: a page over the public HTTP API only (same keys, same groups). No dependencies.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const $ = (id) => document.getElementById(id);
const state = { group: "", entities: [], entity: null, facts: [], range: null, asof: null, renderMs: {} };
window.__explorer = state; // read by the browser tests (render times, current selection)

// ---- API -------------------------------------------------------------------------------------
async function api(path, options = {}) {
  const headers = { "Content-Type": "application/json" };
  const key = $("key").value.trim();
  if (key) headers.Authorization = `Bearer ${key}`;
  const response = await fetch(path, { ...options, headers });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(`${response.status} ${body.code || ""}: ${body.message || response.statusText}`);
  return body;
}
const groupPath = (suffix) => `/v1/groups/${encodeURIComponent(state.group)}${suffix}`;

function status(text, error = false) {
  $("status").textContent = text;
  $("status").className = error ? "error" : "";
}

function el(tag, attrs = {}, text = null, ns = null) {
  const node = ns ? document.createElementNS(ns, tag) : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== null) node.textContent = text; // data is always text, never markup
  return node;
}
const svgEl = (tag, attrs = {}, text = null) => el(tag, attrs, text, SVG);

// ---- time: the "as believed at" slider -------------------------------------------------------
const ms = (iso) => (iso ? Date.parse(iso) : null);

function believedAt(fact, t) {
  // recorded by t and not yet expired (corrected) at t: the graph as the system believed it then
  return ms(fact.recorded_at) <= t && (fact.expired_at === null || fact.expired_at === undefined || ms(fact.expired_at) > t);
}

function setRange(facts) {
  const times = [];
  for (const f of facts) for (const k of ["valid_from", "valid_to", "recorded_at", "expired_at"]) if (f[k]) times.push(ms(f[k]));
  const now = Date.now();
  const lo = times.length ? Math.min(...times) : now - 86400000;
  state.range = { lo, hi: Math.max(now, ...times) };
}

function asofTime() {
  const r = state.range;
  if (!r) return Date.now();
  const v = Number($("asof").value);
  return v >= 1000 ? Math.max(r.hi, Date.now()) : r.lo + ((r.hi - r.lo) * v) / 1000;
}

function showAsof() {
  const t = asofTime();
  $("asof-label").textContent = Number($("asof").value) >= 1000 ? "now" : new Date(t).toISOString().slice(0, 19) + "Z";
  state.asof = t;
}

// ---- groups and entities ---------------------------------------------------------------------
async function loadGroups() {
  try {
    const { groups } = await api("/v1/groups");
    const list = $("groups");
    list.replaceChildren(...groups.map((g) => el("option", { value: g.group_id }, `${g.episodes} episodes, ${g.facts} facts`)));
    if (!$("group").value && groups.length === 1) $("group").value = groups[0].group_id;
  } catch (err) {
    status(String(err.message), true);
  }
}

async function openGroup() {
  state.group = $("group").value.trim();
  if (!state.group) return status("type or pick a group", true);
  localStorage.setItem("graphmem.group", state.group);
  await loadEntities();
}

async function loadEntities() {
  const name = $("entity-filter").value.trim();
  const query = name ? `?name=${encodeURIComponent(name)}&limit=200` : "?limit=200";
  try {
    const { entities } = await api(groupPath(`/entities${query}`));
    state.entities = entities;
    $("entities").replaceChildren(
      ...entities.map((e) => {
        const button = el("button", { "data-entity-id": e.id, title: e.kind }, e.name);
        button.addEventListener("click", () => selectEntity(e.id));
        return el("li", {}, null).appendChild(button).parentNode;
      }),
    );
    status(`${entities.length} entities in ${state.group}`);
  } catch (err) {
    status(String(err.message), true);
  }
}

async function selectEntity(id) {
  try {
    const { entity, facts } = await api(groupPath(`/entities/${encodeURIComponent(id)}/timeline`));
    state.entity = entity;
    state.facts = facts;
    for (const b of document.querySelectorAll("#entities button")) b.classList.toggle("selected", b.dataset.entityId === id);
    setRange(facts);
    showAsof();
    renderTimeline();
    await renderGraph();
  } catch (err) {
    status(String(err.message), true);
  }
}

// ---- timeline ----------------------------------------------------------------------------------
function renderTimeline() {
  const began = performance.now();
  const svg = $("timeline");
  svg.replaceChildren();
  const entity = state.entity;
  if (!entity) return;
  $("timeline-title").textContent = `${entity.name} — timeline`;
  const t = state.asof;
  const shown = state.facts.filter((f) => believedAt(f, t));
  const expired = state.facts.filter((f) => f.expired_at && ms(f.expired_at) <= t);
  const lanes = [...new Set(shown.map((f) => f.predicate + (f.qualifier ? `:${f.qualifier}` : "")))].sort();
  const width = 960, left = 150, right = 20, laneH = 34, top = 30;
  const height = top + Math.max(1, lanes.length) * laneH + 20;
  svg.setAttribute("width", width);
  svg.setAttribute("height", height);
  const defs = svgEl("defs");
  const marker = svgEl("marker", { id: "arrow", viewBox: "0 0 10 10", refX: "9", refY: "5", markerWidth: "6", markerHeight: "6", orient: "auto" });
  marker.appendChild(svgEl("path", { d: "M0,0 L10,5 L0,10 z", fill: "#dc2626" }));
  defs.appendChild(marker);
  svg.appendChild(defs);
  const { lo, hi } = state.range;
  const x = (v) => left + ((v - lo) / Math.max(1, hi - lo)) * (width - left - right);
  const axis = svgEl("g", { class: "axis" });
  for (let i = 0; i <= 4; i++) {
    const v = lo + ((hi - lo) * i) / 4;
    axis.appendChild(svgEl("line", { x1: x(v), x2: x(v), y1: top - 5, y2: height }));
    axis.appendChild(svgEl("text", { x: x(v), y: top - 10, "text-anchor": "middle" }, new Date(v).toISOString().slice(0, 10)));
  }
  svg.appendChild(axis);
  const position = new Map();
  lanes.forEach((lane, i) => {
    const y = top + i * laneH;
    svg.appendChild(svgEl("text", { class: "lane-label", x: 4, y: y + 18 }, lane));
    const facts = shown.filter((f) => f.predicate + (f.qualifier ? `:${f.qualifier}` : "") === lane);
    const stack = Math.max(1, Math.min(3, facts.length));
    facts.forEach((f, j) => {
      const x0 = x(f.valid_from ? ms(f.valid_from) : lo);
      const x1 = Math.max(x0 + 3, x(f.valid_to ? ms(f.valid_to) : hi));
      const h = (laneH - 6) / stack;
      const y0 = y + 2 + (j % stack) * h;
      const ended = f.valid_to !== null && f.valid_to !== undefined;
      const g = svgEl("g", { class: `bar${ended ? " ended" : ""}${f.tier === "inferred" ? " inferred" : ""}`, "data-fact-id": f.id, "data-value": f.value });
      const quote = (f.evidence[0] && f.evidence[0].quote) || "";
      g.appendChild(svgEl("title", {}, `${f.statement}\n${f.valid_from || "…"} → ${f.valid_to || "now"}${quote ? `\n“${quote}”` : ""}`));
      g.appendChild(svgEl("rect", { x: x0, y: y0, width: x1 - x0, height: h - 2, rx: 2 }));
      g.appendChild(svgEl("text", { x: x0 + 3, y: y0 + h / 2 + 3 }, f.value));
      if (f.evidence[0]) {
        const link = svgEl("a", { href: "#", class: "evidence", "data-episode-id": f.evidence[0].episode_id });
        // inside the bar's end when it is wide enough, else just after it
        const inside = x1 - x0 > 320;
        const at = inside ? { x: x1 - 3, "text-anchor": "end" } : { x: x1 + 4, "text-anchor": "start" };
        link.appendChild(svgEl("text", { ...at, y: y0 + h / 2 + 3 }, quote ? `“${quote.slice(0, 40)}”` : "evidence"));
        link.addEventListener("click", (ev) => {
          ev.preventDefault();
          openEvidence(f.evidence[0]);
        });
        g.appendChild(link);
      }
      svg.appendChild(g);
      position.set(f.id, { x0, x1, y: y0 + h / 2 });
    });
  });
  for (const f of shown) {
    for (const old of f.supersedes || []) {
      const a = position.get(old), b = position.get(f.id);
      if (!a || !b) continue;
      svg.appendChild(svgEl("path", { class: "supersedes", "data-from": f.id, "data-to": old, d: `M${a.x1},${a.y} C${a.x1 + 20},${a.y} ${b.x0 - 20},${b.y} ${b.x0},${b.y}` }));
    }
  }
  $("expired").replaceChildren(
    ...expired.map((f) => el("li", { "data-fact-id": f.id }, `${f.statement} (recorded ${f.recorded_at.slice(0, 10)}, corrected ${f.expired_at.slice(0, 10)})`)),
  );
  state.renderMs.timeline = performance.now() - began;
}

async function openEvidence(evidence) {
  switchTab("session");
  $("session-id").value = evidence.session_id || "";
  await loadSession(evidence.episode_id);
}

// ---- graph: the entity's 1-2 hop neighbourhood, as believed at the slider's time ---------------
const holdsAt = (f, t) => believedAt(f, t) && (!f.valid_from || ms(f.valid_from) <= t) && (!f.valid_to || ms(f.valid_to) > t);

async function renderGraph() {
  const began = performance.now();
  const svg = $("graph");
  svg.replaceChildren();
  if (!state.entity) return;
  const t = state.asof;
  const hops = Number($("hops").value);
  const nodes = new Map([[state.entity.id, { id: state.entity.id, label: state.entity.name, hop: 0, kind: "center" }]]);
  const edges = [];
  const expand = (subjectId, facts, hop) => {
    for (const f of facts.filter((f) => holdsAt(f, t))) {
      const target = f.object_id || `literal:${subjectId}:${f.id}`;
      if (!nodes.has(target)) nodes.set(target, { id: target, label: f.object || f.value, hop, kind: f.object_id ? "entity" : "literal" });
      edges.push({ from: subjectId, to: target, label: f.predicate, fact: f.id });
    }
  };
  expand(state.entity.id, state.facts, 1);
  if (hops > 1) {
    const firstHop = [...nodes.values()].filter((n) => n.hop === 1 && n.kind === "entity").slice(0, 25);
    const timelines = await Promise.all(
      firstHop.map((n) => api(groupPath(`/entities/${encodeURIComponent(n.id)}/timeline`)).catch(() => null)),
    );
    timelines.forEach((tl, i) => tl && expand(firstHop[i].id, tl.facts, 2));
  }
  const width = 960, height = 600, cx = width / 2, cy = height / 2;
  svg.setAttribute("width", width);
  svg.setAttribute("height", height);
  const byHop = [[], [], []];
  for (const n of nodes.values()) byHop[n.hop].push(n);
  byHop.forEach((ring, hop) =>
    ring.forEach((n, i) => {
      const angle = (2 * Math.PI * i) / Math.max(1, ring.length) + hop * 0.3;
      n.x = cx + Math.cos(angle) * hop * 140;
      n.y = cy + Math.sin(angle) * hop * 130;
    }),
  );
  for (const e of edges) {
    const a = nodes.get(e.from), b = nodes.get(e.to);
    const g = svgEl("g", { class: "edge", "data-fact-id": e.fact });
    g.appendChild(svgEl("line", { x1: a.x, y1: a.y, x2: b.x, y2: b.y }));
    g.appendChild(svgEl("text", { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 - 2, "text-anchor": "middle" }, e.label));
    svg.appendChild(g);
  }
  for (const n of nodes.values()) {
    const g = svgEl("g", { class: `node ${n.kind}`, "data-node-id": n.id });
    g.appendChild(svgEl("circle", { cx: n.x, cy: n.y, r: n.hop === 0 ? 12 : 8 }));
    g.appendChild(svgEl("text", { x: n.x + 10, y: n.y + 4 }, n.label));
    if (n.kind === "entity") g.addEventListener("click", () => selectEntity(n.id));
    svg.appendChild(g);
  }
  state.renderMs.graph = performance.now() - began;
}

// ---- search playground -----------------------------------------------------------------------
function estimateTokens(text) {
  // the server's context budget rule (graphmem/retrieval/context.py): ~4 characters a token, CJK one each
  const cjk = (text.match(/[\u3400-\u9fff\uf900-\ufaff]/g) || []).length;
  return cjk + Math.ceil((text.length - cjk) / 4);
}

function hitText(hit) {
  if (hit.fact) return hit.fact.statement;
  if (hit.episode) return `${hit.episode.speaker || ""}: ${hit.episode.content}`;
  if (hit.entity) return hit.entity.name;
  return hit.id;
}

async function runSearch(ev) {
  ev.preventDefault();
  const began = performance.now();
  const body = { query: $("query").value, k: Number($("k").value), include_history: $("history").checked };
  if (Number($("asof").value) < 1000) body.as_of = new Date(asofTime()).toISOString();
  try {
    const result = await api(groupPath("/search"), { method: "POST", body: JSON.stringify(body) });
    const items = new Map();
    for (const h of [...result.facts, ...result.episodes, ...result.entities]) items.set(`${h.type}:${h.id}`, h);
    const ranked = result.ranked.map((h) => items.get(`${h.type}:${h.id}`) || h);
    $("hits").tBodies[0].replaceChildren(
      ...ranked.map((h, i) => {
        const row = el("tr", { "data-type": h.type });
        row.append(
          el("td", {}, String(i + 1)),
          el("td", {}, h.type),
          el("td", {}, hitText(h)),
          el("td", {}, h.score.toFixed(4)),
          el("td", { class: "channels" }, Object.entries(h.channels).map(([k, v]) => `${k} ${Number(v).toFixed(3)}`).join("  ")),
        );
        return row;
      }),
    );
    $("context").textContent = result.context;
    $("context-tokens").textContent = `(≈${estimateTokens(result.context)} tokens)`;
    state.renderMs.search = performance.now() - began;
  } catch (err) {
    status(String(err.message), true);
  }
}

// ---- session view ------------------------------------------------------------------------------
async function loadSession(highlight = null) {
  const sid = $("session-id").value.trim();
  if (!sid) return status("this turn has no session", true);
  try {
    const { turns } = await api(groupPath(`/sessions/${encodeURIComponent(sid)}/episodes?last_n=1000`));
    $("turns").replaceChildren(
      ...turns.map(({ episode, facts }) => {
        const li = el("li", { "data-episode-id": episode.id, class: episode.id === highlight ? "highlight" : "" });
        li.append(el("strong", {}, `${episode.speaker || "?"} `), el("small", {}, episode.reference_time.slice(0, 16)), el("div", {}, episode.content));
        for (const f of facts) li.appendChild(el("span", { class: "fact-chip", title: f.predicate }, f.statement));
        return li;
      }),
    );
    const marked = document.querySelector("#turns li.highlight");
    if (marked) marked.scrollIntoView({ block: "center" });
  } catch (err) {
    status(String(err.message), true);
  }
}

// ---- wiring --------------------------------------------------------------------------------------
function switchTab(name) {
  for (const b of document.querySelectorAll("#tabs button")) b.classList.toggle("active", b.dataset.tab === name);
  for (const v of document.querySelectorAll(".view")) v.classList.toggle("active", v.id === `view-${name}`);
}

for (const b of document.querySelectorAll("#tabs button")) b.addEventListener("click", () => switchTab(b.dataset.tab));
$("connect").addEventListener("click", openGroup);
$("group").addEventListener("keydown", (ev) => ev.key === "Enter" && openGroup());
$("key").addEventListener("change", () => {
  sessionStorage.setItem("graphmem.key", $("key").value);
  loadGroups();
});
$("entity-filter").addEventListener("input", () => state.group && loadEntities());
$("asof").addEventListener("input", () => {
  showAsof();
  renderTimeline();
  renderGraph();
});
$("hops").addEventListener("change", renderGraph);
$("search-form").addEventListener("submit", runSearch);
$("session-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  loadSession();
});

$("key").value = sessionStorage.getItem("graphmem.key") || "";
$("group").value = new URLSearchParams(location.search).get("group") || localStorage.getItem("graphmem.group") || "";
showAsof();
loadGroups().then(() => $("group").value && openGroup());
