"""The browser the console test drives: headless Chromium through Selenium, with waits that fail loudly after a
deadline, whole-page screenshots, and the WCAG contrast check run on every screen it saves."""
import base64
import os
import urllib.error
import urllib.request

from selenium import webdriver
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException, TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

from console_contrast import contrast_report, state_report
from console_seed import DEADLINE, Failure


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
            ignored = [NoSuchElementException, StaleElementReferenceException]
            return WebDriverWait(self.driver, deadline, ignored_exceptions=ignored).until(condition)
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

    def value(self, css):
        """What a control holds now: its value, or for a checkbox whether it is checked."""
        element = self.driver.find_element(By.CSS_SELECTOR, css)
        return element.is_selected() if element.get_attribute("type") == "checkbox" else element.get_attribute("value")

    def set_value(self, css, value):
        """For date and time inputs, whose typing follows the browser's locale."""
        self.driver.execute_script("arguments[0].value = arguments[1]", self.find(css), value)

    def open(self, route=""):
        self.driver.get(f"{self.url}/console{route}")

    def go(self, route):
        """Moves to `route`; the route already shown is rendered afresh, as the console's own links do."""
        self.driver.execute_script("if (location.hash === arguments[0]) dispatchEvent(new HashChangeEvent('hashchange'));"
                                   " else location.hash = arguments[0]", route)

    def paste_key(self, key, expect):
        self.open()
        self.type("#key-input", key).send_keys(Keys.ENTER)
        self.text_in("#access", expect)

    def check_contrast(self, name):
        """Fails with every visible text element of the page under WCAG AA contrast, naming it and its ratio, and
        with every control whose hover or focus state is: its text, or its focus outline under 3:1."""
        result = contrast_report(self.driver)
        if result["failures"]:
            raise Failure(f"[{self.name}] {name}: text below WCAG AA contrast:\n      " + "\n      ".join(result["failures"]))
        if result["checked"] == 0:
            raise Failure(f"[{self.name}] {name}: the contrast check found no text to check")
        states = state_report(self.driver)
        if states["failures"]:
            raise Failure(f"[{self.name}] {name}: hover or focus below WCAG AA:\n      " + "\n      ".join(states["failures"]))
        ring = f", focus outlines {states['lowest_ring']:.2f}:1 or more" if states["lowest_ring"] else ""
        self.contrast_checks.append((name, f"{result['checked']} text elements at WCAG AA or better; "
                                           f"{states['checked']} controls hovered and focused{ring}"))

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


def stale_save(first, second, route, ready, theirs, mine, save, status, saved, conflict):
    """Opens `route` in both sessions, saves `theirs` (selector, text) in the second, then `mine` in the first,
    whose version is now stale, and waits for the conflict box to say so."""
    first.go(route)
    first.find(ready)
    second.go(route)
    second.type(*theirs)
    second.click(save)
    second.text_in(status, saved)
    first.type(*mine)
    first.click(save)
    first.text_in(conflict, "Changed by someone else since you opened it")
