"""The event store's Lua scripts (server/storage/store.py runs them): each touches one game's keys,
all under one hash tag, and makes every check before its first write (a script does not roll back)."""

from __future__ import annotations

from typing import Final

# The record of a command (KEYS[2]: the commands hash), its own or, for a person's command, one
# written before ids were scoped (under the bare id, naming the same seat). ARGV from ``base``:
# the scoped field, the bare id, the legacy seat ('' for none).
RECORDED_LUA: Final = r"""
local function recorded(commands_key, base)
  local record = redis.call('HGET', commands_key, ARGV[base])
  if record or ARGV[base + 2] == '' then
    return record
  end
  local old = redis.call('HGET', commands_key, ARGV[base + 1])
  if not old then
    return false
  end
  local ok, decoded = pcall(cjson.decode, old)
  if ok and type(decoded) == 'table' and decoded['seat'] == tonumber(ARGV[base + 2]) then
    return old
  end
  return false
end
"""

# KEYS: events, commands, meta, tokens (one hash tag).
# ARGV: game_id, expected_version, has_command ("1"/"0"), field, bare id, legacy seat,
#       command_record, schema, expected_link ('' for any), channel, n_events, events...,
#       n_meta, (field, value)..., n_tokens, (token_hash, seat)...
# Every check happens before the first write: Lua scripts do not roll back.
APPEND_LUA: Final = (
    RECORDED_LUA
    + r"""
local events_key, commands_key, meta_key, tokens_key = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local game_id = ARGV[1]
local expected = tonumber(ARGV[2])
local has_command = ARGV[3] == '1'

if redis.call('HEXISTS', meta_key, 'cold') == 1 then
  return {'cold'}
end

if has_command then
  local record = recorded(commands_key, 4)
  if record then
    return {'dup', record}
  end
end

local current = 0
local link = ''
local last = redis.call('XREVRANGE', events_key, '+', '-', 'COUNT', 1)
if #last > 0 then
  local n = string.match(last[1][1], '^0%-(%d+)$')
  if not n then
    return redis.error_reply('ERR ludoteca: unexpected stream id ' .. last[1][1] .. ' in ' .. events_key)
  end
  current = tonumber(n)
  local fields = last[1][2]
  for f = 1, #fields, 2 do
    if fields[f] == 'h' then
      link = fields[f + 1]
    end
  end
end
if current ~= expected or (ARGV[9] ~= '' and link ~= ARGV[9]) then
  return {'conflict', current}
end

local schema = ARGV[8]
local n_events = tonumber(ARGV[11])
local i = 12
local version = current
for _ = 1, n_events do
  version = version + 1
  link = redis.sha1hex(link .. ARGV[i])
  redis.call('XADD', events_key, string.format('0-%d', version), 'e', ARGV[i], 's', schema, 'h', link)
  i = i + 1
end

if has_command then
  redis.call('HSET', commands_key, ARGV[4], ARGV[7])
end

-- The meta's fields in one HSET, with when the game was last played (the dormancy pass reads it).
local n_meta = tonumber(ARGV[i])
i = i + 1
local meta = {}
for _ = 1, n_meta do
  meta[#meta + 1] = ARGV[i]
  meta[#meta + 1] = ARGV[i + 1]
  i = i + 2
end

local n_tokens = tonumber(ARGV[i])
i = i + 1
for _ = 1, n_tokens do
  if ARGV[i + 1] == '-1' then
    redis.call('HDEL', tokens_key, ARGV[i])
  else
    redis.call('HSET', tokens_key, ARGV[i], ARGV[i + 1])
  end
  i = i + 2
end

if n_events > 0 then
  local now = redis.call('TIME')
  meta[#meta + 1] = 'touched_ms'
  meta[#meta + 1] = string.format('%d%03d', now[1], math.floor(now[2] / 1000))
end
if #meta > 0 then
  redis.call('HSET', meta_key, unpack(meta))
end
if n_events > 0 then
  redis.call('PUBLISH', ARGV[10], game_id .. ' ' .. string.format('%d', version))
end
return {'ok', version, link}
"""
)


# KEYS: events, commands, tokens, meta (one hash tag). ARGV: the first stream id to read, a token
# hash ('' for none), has_command ('1'/'0'), then the command's field, bare id and legacy seat,
# then the most entries to read ('0': all).
# Reads only: the events from that id, the last entry's id, the token's seat, the command's
# record and TIME (the last two with a command); {'cold'} for a game whose history is in the cold tier.
LOOK_LUA: Final = (
    RECORDED_LUA
    + r"""
if redis.call('HEXISTS', KEYS[4], 'cold') == 1 then
  return {'cold'}
end
local entries
if ARGV[7] == '0' then
  entries = redis.call('XRANGE', KEYS[1], ARGV[1], '+')
else
  entries = redis.call('XRANGE', KEYS[1], ARGV[1], '+', 'COUNT', ARGV[7])
end
local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
local head = false
if #last > 0 then
  head = last[1][1]
end
local seat = false
if ARGV[2] ~= '' then
  seat = redis.call('HGET', KEYS[3], ARGV[2])
end
local record, now = false, false
if ARGV[3] == '1' then
  record = recorded(KEYS[2], 4)
  now = redis.call('TIME')
end
return {entries, head, seat, record, now}
"""
)

# KEYS: events, commands, meta, tokens, snapshots (one hash tag). ARGV: the status the game must have.
# 1: deleted; 0: the game has another status; -1: there is no such game.
DELETE_LUA: Final = r"""
local status = redis.call('HGET', KEYS[3], 'status')
if not status and redis.call('EXISTS', KEYS[1]) == 0 then
  return -1
end
if status ~= ARGV[1] then
  return 0
end
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5])
return 1
"""

# KEYS: events, snapshots (one hash tag). ARGV: the version, the link of its event, the snapshot.
# Written only while the stream holds that link at that version: never for a game deleted
# meanwhile (no key left behind) nor for writes Redis lost. Replaces one of the same version.
SNAPSHOT_LUA: Final = r"""
local at = string.format('0-%d', tonumber(ARGV[1]))
local entry = redis.call('XRANGE', KEYS[1], at, at)
if #entry == 0 then
  return 0
end
local fields = entry[1][2]
for f = 1, #fields, 2 do
  if fields[f] == 'h' and fields[f + 1] == ARGV[2] then
    redis.call('ZREMRANGEBYSCORE', KEYS[2], ARGV[1], ARGV[1])
    redis.call('ZADD', KEYS[2], ARGV[1], ARGV[3])
    return 1
  end
end
return 0
"""

# KEYS: events, commands, meta, snapshots (one hash tag). ARGV: the id of the last entry read, the
# marker of that history ("<version> <link>"), how many command records were read.
# The history leaves Redis only if it is still the one that was read (and written to the cold
# tier): no event appended since, no command recorded since. The newest snapshot stays.
# Won: {the history last brought back (''), whether a freeze lost its race since ('')}, what the
# tier may prune; lost: {}.
FREEZE_LUA: Final = r"""
if redis.call('HEXISTS', KEYS[3], 'cold') == 1 then
  return {}
end
local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
if #last == 0 or last[1][1] ~= ARGV[1] or redis.call('HLEN', KEYS[2]) ~= tonumber(ARGV[3]) then
  return {}
end
local earlier = redis.call('HMGET', KEYS[3], 'thawed', 'strays')
redis.call('DEL', KEYS[1], KEYS[2])
redis.call('ZREMRANGEBYRANK', KEYS[4], 0, -2)
redis.call('HDEL', KEYS[3], 'thawed', 'strays')
redis.call('HSET', KEYS[3], 'cold', ARGV[2])
return {earlier[1] or '', earlier[2] or ''}
"""

# KEYS: events, commands, meta (one hash tag). ARGV: the marker, the number of entries, then for
# each entry its id, its number of fields and values, and those; then the number of command
# records and each (field, record). Written back only while the game is still cold with that
# history (another replica may have thawed it first): entry ids and fields as they were, and the
# game stamped as touched now, so that a game people look at is not frozen again at once. ``thawed``
# names the blob left in the tier, which the game's next freeze removes.
THAW_LUA: Final = r"""
if redis.call('HGET', KEYS[3], 'cold') ~= ARGV[1] then
  return 0
end
local i = 3
for _ = 1, tonumber(ARGV[2]) do
  local id, n = ARGV[i], tonumber(ARGV[i + 1])
  local fields = {}
  for k = 1, n do
    fields[k] = ARGV[i + 1 + k]
  end
  redis.call('XADD', KEYS[1], id, unpack(fields))
  i = i + 2 + n
end
local n_commands = tonumber(ARGV[i])
i = i + 1
for _ = 1, n_commands do
  redis.call('HSET', KEYS[2], ARGV[i], ARGV[i + 1])
  i = i + 2
end
redis.call('HDEL', KEYS[3], 'cold')
redis.call('HSET', KEYS[3], 'thawed', ARGV[1])
local now = redis.call('TIME')  -- brought back: it stays in Redis a whole idle time again
redis.call('HSET', KEYS[3], 'touched_ms', string.format('%d%03d', now[1], math.floor(now[2] / 1000)))
return 1
"""

# KEYS: meta. ARGV: field, value. The field's value, set first if it was not (nil: no such game).
STAMP_LUA: Final = r"""
if redis.call('EXISTS', KEYS[1]) == 0 then
  return false
end
redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2])
return redis.call('HGET', KEYS[1], ARGV[1])
"""
