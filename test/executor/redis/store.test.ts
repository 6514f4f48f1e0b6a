import { describe, expect, it } from 'vitest';

import { encodeReply, type RespReply } from '../../../src/executor/redis/resp.js';
import { globMatch } from '../../../src/executor/redis/glob.js';
import { formatDouble, parseLongLong, parseRedisDouble } from '../../../src/executor/redis/numbers.js';
import { Store } from '../../../src/executor/redis/store.js';

/** A store on a clock the test moves by hand. */
function storeWithClock(start = 1_700_000_000_000): { store: Store; clock: { now: number }; run: (...args: string[]) => string } {
  const clock = { now: start };
  const store = new Store({ now: () => clock.now });
  return { store, clock, run: (...args) => wire(store.run(args)) };
}

/** The reply exactly as it goes over the wire, CRLFs shown as `|`. */
function wire(reply: RespReply): string {
  return encodeReply(reply).toString('latin1').replaceAll('\r\n', '|');
}

describe('expiry on an injected clock', () => {
  it('keeps a key alive through its last millisecond and drops it after', () => {
    const { clock, run } = storeWithClock();
    expect(run('set', 'k', 'v', 'PX', '1000')).toBe('+OK|');
    clock.now += 1000;
    expect(run('get', 'k')).toBe('$1|v|');
    expect(run('pttl', 'k')).toBe(':0|');
    clock.now += 1;
    expect(run('get', 'k')).toBe('$-1|');
    expect(run('ttl', 'k')).toBe(':-2|');
  });

  it('rounds TTL to the nearest second like Redis', () => {
    const { clock, run } = storeWithClock();
    run('set', 'k', 'v', 'EX', '10');
    expect(run('ttl', 'k')).toBe(':10|');
    clock.now += 4_499;
    expect(run('ttl', 'k')).toBe(':6|');
    clock.now += 2;
    expect(run('ttl', 'k')).toBe(':5|');
    expect(run('pttl', 'k')).toBe(':5499|');
  });

  it('hides expired keys from KEYS, EXISTS, DBSIZE, TYPE and SCAN', () => {
    const { store, clock, run } = storeWithClock();
    run('mset', 'a', '1', 'b', '2', 'c', '3');
    run('pexpire', 'a', '50');
    run('expire', 'b', '1');
    clock.now += 51;
    expect(run('keys', '*')).toBe('*2|$1|b|$1|c|');
    expect(run('exists', 'a', 'b', 'c', 'a')).toBe(':2|');
    expect(run('dbsize')).toBe(':2|');
    expect(run('type', 'a')).toBe('+none|');
    clock.now += 1000;
    expect(run('scan', '0')).toBe('*2|$1|0|*1|$1|c|');
    expect(Object.keys(store.snapshot())).toEqual(['c']);
  });

  it('keeps the TTL on INCR and APPEND, drops it on SET, keeps it with KEEPTTL', () => {
    const { run } = storeWithClock();
    run('set', 'n', '1', 'EX', '100');
    run('incr', 'n');
    run('append', 'n', '0');
    expect(run('get', 'n')).toBe('$2|20|');
    expect(run('ttl', 'n')).toBe(':100|');
    run('set', 'n', '5', 'KEEPTTL');
    expect(run('ttl', 'n')).toBe(':100|');
    run('set', 'n', '5');
    expect(run('ttl', 'n')).toBe(':-1|');
  });

  it('deletes at once on a non-positive EXPIRE and honours NX/XX/GT/LT', () => {
    const { run } = storeWithClock();
    run('set', 'k', 'v');
    expect(run('expire', 'k', '100', 'XX')).toBe(':0|');
    expect(run('expire', 'k', '100', 'NX')).toBe(':1|');
    expect(run('expire', 'k', '50', 'GT')).toBe(':0|');
    expect(run('expire', 'k', '50', 'LT')).toBe(':1|');
    expect(run('ttl', 'k')).toBe(':50|');
    expect(run('persist', 'k')).toBe(':1|');
    expect(run('persist', 'k')).toBe(':0|');
    expect(run('expire', 'k', '-1')).toBe(':1|');
    expect(run('exists', 'k')).toBe(':0|');
    expect(run('expire', 'k', '10')).toBe(':0|');
  });

  it('uses SETEX/PSETEX/EXAT against the same clock', () => {
    const { clock, run } = storeWithClock();
    run('setex', 'a', '2', 'x');
    run('psetex', 'b', '1500', 'y');
    run('set', 'c', 'z', 'EXAT', String(Math.floor(clock.now / 1000) + 3));
    clock.now += 1_600;
    expect(run('mget', 'a', 'b', 'c')).toBe('*3|$1|x|$-1|$1|z|');
  });
});

describe('replies and errors, byte for byte', () => {
  it.each<[string[], string]>([
    [['get'], "-ERR wrong number of arguments for 'get' command|"],
    [['nosuch', 'a', 'b'], "-ERR unknown command 'nosuch', with args beginning with: 'a' 'b' |"],
    [['set', 'k', 'v', 'NX', 'XX'], '-ERR syntax error|'],
    [['set', 'k', 'v', 'EX', '0'], "-ERR invalid expire time in 'set' command|"],
    [['setex', 'k', '-1', 'v'], "-ERR invalid expire time in 'setex' command|"],
    [['set', 'k', 'v', 'EX', 'soon'], '-ERR value is not an integer or out of range|'],
    [['incrby', 'k', '1.5'], '-ERR value is not an integer or out of range|'],
    [['decrby', 'k', '-9223372036854775808'], '-ERR decrement would overflow|'],
    [['mset', 'a', '1', 'b'], "-ERR wrong number of arguments for 'mset' command|"],
    [['hset', 'h', 'f'], "-ERR wrong number of arguments for 'hset' command|"],
    [['lpop', 'l', '-1'], '-ERR value is out of range, must be positive|'],
    [['blpop', 'l', 'soon'], '-ERR timeout is not a float or out of range|'],
    [['blpop', 'l', '-1'], '-ERR timeout is negative|'],
    [['zadd', 'z', 'NX', 'XX', '1', 'm'], '-ERR XX and NX options at the same time are not compatible|'],
    [['zadd', 'z', 'one', 'm'], '-ERR value is not a valid float|'],
    [['zrange', 'z', 'a', 'b', 'BYSCORE'], '-ERR min or max is not a float|'],
    [
      ['zrange', 'z', '0', '1', 'LIMIT', '0', '1'],
      '-ERR syntax error, LIMIT is only supported in combination with either BYSCORE or BYLEX|',
    ],
    [['expire', 'k', '10', 'SOON'], '-ERR Unsupported option SOON|'],
    [['flushdb', 'now'], '-ERR syntax error|'],
  ])('%j answers %j', (args, expected) => {
    expect(storeWithClock().run(...args)).toBe(expected);
  });

  it('answers WRONGTYPE for every type mismatch', () => {
    const { run } = storeWithClock();
    run('set', 's', 'v');
    run('rpush', 'l', 'a');
    const wrongType = '-WRONGTYPE Operation against a key holding the wrong kind of value|';
    for (const args of [
      ['get', 'l'],
      ['incr', 'l'],
      ['lpush', 's', 'x'],
      ['hget', 's', 'f'],
      ['zadd', 's', '1', 'm'],
      ['sadd', 's', 'm'],
      ['blpop', 's', '0'],
      ['set', 'l', 'v', 'GET'],
      ['lrange', 's', '0', '-1'],
    ]) {
      expect(run(...args), args.join(' ')).toBe(wrongType);
    }
    expect(run('set', 'l', 'v')).toBe('+OK|');
    expect(run('type', 'l')).toBe('+string|');
  });

  it('implements the SET options', () => {
    const { run } = storeWithClock();
    expect(run('set', 'k', 'v1', 'NX')).toBe('+OK|');
    expect(run('set', 'k', 'v2', 'NX')).toBe('$-1|');
    expect(run('set', 'k', 'v3', 'XX', 'GET')).toBe('$2|v1|');
    expect(run('set', 'missing', 'v', 'XX')).toBe('$-1|');
    expect(run('set', 'k', 'v4', 'NX', 'GET')).toBe('$2|v3|');
    expect(run('get', 'k')).toBe('$2|v3|');
  });

  it('counts with INCR/DECR in 64 bits and refuses to overflow', () => {
    const { run } = storeWithClock();
    expect(run('incr', 'n')).toBe(':1|');
    expect(run('decrby', 'n', '11')).toBe(':-10|');
    run('set', 'big', '9223372036854775806');
    expect(run('incr', 'big')).toBe(':9223372036854775807|');
    expect(run('incr', 'big')).toBe('-ERR increment or decrement would overflow|');
    run('set', 'text', '12 ');
    expect(run('incr', 'text')).toBe('-ERR value is not an integer or out of range|');
  });

  it('pushes, pops and ranges lists like Redis', () => {
    const { run } = storeWithClock();
    expect(run('lpush', 'l', 'a', 'b', 'c')).toBe(':3|');
    expect(run('rpush', 'l', 'd')).toBe(':4|');
    expect(run('lrange', 'l', '0', '-1')).toBe('*4|$1|c|$1|b|$1|a|$1|d|');
    expect(run('lrange', 'l', '-100', '1')).toBe('*2|$1|c|$1|b|');
    expect(run('lindex', 'l', '-1')).toBe('$1|d|');
    expect(run('rpop', 'l', '2')).toBe('*2|$1|d|$1|a|');
    expect(run('lpop', 'l', '0')).toBe('*0|');
    expect(run('lpop', 'nothing', '0')).toBe('*-1|');
    expect(run('lpop', 'l')).toBe('$1|c|');
    expect(run('lpop', 'l')).toBe('$1|b|');
    expect(run('exists', 'l')).toBe(':0|');
    expect(run('blpop', 'l', '0')).toBe('*-1|'); // nobody could wake it outside a connection
  });

  it('keeps hash fields in insertion order and counts new fields', () => {
    const { run } = storeWithClock();
    expect(run('hset', 'h', 'b', '1', 'a', '2')).toBe(':2|');
    expect(run('hset', 'h', 'b', '3', 'c', '4')).toBe(':1|');
    expect(run('hgetall', 'h')).toBe('*6|$1|b|$1|3|$1|a|$1|2|$1|c|$1|4|');
    expect(run('hincrby', 'h', 'a', '-5')).toBe(':-3|');
    run('hset', 'h', 'text', 'x');
    expect(run('hincrby', 'h', 'text', '1')).toBe('-ERR hash value is not an integer|');
    expect(run('hdel', 'h', 'a', 'zz', 'b')).toBe(':2|');
    expect(run('hkeys', 'h')).toBe('*2|$1|c|$4|text|');
  });

  it('orders sorted sets by score then bytes, and prints scores as %.17g', () => {
    const { run } = storeWithClock();
    expect(run('zadd', 'z', '2', 'b', '1', 'c', '1', 'a', '0.1', 'x')).toBe(':4|');
    expect(run('zrange', 'z', '0', '-1', 'WITHSCORES')).toBe('*8|$1|x|$19|0.10000000000000001|$1|a|$1|1|$1|c|$1|1|$1|b|$1|2|');
    expect(run('zrange', 'z', '(1', '+inf', 'BYSCORE')).toBe('*1|$1|b|');
    expect(run('zrange', 'z', '+inf', '-inf', 'BYSCORE', 'REV', 'LIMIT', '1', '2')).toBe('*2|$1|c|$1|a|');
    expect(run('zadd', 'z', 'XX', 'CH', '5', 'a', '9', 'new')).toBe(':1|');
    expect(run('zincrby', 'z', '2.5', 'a')).toBe('$3|7.5|');
    expect(run('zpopmin', 'z', '2')).toBe('*4|$1|x|$19|0.10000000000000001|$1|c|$1|1|');
    expect(run('bzpopmin', 'z', '1')).toBe('*3|$1|z|$1|b|$1|2|');
    expect(run('zscore', 'z', 'a')).toBe('$3|7.5|');
    expect(run('zcard', 'z')).toBe(':1|');
  });

  it('supports 16 databases, each flushed on its own', () => {
    const { store } = storeWithClock();
    store.run(['set', 'k', 'zero']);
    store.run(['set', 'k', 'three'], 3);
    expect(wire(store.run(['get', 'k'], 3))).toBe('$5|three|');
    store.run(['flushdb'], 3);
    expect(wire(store.run(['get', 'k']))).toBe('$4|zero|');
    expect(wire(store.run(['dbsize'], 3))).toBe(':0|');
  });

  it('is binary-safe: STRLEN counts bytes and UTF-8 round-trips', () => {
    const { store, run } = storeWithClock();
    store.run(['set', 'clé', '{"emoji":"🚀"}']);
    expect(run('strlen', 'clé')).toBe(':16|');
    expect(store.snapshot()['clé']).toEqual({ type: 'string', value: '{"emoji":"🚀"}', ttlMs: null });
  });
});

describe('globMatch (Redis stringmatchlen)', () => {
  it.each<[string, string, boolean]>([
    ['*', 'anything', true],
    ['swarm:*:done', 'swarm:t1:coder-1:done', true],
    ['swarm:*:done', 'swarm:t1:coder-1:result', false],
    ['k?', 'k1', true],
    ['k?', 'k', false],
    ['k[0-3]', 'k2', true],
    ['k[3-0]', 'k2', true],
    ['k[^0-3]', 'k2', false],
    ['k[^0-3]', 'k7', true],
    ['k[abc]', 'kb', true],
    ['k\\*', 'k*', true],
    ['k\\*', 'kx', false],
    ['k[\\]]', 'k]', true],
    ['k[', 'k', false],
    ['k[', 'k[', false],
    ['a*b*c*d*e*f*g*h*i*j*k', 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', false],
    ['', '', true],
    ['**', '', false], // only KEYS * itself lists the empty key
  ])('%j against %j is %s', (pattern, subject, expected) => {
    expect(globMatch(pattern, subject)).toBe(expected);
  });
});

describe('number parsing and formatting', () => {
  it('accepts only what string2ll accepts', () => {
    expect(parseLongLong('-9223372036854775808')).toBe(-9223372036854775808n);
    for (const text of ['', '+1', '01', '-0', ' 1', '1 ', '9223372036854775808', '1e3']) {
      expect(parseLongLong(text), text).toBeNull();
    }
  });

  it('parses scores as strtod does, rejecting overflow, blanks and NaN', () => {
    expect(parseRedisDouble('0x10')).toBe(16);
    expect(parseRedisDouble('-Infinity')).toBe(-Infinity);
    expect(parseRedisDouble('.5')).toBe(0.5);
    for (const text of ['', ' 1', '1e400', '1e-400', 'nan', '1,5', '0x']) expect(parseRedisDouble(text), text).toBeNull();
  });

  it.each<[number, string]>([
    [0.1, '0.10000000000000001'],
    [1, '1'],
    [-2.5, '-2.5'],
    [1e17, '1e+17'],
    [1.2345678901234567e19, '1.2345678901234567e+19'],
    [1.5e-7, '1.4999999999999999e-07'],
    [0.0001, '0.0001'],
    [Infinity, 'inf'],
    [-0, '-0'],
  ])('formats %d as %s', (value, expected) => {
    expect(formatDouble(value)).toBe(expected);
  });
});
