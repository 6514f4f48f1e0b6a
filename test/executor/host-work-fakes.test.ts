/**
 * The fakes a hook talks to live in the executor's process: each attack here
 * once grew the host's memory by gigabytes or kept it busy long past the
 * run's ceiling. Replayed small, each shows its bound (src/executor/host-limits.ts).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HOST_LIMITS } from '../../src/executor/host-limits.js';
import type { RedisFakeServer } from '../../src/executor/redis/server.js';
import { createExecutorSession, type ExecutorSession } from '../../src/executor/session.js';
import { hookScript, needsSandbox, sandboxMissing } from './helpers.js';
import { perl, sampleHost } from './perl-hooks.js';

const MiB = 1024 * 1024;

describe.skipIf(sandboxMissing !== undefined)(needsSandbox('host work a hook drives through the fakes'), () => {
  let session: ExecutorSession;
  beforeAll(async () => {
    session = await createExecutorSession({ timeoutMs: 3000 });
  });
  afterAll(() => session.close());
  afterEach(async () => {
    await session.callRedis(['FLUSHALL']);
  });

  it('the Redis keyspace is bounded: pipelined 1 MB SETs get the OOM error past the budget', async () => {
    const result = await session.runHook(
      hookScript(
        'pre',
        perl(String.raw`
my $s = connect_to("/run/vah/redis.sock"); my $v = "a" x 1000000;
my $n = 100; print $s frame("SET", "k$_", $v) for 1..$n;
my %seen; for (1..$n) { my $r = reply($s); $seen{$r}++ }
print "$_ x$seen{$_}\n" for sort keys %seen;
print $s frame("DEL", "k1", "k2"); print reply($s), "\n";
print $s frame("SET", "after", "x"); print reply($s), "\n";`),
      ),
    );
    expect(result.stdout).toMatch(
      /^-OOM command not allowed when used memory > 'maxmemory'\. \(the executor's Redis holds at most 64 MiB/m,
    );
    expect(result.stdout).toMatch(/^\+OK x6\d$/m);
    // Freeing space lets writes in again.
    expect(result.stdout).toMatch(/^:2\n\+OK\nperl=0\n$/m);
    const store = session.redis.fake!.store;
    expect(store.budget.usedBytes()).toBeLessThanOrEqual(HOST_LIMITS.redisKeyspaceBytes + 2 * MiB);
    // The refusal is in the trace as the reply the hook got.
    const refused = result.operations.filter(
      (op) => op.kind === 'redis' && op.command[0] === 'SET' && JSON.stringify(op.reply).includes('OOM'),
    );
    expect(refused.length).toBeGreaterThan(20);
  }, 15_000);

  it('a subscriber that never reads is disconnected past its bound; the publisher is not held', async () => {
    const sampler = sampleHost();
    const result = await session
      .runHook(
        hookScript(
          'pre',
          perl(String.raw`
my $sub = connect_to("/run/vah/redis.sock"); print $sub frame("SUBSCRIBE", "c");
my $pub = connect_to("/run/vah/redis.sock"); my $v = "m" x 1000000;
select(undef, undef, undef, 0.2);
my $n = 150; print $pub frame("PUBLISH", "c", $v) for 1..$n;
my %seen; for (1..$n) { my $r = reply($pub); $seen{$r}++ }
print "$_ x$seen{$_}\n" for sort keys %seen;`),
        ),
      )
      .finally(() => sampler.stop());
    // Some messages reached the subscriber's socket; then it was dropped and PUBLISH counted nobody.
    expect(result.stdout).toMatch(/^:0 x\d+$/m);
    expect(result.stdout).toMatch(/perl=0/);
    const dropped = result.operations.find((op) => op.kind === 'redis' && op.push && JSON.stringify(op.reply).includes('left unread'));
    expect(dropped).toBeDefined();
    expect(sampler.peakGrowth()).toBeLessThan(64 * MiB);
  }, 15_000);

  it('a Redis client that does not read its replies is not read either: its requests stay in the kernel', async () => {
    await session.callRedis(['SET', 'big', 'b'.repeat(MiB)]);
    const sampler = sampleHost();
    const started = Date.now();
    const result = await session
      .runHook(
        hookScript(
          'pre',
          `timeout 2 ${perl(String.raw`
my $s = connect_to("/run/vah/redis.sock"); my $v = "x" x 1000000;
print $s frame("GET", "big") for 1..20;
print $s frame("SET", "x", $v) for 1..100;
print "sent\n";`)}`,
        ),
      )
      .finally(() => sampler.stop());
    expect(Date.now() - started).toBeLessThan(8000);
    expect(result.stdout).not.toMatch(/sent/);
    // 20 MB of replies asked for and 100 MB of requests sent: the host held the high-water mark and a little.
    expect(sampler.peakGrowth()).toBeLessThan(HOST_LIMITS.outputHighWaterMark + 24 * MiB);
  }, 15_000);

  it('pipelined control requests stop with the run: nothing is served after the timeout', async () => {
    const sampler = sampleHost();
    const started = Date.now();
    const result = await session
      .runHook(
        hookScript(
          'pre',
          perl(String.raw`
my $s = connect_to("/run/vah/control.sock"); my $v = '"' . ("a" x 1000000) . '"';
print $s frame("VAH.CALL", "sqlite-memory", "store", "--key", "k$_", "--level", "agent", "--data", $v) for 1..12;
print $s frame("VAH.CALL", "sqlite-memory", "retrieve", "--key", "k*", "--level", "agent") for 1..60;
sleep 1000;`),
        ),
      )
      .finally(() => sampler.stop());
    const wall = Date.now() - started;
    expect(result.timedOut).toBe(true);
    // 3 s of the hook's own time, within the 12 s ceiling; it used to take a minute.
    expect(wall).toBeLessThan(4 * 3000 + 2000);
    const retrieves = result.operations.filter((op) => op.kind === 'memory' && op.action === 'retrieve');
    expect(retrieves.length).toBeLessThan(20);
    expect(sampler.peakGrowth()).toBeLessThan(256 * MiB);
    // Nothing more is served once the run is over.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(session.trace.forRun(result.runId).filter((op) => op.kind === 'memory' && op.action === 'retrieve').length).toBe(
      retrieves.length,
    );
  }, 20_000);

  it("a queue of slow control requests does not hold off the run's ceiling", async () => {
    const started = Date.now();
    const result = await session.runHook(
      hookScript(
        'pre',
        perl(String.raw`
my $s = connect_to("/run/vah/control.sock"); my $v = '"' . ("a" x 3900000) . '"';
for (1..5) { print $s frame("VAH.CALL", "sqlite-memory", "store", "--key", "s$_", "--level", "agent", "--data", $v); reply($s) }
print $s frame("VAH.CALL", "sqlite-memory", "retrieve", "--key", "s*", "--level", "agent") for 1..400;
sleep 1000;`),
      ),
      { timeoutMs: 2000 },
    );
    // Each refusal costs the host tens of milliseconds, all of them many times the ceiling (4 × 2 s): the ceiling wins.
    expect(result.timedOut).toBe(true);
    expect(Date.now() - started).toBeLessThan(4 * 2000 + 1500);
    const retrieves = result.operations.filter((op) => op.kind === 'memory' && op.action === 'retrieve');
    expect(retrieves.length).toBeLessThan(400);
  }, 20_000);

  it('a slash command reply over its bound is refused with an error that says so', async () => {
    const result = await session.runHook(
      hookScript(
        'pre',
        perl(String.raw`
my $s = connect_to("/run/vah/control.sock"); my $v = '"' . ("a" x 3900000) . '"';
for (1..5) { print $s frame("VAH.CALL", "sqlite-memory", "store", "--key", "r$_", "--level", "agent", "--data", $v); reply($s) }
print $s frame("VAH.CALL", "sqlite-memory", "retrieve", "--key", "r*", "--level", "agent");
my $r = reply($s); $r =~ s/\x1f/|/g; print substr($r, 0, 300), "\n";`),
      ),
    );
    expect(result.stdout).toMatch(
      /^1\|sqlite-memory: the reply is too large \(about \d+ characters of values; a command's output is at most 16 MiB\)/m,
    );
  }, 15_000);

  it('the event log is bounded in bytes and count, and a refused event says why', async () => {
    const result = await session.runHook(
      hookScript(
        'pre',
        perl(String.raw`
my $s = connect_to("/run/vah/control.sock"); my $v = '"' . ("e" x 3900000) . '"';
sub call { print $s frame("VAH.CALL", @_); my $r = reply($s); $r =~ s/\x1f/|/g; substr($r, 0, 200) }
print call("eventbus", "publish", "--type", "a.big", "--priority", "5", "--data", $v), "\n" for 1..5;
print call("eventbus", "publish", "--type", "a.huge", "--priority", "5", "--data", '"' . ("e" x 4200000) . '"'), "\n";
my $n = 10000; print $s frame("VAH.CALL", "eventbus", "publish", "--type", "a.small", "--priority", "5", "--data", "1") for 1..$n;
my %seen; for (1..$n) { my $r = reply($s); $r =~ s/\x1f.*//s; $seen{$r}++ } print "small $_ x$seen{$_}\n" for sort keys %seen;`),
      ),
    );
    expect(result.stdout.match(/^0\|\|\|$/gm)).toHaveLength(4);
    expect(result.stdout).toMatch(/^1\|eventbus: the session's event log is full \(it keeps at most 10000 events and 16 MiB/m);
    expect(result.stdout).toMatch(/^2\|eventbus: argument 7 is too long/m);
    expect(session.events.length).toBe(HOST_LIMITS.eventsPerSession);
    expect(result.stdout).toMatch(/^small 0 x9996$/m);
    expect(result.stdout).toMatch(/^small 1 x4$/m);
  }, 20_000);

  it('many connections each buffering a partial request cannot add up: past the session bound the newest is dropped', async () => {
    const fake = session.redis.fake as RedisFakeServer;
    let peak = 0;
    const sampler = setInterval(() => {
      peak = Math.max(peak, fake.inputBytes);
    }, 2);
    const result = await session
      .runHook(
        hookScript(
          'pre',
          perl(String.raw`
$SIG{PIPE} = 'IGNORE'; my $chunk = "p" x 1000000; my $dropped = 0;
for my $c (1..10) {
  my $s = connect_to("/run/vah/redis.sock"); print $s "*3\r\n\$3\r\nSET\r\n\$1\r\nk\r\n\$40000000\r\n";
  for (1..30) { unless (print $s $chunk) { $dropped++; last } }
  push @main::keep, $s;
}
select(undef, undef, undef, 0.3);
for my $s (@main::keep) { $dropped++ unless print $s "p" and $s->flush }
print "dropped=", ($dropped > 0 ? "yes" : "no"), "\n";`),
        ),
        { timeoutMs: 10_000 },
      )
      .finally(() => clearInterval(sampler));
    expect(result.stdout).toMatch(/dropped=yes/);
    // What the connections hold, counted: never past the bound and a chunk, and nothing once they are gone.
    expect(peak).toBeGreaterThan(64 * MiB);
    expect(peak).toBeLessThan(HOST_LIMITS.redisInputBytes + MiB);
    expect(fake.inputBytes).toBe(0);
  }, 20_000);

  it("many control connections each buffering a request cannot add up: past the run's bound one is refused with an error", async () => {
    const sampler = sampleHost();
    const result = await session
      .runHook(
        hookScript(
          'pre',
          perl(String.raw`
$SIG{PIPE} = 'IGNORE'; my $part = "d" x 7000000; my @keep;
for my $c (1..12) {
  my $s = connect_to("/run/vah/control.sock");
  print $s "*4\r\n" . join("", map { "\$" . length($_) . "\r\n$_\r\n" } "VAH.CALL", "eventbus", "publish") . "\$8000000\r\n$part";
  push @keep, $s;
}
select(undef, undef, undef, 0.5);
for my $s (@keep) { $s->blocking(0); my $r = <$s>; print $r if defined $r }`),
        ),
      )
      .finally(() => sampler.stop());
    expect(result.stdout).toMatch(/^-ERR too many requests waiting \(the control socket holds at most 64 MiB of them\)/m);
    expect(sampler.peakGrowth()).toBeLessThan(HOST_LIMITS.controlInputBytes + 48 * MiB);
  }, 15_000);

  it('a bulk announced but never sent counts at its announced size (the fake allocates it at once)', async () => {
    const fake = session.redis.fake as RedisFakeServer;
    const result = await session.runHook(
      hookScript(
        'pre',
        perl(String.raw`
$SIG{PIPE} = 'IGNORE'; my @keep;
for my $c (1..10) { my $s = connect_to("/run/vah/redis.sock"); print $s "*3\r\n\$3\r\nSET\r\n\$1\r\nk\r\n\$60000000\r\nx"; $s->flush; push @keep, $s }
select(undef, undef, undef, 0.3);
print $_ "x" for @keep; $_->flush for @keep; select(undef, undef, undef, 0.3);
my $alive = 0; for my $s (@keep) { $alive++ if print $s "x" and $s->flush } print "alive=$alive\n";`),
      ),
    );
    // 160 MiB holds two 60 MB bulks; the third connection is dropped, and so on.
    expect(result.stdout).toMatch(/^alive=2$/m);
    expect(fake.inputBytes).toBe(0);
  }, 15_000);

  it('commands queued in MULTI count as input not yet run: a transaction cannot queue past the bound', async () => {
    const fake = session.redis.fake as RedisFakeServer;
    const result = await session.runHook(
      hookScript(
        'pre',
        perl(String.raw`
$SIG{PIPE} = 'IGNORE'; my $s = connect_to("/run/vah/redis.sock"); my $v = "q" x 1000000;
print $s frame("MULTI"); print $s frame("SET", "k$_", $v) or last for 1..250;
my %seen; while (defined(my $r = reply($s))) { $seen{$r}++ } print "$_ x$seen{$_}\n" for sort keys %seen;`),
      ),
    );
    const queued = Number(/^\+QUEUED x(\d+)$/m.exec(result.stdout)?.[1]);
    expect(queued).toBeGreaterThan(100);
    expect(queued).toBeLessThan(HOST_LIMITS.redisInputBytes / 1_000_000);
    expect(fake.inputBytes).toBe(0);
  }, 15_000);

  it("connections held open at once are bounded on each of a run's sockets (22,000 took the executor to its open-file limit), and the run says how many were closed", async () => {
    const open = (socket: string, label: string): string =>
      perl(String.raw`
$SIG{PIPE} = 'IGNORE'; my @keep;
for (1..600) { my $s = IO::Socket::UNIX->new(Peer => "${socket}") or last; push @keep, $s }
# All four processes hold their connections before any is used.
open(my $f, '>', "/tmp/ready.$$"); close $f;
for (1..500) { my @ready = glob("/tmp/ready.*"); last if @ready >= 4; select(undef, undef, undef, 0.01) }
print $_ "PING
" for @keep;
# Answers within 3 s; a connection still waiting in the kernel's queue for the server is not served.
use IO::Select; my $select = IO::Select->new(@keep); my $answered = 0; my $until = time + 3;
while ($select->count && time < $until) {
  for my $s ($select->can_read(0.2)) { my $r = <$s>; $answered++ if defined $r && $r =~ /PONG/; $select->remove($s) }
}
# Every process holds its connections until all have read: one that ended early would free places for another's queued ones.
open(my $g, '>', "/tmp/done.$$"); close $g;
for (1..1000) { my @done = glob("/tmp/done.*"); last if @done >= 4; select(undef, undef, undef, 0.01) }
print "${label}=$answered
";`);
    const result = await session.runHook(
      hookScript(
        'pre',
        `rm -f /tmp/ready.* /tmp/done.*; for i in 1 2 3; do (${open('/run/vah/redis.sock', 'redis')}) & done; (${open('/run/vah/control.sock', 'control')}) & wait; rm -f /tmp/ready.* /tmp/done.*`,
      ),
      { timeoutMs: 15_000 },
    );
    const answered = (label: string): number =>
      [...result.stdout.matchAll(new RegExp(`^${label}=(\\d+)$`, 'gm'))].reduce((sum, match) => sum + Number(match[1]), 0);
    expect(result.stdout.match(/^redis=/gm)).toHaveLength(3);
    expect(answered('redis')).toBeGreaterThan(0);
    expect(answered('redis')).toBeLessThanOrEqual(HOST_LIMITS.runSocketConnections);
    expect(answered('control')).toBeGreaterThan(0);
    expect(answered('control')).toBeLessThanOrEqual(HOST_LIMITS.runSocketConnections);
    const closed =
      /^(\d+) connection\(s\) to the run's Redis and control sockets were closed unserved: each socket serves at most 256 open at once$/;
    const warning = result.sandbox.warnings.find((each) => closed.test(each));
    expect(Number(closed.exec(warning ?? '')?.[1])).toBeGreaterThanOrEqual(4 * 600 - 2 * HOST_LIMITS.runSocketConnections);
  }, 30_000);
});
