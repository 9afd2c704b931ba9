"""The templates part of the console's browser test: a broken Polish template marked at its offset and fixed, the
live preview for a count and a platform, a save, and two stale saves from a second session: one saved over theirs,
one whose edits are applied on top of their version."""
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from console_browser import stale_save, step
from console_flow_categories import CATEGORY
from console_seed import Failure

PLURAL_PL = "{count, plural, one {# wiadomość} few {# wiadomości} many {# wiadomości} other {# wiadomości}}"
BROKEN_PL = "Masz {count, plural, one {# wiadomość} few {# wiadomości}"
THEIR_BODY_PL = "Nowe: {count, plural, one {# wiadomość} few {# wiadomości} many {# wiadomości} other {# wiadomości}}"


def broken_fixed_previewed_saved(first):
    step("2b", "type a broken template, see the error at its offset, fix it")
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
    typed_across_a_live_error(first, "#tpl-body", PLURAL_PL)
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
    Select(first.find("#preview-platform")).select_by_value("webpush")
    first.text_in("#preview-output h4", "WEBPUSH")
    first.shot("05-template-preview-webpush")

    step(4, "save")
    first.click("#template-save")
    first.text_in("#template-status", "Saved pl")

    step("4b", "an error after emoji is marked at its own character; 'PL' opens the stored pl templates")
    # ChromeDriver types no character beyond the Basic Multilingual Plane: the text is set as a paste would.
    set_text(first, "#tpl-title", "\U0001F389\U0001F389 {a, foo}")
    mark = first.text_in("#tpl-title-mark mark.icu-error", "f", "the error after two emoji marked at its 'f'")
    print(f"    marked after two emoji: {mark!r}")
    set_text(first, "#tpl-title", "{actor}")
    first.wait("the title's mark to go", lambda d: d.find_element(By.CSS_SELECTOR, "#tpl-title-mark")
               .get_attribute("hidden") is not None)
    first.type("#new-locale", "PL").send_keys(Keys.ENTER)
    first.text_in("#template-save", "Save pl templates", "the tab of the stored pl, not a new PL")
    if first.value("#tpl-body") != PLURAL_PL or first.driver.find_elements(By.CSS_SELECTOR, "[id='tab-PL']"):
        raise Failure(f"'PL' opened {first.value('#tpl-body')!r} in a new tab instead of the stored pl templates")


def set_text(browser, css, text):
    """Puts `text` in the field at `css` and tells the page, as pasting it would."""
    browser.driver.execute_script(
        "arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input', {bubbles: true}))",
        browser.find(css), text)


def typed_across_a_live_error(browser, css, text):
    """Types `text` but its closing brace, lets the live preview mark the brace left open (at the text's start), then
    types the brace, as a slow typist would: the preview marks the error but leaves the caret where typing goes on."""
    cut = len(text) - 1
    browser.type(css, text[:cut])
    browser.wait(f"the live preview to mark the error of {text[:cut]!r}",
                 lambda d: not d.find_element(By.CSS_SELECTOR, f"{css}-mark").get_attribute("hidden")
                 and browser.value(css) in d.find_element(By.CSS_SELECTOR, f"{css}-mark").text)
    browser.find(css).send_keys(text[cut:])
    if browser.value(css) != text:
        raise Failure(f"typing on after the live preview's error left {browser.value(css)!r}, not {text!r}")


def conflict_saved_over(first, second, api):
    step("5b", "the same for the Polish wording: their title beside yours, then save yours over it")
    stale_save(
        first, second, f"#/templates/{CATEGORY}/pl", "#tpl-title", ("#tpl-title", "{actor} napisał(a)"),
        ("#tpl-title", "Od {actor}"), "#template-save", "#template-status", "Saved pl: version 5",
        "#template-conflict")
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


def conflict_applied_on_theirs(first, second, api):
    step("5c", "a stale Polish save again: keep their body and apply my digest title on top, with their ETag")
    second.go(f"#/templates/{CATEGORY}/pl")
    second.wait("the second session to load version 6 of the Polish templates",
                lambda d: second.value("#tpl-title") == "Od {actor}")
    second.type("#tpl-body", THEIR_BODY_PL)
    second.click("#template-save")
    second.text_in("#template-status", "Saved pl: version 7")
    first.type("#tpl-digest_title", "{first_actor} i inni")
    first.click("#template-save")
    first.text_in("#template-conflict", "Changed by someone else since you opened it")
    first.text_in("#template-conflict-fields tr[data-field='body']", "Nowe:", "their body beside yours")
    mine = first.text_in("#template-conflict-fields tr[data-field='digest_title']", "{first_actor} i inni",
                         "your digest title beside theirs")
    if not mine.endswith("you"):
        raise Failure(f"the digest title's row does not say you changed it: {mine!r}")
    first.shot("06c-template-conflict-apply-mine")
    first.click("#template-merge")
    first.text_in("#template-status", "Saved pl: version 8")
    stored = api.call("GET", f"/v1/categories/{CATEGORY}")[0]["templates"]["pl"]
    want = {"title": "Od {actor}", "body": THEIR_BODY_PL, "digest_title": "{first_actor} i inni"}
    got = {name: stored.get(name) for name in want}
    if got != want:
        raise Failure(f"keeping theirs and applying mine stored {got}, not {want}")
    if first.value("#tpl-body") != THEIR_BODY_PL or first.value("#tpl-digest_title") != want["digest_title"]:
        raise Failure("the editor does not show their body with my digest title after the merge")
    first.shot("06d-template-merged")
