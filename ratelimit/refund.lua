-- Gives one token back to a bucket kept as redis.lua keeps it: moves its
-- theoretical arrival time (TAT) one interval earlier, never before now (a
-- full bucket stays full). Atomic, like the spend it undoes.
--
-- KEYS[1] the bucket
-- ARGV[1] period in microseconds
-- ARGV[2] count
-- ARGV[3] now in microseconds, or "" for the Redis server's own clock
--
-- Returns 1 when a token was given back, 0 when the bucket was full.

local period = tonumber(ARGV[1])
local count = tonumber(ARGV[2])
local now
if ARGV[3] == "" then
  local t = redis.call("TIME")
  now = tonumber(t[1]) * 1000000 + tonumber(t[2])
else
  now = tonumber(ARGV[3])
end

local stored = redis.call("GET", KEYS[1])
if not stored then
  return 0
end
local tat, rem = string.match(stored, "^(%d+):(%d+)$")
if not tat then
  return 0
end
tat, rem = tonumber(tat), tonumber(rem)
if tat < now then
  return 0
end
-- debt in units of 1/count microsecond, as in redis.lua; one call is period.
local debt = (tat - now) * count + rem - period
if debt <= 0 then
  redis.call("DEL", KEYS[1])
  return 1
end
local ahead = math.floor(debt / count)
local full_us = math.floor((debt + count - 1) / count)
redis.call("SET", KEYS[1], string.format("%d:%d", now + ahead, debt - ahead * count),
  "PX", math.floor((full_us + 999) / 1000))
return 1
