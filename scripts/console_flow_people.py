"""The campaign and users part of the console's browser test: a campaign planned, scheduled and canceled, one
followed to its end; a user's devices, preferences and decisions in words; and a key that may only read."""
import datetime

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from console_browser import step
from console_flow_categories import CATEGORY
from console_seed import Failure, bulk_events, quiet_user


def campaigns(first):
    """Plans a campaign, sees its waves, schedules and cancels it; then follows one to its end."""
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


def users(first, api):
    """Looks up users and sees, in words, why their events were or were not pushed."""
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


def read_only(second, viewer_key):
    """A key without categories:write can neither save nor archive."""
    step("+", "a key without categories:write is read-only")
    second.driver.execute_script("sessionStorage.clear()")
    second.paste_key(viewer_key, "read-only")
    second.go(f"#/categories/{CATEGORY}")
    save = second.find("#category-save")
    if save.is_enabled() or second.driver.find_elements(By.CSS_SELECTOR, "#category-archive"):
        raise Failure("a read-only key can still save or archive")
    second.shot("14-read-only")
