import { Document, Pair, Scalar, YAMLMap, YAMLSeq, type Node as YamlNode } from 'yaml';
import { doubleQuoted, fold, resolvePlain, scalar, singleQuoted, Unsupported, unsupported } from './yaml-scalars.js';

/**
 * A reader for the frontmatter shapes profiles are written in: a block map
 * at the margin whose values are one-line plain or quoted scalars, `|`, `|-`,
 * `>` and `>-` block scalars, nested block maps and sequences of one-line
 * scalars, one-line flow sequences of words and quoted strings (`tools: [Read,
 * Write]`), with comment and blank lines between entries. It builds the same
 * nodes, ranges and data that `yaml`'s composer would, because the rules read
 * positions from them. Anything else (flow maps, nested or multi-line flow
 * sequences, anchors, tags,
 * multi-line flow scalars, tabs, numbers other than plain integers, duplicate
 * keys, any shape `yaml` would warn about) makes it give up, and the caller
 * parses with `yaml`: giving up is always correct, guessing never is.
 * test/profile/fast-yaml.test.ts holds it equal to `yaml` on the corpus and on
 * generated variants.
 *
 * Why: `yaml` with positions is about a fifth of a cold corpus lint; this
 * subset is read in one pass over the lines.
 */

interface Line {
  start: number;
  /** Leading spaces. */
  indent: number;
  /** The line after its indentation, without `\r`. */
  content: string;
  /** Offset after the line's newline. */
  next: number;
  /** Blank or a comment only. */
  insignificant: boolean;
}

export interface FastYaml {
  doc: Document.Parsed;
  data: unknown;
}

const KEY = /^([A-Za-z_][A-Za-z0-9_./-]*):( +|$)/;
/** A plain item of a flow sequence this reader takes: a word, never a flow indicator, `:` or `#`. */
const FLOW_WORD = /^[A-Za-z0-9_][A-Za-z0-9_./@()*+-]*/;
const DOC_OPTIONS = { uniqueKeys: true, prettyErrors: false, strict: true } as const;

/**
 * `maxDepth`: a document nesting its collections deeper is left to the
 * caller's depth guard and `yaml` (so a document read here needs no guard).
 */
export function fastYaml(text: string, maxDepth = Number.POSITIVE_INFINITY): FastYaml | undefined {
  // A BOM, a tab or a bare carriage return anywhere is left to `yaml`.
  if (/[\t\uFEFF]|\r(?!\n)/.test(text)) return undefined;
  try {
    return new Reader(text, maxDepth).read();
  } catch (error) {
    if (error instanceof Unsupported) return undefined;
    throw error;
  }
}

class Reader {
  private readonly lines: Line[] = [];
  private readonly doc: Document.Parsed;

  constructor(
    private readonly text: string,
    private readonly maxDepth: number,
  ) {
    let start = 0;
    while (start < text.length) {
      let end = text.indexOf('\n', start);
      const next = end === -1 ? text.length : end + 1;
      if (end === -1) end = text.length;
      if (end > start && text.charCodeAt(end - 1) === 13) end--;
      let indent = start;
      while (indent < end && text.charCodeAt(indent) === 32) indent++;
      const content = text.slice(indent, end);
      this.lines.push({ start, indent: indent - start, content, next, insignificant: content === '' || content[0] === '#' });
      start = next;
    }
    this.doc = new Document(null, DOC_OPTIONS) as unknown as Document.Parsed;
  }

  read(): FastYaml {
    const first = this.significant(0);
    if (first === this.lines.length || this.lines[first]!.indent !== 0) unsupported();
    const { node, data, next } = this.map(first, 0, 1);
    if (this.significant(next) !== this.lines.length) unsupported();
    this.doc.contents = node as unknown as YAMLMap.Parsed;
    this.doc.range = [0, this.text.length, this.text.length];
    return { doc: this.doc, data };
  }

  /**
   * The next line that is not blank or a comment. An indented comment line
   * stretches the end of the node before it in ways that depend on the
   * nesting (see the test), so the reader leaves those documents to `yaml`.
   */
  private significant(from: number): number {
    let i = from;
    for (; i < this.lines.length; i++) {
      const line = this.lines[i]!;
      if (!line.insignificant) break;
      if (line.content !== '' && line.indent > 0) unsupported();
    }
    return i;
  }

  private map(from: number, indent: number, depth: number): { node: YAMLMap; data: Record<string, unknown>; next: number } {
    if (depth > this.maxDepth) unsupported();
    const node = new YAMLMap(this.doc.schema);
    const data: Record<string, unknown> = {};
    const seen = new Set<string>();
    let i = from;
    let end = 0;
    for (;;) {
      i = this.significant(i);
      const line = this.lines[i];
      if (!line || line.indent < indent) break;
      if (line.indent > indent) unsupported();
      const match = KEY.exec(line.content);
      if (!match) unsupported();
      const name = match[1]!;
      if (seen.has(name) || name === '__proto__' || typeof resolvePlain(name) !== 'string') unsupported();
      seen.add(name);
      const keyStart = line.start + indent;
      const key = scalar(name, name, Scalar.PLAIN, keyStart, keyStart + name.length, keyStart + name.length);
      const rest = line.content.slice(match[0].length);
      const valueStart = keyStart + match[0].length;
      let value: YamlNode;
      let valueData: unknown;
      if (rest === '') {
        const j = this.significant(i + 1);
        const below = this.lines[j];
        if (below && below.indent > indent) {
          const inner =
            below.content === '-' || below.content.startsWith('- ')
              ? this.seq(j, below.indent, depth + 1)
              : this.map(j, below.indent, depth + 1);
          value = inner.node;
          valueData = inner.data;
          i = inner.next;
          end = inner.node.range![2];
        } else {
          if (below && below.indent === indent && below.content.startsWith('-')) unsupported();
          // Comment lines after an empty value stretch its end in yaml.
          for (let k = i + 1; k < j; k++) if (this.lines[k]!.content !== '') unsupported();
          // yaml puts an empty value after the spaces that follow the colon, and ends it there.
          const at = line.start + line.indent + line.content.length;
          value = scalar(null, '', Scalar.PLAIN, at, at, at);
          valueData = null;
          i++;
          end = at;
        }
      } else if (rest[0] === '|' || rest[0] === '>') {
        const block = this.blockScalar(i, indent, valueStart, rest);
        value = block.node;
        valueData = block.node.value;
        i = block.next;
        end = block.node.range![2];
      } else if (rest[0] === '[') {
        const flow = this.flowSeq(line, valueStart, rest);
        value = flow.node;
        valueData = flow.data;
        i++;
        end = flow.node.range![2];
        this.nothingMoreIndented(i, indent);
      } else {
        value = this.flowScalar(line, valueStart, rest);
        valueData = value.value;
        i++;
        end = line.next;
        this.nothingMoreIndented(i, indent);
      }
      node.items.push(new Pair(key, value));
      data[name] = valueData;
    }
    if (node.items.length === 0) unsupported();
    const first = node.items[0]!.key as Scalar;
    node.range = [first.range![0], end, end];
    return { node, data, next: i };
  }

  private seq(from: number, indent: number, depth: number): { node: YAMLSeq; data: unknown[]; next: number } {
    if (depth > this.maxDepth) unsupported();
    const node = new YAMLSeq(this.doc.schema);
    const data: unknown[] = [];
    let i = from;
    let end = 0;
    for (;;) {
      i = this.significant(i);
      const line = this.lines[i];
      if (!line || line.indent < indent) break;
      if (line.indent > indent || !line.content.startsWith('- ')) unsupported();
      let skip = 2;
      while (line.content[skip] === ' ') skip++;
      const rest = line.content.slice(skip);
      if (rest === '' || rest[0] === '|' || rest[0] === '>') unsupported();
      if (KEY.test(rest)) {
        // `- key: value` and the keys below it at the same column: a block map as the item.
        this.lines[i] = { ...line, indent: indent + skip, content: rest };
        const inner = this.map(i, indent + skip, depth + 1);
        node.items.push(inner.node);
        data.push(inner.data);
        i = inner.next;
        end = inner.node.range![2];
        continue;
      }
      const item = this.flowScalar(line, line.start + indent + skip, rest);
      node.items.push(item);
      data.push(item.value);
      i++;
      end = line.next;
      this.nothingMoreIndented(i, indent);
    }
    node.range = [this.lines[from]!.start + indent, end, end];
    return { node, data, next: i };
  }

  /** A one-line scalar is not continued on a more indented line (that would be a multi-line plain scalar). */
  private nothingMoreIndented(from: number, indent: number): void {
    const below = this.lines[this.significant(from)];
    if (below && below.indent > indent) unsupported();
  }

  /** A one-line plain or quoted scalar, optionally followed by a comment. */
  private flowScalar(line: Line, start: number, rest: string): Scalar {
    const quote = rest[0];
    if (quote === '"' || quote === "'") {
      const { value, length } = quote === '"' ? doubleQuoted(rest) : singleQuoted(rest);
      const after = rest.slice(length);
      if (after !== '' && !/^ +(?:#.*)?$/.test(after)) unsupported();
      return scalar(value, value, quote === '"' ? Scalar.QUOTE_DOUBLE : Scalar.QUOTE_SINGLE, start, start + length, line.next);
    }
    if ('[]{}&*!|>%@`#,?:-'.includes(quote!)) unsupported();
    const hash = rest.indexOf(' #');
    let raw = hash === -1 ? rest : rest.slice(0, hash);
    raw = raw.trimEnd();
    if (raw.includes(': ') || raw.endsWith(':')) unsupported();
    const value = resolvePlain(raw);
    return scalar(value, raw, Scalar.PLAIN, start, start + raw.length, line.next);
  }

  /**
   * A one-line flow sequence of words and quoted strings (`tools: [Read, Write, "Bash"]`), optionally
   * followed by a comment. An item ends after the spaces that follow it, the sequence after its line.
   */
  private flowSeq(line: Line, start: number, rest: string): { node: YAMLSeq; data: unknown[] } {
    const node = new YAMLSeq(this.doc.schema);
    node.flow = true;
    const data: unknown[] = [];
    let k = 1;
    const spaces = (): void => {
      while (rest[k] === ' ') k++;
    };
    spaces();
    while (rest[k] !== ']') {
      const itemStart = k;
      let item: Scalar;
      const quote = rest[k];
      if (quote === '"' || quote === "'") {
        const { value, length } = quote === '"' ? doubleQuoted(rest.slice(k)) : singleQuoted(rest.slice(k));
        k += length;
        item = scalar(value, value, quote === '"' ? Scalar.QUOTE_DOUBLE : Scalar.QUOTE_SINGLE, start + itemStart, start + k, 0);
      } else {
        const word = FLOW_WORD.exec(rest.slice(k))?.[0] ?? unsupported();
        k += word.length;
        item = scalar(resolvePlain(word), word, Scalar.PLAIN, start + itemStart, start + k, 0);
      }
      spaces();
      item.range![2] = start + k;
      node.items.push(item);
      data.push(item.value);
      if (rest[k] === ',') {
        k++;
        spaces();
      } else if (rest[k] !== ']') {
        unsupported();
      }
    }
    k++;
    const after = rest.slice(k);
    if (after !== '' && !/^ +#/.test(after)) unsupported();
    node.range = [start, start + k, line.next];
    return { node, data };
  }

  /** `|`, `|-`, `>` or `>-` whose lines all sit at one indentation past the parent's. */
  private blockScalar(at: number, parentIndent: number, start: number, header: string): { node: Scalar; next: number } {
    if (!/^[|>]-?$/.test(header)) unsupported();
    const folded = header[0] === '>';
    const strip = header.length === 2;
    let contentIndent = -1;
    const texts: string[] = [];
    let i = at + 1;
    let lastContent = -1;
    for (; i < this.lines.length; i++) {
      const line = this.lines[i]!;
      if (line.content === '') {
        // A whitespace-only line longer than the indentation keeps spaces yaml may or may not count.
        if (contentIndent !== -1 && line.indent > contentIndent) unsupported();
        if (contentIndent === -1 && line.indent > parentIndent + 1) unsupported();
        texts.push('');
        continue;
      }
      if (contentIndent === -1) {
        if (line.indent <= parentIndent) break;
        contentIndent = line.indent;
      } else if (line.indent < contentIndent) {
        break;
      }
      const text = ' '.repeat(line.indent - contentIndent) + line.content;
      if (folded && text[0] === ' ') unsupported();
      texts.push(text);
      lastContent = i;
    }
    if (lastContent === -1) unsupported();
    const kept = texts.slice(0, lastContent - at);
    if (kept[0] === '' && folded) unsupported();
    let value = folded ? fold(kept) : kept.join('\n');
    if (!strip) value += '\n';
    const end = this.lines[lastContent]!.next;
    return { node: scalar(value, value, folded ? Scalar.BLOCK_FOLDED : Scalar.BLOCK_LITERAL, start, end, end), next: lastContent + 1 };
  }
}
