// DOM helpers. Every value reaches the page as text (textContent or attribute values), never as markup.

/**
 * Creates an element. `attrs` sets attributes (`class`, `for`, `aria-*`, ...), except `on*` keys that add
 * listeners and `text` that sets textContent; `children` are nodes or strings (added as text).
 */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "text") node.textContent = String(value);
    else if (name.startsWith("on") && typeof value === "function") node.addEventListener(name.slice(2), value);
    else if (name === "value") node.value = value;
    else if (name === "checked") node.checked = Boolean(value);
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  append(node, children);
  return node;
}

export function append(node, children) {
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** An SVG element, with attributes only. */
export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (name === "text") node.textContent = String(value);
    else node.setAttribute(name, String(value));
  }
  for (const child of children.flat()) if (child) node.append(child);
  return node;
}

export function clear(node) {
  while (node.firstChild) node.firstChild.remove();
  return node;
}

let nextId = 0;
/** A fresh element id. */
export function uid(prefix) {
  nextId += 1;
  return `${prefix}-${nextId}`;
}

/** A labelled control: {wrapper, control, error}; the error line is announced through aria-describedby. */
export function field(label, control, { hint, pointer } = {}) {
  const id = control.id || uid("field");
  control.id = id;
  const error = el("p", { class: "field-error", id: `${id}-error`, role: "status", hidden: true });
  const described = [`${id}-error`];
  const parts = [el("label", { for: id, text: label })];
  if (hint) {
    parts.push(el("p", { class: "hint", id: `${id}-hint`, text: hint }));
    described.push(`${id}-hint`);
  }
  control.setAttribute("aria-describedby", described.join(" "));
  if (pointer !== undefined) control.dataset.pointer = pointer;
  const wrapper = el("div", { class: "field" }, parts, control, error);
  return { wrapper, control, error };
}

export function input(attrs = {}) {
  return el("input", { type: "text", ...attrs });
}

export function select(options, value, attrs = {}) {
  const node = el("select", attrs);
  for (const option of options) {
    const [optionValue, label] = Array.isArray(option) ? option : [option, option];
    node.append(el("option", { value: optionValue, text: label }));
  }
  if (value !== undefined && value !== null) node.value = String(value);
  return node;
}

export function button(label, onclick, attrs = {}) {
  return el("button", { type: "button", onclick, ...attrs, text: label });
}

/** Shows a message in a live region; `kind` is info, ok or error. */
export function notice(node, message, kind = "info") {
  clear(node);
  node.className = `notice notice-${kind}`;
  node.hidden = !message;
  if (message) node.append(...(Array.isArray(message) ? message : [message]).map((m) => (m instanceof Node ? m : document.createTextNode(m))));
}

/** A table from column headers and rows of cells (strings or nodes). */
export function table(caption, headers, rows, attrs = {}) {
  return el(
    "table",
    attrs,
    caption ? el("caption", { text: caption }) : null,
    el("thead", {}, el("tr", {}, headers.map((h) => el("th", { scope: "col", text: h })))),
    el("tbody", {}, rows.map((row) => el("tr", row.attrs || {}, (row.cells || row).map((c) => el("td", {}, c))))),
  );
}

/** A UTC time as `2026-12-01 09:00:00 UTC`. */
export function utc(iso) {
  if (!iso) return "—";
  return `${iso.replace("T", " ").replace(/\.\d+Z$|Z$/, "")} UTC`;
}

/** Pretty JSON text. */
export function pretty(value) {
  return JSON.stringify(value, null, 2);
}

/** The message of an error for a person, with its status. */
export function describe(error) {
  if (error && error.status) return `${error.status}: ${error.message}`;
  return String(error && error.message ? error.message : error);
}

/** Moves to a route; the same route again renders it afresh. */
export function go(hash) {
  if (location.hash === hash) window.dispatchEvent(new HashChangeEvent("hashchange"));
  else location.hash = hash;
}

/** Appends children to `node`, skipping null, undefined and false (which the DOM's own append prints as text). */
export function put(node, ...children) {
  return append(node, children);
}
