"""The WCAG AA contrast check the console's browser test runs on every screen it visits."""

# Runs in the page: every visible element with text of its own, its colour against the background it is drawn on
# (the first opaque background up its ancestors, translucent layers blended in), and the WCAG 2 ratio. Large text
# (24 px, or 18.67 px bold) needs 3:1, the rest 4.5:1. Disabled controls are exempt, as WCAG exempts them.
CONTRAST_JS = r"""
const parse = (text) => {
  const m = /rgba?\(([\d.]+)[, ]+([\d.]+)[, ]+([\d.]+)(?:[, /]+([\d.]+))?\)/.exec(text || "");
  return m ? [Number(m[1]), Number(m[2]), Number(m[3]), m[4] === undefined ? 1 : Number(m[4])] : null;
};
const over = (top, bottom) => [0, 1, 2].map((i) => top[i] * top[3] + bottom[i] * (1 - top[3])).concat([1]);
const luminance = (c) => {
  const [r, g, b] = c.slice(0, 3).map((v) => {
    const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : Math.pow((s + 0.055) / 1.055, 2.4);
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};
const background = (node) => {
  const layers = [];
  for (let n = node; n && n.nodeType === 1; n = n.parentElement) {
    const style = getComputedStyle(n);
    const colour = parse(style.backgroundColor);
    if (colour && colour[3] > 0) layers.push(colour);
    if (colour && colour[3] >= 1) break;
  }
  let result = [255, 255, 255, 1];
  for (const layer of layers.reverse()) result = over(layer, result);
  return result;
};
const failures = [];
let checked = 0;
for (const node of document.querySelectorAll("body *")) {
  if (["SCRIPT", "STYLE", "svg", "TITLE", "OPTION"].includes(node.tagName)) continue;
  const own = [...node.childNodes].some((c) => c.nodeType === 3 && c.textContent.trim())
    || (["INPUT", "TEXTAREA", "SELECT"].includes(node.tagName) && node.type !== "checkbox" && node.type !== "hidden");
  if (!own || node.disabled || node.closest("[disabled]")) continue;
  const box = node.getBoundingClientRect();
  const style = getComputedStyle(node);
  if (box.width === 0 || box.height === 0 || style.visibility === "hidden" || style.display === "none") continue;
  if (node.closest(".skip") && document.activeElement !== node) continue;
  const inSvg = node instanceof SVGElement;
  let fg = parse(inSvg ? style.fill : style.color);
  if (!fg) continue;
  const bg = background(inSvg ? node.ownerSVGElement.parentElement : node);
  fg = over(fg, bg);
  let opacity = 1;
  for (let n = node; n && n.nodeType === 1; n = n.parentElement) opacity *= Number(getComputedStyle(n).opacity);
  if (opacity < 1) fg = over([...fg.slice(0, 3), opacity], bg);
  const [a, b] = [luminance(fg), luminance(bg)].sort((x, y) => y - x);
  const ratio = (a + 0.05) / (b + 0.05);
  const size = parseFloat(style.fontSize);
  const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
  const needed = large ? 3 : 4.5;
  checked += 1;
  if (ratio + 1e-6 < needed) {
    const name = node.tagName.toLowerCase() + (node.id ? "#" + node.id : "")
      + (node.className && typeof node.className === "string" ? "." + node.className.trim().split(/\s+/).join(".") : "");
    const text = (node.value || node.textContent || "").trim().slice(0, 40);
    failures.push(`${name} "${text}": ${ratio.toFixed(2)}:1 < ${needed}:1 (${style.color} on rgb(${bg.slice(0, 3).map(Math.round).join(",")}))`);
  }
}
return { checked, failures };
"""


def contrast_report(driver):
    """{checked, failures}: how many text elements were measured, and each one under its ratio, named with it."""
    return driver.execute_script(CONTRAST_JS)


# Three probes the check must judge right: #949494 on white is 3.03:1, too little for 16 px text and enough for
# 24 px; white on a half-transparent dark blue over white blends to about 2.9:1 and must fail.
PROBES_JS = r"""
const main = document.getElementById("main");
const add = (id, text, style) => {
  const p = document.createElement("p");
  p.id = id;
  p.textContent = text;
  Object.assign(p.style, style);
  main.append(p);
};
add("contrast-probe-small", "grey small", { color: "#949494", background: "#ffffff", fontSize: "16px" });
add("contrast-probe-large", "grey large", { color: "#949494", background: "#ffffff", fontSize: "24px" });
add("contrast-probe-blend", "white on blended blue", { color: "#ffffff", background: "rgba(16, 42, 76, 0.4)", fontSize: "16px" });
"""


def self_check(driver):
    """Runs the check on probes it must fail and pass, then removes them; returns what went wrong, if anything."""
    driver.execute_script(PROBES_JS)
    try:
        failures = contrast_report(driver)["failures"]
    finally:
        driver.execute_script("document.querySelectorAll('[id^=contrast-probe]').forEach((n) => n.remove())")
    flagged = {probe for probe in ["small", "large", "blend"] if any(f"contrast-probe-{probe}" in f for f in failures)}
    if flagged != {"small", "blend"}:
        return f"the contrast check flagged {sorted(flagged)} of the probes, not ['blend', 'small']: {failures}"
    others = [f for f in failures if "contrast-probe" not in f]
    return f"the console itself failed while probing: {others}" if others else None
