import { describe, expect, it } from 'vitest';
import { buildHookEnvironment, parseEnvAssignment, runtimeVariables } from '../../src/executor/env.js';
import { BLOCKING_TYPES, COMMON_ENV, SIGNAL_ENV, TIMEOUT_ENV } from '../../src/runtime/contract.js';

describe('hook environment', () => {
  it('gives every hook the common runtime variables and HOOK_NAME, with the agent id it runs as', () => {
    const env = runtimeVariables('on_blocking_start', { agentId: 'coder-7' });
    for (const name of COMMON_ENV) expect(env[name], name).toBeTruthy();
    expect(env.AGENT_ID).toBe('coder-7');
    expect(env.HOOK_NAME).toBe('on_blocking_start');
    expect(env.ITERATION).toMatch(/^\d+$/);
  });

  it('sets SIGNAL_DATA and WAIT_DURATION only for on_signal_received', () => {
    const signal = runtimeVariables('on_signal_received', { agentId: 'a' });
    for (const name of SIGNAL_ENV) expect(signal[name], name).toBeDefined();
    expect(() => JSON.parse(signal.SIGNAL_DATA!)).not.toThrow();
    for (const hook of ['on_blocking_start', 'on_blocking_timeout', 'pre', 'lifecycle.init']) {
      const env = runtimeVariables(hook, { agentId: 'a' });
      for (const name of SIGNAL_ENV) expect(env[name], `${name} in ${hook}`).toBeUndefined();
    }
  });

  it('sets TIMEOUT_DURATION and EXCEEDED_BY only for on_blocking_timeout', () => {
    const timeout = runtimeVariables('on_blocking_timeout', { agentId: 'a' });
    for (const name of TIMEOUT_ENV) expect(timeout[name], name).toMatch(/^\d+$/);
    for (const hook of ['on_blocking_start', 'on_signal_received', 'post_edit']) {
      const env = runtimeVariables(hook, { agentId: 'a' });
      for (const name of TIMEOUT_ENV) expect(env[name], `${name} in ${hook}`).toBeUndefined();
    }
  });

  it('gives values the hooks document allows and that agree with each other', () => {
    // BLOCKING_TYPE is one of the document's three; TIMEOUT_DURATION is the time since blocking
    // started, so the threshold plus the overrun (its example: 305000 = 300000 + 5000).
    for (const hook of ['on_blocking_start', 'on_signal_received', 'on_blocking_timeout'])
      expect(BLOCKING_TYPES, hook).toContain(runtimeVariables(hook, { agentId: 'a' }).BLOCKING_TYPE);
    const timeout = runtimeVariables('on_blocking_timeout', { agentId: 'a' });
    expect(Number(timeout.TIMEOUT_DURATION)).toBe(Number(timeout.TIMEOUT_THRESHOLD) + Number(timeout.EXCEEDED_BY));
    expect(Number(timeout.EXCEEDED_BY)).toBeGreaterThan(0);
  });

  it('reports the coordinator as arrived once a signal has been received', () => {
    expect(runtimeVariables('on_signal_received', { agentId: 'a' })).toMatchObject({
      RECEIVED_COUNT: '1',
      MISSING_COUNT: '0',
      MISSING_COORDINATORS: '',
    });
    expect(runtimeVariables('on_blocking_timeout', { agentId: 'a' })).toMatchObject({ RECEIVED_COUNT: '0', MISSING_COUNT: '1' });
  });

  it('takes shortcuts from the context and lets --env overrides win over everything', () => {
    const env = buildHookEnvironment({
      hookName: 'on_blocking_start',
      context: { agentId: 'coder-1', task: 'Fix the bug', swarmId: 'swarm-9', iteration: 3, phase: 'validation' },
      overrides: { PHASE: 'override', CUSTOM: 'x=y', PATH: '/opt/bin' },
    });
    expect(env).toMatchObject({
      AGENT_ID: 'coder-1',
      TASK: 'Fix the bug',
      SWARM_ID: 'swarm-9',
      ITERATION: '3',
      PHASE: 'override',
      CUSTOM: 'x=y',
      PATH: '/opt/bin',
    });
    expect(env.HOME).toBe('/home/agent');
    expect(env.PWD).toBe('/workspace');
  });

  it('passes nothing from the host environment', () => {
    process.env.VAH_HOST_SECRET = 'leak';
    try {
      const env = buildHookEnvironment({ hookName: 'pre', context: { agentId: 'a' } });
      expect(Object.values(env)).not.toContain('leak');
      expect(env.PATH!.startsWith('/run/vah/bin:')).toBe(true);
    } finally {
      delete process.env.VAH_HOST_SECRET;
    }
  });

  it('parses KEY=VALUE assignments, keeping = in values and refusing bad names', () => {
    expect(parseEnvAssignment('A=b=c')).toEqual({ key: 'A', value: 'b=c' });
    expect(parseEnvAssignment('EMPTY=')).toEqual({ key: 'EMPTY', value: '' });
    expect(parseEnvAssignment('1A=x')).toBeUndefined();
    expect(parseEnvAssignment('novalue')).toBeUndefined();
  });
});
