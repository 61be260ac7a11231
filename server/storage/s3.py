"""The S3 client of backups to an S3-compatible store (server/storage/backup.py): boto3, from the ``s3``
extra (``pip install 'ludoteca[s3]'``); a server that never backs up to S3 never imports it."""

from __future__ import annotations

import os
from typing import Any


def client(endpoint_url: str | None) -> Any:
    """boto3's S3 client for ``endpoint_url`` (None: AWS itself), path-style addressing (what
    S3-compatible stores expect); credentials and region from the environment, as the AWS tools
    read them (``AWS_ACCESS_KEY_ID``, ``AWS_SECRET_ACCESS_KEY``, ``AWS_REGION``, or a profile)."""
    from server.storage.backup import BackupError

    try:
        import boto3
        from botocore.config import Config
    except ImportError as exc:
        raise BackupError("backups to S3 need boto3: pip install 'ludoteca[s3]'") from exc
    region = os.environ.get("AWS_REGION") or os.environ.get("AWS_DEFAULT_REGION") or "us-east-1"
    config = Config(retries={"max_attempts": 5, "mode": "standard"}, s3={"addressing_style": "path"})
    return boto3.client("s3", endpoint_url=endpoint_url, region_name=region, config=config)
