import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryStore } from '../../src/executor/memory-store.js';
import { runMemoryCommand, runOtherCommand, type SlashCommandContext } from '../../src/executor/slash-commands.js';
import { runEventbusCommand, validateEvent } from '../../src/executor/eventbus-command.js';
import type { OperationInput, PublishedEvent } from '../../src/executor/trace.js';
import { hasSqlite3, tempDir } from './helpers.js';

const coder = { agentId: 'coder-1', swarmId: 'swarm-a' };
const reviewer = { agentId: 'reviewer-1', swarmId: 'swarm-a' };
const outsider = { agentId: 'spy-1', swarmId: 'swarm-b' };

function context(
  store: MemoryStore,
  identity = coder,
): SlashCommandContext & { operations: OperationInput[]; events: Array<Omit<PublishedEvent, 't'>> } {
  const operations: OperationInput[] = [];
  const events: Array<Omit<PublishedEvent, 't'>> = [];
  return {
    identity,
    memory: () => Promise.resolve(store),
    record: (operation) => operations.push(operation),
    publish: (event) => {
      events.push(event);
      return undefined;
    },
    operations,
    events,
  };
}

describe('memory store', () => {
  let store: MemoryStore;
  afterEach(() => store?.close());

  it('keeps agent-level entries private: another agent is denied, not shown an empty slot', async () => {
    store = await MemoryStore.create();
    expect(store.store(coder, { level: 'agent', key: 'ctx', value: '{"a":1}' })).toMatchObject({ ok: true, created: true });
    expect(store.retrieve(coder, { level: 'agent', key: 'ctx' })).toMatchObject({
      ok: true,
      entry: { value: '{"a":1}', owner: 'coder-1' },
    });
    expect(store.retrieve(reviewer, { level: 'agent', key: 'ctx' })).toMatchObject({
      ok: false,
      reason: 'denied',
      message: expect.stringContaining("'coder-1'"),
    });
    expect(store.delete(reviewer, { level: 'agent', key: 'ctx' })).toMatchObject({ ok: false, reason: 'denied' });
    expect(store.retrieve(reviewer, { level: 'agent', key: 'never-written' })).toMatchObject({ ok: false, reason: 'not-found' });
    expect(store.visible(reviewer)).toEqual([]);
    expect(store.retrieve(coder, { level: 'agent', key: 'ctx' })).toMatchObject({ ok: true, entry: { value: '{"a":1}' } });
  });

  it('gives every agent its own private namespace, so the same key never collides', async () => {
    store = await MemoryStore.create();
    store.store(coder, { level: 'agent', key: 'status', value: 'coding' });
    expect(store.store(reviewer, { level: 'agent', key: 'status', value: 'reviewing' })).toMatchObject({ ok: true, created: true });
    expect(store.retrieve(coder, { level: 'agent', key: 'status' })).toMatchObject({ ok: true, entry: { value: 'coding' } });
    expect(store.retrieve(reviewer, { level: 'agent', key: 'status' })).toMatchObject({ ok: true, entry: { value: 'reviewing' } });
    expect(store.entries().map((entry) => [entry.owner, entry.value])).toEqual([
      ['coder-1', 'coding'],
      ['reviewer-1', 'reviewing'],
    ]);
  });

  it('shares swarm-level entries within a swarm only, and project-level entries with everyone', async () => {
    store = await MemoryStore.create();
    store.store(coder, { level: 'swarm', key: 'plan', value: 'A' });
    store.store(outsider, { level: 'swarm', key: 'plan', value: 'B' });
    store.store(coder, { level: 'project', key: 'decision', value: 'PROCEED' });
    expect(store.retrieve(reviewer, { level: 'swarm', key: 'plan' })).toMatchObject({ ok: true, entry: { value: 'A' } });
    expect(store.retrieve(outsider, { level: 'swarm', key: 'plan' })).toMatchObject({ ok: true, entry: { value: 'B' } });
    expect(store.retrieve(outsider, { level: 'project', key: 'decision' })).toMatchObject({ ok: true, entry: { value: 'PROCEED' } });
    expect(store.retrieve(reviewer, { level: 'project', key: 'missing' })).toMatchObject({ ok: false, reason: 'not-found' });
  });

  it('expires entries stored with a TTL by its clock', async () => {
    let now = 1_000_000;
    store = await MemoryStore.create({ now: () => now });
    store.store(coder, { level: 'project', key: 'short', value: 'x', ttlSeconds: 10 });
    now += 9_999;
    expect(store.retrieve(coder, { level: 'project', key: 'short' }).ok).toBe(true);
    now += 1;
    expect(store.retrieve(coder, { level: 'project', key: 'short' })).toMatchObject({ ok: false, reason: 'not-found' });
    expect(store.entries()).toEqual([]);
  });

  it('reuses its prepared statements across calls, an export and a full store', async () => {
    store = await MemoryStore.create();
    for (let i = 0; i < 50; i++) store.store(coder, { level: 'agent', key: `k${i}`, value: `v${i}` });
    const before = store.export();
    expect(store.store(coder, { level: 'agent', key: 'k3', value: 'changed' })).toEqual({ ok: true, created: false });
    expect(store.retrieve(coder, { level: 'agent', key: 'k3' })).toMatchObject({ ok: true, entry: { value: 'changed' } });
    expect(store.retrieve(coder, { level: 'agent', key: 'k49' })).toMatchObject({ ok: true, entry: { value: 'v49' } });
    expect(store.delete(coder, { level: 'agent', key: 'k0' })).toEqual({ ok: true, deleted: true });
    expect(store.retrieve(coder, { level: 'agent', key: 'k0' })).toMatchObject({ ok: false, reason: 'not-found' });
    expect(store.entries()).toHaveLength(49);
    expect(before.length).toBeGreaterThan(0);
  });

  it('holds at most its limit of key and value bytes, counting what updates, deletions and expiry free', async () => {
    let now = 1_000;
    store = await MemoryStore.create({ now: () => now, maxBytes: 100 });
    const put = (key: string, bytes: number, ttlSeconds?: number) =>
      store.store(coder, { level: 'agent', key, value: 'v'.repeat(bytes), ...(ttlSeconds ? { ttlSeconds } : {}) }).ok;
    expect([put('k1', 38), put('k2', 38)]).toEqual([true, true]); // 40 + 40
    expect(put('k3', 18)).toBe(true); // 100: exactly the limit
    expect(put('k4', 0)).toBe(false); // 102
    expect(store.store(coder, { level: 'agent', key: 'k1', value: 'é'.repeat(10) }).ok).toBe(true); // 40 → 22 (é is two bytes): 82
    expect(put('k4', 16)).toBe(true); // 100
    expect(put('k5', 0)).toBe(false);
    expect(store.delete(coder, { level: 'agent', key: 'k2' })).toEqual({ ok: true, deleted: true }); // 60
    expect(put('k2', 39)).toBe(false); // 101
    expect(put('k2', 38)).toBe(true); // 100
    expect(store.delete(coder, { level: 'agent', key: 'k2' }).ok).toBe(true); // 60
    expect(put('t1', 18, 1)).toBe(true); // 80, expiring
    now += 2_000;
    expect(store.retrieve(coder, { level: 'agent', key: 't1' })).toMatchObject({ ok: false, reason: 'not-found' }); // 60
    expect(put('t2', 38, 1)).toBe(true); // 100, expiring
    now += 2_000;
    expect(store.entries().map((entry) => entry.key)).toEqual(['k1', 'k3', 'k4']); // 60
    expect(put('k6', 38)).toBe(true); // 100
    expect(store.store(coder, { level: 'agent', key: 'k6', value: 'v'.repeat(39) })).toMatchObject({ ok: false, reason: 'full' });
    expect(store.retrieve(coder, { level: 'agent', key: 'k6' })).toMatchObject({ ok: true, entry: { value: 'v'.repeat(38) } });
  });

  it('treats SQL in keys and values as data', async () => {
    store = await MemoryStore.create();
    const key = "k'); DROP TABLE memory; --";
    store.store(coder, { level: 'project', key, value: "'; DELETE FROM memory; --" });
    expect(store.retrieve(coder, { level: 'project', key })).toMatchObject({ ok: true, entry: { value: "'; DELETE FROM memory; --" } });
    expect(store.entries()).toHaveLength(1);
  });

  it.skipIf(!hasSqlite3)('saves a database sqlite3 can read, with the access log', async () => {
    store = await MemoryStore.create();
    store.store(coder, { level: 'agent', key: 'ctx', value: '1' });
    store.retrieve(reviewer, { level: 'agent', key: 'ctx' });
    const { dir, remove } = tempDir();
    try {
      const file = join(dir, 'memory.db');
      await store.saveTo(file);
      expect(execFileSync('sqlite3', [file, 'SELECT level, key, owner, value FROM memory'], { encoding: 'utf8' })).toBe(
        'agent|ctx|coder-1|1\n',
      );
      expect(execFileSync('sqlite3', [file, 'SELECT agent_id, action, outcome FROM memory_log ORDER BY id'], { encoding: 'utf8' })).toBe(
        'coder-1|store|created\nreviewer-1|retrieve|denied (owner coder-1)\n',
      );
    } finally {
      remove();
    }
  });
});

describe('/sqlite-memory', () => {
  let store: MemoryStore;
  afterEach(() => store?.close());

  it('stores and retrieves as the docs show, printing the value', async () => {
    store = await MemoryStore.create();
    const ctx = context(store);
    const stored = await runMemoryCommand(
      ['store', '--key', 'agent:coder-1:ctx', '--level', 'agent', '--data', '{"status":"blocked"}'],
      ctx,
    );
    expect(stored).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    const read = await runMemoryCommand(['retrieve', '--key=agent:coder-1:ctx', '--level=agent'], ctx);
    expect(read).toEqual({ exitCode: 0, stdout: '{"status":"blocked"}\n', stderr: '' });
    expect(ctx.operations.map((op) => op.kind === 'memory' && [op.action, op.key, op.level, op.outcome])).toEqual([
      ['store', 'agent:coder-1:ctx', 'agent', 'ok'],
      ['retrieve', 'agent:coder-1:ctx', 'agent', 'ok'],
    ]);
  });

  it("fails with status 1 for a missing key and for another agent's private entry", async () => {
    store = await MemoryStore.create();
    await runMemoryCommand(['store', '--key', 'secret', '--level', 'agent', '--data', '1'], context(store));
    const spy = context(store, reviewer);
    const denied = await runMemoryCommand(['retrieve', '--key', 'secret', '--level', 'agent'], spy);
    expect(denied.exitCode).toBe(1);
    expect(denied.stdout).toBe('');
    expect(denied.stderr).toMatch(/access denied.*coder-1/);
    expect(spy.operations[0]).toMatchObject({ outcome: 'denied', agentId: 'reviewer-1' });
    expect((await runMemoryCommand(['retrieve', '--key', 'nope', '--level', 'swarm'], spy)).exitCode).toBe(1);
  });

  it('reads a level named like an object property (constructor, toString) as the unknown level it is', async () => {
    store = await MemoryStore.create();
    const ctx = context(store);
    const unknown = await runMemoryCommand(['store', '--key', 'k', '--level', 'bogus', '--data', '1'], ctx);
    for (const level of ['constructor', 'toString', '__proto__']) {
      const result = await runMemoryCommand(['store', '--key', 'k', '--level', level, '--data', '1'], ctx);
      expect(result.exitCode).toBe(unknown.exitCode);
      expect(result.stderr).toBe(unknown.stderr.replace('bogus', level));
    }
  });

  it('answers a key with * with a JSON array of the matching values the caller may read', async () => {
    store = await MemoryStore.create();
    const ctx = context(store);
    await runMemoryCommand(['store', '--key', 'cfn/p/loop3/a', '--level', 'swarm', '--data', '{"confidence":0.8}'], ctx);
    await runMemoryCommand(
      ['store', '--key', 'cfn/p/loop3/b', '--level', 'swarm', '--data', '{"confidence":0.9}'],
      context(store, reviewer),
    );
    await runMemoryCommand(['store', '--key', 'cfn/p/loop2/x', '--level', 'swarm', '--data', '{}'], ctx);
    const read = await runMemoryCommand(['retrieve', '--key', 'cfn/p/loop3/*', '--level', 'swarm'], ctx);
    expect(JSON.parse(read.stdout)).toEqual([{ confidence: 0.8 }, { confidence: 0.9 }]);
  });

  it('lists keys one per line and searches with JSON results', async () => {
    store = await MemoryStore.create();
    const ctx = context(store);
    await runMemoryCommand(['store', '--key', 'a:1', '--level', 'project', '--data', '"alpha"'], ctx);
    await runMemoryCommand(['store', '--key', 'a:2', '--level', 'agent', '--data', '"beta"'], ctx);
    await runMemoryCommand(['store', '--key', 'b:1', '--level', 'agent', '--data', '"gamma"'], context(store, reviewer));
    expect((await runMemoryCommand(['list'], ctx)).stdout).toBe('a:2\na:1\n');
    expect((await runMemoryCommand(['list', '--level', 'project'], ctx)).stdout).toBe('a:1\n');
    expect((await runMemoryCommand(['list', '--prefix', 'a:'], ctx)).stdout).toBe('a:2\na:1\n');
    expect(JSON.parse((await runMemoryCommand(['search', '--query', 'bet'], ctx)).stdout)).toEqual([
      { key: 'a:2', level: 'agent', owner: 'coder-1', value: 'beta' },
    ]);
    expect(JSON.parse((await runMemoryCommand(['query', '--pattern', 'b:*'], ctx)).stdout)).toEqual([]);
  });

  it('is a usage error (status 2) to give an unknown level, option or subcommand, or to omit --key', async () => {
    store = await MemoryStore.create();
    const ctx = context(store);
    for (const args of [
      ['store', '--key', 'k', '--level', 'galaxy', '--data', '1'],
      ['store', '--key', 'k', '--level', 'agent', '--dat', '1'],
      ['store', '--level', 'agent', '--data', '1'],
      ['store', '--key', 'k', '--level', 'agent'],
      ['explode'],
      [],
    ]) {
      const result = await runMemoryCommand(args, ctx);
      expect(result.exitCode, args.join(' ')).toBe(2);
      expect(result.stderr).toMatch(/^sqlite-memory: .*\nusage:/);
    }
    expect(store.entries()).toEqual([]);
  });

  it('reads --level private as agent and notes data that is not JSON', async () => {
    store = await MemoryStore.create();
    const ctx = context(store);
    expect((await runMemoryCommand(['store', '--key', 'k', '--level', 'private', '--data', '{broken'], ctx)).exitCode).toBe(0);
    expect(store.entries()[0]).toMatchObject({ level: 'agent', value: '{broken' });
    expect(ctx.operations[0]).toMatchObject({ note: expect.stringMatching(/private is read as agent.*not valid JSON/) });
  });

  it('records undocumented-but-real subcommands such as init as successful no-ops', async () => {
    store = await MemoryStore.create();
    const ctx = context(store);
    expect(await runMemoryCommand(['recover', '--from-sqlite'], ctx)).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    expect(ctx.operations[0]).toMatchObject({ outcome: 'recorded', note: expect.stringContaining('no public implementation') });
  });
});

describe('/eventbus and other commands', () => {
  it('publishes a valid event and records it', async () => {
    const store = await MemoryStore.create();
    const ctx = context(store);
    const result = await runEventbusCommand(
      ['publish', '--type', 'agent.blocking.start', '--data', '{"agent":"coder-1"}', '--priority', '8'],
      ctx,
    );
    expect(result.exitCode).toBe(0);
    expect(ctx.events).toEqual([{ agentId: 'coder-1', type: 'agent.blocking.start', priority: 8, data: { agent: 'coder-1' } }]);
    store.close();
  });

  it('rejects (status 1) and records as invalid an event with a bad type, priority or data', async () => {
    expect(validateEvent({ type: 'agent', priority: '8', data: '{}' }).problems).toEqual([expect.stringContaining("invalid type 'agent'")]);
    expect(validateEvent({ type: 'a.b', priority: '11', data: '{}' }).problems).toEqual([expect.stringContaining("invalid priority '11'")]);
    expect(validateEvent({ type: 'a.b', priority: '0', data: '{}' }).problems).toHaveLength(1);
    expect(validateEvent({ type: 'cfn.loop.*', priority: '8', data: '{}' }).problems).toEqual([expect.stringContaining('wildcards')]);
    expect(validateEvent({ type: 'a.b', priority: '8.5', data: '{}' }).problems).toHaveLength(1);
    expect(validateEvent({ type: 'a.b', priority: '10', data: '{"agent":"${AGENT_ID}"}' }).problems).toEqual([]);
    expect(validateEvent({ type: 'a.b', priority: '6', data: "{agent: 'x'}" }).problems).toEqual([
      expect.stringContaining('not valid JSON'),
    ]);
    const store = await MemoryStore.create();
    const ctx = context(store);
    const result = await runEventbusCommand(['publish', '--type', 'timeout', '--priority', '99'], ctx);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/invalid event/);
    expect(ctx.events).toEqual([]);
    expect(ctx.operations[0]).toMatchObject({ kind: 'event', valid: false, problems: [expect.any(String), expect.any(String)] });
    store.close();
  });

  it('records other slash commands and subscribe as successful no-ops with a note', async () => {
    const store = await MemoryStore.create();
    const ctx = context(store);
    expect(runOtherCommand('performance', ['analyze', '--target', 'x'], ctx)).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    expect((await runEventbusCommand(['subscribe', '--pattern', 'cfn.*'], ctx)).exitCode).toBe(0);
    expect(ctx.operations).toEqual([
      expect.objectContaining({
        kind: 'command',
        command: '/performance',
        args: ['analyze', '--target', 'x'],
        note: expect.stringContaining('no public implementation'),
      }),
      expect.objectContaining({ kind: 'event', action: 'subscribe', valid: true, note: expect.stringContaining('not delivered') }),
    ]);
    store.close();
  });
});
