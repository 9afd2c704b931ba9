// What a preview shows: the rendered texts, the locale used, the decider's outcome, and the exact platform request.
import { clear, el, pretty, put, table } from "./dom.js";

export function renderPreview(node, preview, fromDraft) {
  clear(node);
  const fallback = (preview.fields || []).find((f) => f.field === "fallback_body");
  const payload = preview.payload;
  put(node, 
    el("p", { class: "meta", text: fromDraft ? "Rendered from your unsaved text." : "Rendered from the saved templates." }),
    el(
      "div",
      { class: "rendered", id: "preview-rendered" },
      el("p", { class: "rendered-title", id: "preview-title", text: preview.title ?? "(no title)" }),
      el("p", { class: "rendered-body", id: "preview-body", text: preview.body ?? "(no body)" }),
    ),
    el(
      "dl",
      { class: "facts" },
      el("dt", { text: "Kind" }), el("dd", { text: `${preview.purpose}, count ${preview.count}` }),
      el("dt", { text: "Locale used" }), el("dd", { id: "preview-locale-used", text: `${preview.locale ?? "none"} (tried ${preview.locale_chain.join(" → ")})` }),
      el("dt", { text: "Fallback text" }), el("dd", { id: "preview-fallback", text: fallback ? fallback.text : "— (no fallback_body)" }),
      el("dt", { text: "Missing arguments" }), el("dd", { text: preview.missing_arguments.length ? preview.missing_arguments.join(", ") : "none" }),
      el("dt", { text: "Outcome" }), el("dd", { text: [preview.outcome, preview.detail].filter(Boolean).join(", ") || "—" }),
    ),
  );
  if (!payload) {
    put(node, el("p", { text: "Nothing would be queued." }));
    return;
  }
  put(node, 
    el("h4", { text: `${payload.platform.toUpperCase()} request (${payload.kind})` }),
    el("p", { id: "preview-bytes", text: `Body: ${payload.body_bytes} bytes · priority ${payload.priority} · collapse id ${payload.collapse_id ?? "none"}` }),
    table("Headers", ["Header", "Value"], Object.entries(payload.headers).map(([k, v]) => [k, v]), { class: "headers" }),
    el("pre", { class: "payload", id: "preview-payload", tabindex: "0", "aria-label": "Request body" },
      payload.body_json !== undefined ? pretty(payload.body_json) : payload.body),
  );
}
