import { LuaScript } from './lua-script';

// KEYS[1] the topic's log (a stream); ARGV[1] channel, ARGV[2] JSON payload, ARGV[3] max length.
// Append and announce in one script, so no reader can see the announcement without the entry being in the
// log, and the log order is the announcement order. Each entry names the entry before it (`prev`): trimming
// only removes the oldest entries, so a reader whose next entry does not name its cursor knows it missed some.
export const publishEventScript = new LuaScript(`
local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
local prev = '0-0'
if last[1] then prev = last[1][1] end
local id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[3], '*', 'prev', prev, 'data', ARGV[2])
redis.call('PUBLISH', ARGV[1], id .. '\\n' .. prev .. '\\n' .. ARGV[2])
return id
`);
