// logir search explorer: a query, its logical form as an editable tree, hits with per-part bars.
// Plain browser JavaScript, no build step and nothing loaded from outside this server.
"use strict";

// $ and el come from dom.js, loaded before this script
const PREC = { or: 1, and: 2, not: 3, term: 4 };

let originalTree = null; // the tree the server returned for the last query
let editedTree = null; // the tree as the user edited it

// ---- the API ----------------------------------------------------------------------------------
function token() {
  return $("token").value.trim();
}

async function api(path, body) {
  const headers = { "Content-Type": "application/json" };
  if (token()) headers.Authorization = "Bearer " + token();
  const response = await fetch(path, {
    method: body === undefined ? "GET" : "POST",
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  let payload = null;
  try {
    payload = await response.json();
  } catch (_) {
    payload = null;
  }
  if (!response.ok) {
    const message = payload && payload.error ? payload.error : `HTTP ${response.status}`;
    const error = new Error(message);
    error.status = response.status;
    throw error;
  }
  return payload;
}

function showError(message) {
  const box = $("error");
  box.textContent = message;
  box.hidden = !message;
}

// ---- logical form: syntax and the editable tree -----------------------------------------------
function kind(node) {
  return "term" in node ? "term" : "not" in node ? "not" : "and" in node ? "and" : "or";
}

function quote(text) {
  return '"' + text.replace(/\\/g, "\\\\").replace(/"/g, '\\"') + '"';
}

function toSyntax(node) {
  const k = kind(node);
  if (k === "term") return quote(node.term);
  if (k === "not") {
    const inner = toSyntax(node.not);
    return "NOT " + (PREC[kind(node.not)] < PREC.not ? `(${inner})` : inner);
  }
  return node[k]
    .map((child) => {
      const text = toSyntax(child);
      return PREC[kind(child)] <= PREC[k] ? `(${text})` : text;
    })
    .join(k === "and" ? " AND " : " OR ");
}

function renderTree() {
  const root = $("tree");
  root.replaceChildren(
    el("ul", {}, renderNode(editedTree, (replacement) => {
      editedTree = replacement;
      renderTree();
    }, 0))
  );
  updateEdited();
}

function updateEdited() {
  const syntax = toSyntax(editedTree);
  $("edited-syntax").textContent = syntax;
}

// `replace(newNode)` swaps this node inside its parent; `nots` counts NOTs directly above it.
function renderNode(node, replace, nots) {
  const k = kind(node);
  if (k === "not") {
    return renderNode(node.not, (child) => {
      node.not = child;
      renderTree();
    }, nots + 1, () => replace(node.not));
  }
  const unwrap = arguments[3];
  const notButton = el("button", {
    type: "button",
    class: "small secondary not-toggle",
    title: unwrap ? "remove this NOT" : "negate this part",
    text: unwrap ? "un-NOT" : "NOT",
    onclick: () => (unwrap ? unwrap() : replace({ not: node })),
  });
  const tags = [];
  for (let i = 0; i < nots; i++) tags.push(el("span", { class: "not-tag", text: "NOT" }));
  if (k === "term") {
    const input = el("input", { class: "term", value: node.term, "aria-label": "term text" });
    input.addEventListener("input", () => {
      node.term = input.value;
      updateEdited();
    });
    return el("li", {}, el("span", { class: "node" + (nots ? " negated" : "") }, ...tags, input, notButton));
  }
  const select = el("select", { "aria-label": "operator" },
    el("option", { value: "and", text: "AND" }), el("option", { value: "or", text: "OR" }));
  select.value = k;
  select.addEventListener("change", () => replace({ [select.value]: node[k] }));
  const children = node[k].map((child, i) =>
    renderNode(child, (replacement) => {
      node[k][i] = replacement;
      renderTree();
    }, 0)
  );
  return el("li", {},
    el("span", { class: "node" + (nots ? " negated" : "") }, ...tags, select, notButton),
    el("ul", {}, ...children));
}

// ---- results ----------------------------------------------------------------------------------
function fmt(x) {
  return (x < 0 ? "−" : "") + Math.abs(x).toFixed(4);
}

function renderHits(list, result, other, otherName) {
  const hits = result.hits;
  let scale = 0;
  for (const h of hits) for (const v of Object.values(h.evidence)) scale = Math.max(scale, Math.abs(v));
  scale = scale || 1;
  const otherRank = new Map((other ? other.hits : []).map((h) => [h.id, h.rank]));
  list.replaceChildren(
    ...hits.map((h) => {
      const rows = [];
      for (const [label, value] of Object.entries(h.evidence)) {
        const negated = label.startsWith("NOT ");
        const width = `${(50 * Math.abs(value)) / scale}%`;
        const barClass = value < 0 ? "bar neg" : negated ? "bar neg-match" : "bar pos";
        const title = value < 0
          ? `penalty ${fmt(value)} from ${label}`
          : negated ? `match of a negated part (counts against): ${fmt(value)}` : `${label}: ${fmt(value)}`;
        rows.push(
          el("span", { class: "ev-label" + (negated ? " neg" : ""), title: label, text: label }),
          el("span", { class: "track" }, el("span", { class: "axis" }),
            el("span", { class: barClass, style: `width:${width}`, title })),
          el("span", { class: "ev-value" + (value < 0 ? " neg" : ""), text: fmt(value) })
        );
      }
      let moved = null;
      if (other) {
        const r = otherRank.get(h.id);
        moved = el("span", { class: "hit-moved", text: `${otherName} ${r ? "#" + r : "—"}` });
      }
      const sum = Object.values(h.evidence).reduce((a, b) => a + b, 0);
      return el("li", { class: "hit", "data-id": h.id },
        el("div", { class: "hit-head" },
          el("span", { class: "hit-rank", text: `${h.rank}.` }),
          el("span", { class: "hit-id", text: h.id }),
          h.title ? el("span", { class: "hit-title", text: h.title }) : null,
          moved,
          el("span", { class: "hit-score", text: fmt(h.score) })),
        el("p", { class: "hit-snippet", text: h.snippet }),
        el("div", { class: "evidence" }, ...rows),
        result.evidence_is_additive
          ? el("div", { class: "sum", text: `parts add up: Σ ${fmt(sum)} = score ${fmt(h.score)}` })
          : null);
    })
  );
}

function summary(result) {
  const negatives = result.hits.some((h) => Object.keys(h.evidence).some((l) => l.startsWith("NOT ")));
  const how = result.composer_logical_form && negatives
    ? `composed as ${result.composer_logical_form}`
    : "ranked by the text as it is";
  return `${result.hits.length} hits · ${result.retriever} · ${how}`;
}

function showResults(main, flat) {
  $("form-panel").hidden = false;
  $("results-panel").hidden = false;
  $("logical-form").textContent = main.logical_form;
  $("mode-used").textContent = main.mode_used;
  $("notes").textContent = main.notes.length ? "rules: " + main.notes.join(", ") : "";
  originalTree = main.tree;
  editedTree = structuredClone(main.tree);
  renderTree();
  $("main-title").textContent = main.composer;
  $("main-summary").textContent = summary(main);
  renderHits($("results"), main, flat, "flat");
  $("flat-column").hidden = !flat;
  $("results-panel").querySelector(".columns").classList.toggle("single", !flat);
  if (flat) {
    $("flat-summary").textContent = summary(flat);
    renderHits($("flat-results"), flat, main, main.composer);
  }
}

// ---- running a search -------------------------------------------------------------------------
function composerSpec() {
  const options = $("composer-options").value.trim();
  return $("composer").value + (options ? "," + options : "");
}

async function runSearch() {
  showError("");
  const body = {
    query: $("query").value,
    mode: $("mode").value,
    composer: composerSpec(),
    k: Number.parseInt($("k").value, 10),
  };
  if ($("retriever").value) body.retriever = $("retriever").value;
  const compare = $("compare").checked && $("composer").value !== "flat";
  $("run").disabled = true;
  try {
    const [main, flat] = await Promise.all([
      api("/search", body),
      compare ? api("/search", { ...body, composer: "flat" }) : Promise.resolve(null),
    ]);
    showResults(main, flat);
    const params = new URLSearchParams({ q: body.query, mode: body.mode, composer: body.composer, k: body.k });
    if (body.retriever) params.set("retriever", body.retriever);
    history.replaceState(null, "", "?" + params.toString());
  } catch (error) {
    if (error.status === 401) $("token-box").hidden = false;
    showError(error.message);
  } finally {
    $("run").disabled = false;
  }
}

async function loadInfo() {
  try {
    const info = await api("/info");
    $("index-info").textContent =
      `${info.n_docs} documents · retrievers ${info.retrievers.join(", ")} · ` +
      `query ≤ ${info.limits.max_query_chars} chars, k ≤ ${info.limits.max_k}, ≤ ${info.limits.max_terms} terms`;
    for (const name of info.retrievers) $("retriever").append(el("option", { value: name, text: name }));
    const known = new Set([...$("composer").options].map((o) => o.value));
    for (const name of info.composers) if (!known.has(name)) $("composer").append(el("option", { value: name, text: name }));
    $("k").max = info.limits.max_k;
    $("query").maxLength = info.limits.max_query_chars;
    $("token-box").hidden = !info.auth;
    return true;
  } catch (error) {
    if (error.status === 401) {
      $("token-box").hidden = false;
      $("index-info").textContent = "this server needs a bearer token";
    } else {
      $("index-info").textContent = "cannot reach the server: " + error.message;
    }
    return false;
  }
}

function init() {
  $("token").value = sessionStorage.getItem("logir-token") || "";
  $("token").addEventListener("change", () => {
    sessionStorage.setItem("logir-token", token());
    loadInfo();
  });
  $("search-form").addEventListener("submit", (event) => {
    event.preventDefault();
    runSearch();
  });
  $("query").addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey) {
      event.preventDefault();
      runSearch();
    }
  });
  $("composer").addEventListener("change", () => {
    if ($("query").value.trim()) runSearch();
  });
  $("run-edited").addEventListener("click", () => {
    $("query").value = toSyntax(editedTree);
    $("mode").value = "syntax";
    runSearch();
  });
  $("reset-tree").addEventListener("click", () => {
    editedTree = structuredClone(originalTree);
    renderTree();
  });
  const params = new URLSearchParams(location.search);
  loadInfo().then(() => {
    if (params.get("retriever")) $("retriever").value = params.get("retriever");
    if (params.get("q")) runSearch();
  });
  if (params.get("q")) $("query").value = params.get("q");
  if (params.get("mode")) $("mode").value = params.get("mode");
  if (params.get("k")) $("k").value = params.get("k");
  if (params.get("composer")) {
    const [name, ...options] = params.get("composer").split(",");
    $("composer").value = name;
    $("composer-options").value = options.join(",");
  }
}

init();
