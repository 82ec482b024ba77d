-- Applies a batch of changes to the shared precise index atomically; see RedisPreciseIndex for the layout.
-- ARGV: namespace, max holdings, engine-map idle TTL (ms), then ops:
--   H pod tier key until   a holding; until is "0" (confirmed by an event) or a speculative expiry (epoch µs)
--   S pod tier key until   a speculative holding lasts at most until then (epoch µs); a confirmed one is left alone
--   E pod engine key       the pod's engine block hash stands for this router key
--   R pod tier engine      the pod no longer holds the block of this engine hash on this tier
--   A adapter              a LoRA adapter's name, so every replica starts its chains from it
-- Returns the holdings removed by R ops.
local ns = ARGV[1]
local max = tonumber(ARGV[2])
local ttl = tonumber(ARGV[3])

-- Members: lru and s "tier|key|pod", p:<pod> "tier|key", b:<key> fields "tier|pod" (tiers and keys hold no '|').
local function drop(pod, tier, key)
  local m = tier .. '|' .. key .. '|' .. pod
  redis.call('ZREM', ns .. 'lru', m)
  redis.call('ZREM', ns .. 's', m)
  redis.call('SREM', ns .. 'p:' .. pod, tier .. '|' .. key)
  return redis.call('HDEL', ns .. 'b:' .. key, tier .. '|' .. pod)
end

local function hold(pod, tier, key, untilUs)
  local b = ns .. 'b:' .. key
  local f = tier .. '|' .. pod
  local m = tier .. '|' .. key .. '|' .. pod
  local old = redis.call('HGET', b, f)
  if untilUs == '0' then
    redis.call('HSET', b, f, '0')
    if old and old ~= '0' then
      redis.call('ZREM', ns .. 's', m)
    end
  elseif (not old) or (old ~= '0' and tonumber(old) < tonumber(untilUs)) then
    -- a confirmed holding stays confirmed; a speculative one is extended, never shortened
    redis.call('HSET', b, f, untilUs)
    redis.call('ZADD', ns .. 's', untilUs, m)
  end
  redis.call('ZADD', ns .. 'lru', redis.call('INCR', ns .. 'seq'), m)
  redis.call('SADD', ns .. 'p:' .. pod, tier .. '|' .. key)
end

local function settle(pod, tier, key, untilUs)
  local b = ns .. 'b:' .. key
  local f = tier .. '|' .. pod
  local old = redis.call('HGET', b, f)
  if old and old ~= '0' and tonumber(old) > tonumber(untilUs) then
    redis.call('HSET', b, f, untilUs)
    redis.call('ZADD', ns .. 's', untilUs, tier .. '|' .. key .. '|' .. pod)
  end
end

local function tierLeft(pod, key)
  for _, f in ipairs(redis.call('HKEYS', ns .. 'b:' .. key)) do
    local bar = string.find(f, '|', 1, true)
    if string.sub(f, bar + 1) == pod then
      return true
    end
  end
  return false
end

local removed = 0
local mapped = {}
local i = 4
while i <= #ARGV do
  local op = ARGV[i]
  if op == 'H' then
    hold(ARGV[i + 1], ARGV[i + 2], ARGV[i + 3], ARGV[i + 4])
    i = i + 5
  elseif op == 'S' then
    settle(ARGV[i + 1], ARGV[i + 2], ARGV[i + 3], ARGV[i + 4])
    i = i + 5
  elseif op == 'E' then
    redis.call('HSET', ns .. 'e:' .. ARGV[i + 1], ARGV[i + 2], ARGV[i + 3])
    mapped[ARGV[i + 1]] = true
    i = i + 4
  elseif op == 'R' then
    local pod = ARGV[i + 1]
    local engine = ARGV[i + 3]
    local key = redis.call('HGET', ns .. 'e:' .. pod, engine)
    if key then
      removed = removed + drop(pod, ARGV[i + 2], key)
      if not tierLeft(pod, key) then
        redis.call('HDEL', ns .. 'e:' .. pod, engine) -- no tier left: forget the mapping too
      end
    end
    i = i + 4
  elseif op == 'A' then
    redis.call('SADD', ns .. 'adapters', ARGV[i + 1])
    i = i + 2
  else
    return redis.error_reply('unknown op ' .. tostring(op))
  end
end

for pod in pairs(mapped) do
  redis.call('PEXPIRE', ns .. 'e:' .. pod, ttl)
end

-- The bound: beyond max holdings, the least recently stored go, whichever pod holds them.
local over = redis.call('ZCARD', ns .. 'lru') - max
while over > 0 do
  local popped = redis.call('ZPOPMIN', ns .. 'lru', math.min(over, 512))
  if #popped == 0 then
    break
  end
  for j = 1, #popped, 2 do
    local m = popped[j]
    local a = string.find(m, '|', 1, true)
    local b = string.find(m, '|', a + 1, true)
    drop(string.sub(m, b + 1), string.sub(m, 1, a - 1), string.sub(m, a + 1, b - 1))
  end
  over = over - #popped / 2
end
return removed
