// A stale save of a locale's templates (412): their wording beside yours for every field either side changed,
// never a raw status. The category editor does the same for the options.
import { call, seg, versionOf } from "./api.js";
import { button, clear, el, go, put, table } from "./dom.js";

const shown = (text) => (text === undefined || text === null || text === "" ? "(empty)" : text);
const same = (a, b) => shown(a) === shown(b);

/**
 * Fills `box` with the conflict for `locale`: `opened` is the text as it was loaded, `mine` the unsaved draft;
 * `saveOver(etag)` saves the draft over their version; `applyOnTheirs(etag, text)` saves `text`: their version
 * with every field you changed replaced by yours.
 */
export async function showTemplateConflict(box, { categoryId, openedVersion, locale, fields, opened, mine, error, saveOver, applyOnTheirs }) {
  const theirEtag = error.headers.get("ETag");
  const theirs = (await call("GET", `/v1/categories/${seg(categoryId)}`)).body;
  const their = theirs.templates[locale] || {};
  const rows = fields
    .filter(([name]) => !same(mine[name], opened[name]) || !same(their[name], opened[name]))
    .map(([name, label]) => {
      const byYou = !same(mine[name], opened[name]);
      const byThem = !same(their[name], opened[name]);
      const by = byYou && byThem ? (same(mine[name], their[name]) ? "both of you, the same way" : "both of you, differently") : byYou ? "you" : "them";
      return {
        attrs: { class: byYou && byThem ? "changed clash" : "changed", "data-field": name },
        cells: [label, shown(opened[name]), shown(mine[name]), shown(their[name]), by],
      };
    });
  const merged = Object.fromEntries(fields.map(([name]) => [name, same(mine[name], opened[name]) ? their[name] ?? null : mine[name]]));
  clear(box);
  box.hidden = false;
  put(box,
    el("h3", { text: "Changed by someone else since you opened it" }),
    el("p", { id: "template-conflict-versions" },
      `You opened version ${openedVersion}; it is now version ${versionOf(theirEtag) ?? theirs.version}. `,
      `Nothing of yours was saved; your text is still in the editor. `,
      el("a", { href: `#/history/${seg(categoryId)}`, text: "See every change in the history" }), "."),
    rows.length
      ? table(`The ${locale} wording either of you changed`, ["Field", `When you opened it (version ${openedVersion})`, "Yours (not saved)", `Theirs (version ${theirs.version})`, "Changed by"], rows, { class: "conflict-options", id: "template-conflict-fields" })
      : el("p", { text: `Neither of you changed the ${locale} wording (their change was elsewhere).` }),
    el(
      "div",
      { class: "toolbar" },
      button("Load their version", () => go(`#/templates/${seg(categoryId)}/${seg(locale)}`), { id: "template-reload" }),
      button("Keep theirs and apply mine", () => applyOnTheirs(theirEtag, merged, their), {
        id: "template-merge",
        class: "primary",
        title: "Their version, with only the fields you changed replaced by yours",
      }),
      button("Save mine over theirs", () => saveOver(theirEtag), { id: "template-overwrite" }),
    ),
  );
  box.querySelector("h3").setAttribute("tabindex", "-1");
  box.querySelector("h3").focus();
}
