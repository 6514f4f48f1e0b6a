// Generates realistic trees of agent profiles for the benchmark, from the
// shapes of the real corpus (../shared/corpus): blocking hooks with memory and
// event bus calls, older pre/post hooks, nested lifecycle hooks, list hooks,
// CRLF files and Markdown bodies with code blocks. Deterministic by seed.
//
// Scripts are composed per profile from the statement kinds the corpus uses,
// filled with that agent's role, keys and messages, so almost every script is
// distinct (the corpus: 182 distinct in 190): a cache keyed on script text
// must not flatter the benchmark.
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
const between = (random, low, high) => low + Math.floor(random() * (high - low + 1));

const AREAS = [
  'api',
  'backend',
  'frontend',
  'security',
  'performance',
  'database',
  'mobile',
  'ml',
  'devops',
  'docs',
  'testing',
  'release',
  'quorum',
  'mesh',
  'consensus',
  'github',
  'sparc',
  'research',
];
const ROLES = [
  'Coordinator',
  'Reviewer',
  'Analyzer',
  'Architect',
  'Tester',
  'Optimizer',
  'Specialist',
  'Validator',
  'Planner',
  'Auditor',
  'Engineer',
  'Manager',
];
const EMOJI = ['🚀', '✅', '📊', '🔍', '⚡', '🧪', '🛡️', '📝', '🎯', '🔧', '💡', '🏁', '📡', '🧹'];
const VERBS = [
  'initializing',
  'starting',
  'analyzing',
  'validating',
  'reviewing',
  'preparing',
  'checking',
  'finalizing',
  'coordinating',
  'optimizing',
];
const THINGS = [
  'dependencies',
  'test coverage',
  'the API surface',
  'schemas',
  'build artefacts',
  'the task queue',
  'metrics',
  'security findings',
  'the release notes',
  'consensus votes',
];
const FILES = [
  'package.json',
  'tsconfig.json',
  'Cargo.toml',
  'go.mod',
  'requirements.txt',
  'Makefile',
  'docker-compose.yml',
  '.eslintrc.json',
];
const DIRS = ['tests', 'src', 'docs', 'scripts', 'migrations', 'ios', 'android', 'benchmarks'];
const LEVELS = ['agent', 'swarm', 'project'];

/** One statement of a hook, in the styles the corpus uses; `a` is the agent (role words, key prefix). */
const STATEMENTS = [
  (r, a) => `echo "${pick(r, EMOJI)} ${a.title} ${pick(r, VERBS)} ${pick(r, THINGS)}: $TASK"`,
  (r, a) => `echo "${pick(r, EMOJI)} ${a.title}: ${pick(r, VERBS)} ${pick(r, THINGS)}"`,
  (r, a) => `memory_store "${a.key}_${pick(r, ['start', 'end', 'context', 'result'])}_$(date +%s)" "${pick(r, VERBS)}: $TASK"`,
  (r, a) => `memory_search "${a.key}_*" | head -${between(r, 3, 10)}`,
  (r, a) =>
    `/sqlite-memory store --key "${a.key}:\${AGENT_ID}:${pick(r, ['state', 'context', 'progress', 'confidence'])}" --level ${pick(r, LEVELS)} --data '{"status":"${pick(r, VERBS)}","n":${between(r, 1, 99)}}'`,
  (r, a) =>
    `CONTEXT=$(/sqlite-memory retrieve --key "${a.key}:\${AGENT_ID}:context" --level ${pick(r, LEVELS)} || echo '{}')\necho "Resuming ${a.title} from: \${CONTEXT}"`,
  (r, a) =>
    `/eventbus publish --type ${a.area}.${pick(r, ['started', 'completed', 'failed', 'progress'])} --data '{"agent":"\${AGENT_ID}","step":${between(r, 1, 20)}}' --priority ${between(r, 6, 10)}`,
  (r, a) =>
    `redis-cli set "swarm:\${SWARM_ID}:\${AGENT_ID}:${pick(r, ['done', 'confidence', 'result'])}" ${pick(r, ['1', '0.8', '"$TASK"'])} > /dev/null`,
  (r, a) =>
    `status=$(redis-cli get "swarm:\${SWARM_ID}:${pick(r, ['gate-passed', 'consensus-complete', 'product-owner:decision'])}")\nif [ "$status" = "${pick(r, ['1', 'PROCEED', 'true'])}" ]; then echo "${a.title}: gate passed"; fi`,
  (r, a) =>
    `if [ -f "${pick(r, FILES)}" ]; then\n  echo "${pick(r, EMOJI)} Found ${pick(r, FILES)}"\n  grep -c "${a.area}" ${pick(r, FILES)} || true\nfi`,
  (r, a) => `[ -d "${pick(r, DIRS)}" ] && echo "${a.area} ${pick(r, DIRS)} detected"`,
  (r, a) =>
    `if [[ "$TASK" == *"${a.area}"* ]] || [[ "$TASK" == *"${pick(r, AREAS)}"* ]]; then\n  echo "Activating ${pick(r, THINGS)} for ${a.title}"\nfi`,
  (r, a) =>
    `npx claude-flow-novice hooks ${pick(r, ['pre-task', 'post-task', 'post-edit', 'notify'])} --description "${a.title} ${pick(r, VERBS)}" --memory-key "${a.key}/${between(r, 1, 999)}"`,
  (r, a) =>
    `mcp__claude-flow__memory_usage store "${a.key}:lifecycle:\${AGENT_ID}:${pick(r, ['start', 'stop', 'pause'])}" "$(date): ${a.title} ${pick(r, VERBS)}" --namespace=${a.area}`,
  (r, a) => `find . -name "*.${pick(r, ['log', 'tmp', 'bak', 'cache'])}" -mtime +${between(r, 1, 30)} | head -${between(r, 5, 50)}`,
  (r, a) =>
    `for f in ${pick(r, DIRS)}/*.${pick(r, ['ts', 'js', 'py', 'go', 'rs'])}; do\n  [ -e "$f" ] || continue\n  echo "checking $f for ${a.area}"\ndone`,
  (r, a) => `mkdir -p ./.swarm/${a.key}/${pick(r, ['state', 'reports', 'cache'])}`,
  (r, a) => `# ${pick(r, ['Check', 'Record', 'Report', 'Assess'])} ${pick(r, THINGS)} for the ${a.area} ${a.role.toLowerCase()}`,
];

function script(random, agent, lines) {
  const out = [];
  for (let i = 0; i < lines; i++) out.push(pick(random, STATEMENTS)(random, agent));
  return out.join('\n').split('\n');
}

const block = (indent, name, lines) => `${indent}${name}: |\n${lines.map((l) => `${indent}  ${l}`).join('\n')}\n`;

function hooksFor(random, agent) {
  const out = [];
  const shape = random();
  if (shape < 0.55) {
    // The most common shape: pre and post, sometimes with task_complete and on_rerun_request.
    out.push(block('  ', 'pre', script(random, agent, between(random, 1, 5))));
    out.push(block('  ', 'post', script(random, agent, between(random, 1, 4))));
    if (random() < 0.2) out.push(block('  ', 'task_complete', script(random, agent, between(random, 1, 3))));
    if (random() < 0.2) out.push(block('  ', 'on_rerun_request', script(random, agent, between(random, 1, 3))));
  } else if (shape < 0.65) {
    for (const name of ['pre_execution', 'post_execution', 'on_error'])
      out.push(block('  ', name, script(random, agent, between(random, 1, 4))));
  } else if (shape < 0.75) {
    out.push(block('  ', 'pre_task', script(random, agent, between(random, 1, 3))));
    out.push(block('  ', 'post_task', script(random, agent, between(random, 1, 3))));
  } else if (shape < 0.85) {
    out.push(block('  ', 'on_blocking_start', script(random, agent, between(random, 2, 5))));
    out.push(block('  ', 'on_signal_received', script(random, agent, between(random, 2, 4))));
    out.push(block('  ', 'on_blocking_timeout', script(random, agent, between(random, 1, 3))));
  } else if (shape < 0.92) {
    out.push('  lifecycle:\n');
    for (const name of ['init', 'start', 'stop', 'cleanup'])
      if (random() < 0.8) out.push(block('    ', name, script(random, agent, between(random, 1, 3))));
  } else if (shape < 0.97) {
    // Hooks as lists of English sentences, not scripts.
    out.push(
      `  pre:\n    - "Initialize ${agent.area} ${pick(random, THINGS)}"\n    - "Analyze context for ${agent.title}"\n  post:\n    - "Generate ${agent.area} report"\n`,
    );
  }
  return out;
}

const BODY = (random, agent) => `
## Usage

\`\`\`bash
npx claude-flow-novice hooks pre-task --description "${agent.title} ${pick(random, VERBS)}"
\`\`\`

Keep hooks short: the runtime gives them five seconds. ${agent.title} focuses on ${pick(random, THINGS)}.
`;

export function generateProfile(random, index) {
  const area = pick(random, AREAS);
  const role = pick(random, ROLES);
  const agent = { area, role, title: `${area.toUpperCase()} ${role}`, key: `${area}-${role.toLowerCase()}-${index}` };
  const hooks = hooksFor(random, agent);
  const description = `${agent.title} agent ${index}; handles ${pick(random, THINGS)} for ${area} work`;
  let text = `---\nname: ${agent.key}\ndescription: ${description}\ntools: Read, Write, Bash\nmodel: ${pick(random, ['sonnet', 'opus', 'haiku'])}\ncolor: "#${Math.floor(
    random() * 0xffffff,
  )
    .toString(16)
    .padStart(6, '0')}"\npriority: ${pick(random, ['low', 'medium', 'high'])}\n`;
  if (hooks.length) text += `hooks:\n${hooks.join('')}`;
  text += `---\n\n# ${agent.title} ${index}\n\nYou are the ${agent.title}.\n${random() < 0.5 ? BODY(random, agent) : ''}`;
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
