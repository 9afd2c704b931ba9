"""The WCAG AA contrast check the console's browser test runs on every screen it visits."""

# Runs in the page: every visible element with text of its own, its colour against the background it is drawn on
# (the first opaque background up its ancestors, translucent layers blended in), and the WCAG 2 ratio. Large text
# (24 px, or 18.67 px bold) needs 3:1, the rest 4.5:1. Disabled controls are exempt, as WCAG exempts them.
COLOUR_JS = r"""
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
const ratioOf = (fg, bg) => {
  const [a, b] = [luminance(fg), luminance(bg)].sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05);
};
const nameOf = (node) => node.tagName.toLowerCase() + (node.id ? "#" + node.id : "")
  + (node.className && typeof node.className === "string" ? "." + node.className.trim().split(/\s+/).join(".") : "");
"""
CONTRAST_JS = COLOUR_JS + r"""
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
  const ratio = ratioOf(fg, bg);
  const size = parseFloat(style.fontSize);
  const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
  const needed = large ? 3 : 4.5;
  checked += 1;
  if (ratio + 1e-6 < needed) {
    const name = nameOf(node);
    const text = (node.value || node.textContent || "").trim().slice(0, 40);
    failures.push(`${name} "${text}": ${ratio.toFixed(2)}:1 < ${needed}:1 (${style.color} on rgb(${bg.slice(0, 3).map(Math.round).join(",")}))`);
  }
}
return { checked, failures };
"""


def contrast_report(driver):
    """{checked, failures}: how many text elements were measured, and each one under its ratio, named with it."""
    return driver.execute_script(CONTRAST_JS)


# The hover and focus states. In the page: one visible, enabled control of each look (tag, classes, role, selection,
# and the background it sits on) is marked; the browser is then made to draw each in the state through the DevTools
# protocol (CSS.forcePseudoState: what the page's own :hover and :focus-visible rules give, with no pointer or key
# race), and the page measures it: its text against its background (4.5:1, 3:1 when large), and when focused an
# outline of at least 2 px whose colour is 3:1 against what it is drawn over (WCAG 2.4.7 and 1.4.11).
CONTROLS = "a[href], button, [role=tab], input:not([type=hidden]), select, textarea"
MARK_JS = COLOUR_JS + r"""
const seen = new Set();
let count = 0;
for (const node of document.querySelectorAll(arguments[0])) {
  node.removeAttribute("data-contrast-state");
  const box = node.getBoundingClientRect();
  const style = getComputedStyle(node);
  if (node.disabled || node.closest("[hidden]") || box.width === 0 || box.height === 0 || style.visibility === "hidden") continue;
  const look = [node.tagName, node.className, node.type, node.getAttribute("role"), node.getAttribute("aria-selected"),
    node.getAttribute("aria-current"), background(node.parentElement).join(",")].join("|");
  if (seen.has(look)) continue;
  seen.add(look);
  node.setAttribute("data-contrast-state", String(count));
  count += 1;
}
return count;
"""
MEASURE_JS = COLOUR_JS + r"""
const [index, state] = arguments;
const node = document.querySelector(`[data-contrast-state="${index}"]`);
const style = getComputedStyle(node);
const failures = [];
const label = `${nameOf(node)} "${(node.value || node.textContent || "").trim().slice(0, 30)}" (${state})`;
const own = [...node.childNodes].some((c) => c.nodeType === 3 && c.textContent.trim())
  || ["INPUT", "TEXTAREA", "SELECT"].includes(node.tagName) && node.type !== "checkbox";
if (own) {
  const bg = background(node);
  const ratio = ratioOf(over(parse(style.color), bg), bg);
  const size = parseFloat(style.fontSize);
  const needed = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700) ? 3 : 4.5;
  if (ratio + 1e-6 < needed) failures.push(`${label}: text ${ratio.toFixed(2)}:1 < ${needed}:1`);
}
let ring = null;
if (state === "focus") {
  const width = parseFloat(style.outlineWidth);
  if (style.outlineStyle === "none" || !(width >= 2)) {
    failures.push(`${label}: no visible focus indicator (outline ${style.outlineStyle} ${style.outlineWidth})`);
  } else {
    const behind = background(node.parentElement);
    ring = ratioOf(over(parse(style.outlineColor), behind), behind);
    if (parseFloat(style.outlineOffset) <= 0) ring = Math.min(ring, ratioOf(over(parse(style.outlineColor), background(node)), background(node)));
    if (ring + 1e-6 < 3) failures.push(`${label}: focus outline ${ring.toFixed(2)}:1 < 3:1 (${style.outlineColor})`);
  }
}
return { failures, ring };
"""


def state_report(driver):
    """{checked, failures, lowest_ring}: the controls measured hovered and focused, each state under its ratio or
    without a visible focus indicator, and the lowest contrast of a focus outline seen."""
    count = driver.execute_script(MARK_JS, CONTROLS)
    driver.execute_cdp_cmd("DOM.enable", {})
    driver.execute_cdp_cmd("CSS.enable", {})
    root = driver.execute_cdp_cmd("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
    failures, rings = [], []
    for index in range(count):
        node = driver.execute_cdp_cmd("DOM.querySelector", {"nodeId": root, "selector": f'[data-contrast-state="{index}"]'})
        for state, forced in [("hover", ["hover"]), ("focus", ["focus", "focus-visible"])]:
            driver.execute_cdp_cmd("CSS.forcePseudoState", {"nodeId": node["nodeId"], "forcedPseudoClasses": forced})
            try:
                result = driver.execute_script(MEASURE_JS, index, state)
            finally:
                driver.execute_cdp_cmd("CSS.forcePseudoState", {"nodeId": node["nodeId"], "forcedPseudoClasses": []})
            failures += result["failures"]
            if result["ring"] is not None:
                rings.append(result["ring"])
    driver.execute_script("document.querySelectorAll('[data-contrast-state]').forEach((n) => n.removeAttribute('data-contrast-state'))")
    return {"checked": count, "failures": failures, "lowest_ring": min(rings) if rings else None}


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


# Four controls the state check must judge right: grey text when hovered (3.03:1), a near-white focus outline on
# white, and no outline at all must fail; a plain button must pass. The rules go in through the CSS object model,
# which the page's content security policy allows, and are removed with the probes.
STATE_PROBES_JS = r"""
const main = document.getElementById("main");
const sheet = document.styleSheets[0];
for (const rule of [
  ".contrast-probe-hover:hover { color: #949494 !important; background: #ffffff !important; }",
  ".contrast-probe-ring:focus-visible { outline-color: #eeeeee !important; }",
  ".contrast-probe-bare:focus-visible { outline: none !important; }",
]) sheet.insertRule(rule, sheet.cssRules.length);
for (const name of ["hover", "ring", "bare", "plain"]) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = `contrast-probe-${name}`;
  button.textContent = `probe ${name}`;
  main.append(button);
}
"""
REMOVE_STATE_PROBES_JS = r"""
document.querySelectorAll("[class^=contrast-probe]").forEach((n) => n.remove());
const sheet = document.styleSheets[0];
for (let i = sheet.cssRules.length - 1; i >= 0; i -= 1) {
  if ((sheet.cssRules[i].selectorText || "").includes("contrast-probe")) sheet.deleteRule(i);
}
"""


def state_self_check(driver):
    """Runs the hover and focus check on probes it must fail and pass; returns what went wrong, if anything."""
    driver.execute_script(STATE_PROBES_JS)
    try:
        failures = state_report(driver)["failures"]
    finally:
        driver.execute_script(REMOVE_STATE_PROBES_JS)
    flagged = {name for name in ["hover", "ring", "bare", "plain"] if any(f".contrast-probe-{name} " in f for f in failures)}
    if flagged != {"hover", "ring", "bare"}:
        return f"the hover and focus check flagged {sorted(flagged)} of the probes, not ['bare', 'hover', 'ring']: {failures}"
    others = [f for f in failures if "contrast-probe" not in f]
    return f"the console itself failed while probing hover and focus: {others}" if others else None


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
    if others:
        return f"the console itself failed while probing: {others}"
    return state_self_check(driver)
