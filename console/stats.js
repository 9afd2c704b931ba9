// Stats: what the apps reported for a category (displayed, opened, dismissed) and the ratios, as a bar chart drawn
// here in SVG.
import { call, seg } from "./api.js";
import { el, svg, table } from "./dom.js";
import { categoryPicker } from "./categories.js";

function percent(ratio) {
  return ratio === null || ratio === undefined ? "—" : `${(ratio * 100).toFixed(1)} %`;
}

/** A horizontal bar chart of the three counts, with its numbers as text in the drawing too. */
function chart(stats) {
  const bars = [
    ["Displayed", stats.displayed, "bar-displayed"],
    ["Opened", stats.opened, "bar-opened"],
    ["Dismissed", stats.dismissed, "bar-dismissed"],
  ];
  const max = Math.max(1, ...bars.map((b) => b[1]));
  const width = 560;
  const left = 100;
  const rowHeight = 40;
  const height = bars.length * rowHeight + 10;
  const drawing = svg("svg", {
    viewBox: `0 0 ${width} ${height}`, width, height, role: "img", class: "chart", id: "stats-chart",
    "aria-label": bars.map(([label, value]) => `${label} ${value}`).join(", "),
  });
  bars.forEach(([label, value, kind], index) => {
    const y = index * rowHeight + 8;
    const length = Math.round(((width - left - 70) * value) / max);
    drawing.append(
      svg("text", { x: 0, y: y + 20, class: "chart-label", text: label }),
      svg("rect", { x: left, y, width: Math.max(length, 1), height: 26, rx: 3, class: kind }),
      svg("text", { x: left + Math.max(length, 1) + 8, y: y + 20, class: "chart-value", text: String(value) }),
    );
  });
  return drawing;
}

export async function render(root, params) {
  root.append(el("h2", { text: "Stats" }), await categoryPicker("stats", params[0]));
  if (!params[0]) return;
  let stats;
  try {
    stats = (await call("GET", `/v1/categories/${seg(params[0])}/stats`)).body;
  } catch (error) {
    if (error.status === 403) {
      root.append(el("p", { class: "notice notice-info", text: "Stats need a key with the categories:write scope." }));
      return;
    }
    throw error;
  }
  root.append(
    el("p", { class: "meta", text: "Receipts the apps reported through POST /v1/me/receipts, since the category began." }),
    chart(stats),
    table(
      `Receipts for ${stats.category}`,
      ["Displayed", "Opened", "Dismissed", "Opened per displayed", "Dismissed per displayed"],
      [[String(stats.displayed), String(stats.opened), String(stats.dismissed), percent(stats.opened_per_displayed), percent(stats.dismissed_per_displayed)]],
      { id: "stats-table" },
    ),
  );
}
