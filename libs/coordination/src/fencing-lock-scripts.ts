import { LuaScript } from './lua-script';

// KEYS[1] lock, KEYS[2] fencing counter; ARGV[1] owner value, ARGV[2] ttl ms.
// The token is drawn in the same script as the SET, so tokens are handed out in the order locks were won,
// and only to winners. On failure the holder's remaining PTTL tells a waiter when the lock expires at the latest.
export const acquireLockScript = new LuaScript(`
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return {1, redis.call('INCR', KEYS[2])}
end
return {0, redis.call('PTTL', KEYS[1])}
`);

// KEYS[1] lock; ARGV[1] owner value, ARGV[2] release channel, ARGV[3] message.
// Compare-and-delete: a holder whose lock expired and was taken by someone else deletes nothing.
export const releaseLockScript = new LuaScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('DEL', KEYS[1])
  redis.call('PUBLISH', ARGV[2], ARGV[3])
  return 1
end
return 0
`);

// KEYS[1] lock; ARGV[1] owner value, ARGV[2] new ttl ms. Compare-and-pexpire, for the same reason.
export const extendLockScript = new LuaScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
`);

// KEYS[1] lock; ARGV[1] owner value. The remaining PTTL when this owner still holds the lock, -3 otherwise
// (-1/-2 are PTTL's own "no expiry"/"no key", which an owner's lock never has while it is held).
export const confirmLockScript = new LuaScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PTTL', KEYS[1])
end
return -3
`);

// KEYS[1] lock; ARGV[1] owner value, ARGV[2] ttl ms. Like extend, but never shortens the remaining lease:
// a holder's own keep-alive must not cut a longer lease it asked for before an action (e.g. a grant's deadline).
export const lengthenLockScript = new LuaScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then
  if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[2]) then
    redis.call('PEXPIRE', KEYS[1], ARGV[2])
  end
  return 1
end
return 0
`);
