"""Playing one seat on two devices, in Chromium through real clicks (issue 12, part 3).

The player makes a link for another device (shown once), the phone opens it (a confirmation
page: nothing happens until "Play here"), plays the seat, and the laptop shows "Continued on
another device" with its own "Play here" (the last device to take the seat plays it).
Screenshots: tests/browser/artifacts/rejoin-*.png.
"""
from __future__ import annotations

from tests.browser.test_full_match import host_new_match
from tests.chromium import ARTIFACTS, DESKTOP, PHONE, screenshot


def test_a_seat_moves_between_devices_by_its_link(browser, lair_server):
    laptop_ctx, phone_ctx = browser.new_context(**DESKTOP), browser.new_context(**PHONE)
    try:
        laptop, phone = laptop_ctx.new_page(), phone_ctx.new_page()
        host_new_match(laptop, lair_server, "Ann", "evil_corp", 2)
        laptop.wait_for_selector("#waiting")
        laptop.click("#make-rejoin-link")
        link = laptop.locator("#rejoin-link").input_value()
        assert "/rejoin/" in link
        screenshot(laptop, ARTIFACTS / "rejoin-link.png")
        laptop.click("text=Back to the match")

        phone.goto(link)
        phone.wait_for_selector("#rejoin-confirmation")
        assert "Play Ann's seat here?" in phone.inner_text("h1")
        screenshot(phone, ARTIFACTS / "rejoin-confirm.png")
        phone.click("#rejoin-confirm")
        phone.wait_for_selector("#waiting")
        screenshot(phone, ARTIFACTS / "rejoin-phone-waiting.png", full_page=False)
        assert phone.locator("#start").count() == 0  # the host role stayed on the laptop
        assert phone.locator("#elsewhere").count() == 0

        # the laptop's open waiting room learns it at once (no reload by hand)
        laptop.wait_for_selector("#elsewhere")
        assert "Continued on another device" in laptop.inner_text("#elsewhere")
        screenshot(laptop, ARTIFACTS / "rejoin-continued-waiting.png", full_page=False)
        laptop.click("#fill")
        laptop.click("#start")
        laptop.wait_for_selector("#table")
        laptop.wait_for_selector("#elsewhere")
        screenshot(laptop, ARTIFACTS / "rejoin-continued-laptop.png", full_page=False)

        phone.wait_for_selector("#table")  # the start reloads the phone's waiting room
        assert phone.get_attribute("#table", "data-you") == "0"
        laptop.click("#play-here")
        laptop.wait_for_selector("#table[data-you='0']")
        # the phone's table learns it lost the seat and draws itself again as a watcher
        phone.wait_for_selector("#elsewhere")
        assert phone.get_attribute("#table", "data-you") == ""
        screenshot(phone, ARTIFACTS / "rejoin-continued-phone.png", full_page=False)
    finally:
        laptop_ctx.close()
        phone_ctx.close()
