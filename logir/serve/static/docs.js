// logir API page: built in the browser from this server's /openapi.json, with a form to try each
// operation. Plain browser JavaScript, nothing loaded from outside this server (works offline).
"use strict";

// $ and el come from dom.js, loaded before this script

let spec = null;

// ---- schemas ----------------------------------------------------------------------------------
function resolve(schema) {
  // a {"$ref": "#/components/schemas/Name"} -> the schema it names (one level)
  if (schema && schema.$ref) {
    const name = schema.$ref.split("/").pop();
    return (spec.components && spec.components.schemas && spec.components.schemas[name]) || {};
  }
  return schema || {};
}

function typeName(schema) {
  if (!schema) return "any";
  if (schema.$ref) return schema.$ref.split("/").pop();
  if (schema.enum) return schema.enum.map((v) => JSON.stringify(v)).join(" | ");
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  for (const key of ["anyOf", "oneOf"]) {
    if (schema[key]) return schema[key].map(typeName).join(" | ");
  }
  if (schema.type === "array") return `array of ${typeName(schema.items)}`;
  if (schema.type === "object" && schema.additionalProperties) {
    return `object of ${typeName(schema.additionalProperties)}`;
  }
  return schema.type || "any";
}

function bounds(schema) {
  const parts = [];
  const pairs = [["minLength", "min length"], ["maxLength", "max length"],
                 ["minimum", "≥"], ["maximum", "≤"], ["exclusiveMinimum", ">"],
                 ["exclusiveMaximum", "<"]];
  for (const [key, label] of pairs) if (schema[key] !== undefined) parts.push(`${label} ${schema[key]}`);
  if (schema.default !== undefined) parts.push(`default ${JSON.stringify(schema.default)}`);
  return parts.join(", ");
}

function fieldsTable(schema) {
  const resolved = resolve(schema);
  const props = resolved.properties || {};
  const required = new Set(resolved.required || []);
  const rows = Object.entries(props).map(([name, prop]) =>
    el("tr", {},
      el("td", { text: name + (required.has(name) ? " *" : "") }),
      el("td", { text: typeName(prop) }),
      el("td", { text: bounds(prop) }),
      el("td", { class: "desc", text: prop.description || prop.title || "" })));
  if (!rows.length) return el("p", { class: "muted", text: typeName(schema) });
  return el("table", { class: "fields" },
    el("thead", {}, el("tr", {}, ...["field", "type", "bounds", "meaning"].map((t) => el("th", { text: t })))),
    el("tbody", {}, ...rows));
}

function bodySchema(content) {
  const json = content && content["application/json"];
  return json ? json.schema : null;
}

// ---- trying an operation ----------------------------------------------------------------------
function example(schema) {
  const resolved = resolve(schema);
  const out = {};
  for (const [name, prop] of Object.entries(resolved.properties || {})) {
    if (prop.examples && prop.examples.length) out[name] = prop.examples[0];
    else if (prop.default !== undefined && prop.default !== null) out[name] = prop.default;
  }
  return JSON.stringify(out, null, 1);
}

async function send(method, path, bodyText, output) {
  const headers = {};
  const token = $("token").value.trim();
  if (token) headers.Authorization = "Bearer " + token;
  if (method !== "get") headers["Content-Type"] = "application/json";
  output.textContent = "…";
  try {
    const response = await fetch(path, { method: method.toUpperCase(), headers,
                                         body: method === "get" ? undefined : bodyText });
    const text = await response.text();
    let shown = text;
    try { shown = JSON.stringify(JSON.parse(text), null, 1); } catch (_) { /* not JSON */ }
    output.textContent = `HTTP ${response.status}\n${shown}`;
  } catch (error) {
    output.textContent = `request failed: ${error.message}`;
  }
}

function tryBox(method, path, op) {
  const schema = op.requestBody ? bodySchema(op.requestBody.content) : null;
  const body = schema ? el("textarea", { rows: "5", "aria-label": `${path} body` }) : null;
  if (body) body.value = example(schema);
  const output = el("pre", { class: "result", hidden: "" });
  const button = el("button", { type: "button", text: `${method.toUpperCase()} ${path}`,
    onclick: () => { output.hidden = false; send(method, path, body ? body.value : undefined, output); } });
  return el("div", { class: "try" }, el("h3", { text: "Try it" }), body, el("p", {}, button), output);
}

// ---- the page ---------------------------------------------------------------------------------
function operation(path, method, op) {
  const id = `${method}-${path.replace(/[^a-z0-9]+/gi, "-")}`;
  const card = el("section", { class: "op", id },
    el("h2", {}, el("span", { class: `method ${method}`, text: method.toUpperCase() }),
       el("code", { text: path }), el("span", { class: "muted", text: op.summary || "" })));
  if (op.description) card.append(el("p", { class: "desc", text: op.description }));
  if (op.requestBody) {
    card.append(el("h3", { text: "Request body (JSON)" }), fieldsTable(bodySchema(op.requestBody.content)));
  }
  const responses = Object.entries(op.responses || {});
  if (responses.length) {
    card.append(el("h3", { text: "Responses" }));
    const list = el("ul");
    for (const [status, response] of responses) {
      const schema = bodySchema(response.content);
      list.append(el("li", {}, el("code", { text: status }), " " + (response.description || ""),
        schema ? el("span", { class: "muted", text: ` — ${typeName(schema)}` }) : null));
    }
    card.append(list);
  }
  card.append(tryBox(method, path, op));
  return card;
}

function render() {
  const info = spec.info || {};
  $("api-summary").textContent = [info.title, info.version, info.summary].filter(Boolean).join(" · ");
  const ops = $("operations");
  for (const [path, methods] of Object.entries(spec.paths || {})) {
    for (const [method, op] of Object.entries(methods)) {
      const card = operation(path, method, op);
      ops.append(card);
      $("toc").append(el("a", { href: `#${card.id}`, text: `${method.toUpperCase()} ${path}` }));
    }
  }
  const schemas = (spec.components && spec.components.schemas) || {};
  for (const [name, schema] of Object.entries(schemas)) {
    $("schemas").append(el("section", { id: `schema-${name}` },
      el("h3", {}, el("code", { text: name })),
      schema.description ? el("p", { class: "desc", text: schema.description }) : null,
      fieldsTable({ $ref: `#/components/schemas/${name}` })));
  }
}

async function start() {
  try {
    const response = await fetch("/openapi.json");
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    spec = await response.json();
    render();
  } catch (error) {
    const box = $("error");
    box.textContent = `could not read /openapi.json: ${error.message}`;
    box.hidden = false;
  }
}

start();
