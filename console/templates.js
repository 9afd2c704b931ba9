// Templates: one tab per locale, an editor whose unsaved text previews live through POST .../preview (the draft is
// sent as `templates`, validated as a write would be, and not stored), ICU errors marked at their offset, and the
// plural categories the locale's language needs.
import { ApiError, call, seg } from "./api.js";
import { button, clear, describe, el, field, go, input, notice, put, select } from "./dom.js";
import { errorText, showErrors } from "./fields.js";
import { categoryPicker } from "./categories.js";
import { pluralTable } from "./plurals.js";
import { renderPreview } from "./preview.js";
import { showTemplateConflict } from "./template-conflict.js";

const FIELDS = [
  ["title", "Title"],
  ["body", "Body"],
  ["fallback_body", "Fallback body (when the app cannot build its own)"],
  ["digest_title", "Digest title"],
  ["digest_body", "Digest body"],
];

// The server counts an error's offset in code points; a JavaScript string index counts UTF-16 units, two for an
// emoji or any character beyond the Basic Multilingual Plane.
function utf16Index(text, codePoints) {
  let index = 0;
  for (const character of text) {
    if (codePoints <= 0) break;
    index += character.length;
    codePoints -= 1;
  }
  return index;
}

// A locale tag in its canonical form ("pl_pl" and "PL-pl" are "pl-PL"), or as given when it is not a tag.
function canonicalLocale(tag) {
  try {
    return Intl.getCanonicalLocales(tag.trim().replace(/_/g, "-"))[0] ?? tag;
  } catch {
    return tag;
  }
}

export async function render(root, params, session) {
  put(root, el("h2", { text: "Templates" }), await categoryPicker("templates", params[0]));
  if (!params[0]) return;
  const answer = await call("GET", `/v1/categories/${seg(params[0])}`);
  let category = answer.body;
  let etag = answer.etag;
  const locales = Object.keys(category.templates).sort();
  // A tag as typed ("PL", "pl_pl") names the stored locale the server would store it under: its tab shows that
  // locale's templates, and saving it replaces them knowingly.
  const wanted = canonicalLocale(params[1] || category.default_locale);
  const locale = locales.find((tag) => tag.toLowerCase() === wanted.toLowerCase()) ?? wanted;
  if (params[1] && params[1] !== locale) {
    go(`#/templates/${seg(category.id)}/${seg(locale)}`);
    return;
  }
  const writable = session.access.categoriesWrite;

  const tabs = el("div", { role: "tablist", class: "locale-tabs", "aria-label": "Locales" });
  for (const tag of [...new Set([...locales, locale])]) {
    const selected = tag === locale;
    put(tabs, 
      el("button", {
        type: "button", role: "tab", id: `tab-${tag}`, "aria-selected": String(selected), tabindex: selected ? "0" : "-1",
        "aria-controls": "template-panel", "data-locale": tag, text: locales.includes(tag) ? tag : `${tag} (new)`,
        onclick: () => go(`#/templates/${seg(category.id)}/${seg(tag)}`),
      }),
    );
  }
  tabs.addEventListener("keydown", (event) => {
    const buttons = [...tabs.querySelectorAll("[role=tab]")];
    const index = buttons.indexOf(document.activeElement);
    const step = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
    if (index < 0 || !step) return;
    const next = buttons[(index + step + buttons.length) % buttons.length];
    next.focus();
    next.click();
  });
  const addLocale = input({ id: "new-locale", placeholder: "e.g. pl", size: 8 });
  const add = el(
    "form",
    { class: "inline", "aria-label": "Add a locale", onsubmit: (e) => { e.preventDefault(); if (addLocale.value.trim()) go(`#/templates/${seg(category.id)}/${seg(addLocale.value.trim())}`); } },
    field("Add a locale", addLocale).wrapper,
    el("button", { type: "submit", text: "Open tab", id: "new-locale-open" }),
  );

  const stored = category.templates[locale] || {};
  const form = el("form", { id: "template-panel", role: "tabpanel", "aria-labelledby": `tab-${locale}`, class: "template-editor", novalidate: true });
  const summary = el("div", { class: "notice notice-error", role: "alert", hidden: true, id: "template-errors" });
  const status = el("div", { class: "notice", role: "status", hidden: true, id: "template-status" });
  const areas = {};
  for (const [name, label] of FIELDS) {
    const area = el("textarea", { id: `tpl-${name}`, rows: name.endsWith("body") ? 3 : 1, spellcheck: "false", value: stored[name] ?? "" });
    area.readOnly = !writable;
    const f = field(label, area, { pointer: `/templates/${locale}/${name}` });
    put(f.wrapper, el("pre", { class: "marked", id: `tpl-${name}-mark`, hidden: true, "aria-label": `${label} with the error marked` }));
    areas[name] = area;
    put(form, f.wrapper);
  }
  const save = el("button", { type: "submit", class: "primary", id: "template-save", text: `Save ${locale} templates` });
  save.disabled = !writable;
  put(form, el("div", { class: "toolbar" }, save));

  const draft = () => {
    const templates = {};
    for (const [name] of FIELDS) templates[name] = areas[name].value === "" ? null : areas[name].value;
    return templates;
  };
  const sameAsStored = () => FIELDS.every(([name]) => (stored[name] ?? "") === areas[name].value);

  const controls = previewControls(locale);
  const output = el("div", { id: "preview-output", "aria-live": "polite" });
  const plurals = el("div", { id: "plurals" });
  const drawPlurals = () => put(clear(plurals), pluralTable(controls.locale.value || locale, draft()));

  // Marks each ICU error's offset inside a copy of the text; after a save, also places the caret there. The live
  // preview leaves the caret alone: the user is still typing where it is.
  const mark = (errors, { caret = false } = {}) => {
    for (const [name] of FIELDS) document.getElementById(`tpl-${name}-mark`).hidden = true;
    for (const error of errors) {
      const match = /^\/templates\/[^/]+\/([a-z_]+)$/.exec(error.pointer || "");
      if (!match || !areas[match[1]] || !Number.isInteger(error.offset)) continue;
      const text = areas[match[1]].value;
      const at = utf16Index(text, error.offset);
      const marked = at < text.length ? String.fromCodePoint(text.codePointAt(at)) : "";
      const pre = clear(document.getElementById(`tpl-${match[1]}-mark`));
      put(pre, 
        text.slice(0, at),
        el("mark", { class: "icu-error", title: errorText(error), text: marked || "⏎" }),
        text.slice(at + marked.length),
      );
      pre.hidden = false;
      if (caret) areas[match[1]].setSelectionRange(at, at);
    }
  };

  let sequence = 0;
  const refresh = async () => {
    const mine = (sequence += 1);
    const body = controls.request();
    if (!sameAsStored()) body.templates = { [locale]: draft() };
    drawPlurals();
    try {
      const preview = await call("POST", `/v1/categories/${seg(category.id)}/preview`, { body });
      if (mine !== sequence) return;
      showErrors(form, summary, []);
      mark([]);
      renderPreview(output, preview.body, !sameAsStored());
    } catch (error) {
      if (mine !== sequence) return;
      if (error instanceof ApiError && error.status === 422) {
        const errors = error.fieldErrors;
        showErrors(form, summary, errors, undefined, { focus: false });
        mark(errors);
        put(clear(output), el("p", { class: "notice notice-error", id: "preview-refused", text: "No preview: the templates have errors (marked above)." }));
      } else {
        put(clear(output), el("p", { class: "notice notice-error", text: describe(error) }));
      }
    }
  };
  let timer = null;
  const soon = () => {
    clearTimeout(timer);
    timer = setTimeout(refresh, 250);
  };
  for (const area of Object.values(areas)) area.addEventListener("input", soon);
  controls.onChange(refresh);

  const conflict = el("section", { id: "template-conflict", class: "conflict", hidden: true, "aria-live": "assertive" });
  const saveWith = async (ifMatch) => {
    notice(status, "");
    try {
      const answer = await call("PUT", `/v1/categories/${seg(category.id)}/templates/${seg(locale)}`, { body: draft(), etag: ifMatch });
      category = answer.body;
      etag = answer.etag;
      const saved = category.templates[locale] || {};
      for (const [name] of FIELDS) stored[name] = saved[name] ?? undefined;
      conflict.hidden = true;
      notice(status, `Saved ${locale}: version ${category.version}.`, "ok");
      await refresh();
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (error.status === 422) {
        showErrors(form, summary, error.fieldErrors);
        mark(error.fieldErrors, { caret: true });
        notice(status, "Not saved: fix the errors marked below.", "error");
      } else if (error.status === 412) {
        await showTemplateConflict(conflict, {
          categoryId: category.id, openedVersion: category.version, locale, fields: FIELDS, opened: { ...stored },
          mine: draft(), error, saveOver: saveWith, applyOnTheirs,
        });
      } else {
        notice(status, describe(error), "error");
      }
    }
  };
  // Their version becomes the one opened, the editor shows it with your changed fields on top, and that is saved.
  const applyOnTheirs = (theirEtag, merged, their) => {
    for (const [name] of FIELDS) {
      stored[name] = their[name] ?? undefined;
      areas[name].value = merged[name] ?? "";
    }
    return saveWith(theirEtag);
  };
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    saveWith(etag);
  });

  put(root, 
    el("p", { class: "meta", text: `${category.name} — version ${category.version}, default locale ${category.default_locale}` }),
    el("div", { class: "toolbar" }, tabs, add),
    writable ? null : el("p", { class: "notice notice-info", text: "Read-only: this key cannot change templates." }),
    status,
    conflict,
    summary,
    el("div", { class: "columns" }, el("div", {}, form, plurals), el("section", { class: "preview", "aria-label": "Preview" }, el("h3", { text: "Preview" }), controls.node, output)),
  );
  await refresh();
}

/** The preview's locale, platform, count and sample event. */
function previewControls(locale) {
  const localeInput = input({ id: "preview-locale", value: locale, size: 10 });
  const platform = select([["apns", "APNs"], ["fcm", "FCM"], ["webpush", "Web Push"], ["wns", "WNS"]], "apns", { id: "preview-platform" });
  const count = input({ id: "preview-count", type: "number", min: "1", max: "10000", value: "1", list: "count-examples" });
  const examples = el("datalist", { id: "count-examples" }, ["1", "2", "5", "21", "100"].map((n) => el("option", { value: n })));
  const quick = el("div", { class: "quick", role: "group", "aria-label": "Example counts" });
  const actors = input({ id: "preview-actors", value: "Asha, Ben" });
  const data = el("textarea", { id: "preview-data", rows: 2, spellcheck: "false", value: '{"preview": "Cześć!"}' });
  const listeners = [];
  for (const n of ["1", "2", "5", "21", "100"]) {
    put(quick, button(n, () => { count.value = n; listeners.forEach((f) => f()); }, { "aria-label": `Count ${n}`, "data-count": n }));
  }
  for (const control of [localeInput, platform, count, actors, data]) control.addEventListener("change", () => listeners.forEach((f) => f()));
  return {
    locale: localeInput,
    node: el(
      "div",
      { class: "grid" },
      field("Locale", localeInput).wrapper,
      field("Platform", platform).wrapper,
      el("div", {}, field("Count", count, { hint: "Above 1: the digest of a burst" }).wrapper, quick, examples),
      field("Actors (comma-separated)", actors).wrapper,
      field("Event data (JSON)", data).wrapper,
    ),
    onChange: (f) => listeners.push(f),
    request: () => {
      let sample = {};
      try {
        sample = JSON.parse(data.value || "{}");
      } catch {
        sample = {};
      }
      const body = { locale: localeInput.value.trim() || undefined, platform: platform.value, count: Number(count.value) || 1, data: sample };
      const names = actors.value.split(",").map((s) => s.trim()).filter(Boolean);
      if (names.length) body.actors = names;
      body.thread_id = "preview-thread";
      return body;
    },
  };
}
