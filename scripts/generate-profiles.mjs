// Generates realistic trees of agent profiles for the benchmark, from the
// shapes of the real corpus (../shared/corpus): blocking hooks with memory and
// event bus calls, older pre/post hooks, nested lifecycle hooks, list hooks,
// CRLF files and Markdown bodies with code blocks. Deterministic by seed.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = (random, items) => items[Math.floor(random() * items.length)];

const BLOCKING = [
  `  on_blocking_start: |
    echo "Agent \${AGENT_ID} entering blocking coordination (swarm: \${SWARM_ID}, iteration: \${ITERATION})"
    /sqlite-memory store --key "agent:\${AGENT_ID}:blocking:context" \\
      --level agent \\
      --data '{"status":"blocked","timestamp":"'$(date +%s)'","task":"\${TASK}","phase":"\${PHASE}"}'
  on_signal_received: |
    echo "Agent \${AGENT_ID} received signal, resuming work"
    CONTEXT=$(/sqlite-memory retrieve --key "agent:\${AGENT_ID}:blocking:context" --level agent || echo '{}')
    echo "Resuming from context: \${CONTEXT}"
  on_blocking_timeout: |
    echo "Agent \${AGENT_ID} blocking timeout - escalating"
    /eventbus publish --type agent.timeout \\
      --data '{"agent":"\${AGENT_ID}","iteration":"\${ITERATION}"}' \\
      --priority 9 || true
`,
  `  on_blocking_start: |
    redis-cli set "swarm:\${SWARM_ID}:\${AGENT_ID}:done" 0 > /dev/null
    /sqlite-memory store --key "swarm:\${SWARM_ID}:status" --level swarm --data "{\\"agent\\":\\"$AGENT_ID\\"}"
  on_signal_received: |
    status=$(redis-cli get "swarm:\${SWARM_ID}:gate-passed")
    if [ "$status" = "1" ]; then echo "gate passed"; fi
`,
];

const LEGACY = [
  `  pre: |
    echo "Agent activated for: $TASK"
    memory_store "start_$(date +%s)" "Started: $TASK"
  post: |
    echo "Complete"
    memory_store "end_$(date +%s)" "Completed: $TASK"
`,
  `  pre: |
    echo "Performance Analyzer initializing: $TASK"
    if [[ "$TASK" == *"optimize"* ]] || [[ "$TASK" == *"performance"* ]]; then
      echo "Activating profiling"
      mcp__claude-flow-novice__performance_report --format=summary --timeframe=24h
    fi
  post: |
    echo "Analysis completed"
    mcp__claude-flow-novice__memory_usage store "perf_results_$(date +%s)" "Done: $TASK" --namespace=performance
  task_complete: |
    echo "Optimization cycle completed"
    find . -name "*.log" -mtime +7 | head -20
`,
  `  pre:
    - "Initialize swarm coordination system"
    - "Analyze context and determine topology"
  post:
    - "Generate coordination report"
`,
];

const LIFECYCLE = `  lifecycle:
    init: |
      echo "Initializing \${AGENT_ID}"
      mkdir -p ./.swarm/state
    cleanup: |
      echo "Cleaning up"
      rm -f ./.swarm/state/*.tmp
`;

const BODY = `
## Usage

\`\`\`bash
npx claude-flow-novice hooks pre-task --description "task"
\`\`\`

Keep hooks short: the runtime gives them five seconds.
`;

export function generateProfile(random, index) {
  const hooks = [];
  if (random() < 0.5) hooks.push(pick(random, BLOCKING));
  if (random() < 0.7) hooks.push(pick(random, LEGACY));
  if (random() < 0.2) hooks.push(LIFECYCLE);
  const description = `Generated agent ${index} for benchmarking; handles ${pick(random, ['code review', 'testing', 'coordination', 'performance analysis', 'documentation'])} tasks`;
  let text = `---\nname: agent-${index}\ndescription: ${description}\ntools: Read, Write, Bash\nmodel: sonnet\ncolor: "#${Math.floor(
    random() * 0xffffff,
  )
    .toString(16)
    .padStart(6, '0')}"\npriority: ${pick(random, ['low', 'medium', 'high'])}\n`;
  if (hooks.length) text += `hooks:\n${hooks.join('')}`;
  text += `---\n\n# Agent ${index}\n\nYou are agent ${index}.\n${random() < 0.5 ? BODY : ''}`;
  // About a third of the real corpus uses CRLF line endings.
  return random() < 0.32 ? text.replace(/\n/g, '\r\n') : text;
}

export function generateTree(dir, count, seed = 42) {
  const random = prng(seed);
  const agents = join(dir, '.claude', 'agents');
  for (let i = 0; i < count; i++) {
    const sub = join(agents, `team-${i % 25}`);
    mkdirSync(sub, { recursive: true });
    writeFileSync(join(sub, `agent-${i}.md`), generateProfile(random, i));
  }
  return agents;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [dir, count = '200', seed = '42'] = process.argv.slice(2);
  if (!dir) {
    console.error('usage: generate-profiles.mjs DIR [COUNT] [SEED]');
    process.exit(2);
  }
  generateTree(dir, Number(count), Number(seed));
  console.log(`${count} profiles under ${join(dir, '.claude', 'agents')}`);
}
