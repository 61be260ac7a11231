"""What frontends and scripts use; speaks only the public HTTP and WebSocket API (see docs/API.md)."""
