"""The production environment the README documents passes `manage.py check --deploy`
with no warning: HTTPS redirect, HSTS, secure cookies, a real secret key."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

from tests.test_settings import fresh_settings

REPO = Path(__file__).resolve().parent.parent
MARK = "# production environment"


def documented_environment() -> dict[str, str]:
    """The NAME=value lines of the README's production block."""
    readme = (REPO / "README.md").read_text()
    block = readme.split(MARK, 1)[1].split("```", 1)[0]
    pairs = [line.split("=", 1) for line in block.splitlines() if "=" in line]
    return {name.strip(): value.strip() for name, value in pairs}


def test_the_readme_documents_every_https_setting():
    env = documented_environment()

    for name in (
        "DJANGO_DEBUG", "DJANGO_SECRET_KEY", "DJANGO_SECURE_SSL_REDIRECT",
        "DJANGO_SECURE_HSTS_SECONDS", "DJANGO_SESSION_COOKIE_SECURE",
        "DJANGO_CSRF_COOKIE_SECURE", "TONGITS_TRUSTED_PROXIES",
    ):  # fmt: skip
        assert name in env


def test_check_deploy_is_clean_with_the_documented_production_environment():
    env = {**documented_environment(), "DJANGO_SECRET_KEY": secrets.token_urlsafe(50)}
    clean = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DJANGO_", "DATABASE_", "REDIS_", "TONGITS_"))
    }

    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=REPO,
        env={**clean, **env},
        capture_output=True,
        text=True,
    )

    assert result.returncode == 0, result.stderr
    assert "System check identified no issues" in result.stdout


def test_the_proxys_https_header_is_trusted_only_behind_trusted_proxies():
    alone = fresh_settings("SECURE_PROXY_SSL_HEADER")
    proxied = fresh_settings("SECURE_PROXY_SSL_HEADER", TONGITS_TRUSTED_PROXIES="1")

    assert alone.stdout.strip() == "None"
    assert proxied.stdout.strip() == repr(("HTTP_X_FORWARDED_PROTO", "https"))
