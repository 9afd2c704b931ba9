// The console's shell: the key form, the access probe, and the hash routes that pick a screen.
import { ApiError, forgetKey, probeAccess, saveKey, savedKey } from "./api.js";
import { clear, describe, el, notice, put } from "./dom.js";
import * as categories from "./categories.js";
import * as templates from "./templates.js";
import * as history from "./history.js";
import * as stats from "./stats.js";
import * as campaigns from "./campaigns.js";
import * as users from "./users.js";

const screens = { categories, templates, history, stats, campaigns, users };

/** What every screen may read: the key's rights, and a way to move to another route. */
export const session = { access: { valid: false, categoriesWrite: false }, stop: null };

async function applyKey() {
  const accessLine = document.getElementById("access");
  const forget = document.getElementById("key-forget");
  if (!savedKey()) {
    session.access = { valid: false, categoriesWrite: false };
    accessLine.textContent = "No key yet: paste an API key to begin.";
    forget.hidden = true;
    return;
  }
  forget.hidden = false;
  try {
    session.access = await probeAccess();
  } catch (error) {
    accessLine.textContent = `Cannot reach the API: ${describe(error)}`;
    return;
  }
  if (!session.access.valid) {
    accessLine.textContent = "This key was refused (unknown, revoked or not an API key).";
  } else if (session.access.categoriesWrite) {
    accessLine.textContent = "Key accepted: you can edit categories.";
  } else {
    accessLine.textContent = "Key accepted, read-only: it lacks the categories:write scope.";
  }
  document.body.classList.toggle("read-only", !session.access.categoriesWrite);
}

function route() {
  if (session.stop) {
    session.stop();
    session.stop = null;
  }
  const parts = location.hash.replace(/^#\/?/, "").split("/").map(decodeURIComponent);
  const name = screens[parts[0]] ? parts[0] : "categories";
  for (const link of document.querySelectorAll("nav.tabs a")) {
    if (link.dataset.screen === name) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  const root = clear(document.getElementById("screen"));
  notice(document.getElementById("global-notice"), "");
  if (!savedKey() || !session.access.valid) {
    put(root, el("p", { class: "empty", text: "Paste an API key above to open the console." }));
    return;
  }
  document.title = `${name[0].toUpperCase()}${name.slice(1)} · Herald console`;
  Promise.resolve(screens[name].render(root, parts.slice(1), session)).catch((error) => {
    const message = error instanceof ApiError ? describe(error) : `Something went wrong: ${describe(error)}`;
    notice(document.getElementById("global-notice"), message, "error");
  });
}

function start() {
  const form = document.getElementById("key-form");
  const keyInput = document.getElementById("key-input");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const key = keyInput.value.trim();
    if (!key) return;
    saveKey(key);
    keyInput.value = "";
    await applyKey();
    route();
  });
  document.getElementById("key-forget").addEventListener("click", async () => {
    forgetKey();
    await applyKey();
    route();
  });
  window.addEventListener("hashchange", route);
  applyKey().then(route);
}

start();
