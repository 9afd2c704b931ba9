// The plural categories a locale's language needs, from the browser's own CLDR rules (Intl.PluralRules), each with
// example counts, and whether a template has a branch for it.
import { el, table } from "./dom.js";

const ORDER = ["zero", "one", "two", "few", "many", "other"];

/** {category: [example counts]} for `locale`, in CLDR order. */
export function pluralExamples(locale) {
  let rules;
  try {
    rules = new Intl.PluralRules(locale);
  } catch {
    return null;
  }
  const categories = rules.resolvedOptions().pluralCategories;
  const examples = Object.fromEntries(categories.map((c) => [c, []]));
  for (let n = 0; n <= 1000 && Object.values(examples).some((list) => list.length < 4); n += 1) {
    const list = examples[rules.select(n)];
    if (list.length < 4) list.push(String(n));
  }
  for (const category of categories) {
    if (examples[category].length === 0) examples[category].push(rules.select(1.5) === category ? "1.5" : "—");
  }
  return Object.fromEntries(ORDER.filter((c) => c in examples).map((c) => [c, examples[c]]));
}

/** Whether an ICU template has a `category {` branch (in any plural argument). */
function hasBranch(template, category) {
  return new RegExp(`(^|[\\s,{}])${category}\\s*\\{`).test(template || "");
}

/** The table a translator reads: which branches the language needs and which the templates have. */
export function pluralTable(locale, templates) {
  const examples = pluralExamples(locale);
  if (!examples) return el("p", { text: `The browser knows no plural rules for ${locale}.` });
  const texts = Object.values(templates || {}).join("\n");
  const usesPlural = /plural\s*,/.test(texts);
  return el(
    "div",
    { class: "plurals", id: "plural-table" },
    table(
      `Plural categories of ${locale}`,
      ["Category", "Example counts", usesPlural ? "Branch in the templates" : "Branch"],
      Object.entries(examples).map(([category, counts]) => ({
        attrs: { "data-plural": category },
        cells: [
          el("code", { text: category }),
          counts.join(", "),
          usesPlural ? (hasBranch(texts, category) ? "yes" : category === "other" ? "missing (required)" : "no (falls back to other)") : "—",
        ],
      })),
    ),
  );
}
