#!/usr/bin/env python3
"""The web console in headless Chromium, through the product manager's flow, against a running herald.

Seeds what it needs through the public API, then: opens the console and pastes a key; creates a category, types a
broken template and sees the error at its offset, fixes it; previews Polish with count 5; saves; edits the same
category and its Polish templates in a second browser session and resolves each conflict in the first; archives and
restores it; creates a Live Activity category; plans a campaign, sees its waves and cancels it; looks up a user and
sees why an event was not delivered. Every screen is saved as a PNG, and every screen's visible text, and the hover
and focus states of its controls, are checked for WCAG AA contrast. Synchronisation is by WebDriverWait and
polling with deadlines only. The flows live in console_flow_categories.py, console_flow_templates.py and
console_flow_people.py; the browser in console_browser.py.
"""
import argparse
import sys

import console_flow_categories as categories
import console_flow_people as people
import console_flow_templates as templates
from console_browser import Browser, check_headers
from console_seed import Api, Failure, seed


def run(url, key, artifacts):
    api = Api(url, key)
    viewer_key = seed(api)
    check_headers(url)
    first = Browser(url, artifacts, "first")
    second = None
    try:
        categories.open_console(first, key)
        categories.create_with_field_error(first)
        templates.broken_fixed_previewed_saved(first)
        second = Browser(url, artifacts, "second")
        second.paste_key(key, "Key accepted")
        categories.conflict_merged(first, second, api)
        templates.conflict_saved_over(first, second, api)
        templates.conflict_applied_on_theirs(first, second, api)
        categories.archive_history_stats(first)
        categories.live_activity_kind(first, api)
        people.campaigns(first)
        people.users(first, api)
        people.read_only(second, viewer_key)
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
            print(f"    contrast: {name}: {count}")
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
