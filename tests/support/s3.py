"""moto's S3 server on loopback: a real S3 API over HTTP, for the backups and the cold tier."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from tests.support.processes import free_port

CREDENTIALS = {"AWS_ACCESS_KEY_ID": "drill", "AWS_SECRET_ACCESS_KEY": "drill-secret", "AWS_REGION": "us-east-1"}


@contextmanager
def moto_s3() -> Iterator[str]:
    """moto's S3 server on a free loopback port; its URL."""
    from moto.server import ThreadedMotoServer

    port = free_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.stop()
