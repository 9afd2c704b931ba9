// Categories: the list (search, archived filter), archive and restore; the editor is category-form.js.
import { call, seg } from "./api.js";
import { button, clear, describe, el, field, go, input, notice, put, select, table, utc } from "./dom.js";
import { renderForm } from "./category-form.js";

export async function render(root, params, session) {
  if (params[0] === "~new") return renderForm(root, null, session);
  if (params[0]) return renderForm(root, params[0], session);
  return renderList(root, session);
}

/** Every category, fetched page by page (the API pages by id). */
export async function allCategories(archived) {
  const items = [];
  let cursor;
  do {
    const page = await call("GET", "/v1/categories", { query: { limit: 200, cursor, archived } });
    items.push(...page.body.items);
    cursor = page.body.next_cursor;
  } while (cursor);
  return items;
}

async function renderList(root, session) {
  const status = el("p", { class: "notice", role: "status", hidden: true });
  const search = field("Search by id or name", input({ type: "search", id: "category-search" }));
  const filter = field(
    "Show",
    select(
      [
        ["false", "Active categories"],
        ["true", "Archived categories"],
        ["", "Active and archived"],
      ],
      "false",
      { id: "category-filter" },
    ),
  );
  const results = el("div", { id: "category-results" });
  const create = session.access.categoriesWrite
    ? button("New category", () => go("#/categories/~new"), { id: "category-new", class: "primary" })
    : null;
  put(root, 
    el("h2", { text: "Categories" }),
    el("div", { class: "toolbar" }, search.wrapper, filter.wrapper, create),
    status,
    results,
  );

  let items = [];
  const draw = () => {
    const term = search.control.value.trim().toLowerCase();
    const shown = items.filter((c) => !term || c.id.includes(term) || c.name.toLowerCase().includes(term));
    clear(results);
    if (shown.length === 0) {
      put(results, el("p", { class: "empty", text: "No category matches." }));
      return;
    }
    put(results, 
      table(
        `${shown.length} of ${items.length} categories`,
        ["Id", "Name", "Priority", "Default", "Locales", "Version", "State", "Actions"],
        shown.map((c) => ({
          attrs: { "data-category": c.id },
          cells: [
            el("a", { href: `#/categories/${seg(c.id)}`, text: c.id }),
            c.name,
            c.priority,
            c.default_preference,
            Object.keys(c.templates || {}).join(", "),
            String(c.version),
            c.archived ? `archived ${utc(c.archived_at)}` : "active",
            actions(c, session, status, reload),
          ],
        })),
        { class: "list" },
      ),
    );
  };
  const reload = async () => {
    try {
      items = await allCategories(filter.control.value || undefined);
      draw();
    } catch (error) {
      notice(status, describe(error), "error");
    }
  };
  search.control.addEventListener("input", draw);
  filter.control.addEventListener("change", reload);
  await reload();
}

function actions(category, session, status, reload) {
  const links = [
    el("a", { href: `#/templates/${seg(category.id)}`, text: "Templates" }),
    el("a", { href: `#/history/${seg(category.id)}`, text: "History" }),
    el("a", { href: `#/stats/${seg(category.id)}`, text: "Stats" }),
  ];
  if (session.access.categoriesWrite) {
    const label = category.archived ? "Restore" : "Archive";
    links.push(
      button(
        label,
        async () => {
          try {
            await archiveOrRestore(category);
            notice(status, `${category.id}: ${category.archived ? "restored" : "archived"}.`, "ok");
            await reload();
          } catch (error) {
            notice(status, `${category.id}: ${describe(error)}`, "error");
          }
        },
        { "aria-label": `${label} ${category.id}`, "data-action": label.toLowerCase() },
      ),
    );
  }
  return el("span", { class: "actions" }, links);
}

/** Archives an active category or restores an archived one, at the version shown. */
export async function archiveOrRestore(category) {
  const etag = `"${category.version}"`;
  if (category.archived) return call("POST", `/v1/categories/${seg(category.id)}/restore`, { etag });
  return call("DELETE", `/v1/categories/${seg(category.id)}`, { etag });
}

/** A picker of categories for the per-category screens; calls `onPick(id)`. */
export async function categoryPicker(screen, current) {
  const items = await allCategories(undefined);
  const picker = select(
    [["", "Choose a category…"], ...items.map((c) => [c.id, `${c.id} — ${c.name}${c.archived ? " (archived)" : ""}`])],
    current || "",
    { id: `${screen}-category` },
  );
  picker.addEventListener("change", () => {
    if (picker.value) go(`#/${screen}/${seg(picker.value)}`);
  });
  return field("Category", picker).wrapper;
}
