"""What the console's browser test needs in the database, seeded through the public API like any client would."""
import datetime
import json
import time
import urllib.error
import urllib.request
import zoneinfo

P256DH = "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM"
AUTH = "tBHItJI5svbpez7KI4CCXg"
DEADLINE = 15


class Failure(Exception):
    pass


class Api:
    def __init__(self, url, key):
        self.url, self.key = url, key

    def call(self, method, path, body=None, key=None, expect=(200, 201, 202, 204)):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(f"{self.url}{path}", data=data, method=method, headers={
            "Authorization": f"Bearer {key or self.key}", "Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                status, text, headers = response.status, response.read().decode(), response.headers
        except urllib.error.HTTPError as error:
            status, text, headers = error.code, error.read().decode(), error.headers
        if status not in expect:
            raise Failure(f"seeding: {method} {path} answered {status}: {text}")
        return json.loads(text) if text else None, headers

    def eventually(self, what, probe, deadline=DEADLINE):
        """Polls the API until `probe` returns a value: the pipeline decides asynchronously."""
        end = time.monotonic() + deadline
        while time.monotonic() < end:
            value = probe()
            if value:
                return value
            time.sleep(0.2)
        raise Failure(f"seeding: {what} did not happen within {deadline} s")


def seed(api):
    """A category Ana turned off, her devices (one in the browser's PushSubscription form), an event she did not
    get, users in three zones for a campaign, and receipts for the stats chart."""
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    api.call("POST", "/v1/categories", {"id": "promo", "name": "Promotions", "templates": {
        "en": {"title": "Offer", "body": "{text}"}}})
    api.call("POST", "/v1/categories", {"id": "news", "name": "News", "templates": {
        "en": {"title": "News", "body": "{text}"}}})
    for user, zone, locale in [("ana", "Europe/Warsaw", "pl"), ("raj", "Asia/Kolkata", "en"),
                               ("sam", "America/New_York", "en")]:
        api.call("PUT", f"/v1/users/{user}", {"locale": locale, "time_zone": zone,
                                              "quiet_hours": {"start": "22:00", "end": "07:00"}})
    api.call("PUT", "/v1/devices/ana-iphone", {"user_id": "ana", "platform": "apns", "token": "ab" * 32,
                                               "app_id": "com.example.chat"})
    # Exactly what PushSubscription.toJSON() gives in a browser.
    api.call("PUT", "/v1/devices/ana-browser", {"user_id": "ana", "platform": "webpush", "app_id": "web", "token": {
        "endpoint": "https://push.example.net/s/ana", "expirationTime": None, "keys": {"p256dh": P256DH, "auth": AUTH}}})
    api.call("PUT", "/v1/devices/ana-old-phone", {"user_id": "ana", "platform": "apns", "token": "cd" * 32,
                                                  "app_id": "com.example.chat"})
    # The push service said the old phone's token is gone, after it registered.
    api.call("POST", "/v1/feedback", {"installation_id": "ana-old-phone", "reason": "Unregistered",
                                      "at": int(time.time() * 1000)})
    api.call("PUT", "/v1/users/ana/preferences/promo", {"setting": "off"})
    api.call("PUT", "/v1/devices/raj-phone", {"user_id": "raj", "platform": "apns", "token": "ef" * 32,
                                              "app_id": "com.example.chat"})
    api.call("POST", "/v1/events", {"source": "shop", "id": "promo-1", "category": "promo", "occurred_at": now,
                                    "recipients": ["ana"], "data": {"text": "Winter sale"}})
    api.call("POST", "/v1/events", {"source": "newsroom", "id": "n-1", "category": "news", "occurred_at": now,
                                    "recipients": ["raj"], "data": {"text": "Hello"}})
    api.eventually("the promo event's decision", lambda: api.call("GET", "/v1/events/shop/promo-1")[0]["status"] == "decided")
    api.eventually("the news event's decision", lambda: api.call("GET", "/v1/events/newsroom/n-1")[0]["status"] == "decided")
    token = api.call("POST", "/v1/users/raj/client-tokens", {"ttl_seconds": 600})[0]["token"]
    feed = api.call("GET", "/v1/me/feed", key=token)[0]
    if not feed["items"]:
        raise Failure("seeding: raj's feed is empty, so no receipt can be reported")
    nid = feed["items"][0]["notification_id"]
    api.call("POST", "/v1/me/receipts", {"receipts": [
        {"notification_id": nid, "device": "raj-phone", "event": "displayed", "at": now},
        {"notification_id": nid, "device": "raj-phone", "event": "opened", "at": now}]}, key=token)
    viewer = api.call("POST", "/v1/api-keys", {"name": "support viewer", "scopes": ["events:write"]})[0]
    return viewer["secret"]


def quiet_user(api):
    """Lea in Warsaw, in quiet hours right now (from an hour ago to two hours on, by the real clock), with a phone,
    who muted promotions; a news event and then a promotion reach her. Returns the end of her quiet hours as HH:MM."""
    local = datetime.datetime.now(zoneinfo.ZoneInfo("Europe/Warsaw"))
    start = (local - datetime.timedelta(hours=1)).strftime("%H:%M")
    end = (local + datetime.timedelta(hours=2)).strftime("%H:%M")
    api.call("PUT", "/v1/users/lea", {"locale": "pl", "time_zone": "Europe/Warsaw",
                                      "quiet_hours": {"start": start, "end": end}})
    api.call("PUT", "/v1/devices/lea-phone", {"user_id": "lea", "platform": "apns", "token": "1a" * 32,
                                              "app_id": "com.example.chat"})
    api.call("POST", "/v1/users/lea/mutes", {"scope": "category", "key": "promo"})
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    for source, event, category in [("newsroom", "n-lea", "news"), ("shop", "promo-lea", "promo")]:
        api.call("POST", "/v1/events", {"source": source, "id": event, "category": category, "occurred_at": now,
                                        "recipients": ["lea"], "data": {"text": "Hello"}})
        api.eventually(f"the decision of {source}/{event}",
                       lambda: api.call("GET", f"/v1/events/{source}/{event}")[0]["status"] == "decided")
    return end


def bulk_events(api, user, count):
    """`count` news events for `user` in one batch, each polled until decided; returns their ids, oldest first."""
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    ids = [f"bulk-{n:02d}" for n in range(1, count + 1)]
    api.call("POST", "/v1/events", {"events": [
        {"source": "newsroom", "id": event, "category": "news", "occurred_at": now, "recipients": [user],
         "data": {"text": "More news"}} for event in ids]})
    for event in ids:
        api.eventually(f"the decision of newsroom/{event}",
                       lambda: api.call("GET", f"/v1/events/newsroom/{event}")[0]["status"] == "decided")
    return ids
