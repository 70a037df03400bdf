// logir pages' shared DOM helpers (the explorer and the API page load this script first).
// Plain browser JavaScript, no build step and nothing loaded from outside this server.
"use strict";

// the element with this id
const $ = (id) => document.getElementById(id);

// el("a", {class: "x", text: "hi", onclick: f, href: "#"}, child, ...): a new element;
// "class" sets the class name, "text" the text, "on..." adds a listener, any other key is an
// attribute; children that are null or undefined are left out
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  for (const child of children) if (child != null) node.append(child);
  return node;
}
