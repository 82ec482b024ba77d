-- One replica's round of in-flight sharing under prefix ARGV[1] for replica ARGV[2]:
-- sets its own counts (ARGV[4..] field/value pairs, "r|pod" requests and "t|pod" tokens; 0 deletes the field),
-- refreshes its heartbeat when ARGV[3] (TTL ms) is not 0, and returns the sums of the other live replicas' counts
-- as field/value pairs. Replicas whose heartbeat expired are dropped with their counts.
local p = ARGV[1]
local me = ARGV[2]
local ttl = tonumber(ARGV[3])
local mine = p .. 'n:' .. me
for i = 4, #ARGV, 2 do
  if ARGV[i + 1] == '0' then
    redis.call('HDEL', mine, ARGV[i])
  else
    redis.call('HSET', mine, ARGV[i], ARGV[i + 1])
  end
end
if ttl > 0 then
  redis.call('SET', p .. 'hb:' .. me, '1', 'PX', ttl)
  redis.call('SADD', p .. 'replicas', me)
  redis.call('PEXPIRE', mine, ttl)
end
local sums = {}
for _, r in ipairs(redis.call('SMEMBERS', p .. 'replicas')) do
  if r ~= me then
    if redis.call('EXISTS', p .. 'hb:' .. r) == 0 then
      redis.call('SREM', p .. 'replicas', r)
      redis.call('DEL', p .. 'n:' .. r)
    else
      local h = redis.call('HGETALL', p .. 'n:' .. r)
      for j = 1, #h, 2 do
        sums[h[j]] = (sums[h[j]] or 0) + tonumber(h[j + 1])
      end
    end
  end
end
local out = {}
for k, v in pairs(sums) do
  out[#out + 1] = k
  out[#out + 1] = tostring(v)
end
return out
