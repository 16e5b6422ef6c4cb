"""A push service and a browser of our own, for the notifications tests.

``PushEndpoint`` is a small HTTP server on 127.0.0.1 that takes what the worker posts, as a
push service would, and answers with the status a test asks of it. ``Browser`` holds what
a real browser makes when it subscribes (a P-256 key pair and a 16-byte auth secret) and
decrypts a received message with them (RFC 8291's aes128gcm, through http_ece), so a test
reads exactly what the phone would show. ``vapid_ok`` checks the request's VAPID signature
against the site's public key. Nothing of pywebpush is mocked.
"""

from __future__ import annotations

import base64
import io
import json
import os
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from django.core.management import call_command


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Received:
    path: str
    headers: dict[str, str]  # names in lower case
    body: bytes


@dataclass
class PushEndpoint:
    """Answers each POST with ``statuses[path]`` (a list: one status a request, the last
    one repeated), 201 by default."""

    statuses: dict[str, list[int]] = field(default_factory=dict)
    received: list[Received] = field(default_factory=list)

    def __post_init__(self) -> None:
        endpoint = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (the library's name)
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                headers = {k.lower(): v for k, v in self.headers.items()}
                endpoint.received.append(Received(self.path, headers, body))
                queue = endpoint.statuses.get(self.path, [201])
                status = queue.pop(0) if len(queue) > 1 else queue[0]
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def url(self, path: str) -> str:
        return self.origin + path

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class Browser:
    """One browser's push subscription keys, as ``PushManager.subscribe`` makes them."""

    def __init__(self) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)

    def subscription(self, endpoint: str) -> dict:
        public = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {"endpoint": endpoint, "keys": {"p256dh": b64(public), "auth": b64(self.auth)}}

    def read(self, received: Received) -> dict:
        """Decrypt a message as the browser would, and parse its JSON."""
        assert received.headers["content-encoding"] == "aes128gcm"
        plain = http_ece.decrypt(
            received.body, private_key=self.key, auth_secret=self.auth, version="aes128gcm"
        )
        return json.loads(plain)


def vapid_ok(received: Received, public_key: str, audience: str) -> bool:
    """Whether the request carries a VAPID token (RFC 8292) signed by ``public_key``'s
    private half, for ``audience``, unexpired."""
    scheme, _, params = received.headers["authorization"].partition(" ")
    parts = dict(p.split("=", 1) for p in params.split(","))
    if scheme != "vapid" or parts["k"] != public_key:
        return False
    head, claims, signature = parts["t"].split(".")
    raw = unb64(signature)
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(public_key))
    key.verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))  # raises if forged
    return json.loads(unb64(claims))["aud"] == audience


def run_worker() -> None:
    """The background worker, as a site runs it, until no task is ready."""
    call_command(
        "db_worker", "--batch", "--no-startup-delay", "--no-reload", "--interval", "0",
        stdout=io.StringIO(), stderr=io.StringIO(),
    )  # fmt: skip
