// The language server lints a buffer again at each pause in the typing, reusing what the last run found
// on hooks the edit left alone (their trees, parsed incrementally when they changed, and their script
// rules' findings, moved to where the hook now stands). That reuse must never show: after any sequence
// of edits, a run with the session gives exactly what a fresh lint of the same text gives, positions,
// fixes and related information included.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rules } from '../rules/index.js';
import { defaultConfig, type LintConfig } from '../src/engine/config.js';
import { lintInputs } from '../src/engine/lint.js';
import { LintSession } from '../src/engine/session.js';
import { nodeMemoStats } from '../src/shell/node-memo.js';
import { CORPUS, corpusMissing } from './hardening/helpers.js';
import { seededRandom } from './helpers/random.js';

const ROOT = join(import.meta.dirname, '..');
const SEED = Number(process.env.INCREMENTAL_SEED ?? 18);

/** What typing in a hook brings: words, quotes, expansions, line breaks, comments, directives, astral text. */
const SNIPPETS = [
  'x',
  ' ',
  '\n',
  '\n    ',
  '\n    echo "$TASK"',
  '"',
  "'",
  '$',
  '${',
  '}',
  '$(',
  ')',
  '#',
  '\n    # validate-agent-hooks-disable-next-line injection-unquoted-var',
  ' rm -rf /tmp/x',
  ' && echo $AGENT_ID',
  ' | ',
  ': ',
  '\\',
  '\t',
  'é',
  '🎉',
  ' eval "$CMD"',
  '\n    redis-cli set "swarm:$SWARM_ID" 1',
  ' /sqlite-memory store --key k --level agent --data x',
  '${#N:-0}',
  '\n  post: |\n    echo done\n',
];

/** Mostly inside the frontmatter, where the hooks are; sometimes anywhere. */
function editPoint(text: string, random: () => number): number {
  const end = text.startsWith('---') ? text.indexOf('\n---', 3) : -1;
  const limit = end > 0 && random() < 0.8 ? end : text.length;
  return Math.floor(random() * (limit + 1));
}

function edit(text: string, previous: string, random: () => number): string {
  const roll = random();
  const at = editPoint(text, random);
  const snippet = SNIPPETS[Math.floor(random() * SNIPPETS.length)]!;
  if (roll < 0.08) return previous; // undo
  if (roll < 0.12) return text; // saved, or linted again without a change
  if (roll < 0.55) return text.slice(0, at) + snippet + text.slice(at);
  const length = 1 + Math.floor(random() * 8);
  if (roll < 0.85) return text.slice(0, at) + text.slice(at + length);
  return text.slice(0, at) + snippet + text.slice(at + length);
}

/** Characters that change what a word or command is without moving anything after them. */
const SAME_LENGTH = ['x', 'A', '$', '"', "'", '-', ' ', '{', '}', '(', ')', ':', '=', '|', ';', '&', '\\', '#', '\n'];

/**
 * An edit that keeps the length: nodes around it keep their offsets, so an
 * answer kept by place for a node the edit changed would be found again.
 */
function sameLengthEdit(text: string, _previous: string, random: () => number): string {
  const at = editPoint(text, random);
  const length = 1 + Math.floor(random() * 3);
  let replacement = '';
  for (let i = 0; i < length && at + i < text.length; i++) replacement += SAME_LENGTH[Math.floor(random() * SAME_LENGTH.length)]!;
  return text.slice(0, at) + replacement + text.slice(at + replacement.length);
}

/**
 * Duplicates or deletes a whole line: everything after moves by exactly a
 * line's length, so in a hook of lines of one length an answer kept for a
 * node but looked up at its old offsets would be found for another node.
 */
function lineEdit(text: string, _previous: string, random: () => number): string {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1 && i + 1 < text.length; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  const end = text.startsWith('---') ? text.indexOf('\n---', 3) : text.length;
  const inside = starts.filter((start) => start <= end);
  const line = inside[Math.floor(random() * inside.length)]!;
  const next = text.indexOf('\n', line);
  const lineEnd = next === -1 ? text.length : next + 1;
  if (random() < 0.3) return text.slice(0, line) + text.slice(lineEnd);
  const at = inside[Math.floor(random() * inside.length)]!;
  return text.slice(0, at) + text.slice(line, lineEnd) + text.slice(at);
}

function filesUnder(dir: string, keep: (path: string) => boolean): string[] {
  return readdirSync(dir, { recursive: true })
    .map((f) => join(dir, String(f)))
    .filter(keep)
    .sort();
}

const isDocument = (path: string): boolean => /\.(md|json)$/.test(path) && !/SOURCES\.md$/.test(path);

async function lint(filePath: string, text: string, config: LintConfig, session?: LintSession) {
  const [result] = await lintInputs([{ filePath, text }], { rules, config, ...(session ? { session } : {}) });
  return result!.diagnostics;
}

/** Runs `steps` random edits on each file; returns the sessions' statistics summed. */
async function differential(files: readonly string[], steps: number, seed: number, change = edit) {
  const total = { keptTrees: 0, incrementalParses: 0, keptReports: 0, runs: 0 };
  const random = seededRandom(seed);
  for (const file of files) {
    const config = defaultConfig();
    const session = new LintSession();
    let text = readFileSync(file, 'utf8');
    let previous = text;
    try {
      for (let step = 0; step <= steps; step++) {
        if (step > 0) [previous, text] = [text, change(text, previous, random)];
        const incremental = await lint(file, text, config, session);
        const full = await lint(file, text, config);
        total.runs++;
        expect(
          incremental,
          `${relative(ROOT, file)}, edit ${step} (INCREMENTAL_SEED=${seed}): ${JSON.stringify(text.slice(0, 400))}`,
        ).toEqual(full);
      }
    } finally {
      session.dispose();
      for (const key of ['keptTrees', 'incrementalParses', 'keptReports'] as const) total[key] += session.stats[key];
    }
  }
  return total;
}

describe('language server: incremental lint ≡ full lint', () => {
  it('after random edits of the repository fixtures', async () => {
    const files = filesUnder(join(ROOT, 'fixtures'), isDocument);
    expect(files.length).toBeGreaterThan(50);
    const stats = await differential(files, 10, SEED);
    // The reuse under test did happen: kept trees, incremental parses and kept findings.
    expect(stats.keptTrees).toBeGreaterThan(100);
    expect(stats.incrementalParses).toBeGreaterThan(100);
    expect(stats.keptReports).toBeGreaterThan(1000);
  }, 300_000);

  it.each([
    { what: 'edits that keep the text length', edits: 10, seed: SEED + 2, edit: sameLengthEdit, reused: 1000 },
    { what: 'lines duplicated and deleted', edits: 8, seed: SEED + 3, edit: lineEdit, reused: 200 },
  ])(
    'after $what, on the fixtures',
    async ({ edits, seed, edit, reused }) => {
      const files = filesUnder(join(ROOT, 'fixtures'), isDocument);
      const reusedBefore = nodeMemoStats.reused;
      const stats = await differential(files, edits, seed, edit);
      expect(stats.incrementalParses).toBeGreaterThan(100);
      // Answers about the nodes of an edited hook were kept from its last run (src/shell/node-memo.ts).
      expect(nodeMemoStats.reused - reusedBefore).toBeGreaterThan(reused);
    },
    300_000,
  );

  it('after a line as long as each of the lines below it is inserted above them', async () => {
    // Each command below moves onto the offsets of the one after it: a kept answer must follow its own node.
    const hook = ['echo one', 'rm -rf /', 'echo two', 'rm -rf ~', 'echo end'];
    const before = `---\nname: shift\nhooks:\n  on_blocking_start: |\n${hook.map((l) => `    ${l}\n`).join('')}---\n`;
    const after = before.replace('    echo one', '    echo new\n    echo one');
    const filePath = join(ROOT, 'fixtures', 'shift.md');
    const config = defaultConfig();
    const session = new LintSession();
    const reusedBefore = nodeMemoStats.reused;
    try {
      expect(await lint(filePath, before, config, session)).toEqual(await lint(filePath, before, config));
      const incremental = await lint(filePath, after, config, session);
      expect(incremental).toEqual(await lint(filePath, after, config));
      expect(incremental.filter((d) => d.ruleId === 'command-rm-rf').map((d) => d.line)).toEqual([7, 9]);
      expect(nodeMemoStats.reused).toBeGreaterThan(reusedBefore);
    } finally {
      session.dispose();
    }
  });

  it("an edit of one line of a long hook finds again the nodes of few of its kept commands' words", async () => {
    // Finding a kept command's word nodes again walks its subtree; a rule that asks for the node of every
    // word (where the word's text answers first) makes each keystroke redo that for the whole hook.
    const lines: string[] = [];
    for (let i = 0; i < 50; i++)
      lines.push(
        `echo "step ${i} for \${AGENT_ID}"`,
        `/sqlite-memory store --key "agent:\${AGENT_ID}:step${i}" --level agent --data '{"n":${i}}'`,
        `redis-cli set "swarm:\${SWARM_ID}:\${AGENT_ID}:s${i}" ${i} > /dev/null`,
        `bash -c "echo $TASK" || printf '%s\\n' "$PHASE"`,
      );
    const before = `---\nname: long\nhooks:\n  on_blocking_start: |\n${lines.map((l) => `    ${l}\n`).join('')}---\n`;
    const after = before.replace('step 2 for', 'step 2x for');
    const filePath = join(ROOT, 'fixtures', 'long.md');
    const config = defaultConfig();
    const session = new LintSession();
    try {
      await lint(filePath, before, config, session);
      const refoundBefore = nodeMemoStats.refound;
      const reusedBefore = nodeMemoStats.reused;
      expect(await lint(filePath, after, config, session)).toEqual(await lint(filePath, after, config));
      expect(nodeMemoStats.reused - reusedBefore).toBeGreaterThan(200);
      // The `bash -c` lines' commands are read for the scripts they run (50); the rest of the 250 are not.
      expect(nodeMemoStats.refound - refoundBefore).toBeLessThanOrEqual(60);
    } finally {
      session.dispose();
    }
  });

  it('after random edits of the real corpus', async (context) => {
    if (corpusMissing) {
      console.log(`lsp-incremental: corpus part skipped: ${corpusMissing}`);
      context.skip();
    }
    const files = filesUnder(CORPUS, isDocument);
    const stats = await differential(files, 5, SEED + 1);
    expect(stats.incrementalParses).toBeGreaterThan(50);
    expect(stats.keptReports).toBeGreaterThan(1000);
  }, 300_000);
});
