// logir review page: one annotator labels one item at a time; the summary shows the votes.
// Plain DOM, no framework; every piece of data goes in as text, never as HTML.
"use strict";

// The token never travels in a URL: the page asks for it once and the server answers with an
// HttpOnly cookie that stands for it.
const NAME_KEY = "logir-review-annotator";

const $ = (id) => document.getElementById(id);

const state = {
  annotator: "",
  item: null,
};

// forget what older versions kept: a token in the address bar or in session storage
sessionStorage.removeItem("logir-review-token");
if (new URLSearchParams(location.search).has("token")) {
  history.replaceState(null, "", location.pathname);
}

// ---- HTTP ---------------------------------------------------------------------------------

async function api(path, body) {
  const headers = { Accept: "application/json" };
  const init = { headers, credentials: "same-origin" };
  if (body !== undefined) {
    init.method = "POST";
    headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch (err) {
    throw new Error("the review server cannot be reached (" + err.message + ")");
  }
  let data = null;
  try {
    data = await res.json();
  } catch (err) {
    data = null;
  }
  if (res.status === 401 && !path.endsWith("/login")) showLogin(true);
  if (!res.ok) throw new Error((data && data.error) || res.status + " " + res.statusText);
  return data;
}

function showLogin(needed) {
  $("login").hidden = !needed;
  $("who").hidden = needed;
  document.querySelector("nav").hidden = needed;
  document.querySelector("main").hidden = needed;
  if (needed) $("token").focus();
}

async function login() {
  const token = $("token").value;
  if (!token) throw new Error("enter the review token");
  await api("api/review/login", { token });
  $("token").value = "";
  showLogin(false);
  await boot();
}

function showError(err) {
  const box = $("error");
  if (!err) {
    box.hidden = true;
    box.textContent = "";
    return;
  }
  box.textContent = err.message || String(err);
  box.hidden = false;
}

async function guarded(fn) {
  try {
    showError(null);
    await fn();
  } catch (err) {
    showError(err);
  }
}

// ---- small DOM helpers --------------------------------------------------------------------

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (key === "class") node.className = value;
    else if (key === "dataset") Object.assign(node.dataset, value);
    else node.setAttribute(key, value);
  }
  for (const child of children) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

function show(text) {
  if (text === null || text === undefined) return "";
  return typeof text === "string" ? text : JSON.stringify(text);
}

// `text` as nodes, every case-insensitive occurrence of a snippet wrapped in <mark>.
function highlighted(text, snippets) {
  const lower = text.toLowerCase();
  const spans = [];
  for (const s of snippets || []) {
    const needle = s.toLowerCase();
    if (!needle) continue;
    let at = lower.indexOf(needle);
    while (at >= 0) {
      spans.push([at, at + needle.length]);
      at = lower.indexOf(needle, at + needle.length);
    }
  }
  spans.sort((a, b) => a[0] - b[0]);
  const merged = [];
  for (const span of spans) {
    const last = merged[merged.length - 1];
    if (last && span[0] <= last[1]) last[1] = Math.max(last[1], span[1]);
    else merged.push(span.slice());
  }
  const nodes = [];
  let pos = 0;
  for (const [start, end] of merged) {
    if (start > pos) nodes.push(document.createTextNode(text.slice(pos, start)));
    nodes.push(el("mark", {}, text.slice(start, end)));
    pos = end;
  }
  if (pos < text.length) nodes.push(document.createTextNode(text.slice(pos)));
  return nodes;
}

// ---- the item -----------------------------------------------------------------------------

function renderFacts(item) {
  const facts = $("facts");
  facts.replaceChildren();
  const add = (name, value, code) => {
    if (value === null || value === undefined || value === "" || (Array.isArray(value) && !value.length)) return;
    const shown = Array.isArray(value) ? value.map(show).join(" · ") : show(value);
    facts.append(el("dt", {}, name), el("dd", { id: "fact-" + name.replace(/\s+/g, "-") },
      code ? el("code", {}, shown) : shown));
  };
  add("type", item.type);
  add("logical form", item.logical_form, true);
  add("answer", item.answer);
  add("conditions", item.conditions);
}

function renderTriplets(triplets) {
  const box = $("triplets-box");
  const body = $("triplets").tBodies[0];
  body.replaceChildren();
  const rows = Array.isArray(triplets) ? triplets : triplets ? [triplets] : [];
  for (const row of rows) {
    if (Array.isArray(row) && row.length === 3) {
      body.append(el("tr", {}, el("td", {}, show(row[0])), el("td", { class: "rel" }, show(row[1])),
        el("td", {}, show(row[2]))));
    } else {
      body.append(el("tr", {}, el("td", { colspan: "3" }, show(row))));
    }
  }
  box.hidden = rows.length === 0;
}

function renderEvidenceNotes(evidence) {
  const list = $("evidence-notes");
  list.replaceChildren();
  const notes = [];
  if (typeof evidence === "string") notes.push(evidence);
  else if (Array.isArray(evidence)) evidence.forEach((e) => notes.push(show(e)));
  else if (evidence && typeof evidence === "object") {
    for (const [key, value] of Object.entries(evidence)) notes.push(key + ": " + show(value));
  }
  notes.forEach((n) => list.append(el("li", {}, n)));
  $("evidence-notes-box").hidden = notes.length === 0;
}

function passageCard(p) {
  const classes = ["passage"];
  if (p.evidence) classes.push("evidence");
  if (p.violating) classes.push("violating");
  const head = el("div", { class: "head" },
    el("code", {}, p.id),
    p.title ? el("span", { class: "title" }, p.title) : null,
    p.evidence ? el("span", { class: "badge evidence" }, "evidence") : null,
    p.grade !== null && p.grade !== undefined ? el("span", { class: "badge" }, "grade " + p.grade) : null,
    p.violating ? el("span", { class: "badge violating" }, "violating") : null,
    p.missing ? el("span", { class: "badge violating" }, "not in corpus") : null);
  const text = el("p", {});
  text.append(...highlighted(p.text, p.snippets));
  return el("div", { class: classes.join(" "), dataset: { docId: p.id } }, head, text);
}

function renderItem(answer) {
  const item = answer.item;
  state.item = item;
  $("workspace").hidden = false;
  $("done").hidden = true;
  $("item").dataset.itemId = item.id;
  $("item-pos").textContent = "item " + (item.position + 1) + " of " + item.total;
  $("item-id").textContent = item.id;
  $("item-type").textContent = item.type || "no type";
  $("query-text").textContent = item.text;
  renderFacts(item);
  renderTriplets(item.triplets);
  renderEvidenceNotes(item.evidence);
  const evidence = item.passages.filter((p) => p.evidence);
  const other = item.passages.filter((p) => !p.evidence);
  $("evidence-passages").replaceChildren(...evidence.map(passageCard));
  $("other-passages").replaceChildren(...other.map(passageCard));
  $("evidence-count").textContent = "(" + evidence.length + ")";
  $("other-count").textContent = "(" + other.length + ")";
  const meta = item.meta || {};
  $("meta-box").hidden = Object.keys(meta).length === 0;
  $("meta").textContent = JSON.stringify(meta, null, 2);

  const label = answer.label;
  $("relabel").hidden = !label;
  setChoice("structure", label ? label.structure_ok : null);
  setChoice("evidence", label ? label.evidence_ok : null);
  $("comment").value = label ? label.comment : "";
  updateSubmit();
  window.scrollTo(0, 0);
}

function setChoice(name, value) {
  $(name + "-yes").checked = value === true;
  $(name + "-no").checked = value === false;
}

function choice(name) {
  if ($(name + "-yes").checked) return true;
  if ($(name + "-no").checked) return false;
  return null;
}

function updateSubmit() {
  $("submit").disabled = !state.item || choice("structure") === null || choice("evidence") === null;
}

function renderProgress(progress) {
  $("progress").max = Math.max(progress.total, 1);
  $("progress").value = progress.done;
  $("progress-text").textContent =
    progress.done + " of " + progress.total + " labelled by " + progress.annotator;
}

function renderAnswer(answer) {
  renderProgress(answer.progress);
  if (answer.item) {
    renderItem(answer);
  } else {
    state.item = null;
    $("workspace").hidden = true;
    $("done").hidden = false;
  }
}

async function loadNext() {
  if (!state.annotator) throw new Error("enter your name first");
  renderAnswer(await api("api/review/items?annotator=" + encodeURIComponent(state.annotator)));
}

async function loadItem(itemId) {
  if (!state.annotator) throw new Error("enter your name first");
  const path = "api/review/items/" + encodeURIComponent(itemId) +
    "?annotator=" + encodeURIComponent(state.annotator);
  renderAnswer(await api(path));
  switchView("review");
}

async function submitLabel() {
  if (!state.item) return;
  const structure = choice("structure");
  const evidence = choice("evidence");
  if (structure === null || evidence === null) throw new Error("answer both questions first");
  $("submit").disabled = true;
  try {
    await api("api/review/labels", {
      item_id: state.item.id,
      annotator: state.annotator,
      structure_ok: structure,
      evidence_ok: evidence,
      comment: $("comment").value,
    });
  } catch (err) {
    updateSubmit();
    throw err;
  }
  await loadNext();
}

// ---- summary ------------------------------------------------------------------------------

async function loadSummary() {
  const s = await api("api/review/summary");
  $("folder").textContent = s.folder;
  for (const key of ["total", "decided", "accepted", "rejected", "pending"]) {
    $("count-" + key).textContent = s[key];
  }
  $("rule").textContent = "An item is accepted when at least " + s.majority + " of its " +
    s.required + " annotators say yes to both structure conformity and evidence distribution.";
  const body = $("summary-table").tBodies[0];
  body.replaceChildren();
  for (const it of s.items) {
    const open = el("button", { class: "link", type: "button" }, "open");
    open.addEventListener("click", () => guarded(() => loadItem(it.id)));
    const voters = it.votes.map((v) => v.annotator + (v.yes ? " ✓" : " ✗")).join(", ");
    body.append(el("tr", { dataset: { itemId: it.id, status: it.status } },
      el("td", {}, el("code", {}, it.id)),
      el("td", {}, it.type || ""),
      el("td", {}, it.text),
      el("td", { class: "num", title: voters }, it.labels),
      el("td", { class: "num" }, it.structure_yes),
      el("td", { class: "num" }, it.evidence_yes),
      el("td", { class: "num" }, it.yes),
      el("td", { class: "status " + it.status }, it.status),
      el("td", {}, open)));
  }
  const people = $("annotators");
  people.replaceChildren();
  for (const [name, done] of Object.entries(s.annotators)) {
    people.append(el("li", {}, name + ": " + done + " of " + s.total));
  }
  if (!people.children.length) people.append(el("li", { class: "muted" }, "no labels yet"));
  $("export-root").textContent = s.export_root;
  if (!$("export-name").value) $("export-name").value = s.default_export;
}

async function exportAccepted() {
  $("export-result").textContent = "";
  const result = await api("api/review/export", {
    name: $("export-name").value.trim(),
    overwrite: $("export-overwrite").checked,
  });
  $("export-overwrite").checked = false;
  $("export-result").textContent =
    result.accepted + " accepted items written to " + result.out_dir;
}

// ---- views and wiring ---------------------------------------------------------------------

function switchView(view) {
  $("review-view").hidden = view !== "review";
  $("summary-view").hidden = view !== "summary";
  $("tab-review").classList.toggle("active", view === "review");
  $("tab-summary").classList.toggle("active", view === "summary");
  if (view === "summary") guarded(loadSummary);
}

function start() {
  const name = $("annotator").value.trim().replace(/\s+/g, " ");
  if (!name) throw new Error("enter your name first");
  state.annotator = name;
  localStorage.setItem(NAME_KEY, name);
  switchView("review");
  return loadNext();
}

$("login").addEventListener("submit", (e) => {
  e.preventDefault();
  guarded(login);
});
$("who").addEventListener("submit", (e) => {
  e.preventDefault();
  guarded(start);
});
$("label-form").addEventListener("submit", (e) => {
  e.preventDefault();
  guarded(submitLabel);
});
$("label-form").addEventListener("change", updateSubmit);
$("export-form").addEventListener("submit", (e) => {
  e.preventDefault();
  guarded(exportAccepted);
});
$("tab-review").addEventListener("click", () => switchView("review"));
$("tab-summary").addEventListener("click", () => switchView("summary"));
$("show-summary").addEventListener("click", () => switchView("summary"));

document.addEventListener("keydown", (e) => {
  if (!state.item || $("workspace").hidden) return;
  const typing = ["INPUT", "TEXTAREA"].includes(document.activeElement.tagName) &&
    document.activeElement.type !== "radio";
  if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
    e.preventDefault();
    if (!$("submit").disabled) guarded(submitLabel);
    return;
  }
  if (typing) return;
  const keys = { 1: ["structure", true], 2: ["structure", false], 3: ["evidence", true], 4: ["evidence", false] };
  if (keys[e.key]) {
    const [name, value] = keys[e.key];
    setChoice(name, value);
    updateSubmit();
  }
});

async function boot() {
  const session = await api("api/review/session");
  if (session.token_required && !session.logged_in) {
    showLogin(true);
    return;
  }
  showLogin(false);
  const s = await api("api/review/summary");
  $("folder").textContent = s.folder;
  const remembered = localStorage.getItem(NAME_KEY);
  if (remembered) {
    $("annotator").value = remembered;
    await start();
  }
}

guarded(boot);
