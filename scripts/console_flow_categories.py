"""The categories part of the console's browser test: create with a field error, a conflicting edit from a second
session merged, archive and restore, history and stats, and a Live Activity category whose kind-dependent options
the form leaves to the server."""
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from console_browser import stale_save, step
from console_contrast import self_check
from console_seed import Failure

CATEGORY = "chat.pm"
LIVE = "sports.score"


def open_console(first, key):
    step(1, "open the console and paste a key")
    first.paste_key(key, "Key accepted: you can edit categories")
    first.find("#category-results table")
    problem = self_check(first.driver)
    if problem:
        raise Failure(problem)
    first.shot("01-categories")


def create_with_field_error(first):
    step(2, "create a category and see a field error beside its field")
    first.click("#category-new")
    first.type("#cat-id", CATEGORY)
    first.type("#cat-name", "Private messages")
    first.type("#cat-first-body", "{count, plural, one {# new message} other {# new messages}}")
    first.type("#cat-ttl_seconds", "0")
    first.click("#category-save")
    first.text_in("#cat-ttl_seconds-error", "", "the ttl_seconds error beside its field")
    if not first.driver.find_element(By.CSS_SELECTOR, "#cat-ttl_seconds-error").is_displayed():
        raise Failure("the problem's pointer /ttl_seconds was not shown beside the field")
    first.shot("02-category-field-error")
    first.type("#cat-ttl_seconds", "3600")
    first.click("#category-save")
    first.find("#template-panel")


def conflict_merged(first, second, api):
    step(5, "edit in a second session, save there, save in the first and see the conflict")
    stale_save(
        first, second, f"#/categories/{CATEGORY}", "#cat-description", ("#cat-name", "Direct messages"),
        ("#cat-description", "One person writes to another."), "#category-save", "#form-status", "Saved: version",
        "#conflict")
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
    for untouched in ["/priority", "/kind", "/counts_toward_badge", "/quiet_hours"]:
        if first.driver.find_elements(By.CSS_SELECTOR, f"#conflict-options tr[data-option='{untouched}']"):
            raise Failure(f"an option neither session changed ({untouched}) is listed in the conflict")
    print(f"    options: {name_row!r} / {mine_row!r}")
    first.shot("06-category-conflict")
    first.click("#conflict-merge")
    first.text_in("#form-status", "Saved: version 4")
    if first.value("#cat-name") != "Direct messages" or first.value("#cat-description") != "One person writes to another.":
        raise Failure(f"the merge lost a side: name {first.value('#cat-name')!r}, "
                      f"description {first.value('#cat-description')!r}")
    stored = api.call("GET", f"/v1/categories/{CATEGORY}")[0]
    if (stored["name"], stored["description"]) != ("Direct messages", "One person writes to another."):
        raise Failure(f"the merged save stored {stored['name']!r}, {stored['description']!r}")


def archive_history_stats(first):
    step(6, "archive the category and restore it; its history and stats")
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


def live_activity_kind(first, api):
    step("6b", "a live_activity category: the kind-dependent options follow the kind and are left to the server")
    first.go("#/categories/~new")
    first.type("#cat-id", LIVE)
    first.type("#cat-name", "Match score")
    if first.value("#cat-kind") != "notification" or first.value("#cat-counts_toward_badge") is not True:
        raise Failure("a new category does not start as a notification that counts toward the badge")
    Select(first.find("#cat-kind")).select_by_value("live_activity")
    first.wait("the badge option to follow the kind to 'no'",
               lambda d: first.value("#cat-counts_toward_badge") is False)
    if first.value("#cat-quiet_hours") != "bypass":
        raise Failure(f"quiet hours did not follow the kind to bypass: {first.value('#cat-quiet_hours')!r}")
    Select(first.find("#cat-quiet_hours")).select_by_value("silent")
    first.type("#cat-first-body", "{home}:{away}")
    first.click("#category-save")
    error = first.text_in("#cat-quiet_hours-error", "bypass, defer or drop",
                          "the server's /quiet_hours problem beside the quiet hours of a live_activity category")
    print(f"    live_activity quiet hours: {error!r}")
    first.shot("09b-category-live-activity")
    Select(first.find("#cat-quiet_hours")).select_by_value("drop")
    first.click("#category-save")
    first.find("#template-panel")
    stored = api.call("GET", f"/v1/categories/{LIVE}")[0]
    got = (stored["kind"], stored["quiet_hours"], stored["counts_toward_badge"])
    if got != ("live_activity", "drop", False):
        raise Failure(f"the live_activity category was stored as kind, quiet hours, badge = {got}")
    first.go(f"#/categories/{LIVE}")
    if first.find("#cat-kind").get_attribute("value") != "live_activity" or first.value("#cat-counts_toward_badge"):
        raise Failure("the form does not show the stored kind and badge option of the live_activity category")
    first.shot("09c-category-live-activity-saved")
