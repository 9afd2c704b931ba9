// Users (read-only, for support): a user's devices (stale ones marked), effective preferences with their source,
// mutes and quiet hours, their latest decisions in words, and an event's decision for them: "why didn't Ana get
// this?".
import { ApiError, call, seg } from "./api.js";
import { clear, describe, el, field, go, input, put, table, utc } from "./dom.js";
import { explain } from "./reasons.js";

export async function render(root, params) {
  const userInput = input({ id: "user-id", value: params[0] || "", required: true });
  const lookup = el(
    "form",
    { class: "inline", id: "user-form", "aria-label": "Look up a user", onsubmit: (e) => { e.preventDefault(); if (userInput.value.trim()) go(`#/users/${seg(userInput.value.trim())}`); } },
    field("User id", userInput).wrapper,
    el("button", { type: "submit", class: "primary", id: "user-lookup", text: "Look up" }),
  );
  put(root, el("h2", { text: "Users" }), el("p", { class: "meta", text: "Read-only, for support." }), lookup);
  if (!params[0]) return;
  const id = params[0];
  let user;
  try {
    user = (await call("GET", `/v1/users/${seg(id)}`)).body;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) {
      put(root, el("p", { class: "notice notice-info", id: "user-missing", text: `No user has the id ${id}.` }));
      return;
    }
    if (error instanceof ApiError && error.status === 403) {
      put(root, el("p", { class: "notice notice-info", text: "Looking up users needs a key with the users:write scope." }));
      return;
    }
    throw error;
  }
  const [preferences, mutes] = await Promise.all([
    call("GET", `/v1/users/${seg(id)}/preferences`).then((r) => r.body.items),
    call("GET", `/v1/users/${seg(id)}/mutes`).then((r) => r.body.items),
  ]);
  const quiet = user.quiet_hours
    ? `${user.quiet_hours.start}–${user.quiet_hours.end}${user.quiet_hours.days ? ` on ${user.quiet_hours.days.join(", ")}` : " every day"} in ${user.time_zone || "UTC (no zone set)"}`
    : "none";
  put(root, 
    el("h3", { text: `User ${user.id}` }),
    el(
      "dl",
      { class: "facts", id: "user-facts" },
      el("dt", { text: "Locale" }), el("dd", { text: user.locale || "—" }),
      el("dt", { text: "Time zone" }), el("dd", { text: user.time_zone || "— (campaigns use their default zone)" }),
      el("dt", { text: "Quiet hours" }), el("dd", { id: "user-quiet", text: quiet }),
      el("dt", { text: "Badge" }), el("dd", { text: user.badge ? "on" : "off" }),
      el("dt", { text: "Since" }), el("dd", { text: utc(user.created_at) }),
    ),
    el("h3", { text: "Devices" }),
    user.devices.length
      ? table(
          `${user.devices.length} devices`,
          ["Installation", "Platform", "App", "Locale", "Last registered", "State"],
          user.devices.map((d) => ({
            attrs: { class: d.stale || !d.active ? "muted-row" : "", "data-device": d.installation_id },
            cells: [
              d.installation_id, d.platform, `${d.app_id}${d.app_version ? ` ${d.app_version}` : ""}`, d.locale || "—",
              utc(d.last_registered_at),
              !d.active ? `inactive: ${d.deactivation_reason || "deactivated"} ${utc(d.deactivated_at)}` : d.stale ? "stale (not registered for 270 days)" : "active",
            ],
          })),
          { class: "list", id: "user-devices" },
        )
      : el("p", { class: "empty", text: "No device." }),
    el("h3", { text: "Effective preferences" }),
    table(
      "Per category, with where the setting comes from",
      ["Category", "Setting", "Source", "User's own setting"],
      preferences.map((p) => ({ attrs: { "data-preference": p.category }, cells: [p.category, p.setting, p.source, p.user_setting || "—"] })),
      { class: "list", id: "user-preferences" },
    ),
    el("h3", { text: "Mutes" }),
    mutes.length
      ? table("Active mutes", ["Scope", "Key", "Until"], mutes.map((m) => [m.scope, m.key || "—", m.until ? utc(m.until) : "until removed"]), { class: "list", id: "user-mutes" })
      : el("p", { class: "empty", text: "No mute." }),
  );
  put(root, await latestDecisions(user), whyForm(user), simulateNow(user, preferences.map((p) => p.category)));
}

/** The user's latest decisions, newest first, each in words, with "Show older" for the next page. */
async function latestDecisions(user) {
  const body = el("tbody", {});
  const more = el("button", { type: "button", id: "decisions-more", text: "Show older decisions", hidden: true });
  const status = el("p", { class: "meta", id: "decisions-status", "aria-live": "polite" });
  let cursor = null;
  const row = (d) =>
    el(
      "tr",
      { "data-event": `${d.event_source}/${d.event_id}`, "data-reason": d.reason },
      el("td", { text: utc(d.decided_at) }),
      el("td", {}, el("code", { text: `${d.event_source}/${d.event_id}` })),
      el("td", { text: d.category }),
      el("td", { class: `verdict-cell verdict-cell-${d.outcome}`, text: explain(d, user.time_zone) }),
      el("td", {}, el("code", { text: d.reason }), d.detail ? el("span", { class: "meta", text: ` (${d.detail})` }) : null),
      el("td", { text: d.deliver_at ? utc(d.deliver_at) : "—" }),
    );
  const load = async () => {
    more.disabled = true;
    try {
      const page = (await call("GET", `/v1/users/${seg(user.id)}/decisions`, { query: { limit: 20, cursor } })).body;
      put(body, page.items.map(row));
      cursor = page.next_cursor;
      more.hidden = !cursor;
      const shown = body.children.length;
      status.textContent = shown
        ? `${shown} most recent decision${shown === 1 ? "" : "s"}${cursor ? "; older ones follow" : ""}.`
        : "No decision recorded for this user yet (or all of them are past retention).";
    } catch (error) {
      status.textContent = describe(error);
    } finally {
      more.disabled = false;
    }
  };
  more.addEventListener("click", load);
  await load();
  return el(
    "section",
    { class: "why", id: "user-decisions" },
    el("h3", { text: "Latest decisions: what happened to each event, and why" }),
    el("p", { class: "meta", text: `Times in UTC; quiet hours are shown in their zone (${user.time_zone || "none set"}).` }),
    el(
      "table",
      { class: "list", id: "decisions-table" },
      el("caption", { text: "Newest first" }),
      el("thead", {}, el("tr", {}, ["Decided", "Event", "Category", "What happened", "Reason code", "Deliver at"].map((h) => el("th", { scope: "col", text: h })))),
      body,
    ),
    status,
    more,
  );
}

/** What each category would do for this user right now, through POST /v1/events:simulate (nothing is written). */
function simulateNow(user, categories) {
  const userId = user.id;
  const answer = el("div", { id: "simulate-answer", "aria-live": "polite" });
  const run = async () => {
    clear(answer);
    const at = new Date().toISOString().replace(/\.\d+Z$/, "Z");
    try {
      const rows = await Promise.all(categories.map(async (category) => {
        const event = { source: "console", id: `simulate-${category}`, category, occurred_at: at, recipients: [userId] };
        const result = (await call("POST", "/v1/events:simulate", { body: event })).body;
        const decision = result.recipients.find((r) => r.user_id === userId);
        return {
          attrs: { "data-simulated": category },
          cells: [category, decision ? el("code", { text: decision.reason }) : "—", decision ? explain(decision, user.time_zone) : "no decision"],
        };
      }));
      put(answer, table(`If an event of each category arrived now (${utc(at)})`, ["Category", "Reason", "What would happen"], rows, { class: "list", id: "simulate-table" }));
    } catch (error) {
      put(answer, el("p", { class: "notice notice-error", text: describe(error) }));
    }
  };
  return el(
    "section",
    { class: "why" },
    el("h3", { text: "What would happen now, per category" }),
    el("p", { class: "meta", text: "Decided on today's state with the real decision order; nothing is written or sent." }),
    el("button", { type: "button", id: "simulate-run", onclick: run, text: "Simulate every category now" }),
    answer,
  );
}

/** "Why didn't they get this?": an event's decision for this user, looked up by the event's source and id. */
function whyForm(user) {
  const userId = user.id;
  const source = input({ id: "why-source", required: true });
  const eventId = input({ id: "why-event", required: true });
  const answer = el("div", { id: "why-answer", "aria-live": "polite" });
  const form = el(
    "form",
    { class: "inline", id: "why-form", "aria-label": "Why didn't they get this?" },
    field("Event source", source).wrapper,
    field("Event id", eventId).wrapper,
    el("button", { type: "submit", class: "primary", id: "why-lookup", text: "Explain" }),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clear(answer);
    try {
      const status = (await call("GET", `/v1/events/${seg(source.value.trim())}/${seg(eventId.value.trim())}`)).body;
      const mine = status.recipients.find((r) => r.user_id === userId);
      const facts = [`Event ${status.source}/${status.id}, category ${status.category}, accepted ${utc(status.accepted_at)}, ${status.status}.`];
      if (status.outcome) facts.push(`The event itself: ${status.outcome}.`);
      put(answer, el("p", { class: "meta", text: facts.join(" ") }));
      if (!mine) {
        put(answer, el("p", { class: "notice notice-info", id: "why-result", text: status.status === "pending" ? "Not decided yet: the pipeline has not reached it." : `${userId} is not among its recipients.` }));
        return;
      }
      put(answer, 
        el("p", { class: `verdict verdict-${mine.outcome}`, id: "why-result", text: explain(mine, user.time_zone) }),
        table("The decision", ["Outcome", "Reason", "Detail", "Deliver at", "Deliveries"], [[mine.outcome, el("code", { text: mine.reason }), mine.detail || "—", mine.deliver_at ? utc(mine.deliver_at) : "—", String(mine.delivery_ids.length)]], { id: "why-table" }),
      );
    } catch (error) {
      put(answer, el("p", { class: "notice notice-error", text: error instanceof ApiError && error.status === 404 ? "No event has this source and id." : describe(error) }));
    }
  });
  return el("section", { class: "why" }, el("h3", { text: "Why didn't they get this?" }), form, answer);
}
