-- Looks up a prompt's block keys in namespace ARGV[1] at time ARGV[2] (epoch µs); ARGV[3..] are the keys in order.
-- Returns, per block from the first, the live holdings ("tier|pod") of the pods whose run of held blocks reaches it,
-- and stops at the first block that extends no pod's run. Speculative holdings that lapsed are swept on the way.
local ns = ARGV[1]
local now = tonumber(ARGV[2])

local lapsed = redis.call('ZRANGEBYSCORE', ns .. 's', '-inf', now, 'LIMIT', 0, 256)
for _, m in ipairs(lapsed) do
  local a = string.find(m, '|', 1, true)
  local b = string.find(m, '|', a + 1, true)
  local tier = string.sub(m, 1, a - 1)
  local key = string.sub(m, a + 1, b - 1)
  local pod = string.sub(m, b + 1)
  local v = redis.call('HGET', ns .. 'b:' .. key, tier .. '|' .. pod)
  redis.call('ZREM', ns .. 's', m)
  if v and v ~= '0' and tonumber(v) <= now then
    redis.call('HDEL', ns .. 'b:' .. key, tier .. '|' .. pod)
    redis.call('ZREM', ns .. 'lru', m)
    redis.call('SREM', ns .. 'p:' .. pod, tier .. '|' .. key)
  end
end

local out = {}
local active = nil
for i = 3, #ARGV do
  local h = redis.call('HGETALL', ns .. 'b:' .. ARGV[i])
  local live = {}
  local pods = {}
  for j = 1, #h, 2 do
    local v = h[j + 1]
    if v == '0' or tonumber(v) > now then
      local f = h[j]
      local pod = string.sub(f, string.find(f, '|', 1, true) + 1)
      if active == nil or active[pod] then
        live[#live + 1] = f
        pods[pod] = true
      end
    end
  end
  if #live == 0 then
    break
  end
  out[#out + 1] = live
  active = pods
end
return out
