// Every decision's reason code and detail in plain words, for a support person who has never read the code:
// "Held for their quiet hours until 07:00 Europe/Warsaw", "Not sent: muted", "Not sent: category off by preference".

/** The sentence for each reason code; `when` is the delivery time in the user's zone (or UTC) when there is one. */
const REASONS = {
  delivered: ({ devices }) =>
    devices > 1
      ? `Delivered: a push was queued for each of their ${devices} active devices.`
      : "Delivered: a push was queued for their active device.",
  "deferred.quiet_hours": ({ when }) =>
    when
      ? `Held for their quiet hours until ${when}; it goes out then.`
      : "Held for their quiet hours; it goes out when they end.",
  "silenced.quiet_hours": () => "Sent silently: it arrived in their quiet hours, so it went out without sound.",
  "dropped.quiet_hours": () => "Dropped for quiet hours: it arrived in their quiet hours and was not sent.",
  "suppressed.actor": () => "Not sent: they caused the event themselves.",
  "suppressed.unknown_user": () => "Not sent: no user had this id when the event was decided.",
  "suppressed.preference": () => "Not sent: category off by preference.",
  "suppressed.muted": () => "Not sent: muted.",
  "suppressed.expired": () => "Not sent: too old. The category's time to live ran out before it could be decided.",
  "rejected.unknown_category": () => "Not sent to anyone: the event names a category that does not exist.",
  "rejected.archived_category": () => "Not sent to anyone: the event's category is archived.",
  "rejected.undecodable": () => "Not sent to anyone: the stored event could not be read back.",
  no_devices: () => "Not pushed: they have no active device. It is in their in-app feed.",
  "digested.preference": ({ when }) =>
    `Held for their digest: they get this category as a summary${when ? `, due ${when}` : ""}.`,
  collapsed: ({ when }) =>
    `Folded into a summary with the rest of a burst of similar events${when ? `, due ${when}` : ""}.`,
  rate_limited: () =>
    "Not pushed: rate limited. They had already had as many pushes as allowed for now (for this category or in all). It is in their in-app feed.",
  read: () => "A read: it marked earlier notifications as read.",
};

/** What each detail note adds, by the reason it qualifies (or for any reason). */
const DETAILS = {
  "suppressed.preference": {
    user: "they turned this category off themselves",
    "category default": "the category is off unless a user turns it on, and they have not",
  },
  "digested.preference": {
    user: "they chose the digest themselves",
    "category default": "the category sends digests unless a user chooses otherwise",
  },
  "suppressed.muted": {
    all: "they muted all notifications",
    category: "they muted this category",
    thread: "they muted this conversation",
  },
  "dropped.quiet_hours": {
    policy: "this category is never sent during quiet hours",
    ttl_ends_in_quiet_hours: "it would expire before their quiet hours end",
  },
  collapsed: { rate_limited: "it came over the rate limit, and this category folds the excess into a summary" },
  any: {
    zone_unknown: "their time zone is not one Herald knows, so quiet hours could not apply",
    image_dropped: "the image did not fit a device's size limit and was left out",
    required: "the category is required, so it ignores opt-out",
  },
};

/** `iso` as wall-clock time in `zone` ("07:00 Europe/Warsaw, 30 Nov (06:00 UTC)"), or in UTC without a zone. */
export function localTime(iso, zone) {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  const format = (timeZone) =>
    new Intl.DateTimeFormat("en-GB", { timeZone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(at);
  const day = (timeZone) => new Intl.DateTimeFormat("en-GB", { timeZone, day: "numeric", month: "short" }).format(at);
  try {
    if (zone && zone !== "UTC" && zone !== "Etc/UTC") {
      return `${format(zone)} ${zone}, ${day(zone)} (${format("UTC")} UTC)`;
    }
  } catch {
    // A zone this browser does not know: UTC alone below.
  }
  return `${format("UTC")} UTC, ${day("UTC")}`;
}

/** A counted note such as `items_read=3`, in words. */
function counted(note) {
  const match = /^items_read=(\d+)$/.exec(note);
  if (!match) return null;
  return match[1] === "1" ? "one notification read" : `${match[1]} notifications read`;
}

/** The words for one decision ({reason, outcome, detail, deliver_at}); `zone` is the user's time zone. */
export function explain(decision, zone) {
  const code = decision.reason || decision.outcome;
  const when = decision.deliver_at && code !== "delivered" ? localTime(decision.deliver_at, zone) : null;
  const devices = decision.deliveries ?? decision.delivery_ids?.length ?? 0;
  const sentence = (REASONS[code] || (() => `Outcome ${code}.`))({ when, devices });
  if (!decision.detail) return sentence;
  const words = decision.detail
    .split(",")
    .map((note) => (DETAILS[code] || {})[note] || DETAILS.any[note] || counted(note) || `note: ${note}`);
  return `${sentence.replace(/\.$/, "")} — ${words.join("; ")}.`;
}
