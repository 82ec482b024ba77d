-- Forgets up to ARGV[3] of pod ARGV[2]'s holdings in namespace ARGV[1]; when none are left, its engine map too.
-- Returns 1 while more remain (the caller repeats), 0 when the pod is clear. Chunked so that clearing a pod that
-- holds many blocks never blocks Redis for long.
local ns = ARGV[1]
local pod = ARGV[2]
local chunk = tonumber(ARGV[3])
local popped = redis.call('SPOP', ns .. 'p:' .. pod, chunk)
for _, tk in ipairs(popped) do
  local bar = string.find(tk, '|', 1, true)
  local tier = string.sub(tk, 1, bar - 1)
  local key = string.sub(tk, bar + 1)
  redis.call('HDEL', ns .. 'b:' .. key, tier .. '|' .. pod)
  redis.call('ZREM', ns .. 'lru', tier .. '|' .. key .. '|' .. pod)
  redis.call('ZREM', ns .. 's', tier .. '|' .. key .. '|' .. pod)
end
if #popped < chunk then
  redis.call('DEL', ns .. 'e:' .. pod)
  return 0
end
return 1
