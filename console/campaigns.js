// Campaigns: plan one and see its waves per zone on a UTC timeline before confirming; follow a running one live
// (decided, per second, ETA) and cancel it.
import { ApiError, call, seg } from "./api.js";
import { button, clear, describe, el, field, go, input, notice, put, select, svg, table, utc } from "./dom.js";
import { allCategories } from "./categories.js";
import { showErrors } from "./fields.js";

export async function render(root, params, session) {
  if (params[0]) return renderCampaign(root, params[0], session);
  return renderList(root);
}

/** `09:00 Thu` in `zone` at the UTC instant `iso`. */
function localTime(iso, zone) {
  try {
    return new Intl.DateTimeFormat("en-GB", { timeZone: zone, weekday: "short", hour: "2-digit", minute: "2-digit" }).format(new Date(iso));
  } catch {
    return "?";
  }
}

/** The waves on one UTC axis: a dot per wave, its number above and its UTC time below. */
function timeline(waves) {
  const width = 760;
  const times = waves.map((w) => Date.parse(w.due_at));
  const min = Math.min(...times);
  const max = Math.max(...times);
  const span = Math.max(max - min, 1);
  const x = (t) => (max === min ? width / 2 : 40 + ((t - min) / span) * (width - 80));
  const drawing = svg("svg", {
    viewBox: `0 0 ${width} 116`, width, height: 116, role: "img", class: "timeline", id: "campaign-timeline",
    "aria-label": `Waves on a UTC timeline: ${waves.map((w) => `wave ${w.number} at ${utc(w.due_at)}`).join(", ")}`,
  });
  put(drawing, svg("line", { x1: 20, y1: 45, x2: width - 20, y2: 45, class: "axis" }));
  // Hour ticks in UTC, at a step that keeps them to about a dozen.
  const hour = 3600000;
  const step = [1, 2, 3, 6, 12, 24].map((h) => h * hour).find((h) => span / h <= 12) || 48 * hour;
  if (max > min) {
    for (let t = Math.ceil(min / step) * step; t <= max; t += step) {
      put(drawing,
        svg("line", { x1: x(t), y1: 40, x2: x(t), y2: 50, class: "tick" }),
        svg("text", { x: x(t), y: 108, "text-anchor": "middle", class: "tick-label", text: `${new Date(t).toISOString().slice(11, 16)}` }));
    }
  }
  waves.forEach((wave, index) => {
    const at = x(times[index]);
    put(drawing, 
      svg("circle", { cx: at, cy: 45, r: 7, class: `wave wave-${wave.state}` }),
      svg("text", { x: at, y: 28, "text-anchor": "middle", class: "chart-label", text: `W${wave.number}` }),
      svg("text", { x: at, y: 72, "text-anchor": "middle", class: "chart-value", text: `${wave.due_at.slice(11, 16)} UTC` }),
    );
  });
  return drawing;
}

function wavesTable(waves, live) {
  const headers = ["Wave", "Due (UTC)", "Zones, with their local time", "Recipients", "State"];
  if (live) headers.push("Enqueued", "Decided", "Delivered", "Not delivered");
  return table(
    `${waves.length} ${waves.length === 1 ? "wave" : "waves"}`,
    headers,
    waves.map((wave) => {
      const cells = [
        String(wave.number),
        utc(wave.due_at),
        el("ul", { class: "zones" }, wave.zones.map((zone) => el("li", {}, `${zone} `, el("span", { class: "local", text: localTime(wave.due_at, zone) })))),
        String(wave.planned),
        wave.state,
      ];
      if (live) {
        const suppressed = Object.entries(wave.suppressed || {}).map(([reason, n]) => `${reason}: ${n}`).join(", ");
        cells.push(String(wave.enqueued), String(wave.decided), String(wave.delivered), suppressed || "—");
      }
      return { attrs: { "data-wave": String(wave.number) }, cells };
    }),
    { class: "list", id: "campaign-waves" },
  );
}

async function renderList(root) {
  const categories = (await allCategories("false")).map((c) => [c.id, `${c.id} — ${c.name}`]);
  const today = new Date(Date.now() + 86400000).toISOString().slice(0, 10);
  const f = {
    id: field("Id (optional)", input({ id: "cmp-id" }), { pointer: "/id" }),
    category: field("Category", select(categories, undefined, { id: "cmp-category" }), { pointer: "/category" }),
    audienceKind: field("Audience", select([["all", "Every user"], ["topic", "A topic's subscribers"], ["users", "A list of users"]], "all", { id: "cmp-audience-kind" }), { pointer: "/audience" }),
    audienceValue: field("Topic, or user ids (comma-separated)", input({ id: "cmp-audience-value" }), { pointer: "/audience/topic" }),
    date: field("Local date", input({ id: "cmp-date", type: "date", value: today }), { pointer: "/date" }),
    time: field("Local time", input({ id: "cmp-time", type: "time", value: "09:00" }), { pointer: "/local_time" }),
    late: field("Zones already past that time", select([["skip", "Skip them"], ["send_now", "Send them now"]], "skip", { id: "cmp-late" }), { pointer: "/late" }),
    zone: field("Zone of users without one", input({ id: "cmp-zone", value: "UTC" }), { pointer: "/default_time_zone" }),
    data: field("Event data (JSON)", el("textarea", { id: "cmp-data", rows: 2, value: "{}" }), { pointer: "/data" }),
  };
  const form = el("form", { id: "campaign-form", novalidate: true, "aria-label": "New campaign" }, el("div", { class: "grid" }, Object.values(f).map((x) => x.wrapper)));
  const summary = el("div", { class: "notice notice-error", role: "alert", hidden: true });
  const planBox = el("section", { id: "campaign-plan", "aria-live": "polite" });
  const planButton = el("button", { type: "submit", class: "primary", id: "campaign-plan-button", text: "Show the plan" });
  put(form, el("div", { class: "toolbar" }, planButton));

  const request = () => {
    const body = {
      category: f.category.control.value, date: f.date.control.value, local_time: f.time.control.value,
      late: f.late.control.value, default_time_zone: f.zone.control.value.trim() || "UTC",
    };
    if (f.id.control.value.trim()) body.id = f.id.control.value.trim();
    const value = f.audienceValue.control.value.trim();
    const kind = f.audienceKind.control.value;
    body.audience = kind === "all" ? { all: true } : kind === "topic" ? { topic: value } : { users: value.split(",").map((s) => s.trim()).filter(Boolean) };
    try {
      body.data = JSON.parse(f.data.control.value || "{}");
    } catch {
      body.data = f.data.control.value;
    }
    return body;
  };
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clear(planBox);
    const body = request();
    try {
      const plan = (await call("POST", "/v1/campaigns:plan", { body })).body;
      showErrors(form, summary, []);
      const confirm = button("Confirm and schedule", async () => {
        try {
          const created = (await call("POST", "/v1/campaigns", { body })).body;
          go(`#/campaigns/${seg(created.id)}`);
        } catch (error) {
          notice(status, describe(error), "error");
        }
      }, { class: "primary", id: "campaign-confirm" });
      const status = el("p", { class: "notice", role: "status", hidden: true });
      put(planBox, 
        el("h3", { text: "The plan (not scheduled yet)" }),
        el("p", { id: "campaign-plan-summary", text: `${plan.planned} recipients in ${plan.waves.length} ${plan.waves.length === 1 ? "wave" : "waves"}, ${body.local_time} local time on ${body.date}.` }),
        plan.unknown_zones.length ? el("p", { class: "notice notice-info", text: `Zones the tz data does not know, sent with the default zone: ${plan.unknown_zones.join(", ")}` }) : null,
        plan.waves.length ? timeline(plan.waves) : null,
        wavesTable(plan.waves, false),
        el("div", { class: "toolbar" }, confirm),
        status,
      );
    } catch (error) {
      if (error instanceof ApiError && (error.status === 422 || error.status === 400)) {
        showErrors(form, summary, error.fieldErrors.length ? error.fieldErrors : [{ pointer: "", detail: error.message }]);
      } else throw error;
    }
  });

  const page = (await call("GET", "/v1/campaigns", { query: { limit: 200 } })).body.items;
  put(root, 
    el("h2", { text: "Campaigns" }),
    el("h3", { text: "New campaign" }),
    summary,
    form,
    planBox,
    el("h3", { text: "Campaigns so far" }),
    page.length
      ? table(
          `${page.length} campaigns`,
          ["Id", "Category", "Date and time", "Status", "Planned", "Enqueued", "Waves"],
          page.map((c) => [el("a", { href: `#/campaigns/${seg(c.id)}`, text: c.id }), c.category, `${c.date} ${c.local_time}`, c.status, String(c.planned), String(c.enqueued), String(c.wave_count)]),
          { class: "list", id: "campaign-list" },
        )
      : el("p", { class: "empty", text: "No campaign yet." }),
  );
}

async function renderCampaign(root, id, session) {
  const status = el("p", { class: "notice", role: "status", hidden: true, id: "campaign-status-line" });
  const body = el("div", { id: "campaign-detail" });
  put(root, el("p", {}, el("a", { href: "#/campaigns", text: "← All campaigns" })), el("h2", { text: `Campaign ${id}` }), status, body);
  const samples = [];
  let timer = null;
  let stopped = false;
  session.stop = () => {
    stopped = true;
    clearTimeout(timer);
  };
  const draw = (campaign) => {
    const now = Date.now();
    samples.push([now, campaign.decided]);
    while (samples.length > 10) samples.shift();
    const [t0, d0] = samples[0];
    const rate = samples.length > 1 && now > t0 ? ((campaign.decided - d0) * 1000) / (now - t0) : null;
    const left = campaign.planned - campaign.decided;
    const eta = rate && rate > 0 && left > 0 ? `${Math.ceil(left / rate)} s` : left <= 0 ? "done" : "—";
    const active = campaign.status === "scheduled" || campaign.status === "running";
    const cancel = active
      ? button("Cancel campaign", async () => {
          try {
            draw((await call("POST", `/v1/campaigns/${seg(id)}/cancel`)).body);
            notice(status, "Canceled: waves not started will not start; a running one stops at its next batch.", "ok");
          } catch (error) {
            notice(status, describe(error), "error");
          }
        }, { id: "campaign-cancel", class: "danger" })
      : null;
    put(clear(body), 
      el(
        "dl",
        { class: "facts", id: "campaign-facts" },
        el("dt", { text: "Status" }), el("dd", { id: "campaign-state", text: campaign.status }),
        el("dt", { text: "Category" }), el("dd", { text: campaign.category }),
        el("dt", { text: "When" }), el("dd", { text: `${campaign.date} ${campaign.local_time} local time (default zone ${campaign.default_time_zone})` }),
        el("dt", { text: "Decided" }), el("dd", { id: "campaign-decided", text: `${campaign.decided} of ${campaign.planned} (${campaign.enqueued} handed to the pipeline, ${campaign.delivered} delivered)` }),
        el("dt", { text: "Per second" }), el("dd", { id: "campaign-rate", text: rate === null ? "—" : rate.toFixed(1) }),
        el("dt", { text: "ETA" }), el("dd", { id: "campaign-eta", text: active ? eta : "—" }),
      ),
      el("progress", { max: String(Math.max(campaign.planned, 1)), value: String(campaign.decided), "aria-label": "Decided so far" }),
      campaign.waves.length ? timeline(campaign.waves) : null,
      wavesTable(campaign.waves, true),
      el("div", { class: "toolbar" }, cancel),
    );
    // A completed campaign's last decisions may still be on their way: it is followed until the server says its
    // progress can no longer move.
    return !campaign.settled;
  };
  const poll = async () => {
    try {
      const campaign = (await call("GET", `/v1/campaigns/${seg(id)}`)).body;
      if (stopped) return;
      if (draw(campaign)) timer = setTimeout(poll, 2000);
    } catch (error) {
      notice(status, describe(error), "error");
    }
  };
  await poll();
}
