// Problem+json errors shown beside the fields their JSON pointers name.
import { clear, el, put } from "./dom.js";

/** Removes every error shown in `form` and in `summary`. */
export function clearErrors(form, summary) {
  for (const line of form.querySelectorAll(".field-error")) {
    line.hidden = true;
    line.textContent = "";
  }
  for (const control of form.querySelectorAll("[aria-invalid]")) control.removeAttribute("aria-invalid");
  if (summary) {
    clear(summary);
    summary.hidden = true;
  }
}

/** The text of one field error, with its ICU offset when the server gave one. */
export function errorText(error) {
  const offset = Number.isInteger(error.offset) ? ` (at character ${error.offset})` : "";
  return `${error.detail || "is invalid"}${offset}`;
}

/**
 * Shows each error next to the control whose data-pointer is the error's pointer, or the closest enclosing one
 * (`/collapse` lands on the first collapse field); `resolve(pointer)` may map a pointer to a control first.
 * Errors that name no control are listed in `summary`. The first invalid control gets the focus unless `focus` is
 * false, as for errors found while the user types.
 */
export function showErrors(form, summary, errors, resolve = () => null, { focus = true } = {}) {
  clearErrors(form, summary);
  const controls = [...form.querySelectorAll("[data-pointer]")];
  const unplaced = [];
  let first = null;
  for (const error of errors) {
    const pointer = error.pointer || "";
    let control = resolve(pointer) || controls.find((c) => c.dataset.pointer === pointer);
    if (!control && pointer) {
      control = controls.find((c) => c.dataset.pointer.startsWith(`${pointer}/`));
    }
    if (!control) {
      unplaced.push(error);
      continue;
    }
    const line = document.getElementById(`${control.id}-error`);
    if (line) {
      line.textContent = line.textContent ? `${line.textContent}; ${errorText(error)}` : errorText(error);
      line.hidden = false;
    }
    control.setAttribute("aria-invalid", "true");
    first = first || control;
  }
  if (summary && unplaced.length) {
    put(summary, 
      el("p", { text: "The server refused these members:" }),
      el("ul", {}, unplaced.map((e) => el("li", {}, el("code", { text: e.pointer || "(body)" }), " ", errorText(e)))),
    );
    summary.hidden = false;
  }
  if (first && focus) first.focus();
  return first;
}
