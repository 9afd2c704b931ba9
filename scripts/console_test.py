#!/usr/bin/env python3
"""The web console in headless Chromium, through the product manager's flow, against a running herald.

Seeds what it needs through the public API, then: opens the console and pastes a key; creates a category, types a
broken template and sees the error at its offset, fixes it; previews Polish with count 5; saves; edits the same
category in a second browser session and sees the conflict in the first; archives and restores it; plans a
campaign, sees its waves and cancels it; looks up a user and sees why an event was not delivered. Every screen is
saved as a PNG, and every screen's visible text is checked for WCAG AA contrast against its background.
Synchronisation is by WebDriverWait and polling with deadlines only.
"""
import argparse
import base64
import datetime
import os
import sys
import urllib.error
import urllib.request

from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import Select, WebDriverWait

from console_contrast import contrast_report, self_check
from console_seed import DEADLINE, Api, Failure, bulk_events, quiet_user, seed

PLURAL_PL = "{count, plural, one {# wiadomość} few {# wiadomości} many {# wiadomości} other {# wiadomości}}"
BROKEN_PL = "Masz {count, plural, one {# wiadomość} few {# wiadomości}"
CATEGORY = "chat.pm"


def check_headers(url):
    with urllib.request.urlopen(f"{url}/console", timeout=5) as response:
        headers = response.headers
    policy = headers.get("Content-Security-Policy", "")
    for part in ["default-src 'none'", "script-src 'self'", "style-src 'self'", "frame-ancestors 'none'"]:
        if part not in policy:
            raise Failure(f"/console: Content-Security-Policy lacks {part!r}: {policy!r}")
    if headers.get("X-Content-Type-Options") != "nosniff":
        raise Failure("/console: X-Content-Type-Options is not nosniff")
    try:
        urllib.request.urlopen(f"{url}/console/..%2Fsql%2F0001_initial.sql", timeout=5)
        raise Failure("/console served a path outside its folder")
    except urllib.error.HTTPError as error:
        if error.code != 404:
            raise Failure(f"/console traversal answered {error.code}, not 404")


class Browser:
    def __init__(self, url, artifacts, name):
        options = webdriver.ChromeOptions()
        options.binary_location = "/usr/bin/chromium"
        for flag in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,1000",
                     "--disable-gpu", "--lang=en-US"]:
            options.add_argument(flag)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        self.driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
        self.url, self.artifacts, self.name = url, artifacts, name
        self.shots = []
        self.contrast_checks = []

    def wait(self, what, condition, deadline=DEADLINE):
        try:
            return WebDriverWait(self.driver, deadline).until(condition)
        except TimeoutException:
            self.shot(f"failure-{self.name}")
            raise Failure(f"[{self.name}] timed out after {deadline} s waiting for: {what}")

    def find(self, css, what=None):
        return self.wait(what or f"{css} to be visible", EC.visibility_of_element_located((By.CSS_SELECTOR, css)))

    def text_in(self, css, text, what=None, deadline=DEADLINE):
        self.wait(what or f"{css} to contain {text!r}",
                  EC.text_to_be_present_in_element((By.CSS_SELECTOR, css), text), deadline)
        return self.driver.find_element(By.CSS_SELECTOR, css).text

    def click(self, css):
        self.wait(f"{css} to be clickable", EC.element_to_be_clickable((By.CSS_SELECTOR, css))).click()

    def type(self, css, text):
        element = self.find(css)
        element.send_keys(Keys.CONTROL, "a")
        element.send_keys(Keys.DELETE)
        element.send_keys(text)
        return element

    def set_value(self, css, value):
        """For date and time inputs, whose typing follows the browser's locale."""
        self.driver.execute_script("arguments[0].value = arguments[1]", self.find(css), value)

    def open(self, route=""):
        self.driver.get(f"{self.url}/console{route}")

    def go(self, route):
        self.driver.execute_script("location.hash = arguments[0]", route)

    def paste_key(self, key, expect):
        self.open()
        self.type("#key-input", key).send_keys(Keys.ENTER)
        self.text_in("#access", expect)

    def check_contrast(self, name):
        """Fails with every visible text element of the page under WCAG AA contrast, naming it and its ratio."""
        result = contrast_report(self.driver)
        if result["failures"]:
            raise Failure(f"[{self.name}] {name}: text below WCAG AA contrast:\n      " + "\n      ".join(result["failures"]))
        if result["checked"] == 0:
            raise Failure(f"[{self.name}] {name}: the contrast check found no text to check")
        self.contrast_checks.append((name, result["checked"]))

    def shot(self, name):
        """The whole page, beyond the window, through the DevTools protocol; every screen but a failure's is also
        checked for contrast."""
        if not name.startswith("failure-"):
            self.check_contrast(name)
        size = self.driver.execute_cdp_cmd("Page.getLayoutMetrics", {})["cssContentSize"]
        shot = self.driver.execute_cdp_cmd("Page.captureScreenshot", {
            "format": "png", "captureBeyondViewport": True,
            "clip": {"x": 0, "y": 0, "width": size["width"], "height": min(size["height"], 6000), "scale": 1}})
        path = os.path.join(self.artifacts, f"{name}.png")
        with open(path, "wb") as file:
            file.write(base64.b64decode(shot["data"]))
        self.shots.append(path)

    def console_errors(self):
        return [e["message"] for e in self.driver.get_log("browser") if e["level"] == "SEVERE"
                and "favicon" not in e["message"] and "the server responded with a status of" not in e["message"]]

    def quit(self):
        self.driver.quit()


def step(number, title):
    print(f"  step {number}: {title}", flush=True)


def run(url, key, artifacts):
    api = Api(url, key)
    viewer_key = seed(api)
    check_headers(url)
    first = Browser(url, artifacts, "first")
    second = None
    try:
        step(1, "open the console and paste a key")
        first.paste_key(key, "Key accepted: you can edit categories")
        first.find("#category-results table")
        problem = self_check(first.driver)
        if problem:
            raise Failure(problem)
        first.shot("01-categories")

        step(2, "create a category, type a broken template, see the error at its offset, fix it")
        first.click("#category-new")
        first.type("#cat-id", CATEGORY)
        first.type("#cat-name", "Private messages")
        first.type("#cat-first-body", "{count, plural, one {# new message} other {# new messages}}")
        first.type("#cat-ttl_seconds", "0")
        first.click("#category-save")
        error = first.text_in("#cat-ttl_seconds-error", "", "the ttl_seconds error beside its field")
        if not first.driver.find_element(By.CSS_SELECTOR, "#cat-ttl_seconds-error").is_displayed():
            raise Failure("the problem's pointer /ttl_seconds was not shown beside the field")
        first.shot("02-category-field-error")
        first.type("#cat-ttl_seconds", "3600")
        first.click("#category-save")
        first.find("#template-panel")
        first.type("#new-locale", "pl").send_keys(Keys.ENTER)
        first.text_in("#tab-pl", "pl")
        first.type("#tpl-title", "{actor}")
        first.type("#tpl-body", BROKEN_PL)
        first.type("#tpl-digest_title", "{first_actor}")
        first.type("#tpl-digest_body", BROKEN_PL)
        message = first.text_in("#tpl-body-error", "at character", "the ICU error with its offset beside the body")
        mark = first.find("#tpl-body-mark mark.icu-error", "the error's offset marked in the body")
        first.find("#preview-refused")
        print(f"    ICU error shown: {message!r}, marked at {mark.text!r}")
        first.shot("03-template-icu-error")
        first.type("#tpl-body", PLURAL_PL)
        first.type("#tpl-digest_body", PLURAL_PL)
        first.text_in("#preview-meta, #preview-output", "unsaved", "the preview of the fixed, unsaved text")

        step(3, "preview in pl with count 5 and see '5 wiadomości'")
        first.type("#preview-locale", "pl")
        first.click("button[data-count='5']")
        body = first.text_in("#preview-body", "5 wiadomości")
        first.find("#plural-table tr[data-plural='few']", "the plural categories of Polish")
        first.text_in("#preview-bytes", "bytes")
        print(f"    preview body: {body!r}")
        first.shot("04-template-preview-pl-5")
        first.driver.find_element(By.CSS_SELECTOR, "#preview-platform")
        Select(first.driver.find_element(By.CSS_SELECTOR, "#preview-platform")).select_by_value("webpush")
        first.text_in("#preview-output h4", "WEBPUSH")
        first.shot("05-template-preview-webpush")

        step(4, "save")
        first.click("#template-save")
        first.text_in("#template-status", "Saved pl")

        step(5, "edit in a second session, save there, save in the first and see the conflict")
        first.go(f"#/categories/{CATEGORY}")
        first.find("#cat-description")
        second = Browser(url, artifacts, "second")
        second.paste_key(key, "Key accepted")
        second.go(f"#/categories/{CATEGORY}")
        second.type("#cat-name", "Direct messages")
        second.click("#category-save")
        second.text_in("#form-status", "Saved: version")
        first.type("#cat-description", "One person writes to another.")
        first.click("#category-save")
        first.text_in("#conflict", "Changed by someone else since you opened it")
        versions = first.text_in("#conflict-versions", "it is now version")
        if "412" in first.driver.find_element(By.CSS_SELECTOR, "main").text:
            raise Failure("the conflict was shown as a raw 412")
        print(f"    conflict: {versions!r}")
        name_row = first.text_in("#conflict-options tr[data-option='/name']", "Direct messages",
                                 "their name beside yours in the options")
        if "Private messages" not in name_row or "them" not in name_row:
            raise Failure(f"the name's row does not show yours beside theirs and who changed it: {name_row!r}")
        mine_row = first.text_in("#conflict-options tr[data-option='/description']", "One person writes to another.",
                                 "your description beside theirs")
        if not mine_row.endswith("you"):
            raise Failure(f"the description's row does not say you changed it: {mine_row!r}")
        if first.driver.find_elements(By.CSS_SELECTOR, "#conflict-options tr[data-option='/priority']"):
            raise Failure("an option neither session changed is listed in the conflict")
        print(f"    options: {name_row!r} / {mine_row!r}")
        first.shot("06-category-conflict")
        first.click("#conflict-merge")
        first.text_in("#form-status", "Saved: version 4")
        value = lambda css: first.driver.find_element(By.CSS_SELECTOR, css).get_attribute("value")
        if value("#cat-name") != "Direct messages" or value("#cat-description") != "One person writes to another.":
            raise Failure(f"the merge lost a side: name {value('#cat-name')!r}, description {value('#cat-description')!r}")
        stored = api.call("GET", f"/v1/categories/{CATEGORY}")[0]
        if (stored["name"], stored["description"]) != ("Direct messages", "One person writes to another."):
            raise Failure(f"the merged save stored {stored['name']!r}, {stored['description']!r}")

        step("5b", "the same for the Polish wording: their title beside yours, then save yours over it")
        first.go(f"#/templates/{CATEGORY}/pl")
        first.find("#tpl-title")
        second.go(f"#/templates/{CATEGORY}/pl")
        second.type("#tpl-title", "{actor} napisał(a)")
        second.click("#template-save")
        second.text_in("#template-status", "Saved pl: version 5")
        first.type("#tpl-title", "Od {actor}")
        first.click("#template-save")
        first.text_in("#template-conflict", "Changed by someone else since you opened it")
        title_row = first.text_in("#template-conflict-fields tr[data-field='title']", "{actor} napisał(a)",
                                  "their title beside yours")
        if "Od {actor}" not in title_row or "both of you, differently" not in title_row:
            raise Failure(f"the title's row does not show both versions and the clash: {title_row!r}")
        if first.driver.find_elements(By.CSS_SELECTOR, "#template-conflict-fields tr[data-field='body']"):
            raise Failure("a template field neither session changed is listed in the conflict")
        if "412" in first.driver.find_element(By.CSS_SELECTOR, "main").text:
            raise Failure("the templates conflict was shown as a raw 412")
        print(f"    templates: {title_row!r}")
        first.shot("06b-template-conflict")
        first.click("#template-overwrite")
        first.text_in("#template-status", "Saved pl: version 6")
        stored = api.call("GET", f"/v1/categories/{CATEGORY}")[0]["templates"]["pl"]["title"]
        if stored != "Od {actor}":
            raise Failure(f"saving over theirs stored the title {stored!r}")

        step(6, "archive the category and restore it")
        first.go("#/categories")
        first.click(f"tr[data-category='{CATEGORY}'] button[data-action='archive']")
        first.text_in("#screen .notice", "archived")
        Select(first.find("#category-filter")).select_by_value("true")
        first.click(f"tr[data-category='{CATEGORY}'] button[data-action='restore']")
        first.text_in("#screen .notice", "restored")
        Select(first.find("#category-filter")).select_by_value("")
        first.find(f"tr[data-category='{CATEGORY}']")
        first.shot("07-categories-restored")
        first.go(f"#/history/{CATEGORY}/3")
        first.text_in("#history-list", "restore")
        first.text_in("#diff table", "Direct messages", "the second session's rename in the diff of version 3")
        first.shot("08-history")
        first.go("#/stats/news")
        first.find("#stats-chart")
        first.find("#stats-overview tr[data-category='news']", "news in the chart of every category")
        first.text_in("#stats-table", "100.0 %")
        first.shot("09-stats")

        step(7, "plan a campaign, see its waves, then cancel it")
        first.go("#/campaigns")
        Select(first.find("#cmp-category")).select_by_value("news")
        first.type("#cmp-id", "winter-news")
        first.click("#campaign-plan-button")
        first.text_in("#campaign-plan-summary", "3 recipients in 3 waves")
        first.find("#campaign-timeline")
        first.text_in("#campaign-waves", "Asia/Kolkata")
        first.shot("10-campaign-plan")
        first.click("#campaign-confirm")
        first.text_in("#campaign-state", "scheduled")
        first.shot("11-campaign-scheduled")
        first.click("#campaign-cancel")
        first.text_in("#campaign-state", "canceled")
        first.shot("12-campaign-canceled")
        # One that runs: yesterday's 00:00 has passed in every zone, and send_now sends them all in one wave now.
        yesterday = (datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(days=1)).strftime("%Y-%m-%d")
        first.go("#/campaigns")
        Select(first.find("#cmp-category")).select_by_value("news")
        first.type("#cmp-id", "news-now")
        first.set_value("#cmp-date", yesterday)
        first.set_value("#cmp-time", "00:00")
        Select(first.find("#cmp-late")).select_by_value("send_now")
        first.click("#campaign-plan-button")
        first.text_in("#campaign-plan-summary", "3 recipients in 1 wave,")
        first.click("#campaign-confirm")
        first.text_in("#campaign-decided", "3 of 3", deadline=60)
        first.text_in("#campaign-state", "completed", deadline=30)
        first.shot("12b-campaign-followed")

        step(8, "look up a user and see why an event was not delivered")
        first.go("#/users/ana")
        first.text_in("#user-devices", "ana-browser")
        first.text_in("#user-devices", "inactive")
        first.text_in("#user-preferences", "user")
        first.type("#why-source", "shop")
        first.type("#why-event", "promo-1")
        first.click("#why-lookup")
        verdict = first.text_in("#why-result", "Not sent: category off by preference — they turned this category off themselves")
        first.text_in("#why-table", "suppressed.preference")
        first.text_in("#decisions-table tr[data-event='shop/promo-1']", "category off by preference",
                      "ana's promotion in her latest decisions, in words")
        print(f"    why: {verdict!r}")
        first.click("#simulate-run")
        first.text_in("#simulate-table tr[data-simulated='promo']", "suppressed.preference")
        first.text_in("#simulate-table tr[data-simulated='news']", "")
        first.shot("13-user-why")

        step("8b", "a user in quiet hours who muted a category: why the last two events were not pushed")
        end = quiet_user(api)
        first.go("#/users/lea")
        deferred = first.text_in("#decisions-table tr[data-event='newsroom/n-lea']",
                                 f"Held for their quiet hours until {end} Europe/Warsaw",
                                 "the deferral until the end of lea's quiet hours, in her zone")
        muted = first.text_in("#decisions-table tr[data-event='shop/promo-lea']", "Not sent: muted — they muted this category")
        rows = first.driver.find_elements(By.CSS_SELECTOR, "#decisions-table tbody tr")
        if [r.get_attribute("data-event") for r in rows] != ["shop/promo-lea", "newsroom/n-lea"]:
            raise Failure(f"lea's decisions are not newest first: {[r.get_attribute('data-event') for r in rows]}")
        if "412" in first.driver.find_element(By.CSS_SELECTOR, "main").text:
            raise Failure("a raw status code is shown on the users screen")
        print(f"    decisions: {deferred!r} / {muted!r}")
        first.shot("13b-user-decisions")

        step("8c", "a user with more decisions than a page: the older ones follow on request")
        ids = bulk_events(api, "raj", 21)
        first.go("#/users/raj")
        first.wait("a first page of 20 of raj's decisions",
                   lambda d: len(d.find_elements(By.CSS_SELECTOR, "#decisions-table tbody tr")) == 20)
        top = first.driver.find_element(By.CSS_SELECTOR, "#decisions-table tbody tr").get_attribute("data-event")
        if top != f"newsroom/{ids[-1]}":
            raise Failure(f"raj's newest decision is not first: {top!r}")
        first.click("#decisions-more")
        first.text_in("#decisions-status", "23 most recent decisions.")
        events = [r.get_attribute("data-event") for r in
                  first.driver.find_elements(By.CSS_SELECTOR, "#decisions-table tbody tr")]
        if len(set(events)) != 23 or events[-1] != "newsroom/n-1":
            raise Failure(f"the older page repeats or misses decisions: {events}")
        if first.driver.find_element(By.CSS_SELECTOR, "#decisions-more").is_displayed():
            raise Failure("'Show older decisions' is still offered after the last page")
        first.shot("13c-user-older-decisions")

        step("+", "a key without categories:write is read-only")
        second.driver.execute_script("sessionStorage.clear()")
        second.paste_key(viewer_key, "read-only")
        second.go(f"#/categories/{CATEGORY}")
        save = second.find("#category-save")
        if save.is_enabled() or second.driver.find_elements(By.CSS_SELECTOR, "#category-archive"):
            raise Failure("a read-only key can still save or archive")
        second.shot("14-read-only")

        for browser in [first, second]:
            errors = browser.console_errors()
            if errors:
                raise Failure(f"[{browser.name}] the browser console reported errors: {errors}")
    finally:
        first.quit()
        if second:
            second.quit()
    for browser in [first] + ([second] if second else []):
        for name, count in browser.contrast_checks:
            print(f"    contrast: {name}: {count} text elements at WCAG AA or better")
    return first.shots + (second.shots if second else [])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--key", required=True)
    parser.add_argument("--artifacts", required=True)
    args = parser.parse_args()
    try:
        shots = run(args.url, args.key, args.artifacts)
    except Failure as failure:
        print(f"console test FAILED: {failure}", file=sys.stderr)
        return 1
    print(f"console test passed: {len(shots)} screenshots, each screen checked for WCAG AA contrast")
    for path in shots:
        print(f"  {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
