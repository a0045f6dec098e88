"""The friends' store's Lua scripts for Redis (webapp.web.friend_store.RedisStore), one per atomic step."""

# Redis's side, each step in one script so that it is atomic: keys are friends:game:<code> (a hash of the line, its
# version and its maker, expiring), friends:ends (a sorted set of live games by the time each expires),
# friends:by:<client> and friends:waiting:<client> (the same, of the games a client made, and of those nobody has
# joined) and friends:made:<client> (its creations in the last minute).
CREATE = """
local now = tonumber(ARGV[3])
local function first_end(key)
  local found = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
  return tostring(tonumber(found[2]) - now)
end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[5]) then return {'full', first_end(KEYS[2])} end
if ARGV[9] ~= '' then
  redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now)
  redis.call('ZREMRANGEBYSCORE', KEYS[4], '-inf', now)
  if redis.call('ZCARD', KEYS[4]) >= tonumber(ARGV[7]) then return {'waiting', first_end(KEYS[4])} end
  if redis.call('ZCARD', KEYS[3]) >= tonumber(ARGV[6]) then return {'client', first_end(KEYS[3])} end
end
local ends = now + tonumber(ARGV[4])
redis.call('HSET', KEYS[1], 'line', ARGV[2], 'v', 1, 'maker', ARGV[9])
redis.call('EXPIRE', KEYS[1], ARGV[4])
redis.call('ZADD', KEYS[2], ends, ARGV[1])
if ARGV[9] ~= '' then
  for i = 3, 4 do
    redis.call('ZADD', KEYS[i], ends, ARGV[1])
    redis.call('EXPIRE', KEYS[i], ARGV[8])
  end
end
return {'ok', '0'}
"""
# The maker's sets are named inside the script, from the game's hash: one Redis, not a cluster.
REPLACE = """
local v = redis.call('HGET', KEYS[1], 'v')
if v ~= ARGV[2] then return 0 end
local new = tonumber(v) + 1
local ends = tonumber(ARGV[4]) + tonumber(ARGV[5])
redis.call('HSET', KEYS[1], 'line', ARGV[3], 'v', new)
redis.call('EXPIRE', KEYS[1], ARGV[5])
redis.call('ZADD', KEYS[2], ends, ARGV[1])
local maker = redis.call('HGET', KEYS[1], 'maker')
if maker and maker ~= '' then
  redis.call('ZADD', 'friends:by:' .. maker, 'XX', ends, ARGV[1])
  redis.call('EXPIRE', 'friends:by:' .. maker, ARGV[8])
  if ARGV[7] == '1' then
    redis.call('ZADD', 'friends:waiting:' .. maker, 'XX', ends, ARGV[1])
  else
    redis.call('ZREM', 'friends:waiting:' .. maker, ARGV[1])
  end
end
redis.call('PUBLISH', ARGV[6], ARGV[1])
return new
"""
CREATION = """
local now, window, most = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZCARD', KEYS[1]) >= most then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return tostring(tonumber(oldest[2]) + window - now)
end
redis.call('ZADD', KEYS[1], now, ARGV[4])
redis.call('EXPIRE', KEYS[1], math.ceil(window))
return '0'
"""
