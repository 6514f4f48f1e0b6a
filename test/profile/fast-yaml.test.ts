import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isMap, isScalar, isSeq, parseDocument } from 'yaml';
import { fastYaml } from '../../src/profile/fast-yaml.js';
import { MAX_ALIAS_COUNT, profileFromText } from '../../src/profile/profile.js';
import { seededRandom } from '../helpers/random.js';

const CORPUS = join(import.meta.dirname, '..', '..', '..', 'shared', 'corpus', 'claude-flow-novice');
const hasCorpus = existsSync(CORPUS);
if (!hasCorpus) console.warn('fast-yaml.test.ts: ../shared/corpus is absent; the corpus half of the differential test is skipped.');

/** Everything the linter reads from a node: kind, value, style, source text and range. */
function shape(node: unknown): unknown {
  if (isScalar(node)) return { scalar: node.value, type: node.type, source: node.source, range: node.range };
  if (isMap(node)) return { map: node.items.map((pair) => ({ key: shape(pair.key), value: shape(pair.value) })), range: node.range };
  if (isSeq(node)) return { seq: node.items.map(shape), range: node.range, flow: Boolean(node.flow) };
  return { other: String(node) };
}

function reference(text: string): { shape: unknown; data: unknown; clean: boolean } {
  const doc = parseDocument(text, { uniqueKeys: true, prettyErrors: false, strict: true });
  const clean = doc.errors.length === 0 && doc.warnings.length === 0;
  return { shape: shape(doc.contents), data: clean ? doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) : undefined, clean };
}

/** The fast path either declines or agrees with `yaml` on the tree, positions and data. */
function agrees(text: string): boolean {
  const fast = fastYaml(text);
  if (!fast) return false;
  const ref = reference(text);
  expect(ref.clean, text).toBe(true);
  expect(shape(fast.doc.contents), text).toEqual(ref.shape);
  expect(fast.data, text).toEqual(ref.data);
  expect(fast.doc.errors).toEqual([]);
  expect(fast.doc.warnings).toEqual([]);
  return true;
}

function corpusFrontmatters(): string[] {
  if (!hasCorpus) return [];
  return readdirSync(CORPUS, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.md'))
    .sort()
    .flatMap((f) => {
      const profile = profileFromText(f, readFileSync(join(CORPUS, f), 'utf8'));
      const fm = profile.frontmatter;
      return fm ? [profile.source.text.slice(fm.start, fm.end)] : [];
    });
}

const LINE_MUTATIONS: ((line: string, r: () => number) => string)[] = [
  (l) => `${l}   `,
  (l) => `${l} # a comment`,
  (l) => `${l}#not-a-comment`,
  (l) => l.replace(/^( *)/, '$1  '),
  (l) => l.replace(/^ {2}/, ''),
  (l) => l.replace(/^( *)/, '$1\t'),
  (l) => l.replace(/: /, ': &anchor '),
  (l) => l.replace(/: /, ': *anchor '),
  (l) => l.replace(/: /, ': !tag '),
  (l) => l.replace(/: .*/, ': [a, b]'),
  (l) => l.replace(/: .*/, ": [Read, Write, \"Edit x\", 'it''s', mcp__s__t, Bash(git:*)]"),
  (l) => l.replace(/: .*/, ': [ a ,b ,  ]   # c'),
  (l) => l.replace(/: .*/, ': []'),
  (l) => l.replace(/: .*/, ': [1, true, null, ~, -3, 0.5]'),
  (l) => l.replace(/: .*/, ': [a, [b], {c: d}, *x, &y z]'),
  (l) => l.replace(/: .*/, ': [a b, c]#d'),
  (l) => l.replace(/: .*/, ': [a,\n  b]'),
  (l) => l.replace(/: .*/, ': {a: 1}'),
  (l) => l.replace(/: .*/, ': 0.5'),
  (l) => l.replace(/: .*/, ': 0x1F'),
  (l) => l.replace(/: .*/, ': 42'),
  (l) => l.replace(/: .*/, ': -7'),
  (l) => l.replace(/: .*/, ': ~'),
  (l) => l.replace(/: .*/, ': yes'),
  (l) => l.replace(/: .*/, ': TRUE'),
  (l) => l.replace(/: .*/, ': "é \\u00e9 \\x41 \\t \\" 🚀"'),
  (l) => l.replace(/: .*/, ": 'it''s 🚀'"),
  (l) => l.replace(/: .*/, ': "unclosed'),
  (l) => l.replace(/: .*/, ': a: b'),
  (l) => l.replace(/: .*/, ': |+'),
  (l) => l.replace(/: .*/, ': |2'),
  (l) => l.replace(/: .*/, ': >-'),
  (l) => l.replace(/: .*/, ':'),
  (l) => l.replace(/^( *)- /, '$1-   '),
  (l) => l.replace(/^( *)- .*/, '$1- "quoted item" # c'),
  (l) => l.replace(/^( *)- .*/, '$1- key: value'),
  (l) => l.replace(/^( *)- .*/, '$1- key: value\n$1  k2: [a, "b"]  # c\n$1  k3:\n$1    - x'),
  (l) => l.replace(/^( *)- .*/, '$1-   key: |\n$1      text\n$1    k2: 1'),
  (l) => l.replace(/^( *)([a-z_]+):/, '$1"$2":'),
  (l) => l.replace(/^( *)([a-z_]+):/, '$1$2 :'),
  (l) => l.replace(/^( *)([a-z_]+):/, '$1name:'),
  (l) => l.replace(/^( *)([a-z_]+):/, '$1__proto__:'),
  (l) => l.replace(/^( *)([a-z_]+):/, '$1true:'),
  (l) => `${l}\n`,
  (l) => `${l}\n  `,
  (l) => `${l}\n    `,
  (l) => `${l}\n# comment`,
  (l) => `${l}\n      # deep comment`,
  (l) => `\uFEFF${l}`,
  (l) => `${l}\r`,
  (l, r) => l.slice(0, Math.floor(r() * l.length)),
  (l) => l.replace(/ /, '😀 '),
];

function mutate(text: string, r: () => number): string {
  const lines = text.split('\n');
  const count = 1 + Math.floor(r() * 3);
  for (let k = 0; k < count; k++) {
    const at = Math.floor(r() * lines.length);
    const mutation = LINE_MUTATIONS[Math.floor(r() * LINE_MUTATIONS.length)]!;
    lines[at] = mutation(lines[at]!, r);
  }
  return lines.join('\n');
}

const SHAPES = [
  'a: b\n',
  "a: b # c\nn: 12\nk:\n  - x\n  - \"y\"\ns: |\n  l1\n  l2\n\nt: >-\n  f\n  g\nq: 'it''s'\ne:\nz: true\n",
  'hooks:\n  pre: |\n    echo "start"\n\n    npx claude-flow hooks pre-task\n\n\n  post: |-\n    echo done\n# trailing\n',
  'a:\n  b:\n    c: d\n    # inside\n  e: f\n\ng: h\n',
  'a: |\n\n  leading blank\n  x\nb: >\n  one\n  two\n\n  three\n\n\nc: x\n',
  'list:\n- a\n- b\n',
  'a:\n  - x\n\n  # c\n  - y\nb: 1\n',
  'a: b\r\nc: |\r\n  x\r\n  y\r\nd:\r\n  - e\r\n',
  'emoji: 🚀 launch 🚀\nk: "🚀"\n',
  'a: &x 1\nb: *x\n',
  'a: b\na: c\n',
  '  a: b\n',
  'a: b\n  c\n',
  'a:\n    b: c\n  d: e\n',
  'a: |\n  x\n   more\n  y\n',
  'a: >\n  x\n   more\n  y\n',
  'a: |-\n  x\n\nb: c\n',
  'a: 007\nb: -0\nc: 1e3\nd: .inf\n',
  'a: "x\\ty\\\\z\\"w\\/"\n',
  'a: "\\ud800"\n',
  'a: b:c\nd: e\n',
  'tools: [Read, Write, "Edit x", \'y\']\nmodel: x\n',
  'tools: [Read, Write]  # c\nmodel: x\n',
  'model: x\ntools: [a]  # c\n',
  'a:\n  tools: [ "x" , y ]   \n  b: 1\n',
  'tools: []\nt2: [ ]\nt3: [a,]\nt4: [1, true, null, ~, -2]\n',
  'tools: [a]\n\n# c\nx: 1\n',
  'tools: [a]\r\nx: [b]  # c\r\n',
  'tools: [a, b]',
  'examples:\n  - trigger: "a"\n    response: "b"\n  - trigger: c\n    n: 1\nnext: x\n',
  'l:\n- a: 1\n  b: 2\n- c\n',
  'l:\n  -   a: 1\n      b: [x]  # c\n  - d\n',
  'l:\n  - a: 1\n   b: 2\n',
  'l:\n  - a: 1\n     b: 2\n',
  'l:\n  - a:\n      - x\n    b: |\n      t\n\n  - c: d\n',
  'l:\n  - a: 1\n    # c\n    b: 2\n',
  'l:\n  - a: 1\n    a: 2\n',
  'l:\n  - a: b: c\n',
];

describe('frontmatter fast path', () => {
  it('agrees with yaml on hand-written shapes, or declines', () => {
    let accepted = 0;
    for (const text of SHAPES) if (agrees(text)) accepted++;
    expect(accepted).toBeGreaterThan(8);
  });

  it('declines what it does not read: anchors, flow maps and nested or multi-line flow sequences, tabs, a BOM, duplicate keys, floats', () => {
    for (const text of [
      'a: &x 1\nb: *x\n',
      'a: [1.5, 2]\n',
      'a: [a, [b]]\n',
      'a: [*x]\n',
      'a: [a b]\n',
      'a: [a,\n  b]\n',
      'a:\n  - [a, b]\n',
      'a: {b: 1}\n',
      'a:\n\t- b\n',
      '\uFEFFa: b\n',
      'a: b\na: c\n',
      'a: 0.5\n',
      'a: !!str 1\n',
    ])
      expect(fastYaml(text), text).toBeUndefined();
  });

  it.skipIf(!hasCorpus)('agrees with yaml on every corpus frontmatter it reads, and reads most of them', () => {
    const texts = corpusFrontmatters();
    expect(texts.length).toBeGreaterThan(130);
    const accepted = texts.filter(agrees).length;
    // All but the few yaml reports an error in (plain scalars holding `: `) or shapes it leaves to yaml.
    expect(accepted).toBeGreaterThanOrEqual(Math.floor(texts.length * 0.95));
  });

  it.skipIf(!hasCorpus)('agrees with yaml on mutated corpus frontmatters (CRLF, BOM, emoji, tabs, comments, anchors, …)', () => {
    const texts = corpusFrontmatters();
    const r = seededRandom(18);
    // FAST_YAML_ROUNDS=300 runs 40,000 variants (about 35 s); the default keeps the suite quick.
    let accepted = 0;
    let tried = 0;
    for (let round = 0; round < Number(process.env.FAST_YAML_ROUNDS ?? 12); round++) {
      for (const text of texts) {
        let variant = mutate(text, r);
        if (r() < 0.3) variant = variant.replace(/\r?\n/g, '\r\n');
        tried++;
        if (agrees(variant)) accepted++;
      }
    }
    // Both halves are exercised: many variants are read, many declined.
    expect(accepted).toBeGreaterThan(tried / 10);
    expect(accepted).toBeLessThan(tried);
  });
});
