"""Shared test set-up: hypothesis profiles and the real Redis every store test uses."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

# ci: small and quick; dev: the default at a desk; soak: the documented long run
# (LUDOTECA_HYPOTHESIS=soak pytest), see docs/testing.md.
settings.register_profile("ci", max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile(
    "soak", max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)
settings.load_profile(os.environ.get("LUDOTECA_HYPOTHESIS", "ci" if os.environ.get("CI") else "dev"))
