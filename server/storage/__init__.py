"""Every Redis key, and the only holders of a Redis client: the event store, the indexes that span
games, presence, the embedded Redis. Storage answers facts (a version, a count, ``False``); what to
refuse is the service's to say."""

from redis.exceptions import RedisError as StoreError

__all__ = ["StoreError"]
