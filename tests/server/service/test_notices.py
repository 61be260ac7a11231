"""The service's rules for sending: quiet hours in the player's time zone, the back-off between
attempts, the signature a receiver checks, and the settings an operator gives."""

from __future__ import annotations

import datetime
import hashlib
import hmac
import zoneinfo

import pytest

from server.service.notices import QuietHours, backoff_ms, quiet_until, sign
from server.settings import Settings

LISBON = zoneinfo.ZoneInfo("Europe/Lisbon")


def at(zone: zoneinfo.ZoneInfo, year: int, month: int, day: int, hour: int, minute: int) -> int:
    return int(datetime.datetime(year, month, day, hour, minute, tzinfo=zone).timestamp() * 1000)


def test_quiet_hours_across_midnight_hold_until_their_end_in_the_players_time_zone() -> None:
    night = QuietHours(start="22:30", end="07:00", time_zone="Europe/Lisbon")
    assert quiet_until(night, at(LISBON, 2026, 1, 10, 21, 0)) is None
    assert quiet_until(night, at(LISBON, 2026, 1, 10, 23, 15)) == at(LISBON, 2026, 1, 11, 7, 0)
    assert quiet_until(night, at(LISBON, 2026, 1, 11, 6, 59)) == at(LISBON, 2026, 1, 11, 7, 0)
    assert quiet_until(night, at(LISBON, 2026, 1, 11, 7, 0)) is None
    # The night the clocks go forward (29 March 2026, 01:00 -> 02:00 in Lisbon) is an hour shorter.
    short = quiet_until(night, at(LISBON, 2026, 3, 28, 23, 0))
    assert short == at(LISBON, 2026, 3, 29, 7, 0) and short - at(LISBON, 2026, 3, 28, 23, 0) == 7 * 3_600_000
    lunch = QuietHours(start="12:00", end="14:00")  # UTC, within one day
    assert quiet_until(lunch, at(zoneinfo.ZoneInfo("UTC"), 2026, 5, 1, 13, 0)) == at(
        zoneinfo.ZoneInfo("UTC"), 2026, 5, 1, 14, 0
    )
    assert quiet_until(None, 0) is None


def test_retries_back_off_exponentially_with_jitter_and_at_most_an_hour() -> None:
    for attempt, ceiling in [(1, 10_000), (2, 20_000), (3, 40_000), (8, 1_280_000), (30, 3_600_000)]:
        waits = [backoff_ms(10_000, attempt) for _ in range(50)]
        assert all(ceiling // 2 <= w <= ceiling for w in waits), (attempt, min(waits), max(waits))
        assert len(set(waits)) > 1  # jittered: retries of many deliveries do not come back at once


def test_the_signature_is_hmac_sha256_of_the_timestamp_a_dot_and_the_body() -> None:
    header = sign("whsec_k", 1764590400, b'{"a":1}')
    expected = hmac.new(b"whsec_k", b'1764590400.{"a":1}', hashlib.sha256).hexdigest()
    assert header == f"t=1764590400,v1={expected}"


def test_the_notification_settings_come_from_the_environment() -> None:
    settings = Settings.from_env(
        {
            "LUDOTECA_PUBLIC_URL": "https://ludoteca.example/",
            "LUDOTECA_SMTP_HOST": "smtp.example.org",
            "LUDOTECA_SMTP_PORT": "465",
            "LUDOTECA_SMTP_TLS": "tls",
            "LUDOTECA_SMTP_USER": "ludoteca",
            "LUDOTECA_SMTP_PASSWORD": "s3cret-password",
            "LUDOTECA_EMAIL_EVERY": "30",
            "LUDOTECA_WEBHOOK_ALLOW": "hooks.internal, 10.1.0.0/16",
            "LUDOTECA_WEBHOOKS_PER_HOUR": "60",
        }
    )
    assert settings.public_url == "https://ludoteca.example" and settings.smtp_port == 465
    assert (settings.smtp_host, settings.smtp_tls, settings.smtp_user) == ("smtp.example.org", "tls", "ludoteca")
    assert settings.email_every == 30 and settings.webhooks_per_hour == 60
    assert settings.webhook_allow == ("hooks.internal", "10.1.0.0/16")
    assert "s3cret-password" not in repr(settings)  # the password is kept out of any printed settings
    defaults = Settings.from_env({})
    assert defaults.smtp_host is None and defaults.webhook_allow == () and defaults.emails_per_hour == 8
    with pytest.raises(ValueError, match="LUDOTECA_SMTP_TLS"):
        Settings.from_env({"LUDOTECA_SMTP_TLS": "ssl"})
