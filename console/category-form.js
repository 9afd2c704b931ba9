// The category editor: every option of the category, saved with If-Match. The server's problem pointers are shown
// next to the fields they name; a stale If-Match is shown as a conflict with both versions, never as a raw 412.
import { ApiError, call, seg, versionOf } from "./api.js";
import { button, clear, describe, el, field, go, input, notice, put, select, table, utc } from "./dom.js";
import { clearErrors, showErrors } from "./fields.js";
import { archiveOrRestore } from "./categories.js";
import { allHistory } from "./history.js";

/** The editable options; `path` is the member's JSON pointer in the category document. */
const OPTIONS = [
  { path: "/name", label: "Name", kind: "text" },
  { path: "/description", label: "Description", kind: "textarea" },
  { path: "/default_preference", label: "Default preference", kind: "select", options: ["on", "off", "digest"] },
  { path: "/required", label: "Required (ignores opt-out, digest and mutes)", kind: "checkbox" },
  { path: "/delivery_mode", label: "Delivery mode", kind: "select", options: ["system", "app", "combined"] },
  { path: "/priority", label: "Priority", kind: "select", options: ["normal", "high"] },
  {
    path: "/interruption_level",
    label: "Interruption level",
    kind: "select",
    options: ["active", "passive", "time-sensitive", "critical"],
  },
  {
    path: "/kind",
    label: "Kind",
    kind: "select",
    options: ["notification", "live_activity"],
    hint: "live_activity updates an iOS Live Activity; it does not collapse and never takes quiet hours silent",
  },
  {
    path: "/quiet_hours",
    label: "During quiet hours",
    kind: "select",
    options: ["defer", "silent", "bypass", "drop"],
    byKind: { notification: "defer", live_activity: "bypass" },
    hint: "Unless set: defer for a notification, bypass for a live_activity category",
  },
  { path: "/ttl_seconds", label: "Time to live (seconds)", kind: "number" },
  { path: "/collapse/key_template", label: "Collapse key template", kind: "text", hint: "e.g. msg:{thread_id}" },
  { path: "/collapse/window_seconds", label: "Collapse window (seconds)", kind: "number" },
  { path: "/rate_limit/count", label: "Rate limit: pushes", kind: "number" },
  { path: "/rate_limit/window_seconds", label: "Rate limit: window (seconds)", kind: "number" },
  { path: "/rate_limit/halve_after_dismissals", label: "Halve the limit after N dismissals", kind: "number" },
  { path: "/counts_toward_user_rate_limit", label: "Counts toward the user-wide budget", kind: "checkbox" },
  {
    path: "/counts_toward_badge",
    label: "Counts toward the badge",
    kind: "checkbox",
    byKind: { notification: true, live_activity: false },
    hint: "Unless set: yes for a notification; a live_activity category never counts (its updates leave no feed entry)",
  },
  { path: "/thread_key_template", label: "Thread key template", kind: "text" },
  { path: "/image_template", label: "Image template (https://…)", kind: "text" },
  { path: "/link_template", label: "Link template", kind: "text", hint: "e.g. chat://t/{thread_id}" },
  { path: "/relevance_score", label: "Relevance score (0 to 1)", kind: "number", step: "any" },
  { path: "/apns_category", label: "APNs category", kind: "text" },
  { path: "/android_channel_id", label: "Android channel id", kind: "text" },
  { path: "/default_locale", label: "Default locale", kind: "text" },
];
// Options with a `byKind` default are absent here: until the person sets one, the form shows the default of the
// chosen kind and leaves the member out of the document, so the server applies that kind's default.
const DEFAULTS = {
  default_preference: "on", required: false, delivery_mode: "system", priority: "normal", kind: "notification",
  interruption_level: "active", ttl_seconds: 86400, counts_toward_user_rate_limit: true, default_locale: "en",
  description: "",
};

function read(doc, path) {
  return path.slice(1).split("/").reduce((value, key) => (value == null ? undefined : value[key]), doc);
}

function controlFor(option, value) {
  const id = `cat-${option.path.slice(1).replace(/\//g, "-")}`;
  if (option.kind === "select") return select(option.options, value, { id });
  if (option.kind === "checkbox") return el("input", { type: "checkbox", id, checked: Boolean(value) });
  if (option.kind === "textarea") return el("textarea", { id, rows: 2, value: value ?? "" });
  const attrs = { id, value: value ?? "" };
  if (option.kind === "number") Object.assign(attrs, { type: "number", step: option.step || "1", inputmode: "decimal" });
  return input(attrs);
}

/**
 * The category document the form holds; a number field that does not parse is sent as typed, for the server to
 * name. A control still following its kind's default is left out, unless `shown` asks for what the form shows.
 */
function documentOf(controls, { shown = false } = {}) {
  const doc = {};
  for (const [path, control] of controls) {
    if (!shown && control.dataset.followsKind === "true") continue;
    let value;
    if (control.type === "checkbox") value = control.checked;
    else if (control.value.trim() === "") continue;
    else if (control.type === "number") value = Number.isFinite(Number(control.value)) ? Number(control.value) : control.value;
    else value = control.value;
    const keys = path.slice(1).split("/");
    let target = doc;
    for (const key of keys.slice(0, -1)) target = target[key] = target[key] || {};
    target[keys[keys.length - 1]] = value;
  }
  return doc;
}

export async function renderForm(root, id, session) {
  const creating = id === null;
  let loaded = null;
  let etag = null;
  if (!creating) {
    const answer = await call("GET", `/v1/categories/${seg(id)}`);
    loaded = answer.body;
    etag = answer.etag;
  }
  const doc = loaded || DEFAULTS;
  const writable = session.access.categoriesWrite;
  const form = el("form", { class: "category-form", novalidate: true, "aria-label": "Category options" });
  const summary = el("div", { class: "notice notice-error", role: "alert", hidden: true, id: "form-errors" });
  const status = el("div", { class: "notice", role: "status", hidden: true, id: "form-status" });
  const controls = new Map();

  if (creating) {
    const idField = field("Id (a slug: a-z 0-9 . _ -)", input({ id: "cat-id", required: true }), { pointer: "/id" });
    put(form, idField.wrapper);
    controls.set("/id", idField.control);
  }
  const grid = el("div", { class: "grid" });
  const docKind = doc.kind || "notification";
  for (const option of OPTIONS) {
    const given = read(doc, option.path);
    const control = controlFor(option, given === undefined && option.byKind ? option.byKind[docKind] : given);
    const f = field(option.label, control, { hint: option.hint, pointer: option.path });
    if (option.kind === "checkbox") f.wrapper.classList.add("check");
    if (option.byKind) {
      // A stored value equal to its kind's default keeps following the kind: a change of kind moves it along.
      control.dataset.followsKind = String(given === undefined || given === option.byKind[docKind]);
      control.addEventListener("change", () => {
        control.dataset.followsKind = "false";
      });
    }
    control.disabled = !writable;
    controls.set(option.path, control);
    put(grid, f.wrapper);
  }
  put(form, grid);
  followKind(controls);

  let firstTitle = null;
  let firstBody = null;
  if (creating) {
    firstTitle = field("Title template (default locale)", input({ id: "cat-first-title", value: "{actor}" }));
    firstBody = field("Body template (default locale)", el("textarea", { id: "cat-first-body", rows: 3 }), {
      hint: "ICU MessageFormat, e.g. {count, plural, one {# new message} other {# new messages}}",
    });
    put(form, el("fieldset", {}, el("legend", { text: "First templates" }), firstTitle.wrapper, firstBody.wrapper));
  }
  const resolve = (pointer) => {
    if (!creating) return null;
    if (/^\/templates\/[^/]+\/title$/.test(pointer)) return firstTitle.control;
    if (/^\/templates\/[^/]+(\/body)?$/.test(pointer)) return firstBody.control;
    return null;
  };

  const save = el("button", { type: "submit", class: "primary", id: "category-save", text: creating ? "Create" : "Save" });
  save.disabled = !writable;
  put(form, el("div", { class: "toolbar" }, save));
  const conflict = el("section", { id: "conflict", class: "conflict", hidden: true, "aria-live": "assertive" });

  const heading = creating ? "New category" : `Category ${loaded.id}`;
  const meta = creating
    ? null
    : el(
        "p",
        { class: "meta", id: "category-meta" },
        `Version ${loaded.version}, updated ${utc(loaded.updated_at)}. `,
        loaded.archived ? el("strong", { text: `Archived ${utc(loaded.archived_at)}.` }) : "Active.",
      );
  const links = creating
    ? null
    : el(
        "p",
        { class: "actions" },
        el("a", { href: `#/templates/${seg(loaded.id)}`, text: "Templates and preview" }),
        el("a", { href: `#/history/${seg(loaded.id)}`, text: "History" }),
        el("a", { href: `#/stats/${seg(loaded.id)}`, text: "Stats" }),
        writable
          ? button(loaded.archived ? "Restore" : "Archive", async () => {
              try {
                await archiveOrRestore(loaded);
                go(`#/categories/${seg(loaded.id)}`);
              } catch (error) {
                notice(status, describe(error), "error");
              }
            }, { id: "category-archive" })
          : null,
      );
  put(root, 
    el("p", {}, el("a", { href: "#/categories", text: "← All categories" })),
    el("h2", { text: heading }),
    meta,
    links,
    writable ? null : el("p", { class: "notice notice-info", text: "Read-only: this key cannot change categories." }),
    status,
    conflict,
    summary,
    form,
  );

  const submit = async (overrideEtag, theirTemplates) => {
    clearErrors(form, summary);
    notice(status, "");
    const body = documentOf(controls);
    try {
      if (creating) {
        body.templates = { [body.default_locale || "en"]: { title: firstTitle.control.value || null, body: firstBody.control.value || null } };
        const answer = await call("POST", "/v1/categories", { body });
        go(`#/templates/${seg(answer.body.id)}`);
        return;
      }
      body.templates = theirTemplates || loaded.templates;
      const answer = await call("PUT", `/v1/categories/${seg(loaded.id)}`, { body, etag: overrideEtag || etag });
      loaded = answer.body;
      etag = answer.etag;
      conflict.hidden = true;
      document.getElementById("category-meta").firstChild.textContent =
        `Version ${loaded.version}, updated ${utc(loaded.updated_at)}. `;
      notice(status, `Saved: version ${loaded.version}.`, "ok");
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (error.status === 412) return showConflict(conflict, loaded, error, submit, controls);
      if (error.status === 422 || error.status === 400) {
        showErrors(form, summary, error.fieldErrors.length ? error.fieldErrors : [{ pointer: "", detail: error.message }], resolve);
        notice(status, "Not saved: fix the fields marked below.", "error");
        return;
      }
      notice(status, describe(error), "error");
    }
  };
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    submit();
  });
}

/** Moves every control still following the kind to the default of the kind now chosen. */
function followKind(controls) {
  const kind = controls.get("/kind");
  const update = () => {
    for (const option of OPTIONS.filter((o) => o.byKind)) {
      const control = controls.get(option.path);
      if (control.dataset.followsKind === "true") setControl(control, option.byKind[kind.value]);
    }
  };
  kind.addEventListener("change", update);
}

/** An option's value as compared: absent, null and empty text are all "not set". */
function normal(value) {
  return value === undefined || value === null || value === "" ? null : value;
}

/** An option's value for a person: "(not set)", yes/no, or the value. */
function shown(value) {
  const v = normal(value);
  if (v === null) return "(not set)";
  if (typeof v === "boolean") return v ? "yes" : "no";
  return typeof v === "object" ? JSON.stringify(v) : String(v);
}

/** Puts `value` into an option's control. */
function setControl(control, value) {
  if (control.type === "checkbox") control.checked = Boolean(value);
  else control.value = normal(value) ?? "";
}

/**
 * The conflict: who changed the category since it was opened, and for every option that either side changed, the
 * value when it was opened, yours and theirs side by side; then load theirs, apply your edits onto theirs, or save
 * yours over it.
 */
async function showConflict(box, opened, error, submit, controls) {
  const mine = documentOf(controls, { shown: true });
  const theirEtag = error.headers.get("ETag");
  const theirs = (await call("GET", `/v1/categories/${seg(opened.id)}`)).body;
  let change = null;
  try {
    change = (await allHistory(opened.id)).find((c) => c.version === theirs.version) || null;
  } catch {
    change = null;
  }
  const who = change?.actor?.name || change?.actor?.key_id || "another key";
  const differs = (a, b) => JSON.stringify(normal(a)) !== JSON.stringify(normal(b));
  const changes = OPTIONS.map((option) => {
    const [base, yours, their] = [opened, mine, theirs].map((doc) => read(doc, option.path));
    const byYou = differs(yours, base);
    const byThem = differs(their, base);
    let by = null;
    if (byYou && byThem) by = differs(yours, their) ? "both of you, differently" : "both of you, the same way";
    else if (byYou) by = "you";
    else if (byThem) by = "them";
    return { option, base, yours, their, byYou, byThem, by };
  }).filter((c) => c.by);
  const rows = changes.map((c) => ({
    attrs: { class: c.byYou && c.byThem ? "changed clash" : "changed", "data-option": c.option.path },
    cells: [c.option.label, shown(c.base), shown(c.yours), shown(c.their), c.by],
  }));
  const theirsOnly = changes.filter((c) => c.byThem && !c.byYou);
  clear(box);
  box.hidden = false;
  put(box,
    el("h3", { text: "Changed by someone else since you opened it" }),
    el(
      "p",
      { id: "conflict-versions" },
      `You opened version ${opened.version}; it is now version ${versionOf(theirEtag) ?? theirs.version}, `,
      `saved by ${who}${change ? ` at ${utc(change.changed_at)}` : ""}. Nothing of yours was saved.`,
    ),
    rows.length
      ? table(
          "The options either of you changed",
          ["Option", `When you opened it (version ${opened.version})`, "Yours (not saved)", `Theirs (version ${theirs.version})`, "Changed by"],
          rows,
          { class: "conflict-options", id: "conflict-options" },
        )
      : el("p", { text: "Neither of you changed an option (their change was to the templates)." }),
    el(
      "div",
      { class: "toolbar" },
      button("Load their version", () => go(`#/categories/${seg(opened.id)}`), { id: "conflict-reload" }),
      button(
        theirsOnly.length ? "Keep their changes and apply mine" : "Apply my changes to their version",
        () => {
          for (const c of theirsOnly) {
            const control = controls.get(c.option.path);
            setControl(control, c.their);
            if (control.dataset.followsKind) control.dataset.followsKind = "false";
          }
          submit(theirEtag, theirs.templates);
        },
        { id: "conflict-merge", class: "primary" },
      ),
      button("Save mine over theirs", () => submit(theirEtag, theirs.templates), { id: "conflict-overwrite" }),
    ),
  );
  box.querySelector("h3").setAttribute("tabindex", "-1");
  box.querySelector("h3").focus();
}
