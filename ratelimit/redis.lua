-- One token bucket, kept as GCRA: the key holds the bucket's theoretical
-- arrival time (TAT), the instant at which it will be full again. Every call
-- runs this whole script atomically, so callers on any number of replicas
-- spend from one bucket, and a refusal writes nothing.
--
-- Time is integer microseconds and the TAT is kept exactly as
-- "tat_us:rem", meaning tat_us + rem/count microseconds, so that an
-- interval of period/count that is not a whole microsecond (7 per 90 s)
-- does not drift. Every number stays far below 2^53, where Lua's doubles
-- are exact integers.
--
-- KEYS[1] the bucket
-- ARGV[1] period in microseconds
-- ARGV[2] count (the burst, and the calls per period)
-- ARGV[3] now in microseconds, or "" for the Redis server's own clock, which
--         every replica shares (tests pass a fake clock here)
--
-- Returns {1, 0} when allowed (a token spent), or {0, wait_us}: how long
-- until the bucket holds a token, rounded up to a microsecond.

local period = tonumber(ARGV[1])
local count = tonumber(ARGV[2])
local now
if ARGV[3] == "" then
  local t = redis.call("TIME")
  now = tonumber(t[1]) * 1000000 + tonumber(t[2])
else
  now = tonumber(ARGV[3])
end

-- debt: how far the TAT lies ahead of now, in units of 1/count microsecond.
-- An absent or past TAT is a full bucket: no debt.
local debt = 0
local stored = redis.call("GET", KEYS[1])
if stored then
  local tat, rem = string.match(stored, "^(%d+):(%d+)$")
  if tat then
    tat, rem = tonumber(tat), tonumber(rem)
    if tat >= now then
      debt = (tat - now) * count + rem
    end
  end
end

-- A call costs one interval (period/count us = period units). It fits if
-- the debt after it is at most the whole burst: count * period units.
local allowed_debt = (count - 1) * period
if debt > allowed_debt then
  local over = debt - allowed_debt
  return {0, math.floor((over + count - 1) / count)}
end

debt = debt + period
local ahead = math.floor(debt / count)
-- The key expires when the bucket is full again (the TAT, rounded up to a
-- millisecond), when it behaves exactly like an absent key.
local full_us = math.floor((debt + count - 1) / count)
redis.call("SET", KEYS[1], string.format("%d:%d", now + ahead, debt - ahead * count),
  "PX", math.floor((full_us + 999) / 1000))
return {1, 0}
