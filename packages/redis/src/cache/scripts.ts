/**
 * The cache's Lua scripts. Each runs alone on Redis (atomic), so a check and the write it guards
 * cannot be split by another client.
 *
 * Keys (after the prefix): `era` (a random token; every entry names the era it was filled in),
 * `inflight` (a set of the leases of reads in flight), `s:<hash>` (a session: era, uid, uv,
 * session; or era, none), `l:<hash>` (the lease of a session read in flight), `u:<id>` (a user:
 * era, v, user, epoch).
 *
 * The rule every fill keeps: an entry is written only when the lease its read took BEFORE reading
 * the database is still there. Writers delete leases AFTER their database write (session writes
 * delete `l:<hash>`, user writes delete the whole `inflight` set), so a read that may have loaded a
 * row before a write cannot store it after. A lease that is lost any other way (eviction,
 * `FLUSHALL`, restart, expiry) only refuses the fill: losing a key never makes an entry valid.
 */
import { script } from "../client.js"

/**
 * A session read. Answers `{"hit", session, user}` when the entry, its user's entry and the era
 * agree; `{"none"}` for a cached "no such session"; otherwise takes a lease (`ARGV[2]` in `l:<hash>`
 * and `inflight`) and answers `{"miss", era}`. A missing era is created (`ARGV[4]`).
 * KEYS: s, era, l, inflight. ARGV: user key prefix, lease, lease ms, new era.
 */
export const READ_SESSION = script(`local era = redis.call('GET', KEYS[2])
if era then
  local s = redis.call('HMGET', KEYS[1], 'era', 'uv', 'uid', 'session', 'none')
  if s[1] == era then
    if s[5] then return {'none'} end
    if s[2] and s[3] and s[4] then
      local u = redis.call('HMGET', ARGV[1] .. s[3], 'era', 'v', 'user')
      if u[1] == era and u[2] == s[2] and u[3] and u[3] ~= 'null' then return {'hit', s[4], u[3]} end
    end
  end
else
  era = ARGV[4]
  redis.call('SET', KEYS[2], era)
end
redis.call('SET', KEYS[3], ARGV[2], 'PX', ARGV[3])
redis.call('SADD', KEYS[4], ARGV[2])
redis.call('PEXPIRE', KEYS[4], ARGV[3])
return {'miss', era}`)

/**
 * Stores what a session read found, only if its lease survived (in `l:<hash>` and `inflight`) and
 * the era is the one it read in; gives the lease back either way. Answers 1 when stored.
 * KEYS: s, era, l, inflight, u. ARGV: lease, era, "none"|"found", uid, session, user, session ttl
 * ms, user ttl ms, new user version.
 */
export const FILL_SESSION = script(`local ok = redis.call('GET', KEYS[3]) == ARGV[1] and redis.call('SISMEMBER', KEYS[4], ARGV[1]) == 1 and redis.call('GET', KEYS[2]) == ARGV[2]
redis.call('SREM', KEYS[4], ARGV[1])
if redis.call('GET', KEYS[3]) == ARGV[1] then redis.call('DEL', KEYS[3]) end
if not ok then return 0 end
redis.call('DEL', KEYS[1])
if ARGV[3] == 'none' then
  redis.call('HSET', KEYS[1], 'era', ARGV[2], 'none', '1')
  redis.call('PEXPIRE', KEYS[1], ARGV[7])
  return 1
end
local u = redis.call('HMGET', KEYS[5], 'era', 'v', 'user', 'epoch')
local v = u[2]
if u[1] ~= ARGV[2] or not v or u[3] == 'null' or u[4] == 'null' then
  redis.call('DEL', KEYS[5])
  v = ARGV[9]
  redis.call('HSET', KEYS[5], 'era', ARGV[2], 'v', v)
end
redis.call('HSET', KEYS[5], 'user', ARGV[6])
redis.call('PEXPIRE', KEYS[5], ARGV[8])
redis.call('HSET', KEYS[1], 'era', ARGV[2], 'uv', v, 'uid', ARGV[4], 'session', ARGV[5])
redis.call('PEXPIRE', KEYS[1], ARGV[7])
return 1`)

/**
 * A read of one field of a user's entry (`user` or `epoch`): `{"hit", value}` in the current era,
 * else a lease in `inflight` and `{"miss", era}`. KEYS: u, era, inflight. ARGV: field, lease, lease ms, new era.
 */
export const READ_USER = script(`local era = redis.call('GET', KEYS[2])
if era then
  local u = redis.call('HMGET', KEYS[1], 'era', ARGV[1])
  if u[1] == era and u[2] then return {'hit', u[2]} end
else
  era = ARGV[4]
  redis.call('SET', KEYS[2], era)
end
redis.call('SADD', KEYS[3], ARGV[2])
redis.call('PEXPIRE', KEYS[3], ARGV[3])
return {'miss', era}`)

/**
 * Stores one field of a user's entry, only if the read's lease is still in `inflight` and the era
 * is unchanged. "null" (no such user) replaces the entry with a negative one (both fields "null",
 * short ttl); a value replaces a negative entry. KEYS: u, era, inflight. ARGV: lease, era, field,
 * value, ttl ms, negative ttl ms, new user version.
 */
export const FILL_USER = script(`local ok = redis.call('SISMEMBER', KEYS[3], ARGV[1]) == 1 and redis.call('GET', KEYS[2]) == ARGV[2]
redis.call('SREM', KEYS[3], ARGV[1])
if not ok then return 0 end
if ARGV[4] == 'null' then
  redis.call('DEL', KEYS[1])
  redis.call('HSET', KEYS[1], 'era', ARGV[2], 'v', ARGV[7], 'user', 'null', 'epoch', 'null')
  redis.call('PEXPIRE', KEYS[1], ARGV[6])
  return 1
end
local u = redis.call('HMGET', KEYS[1], 'era', 'v', 'user', 'epoch')
if u[1] ~= ARGV[2] or not u[2] or u[3] == 'null' or u[4] == 'null' then
  redis.call('DEL', KEYS[1])
  redis.call('HSET', KEYS[1], 'era', ARGV[2], 'v', ARGV[7])
end
redis.call('HSET', KEYS[1], ARGV[3], ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1`)
