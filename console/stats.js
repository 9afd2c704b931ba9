// Stats: what the apps reported per category (displayed, opened, dismissed) and the ratios, as bar charts drawn
// here in SVG: every category side by side, and the chosen one in detail.
import { call, seg } from "./api.js";
import { el, put, svg, table } from "./dom.js";
import { allCategories, categoryPicker } from "./categories.js";

const KINDS = [
  ["displayed", "Displayed", "bar-displayed"],
  ["opened", "Opened", "bar-opened"],
  ["dismissed", "Dismissed", "bar-dismissed"],
];
const OVERVIEW_LIMIT = 30;

function percent(ratio) {
  return ratio === null || ratio === undefined ? "—" : `${(ratio * 100).toFixed(1)} %`;
}

/** One group of three horizontal bars per row of `rows` ({label, stats}), scaled to the largest count. */
function chart(rows, id) {
  const max = Math.max(1, ...rows.flatMap((r) => KINDS.map(([k]) => r.stats[k])));
  const width = 620;
  const left = 130;
  const bar = 14;
  const group = KINDS.length * (bar + 4) + 14;
  const height = rows.length * group + 28;
  const drawing = svg("svg", {
    viewBox: `0 0 ${width} ${height}`, width, height, role: "img", class: "chart", id,
    "aria-label": rows.map((r) => `${r.label}: ${KINDS.map(([k, name]) => `${name.toLowerCase()} ${r.stats[k]}`).join(", ")}`).join("; "),
  });
  KINDS.forEach(([, name, kind], index) => {
    put(drawing, svg("rect", { x: left + index * 110, y: 2, width: 12, height: 12, class: kind }),
      svg("text", { x: left + index * 110 + 16, y: 13, class: "chart-value", text: name }));
  });
  rows.forEach((row, r) => {
    const top = 24 + r * group;
    put(drawing, svg("text", { x: 0, y: top + group / 2, class: "chart-label", text: row.label }));
    KINDS.forEach(([key, , kind], index) => {
      const y = top + index * (bar + 4);
      const length = Math.max(1, Math.round(((width - left - 60) * row.stats[key]) / max));
      put(drawing,
        svg("rect", { x: left, y, width: length, height: bar, rx: 2, class: kind }),
        svg("text", { x: left + length + 6, y: y + bar - 2, class: "chart-value", text: String(row.stats[key]) }));
    });
  });
  return drawing;
}

async function statsOf(id) {
  return (await call("GET", `/v1/categories/${seg(id)}/stats`)).body;
}

export async function render(root, params) {
  put(root, el("h2", { text: "Stats" }), await categoryPicker("stats", params[0]));
  let overview;
  try {
    const ids = (await allCategories("false")).map((c) => c.id).slice(0, OVERVIEW_LIMIT);
    overview = await Promise.all(ids.map(async (id) => ({ label: id, stats: await statsOf(id) })));
  } catch (error) {
    if (error.status === 403) {
      put(root, el("p", { class: "notice notice-info", text: "Stats need a key with the categories:write scope." }));
      return;
    }
    throw error;
  }
  put(root, el("p", { class: "meta", text: "Receipts the apps reported through POST /v1/me/receipts, since each category began." }));
  if (params[0]) {
    const stats = await statsOf(params[0]);
    put(root,
      el("h3", { text: `Category ${stats.category}` }),
      chart([{ label: stats.category, stats }], "stats-chart"),
      table(
        `Receipts for ${stats.category}`,
        ["Displayed", "Opened", "Dismissed", "Opened per displayed", "Dismissed per displayed"],
        [[String(stats.displayed), String(stats.opened), String(stats.dismissed), percent(stats.opened_per_displayed), percent(stats.dismissed_per_displayed)]],
        { id: "stats-table" },
      ));
  }
  put(root,
    el("h3", { text: "Every active category" }),
    overview.length ? chart(overview, "stats-overview-chart") : el("p", { class: "empty", text: "No active category." }),
    table(
      "Per category",
      ["Category", "Displayed", "Opened", "Dismissed", "Opened per displayed", "Dismissed per displayed"],
      overview.map(({ label, stats }) => ({
        attrs: { "data-category": label },
        cells: [el("a", { href: `#/stats/${seg(label)}`, text: label }), String(stats.displayed), String(stats.opened), String(stats.dismissed), percent(stats.opened_per_displayed), percent(stats.dismissed_per_displayed)],
      })),
      { id: "stats-overview", class: "list" },
    ));
}
