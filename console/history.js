// History: every version of a category, who changed it, and a side-by-side diff of before and after.
import { call, seg } from "./api.js";
import { clear, el, put, table, utc } from "./dom.js";
import { categoryPicker } from "./categories.js";

/** Every change of a category, oldest first (the API pages at most 100 at a time). */
export async function allHistory(id) {
  const items = [];
  let cursor;
  do {
    const page = await call("GET", `/v1/categories/${seg(id)}/history`, { query: { limit: 100, cursor } });
    items.push(...page.body.items);
    cursor = page.body.next_cursor;
  } while (cursor);
  return items;
}

/** A document flattened to `pointer → JSON text`, so two versions can be compared line by line. */
function flatten(value, prefix = "", out = new Map()) {
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    const keys = Object.keys(value).sort();
    if (keys.length === 0) out.set(prefix || "/", "{}");
    for (const key of keys) flatten(value[key], `${prefix}/${key}`, out);
  } else {
    out.set(prefix || "/", JSON.stringify(value));
  }
  return out;
}

const IGNORED = new Set(["/version", "/updated_at", "/created_at"]);

export function diffRows(before, after) {
  const a = flatten(before || {});
  const b = flatten(after || {});
  const pointers = [...new Set([...a.keys(), ...b.keys()])].filter((p) => !IGNORED.has(p)).sort();
  return pointers.map((pointer) => {
    const left = a.get(pointer);
    const right = b.get(pointer);
    const kind = left === right ? "same" : left === undefined ? "added" : right === undefined ? "removed" : "changed";
    return { pointer, left, right, kind };
  });
}

export async function render(root, params) {
  put(root, el("h2", { text: "History" }), await categoryPicker("history", params[0]));
  if (!params[0]) return;
  const id = params[0];
  const items = await allHistory(id);
  const chosen = Number(params[1]) || (items.length ? items[items.length - 1].version : null);
  const list = table(
    `${items.length} versions of ${id}`,
    ["Version", "Action", "By", "When", "Diff"],
    items
      .slice()
      .reverse()
      .map((change) => ({
        attrs: { "data-version": String(change.version), class: change.version === chosen ? "current" : "" },
        cells: [
          String(change.version),
          change.action,
          change.actor?.name || change.actor?.key_id || "unknown",
          utc(change.changed_at),
          change.version === chosen
            ? el("span", { text: "shown below" })
            : el("a", { href: `#/history/${seg(id)}/${change.version}`, text: `Compare version ${change.version}`, "aria-label": `Show the diff of version ${change.version}` }),
        ],
      })),
    { class: "list", id: "history-list" },
  );
  put(root, list);
  const change = items.find((c) => c.version === chosen);
  if (!change) return;
  const rows = diffRows(change.before, change.after);
  const changed = rows.filter((r) => r.kind !== "same");
  const onlyChanges = el("input", { type: "checkbox", id: "diff-only", checked: true });
  const holder = el("div", { id: "diff" });
  const draw = () => {
    const shown = onlyChanges.checked ? changed : rows;
    put(clear(holder), 
      table(
        `Version ${change.version} (${change.action}) by ${change.actor?.name || "unknown"}: ${changed.length} ${changed.length === 1 ? "member" : "members"} changed`,
        ["Member", `Before (version ${change.version - 1 || "—"})`, `After (version ${change.version})`],
        shown.map((r) => ({
          attrs: { class: `diff-${r.kind}` },
          cells: [el("code", { text: r.pointer }), el("span", { class: "old", text: r.left ?? "—" }), el("span", { class: "new", text: r.right ?? "—" })],
        })),
        { class: "diff side-by-side" },
      ),
    );
  };
  onlyChanges.addEventListener("change", draw);
  put(root, 
    el("h3", { text: `Version ${change.version}: before and after` }),
    el("p", { class: "check" }, onlyChanges, el("label", { for: "diff-only", text: " Only the members that changed" })),
    holder,
    el("p", {}, el("a", { href: `#/categories/${seg(id)}`, text: "Open the category" })),
  );
  draw();
}
