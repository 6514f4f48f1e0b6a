import { readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { LineCounter, parseDocument } from 'yaml';
import { defaultConfig, type LintConfig } from '../engine/config.js';
import { nodeAtPath } from '../profile/profile.js';
import { validate } from '../schema/generated/config-validator.js';
import { closestMatch } from '../text/suggest.js';

export const CONFIG_NAMES = ['.validate-agent-hooks.yaml', '.validate-agent-hooks.yml', '.validate-agent-hooks.json'] as const;

export class ConfigError extends Error {}

interface ConfigFile {
  root?: boolean;
  rules?: LintConfig['rules'];
  ignorePatterns?: string[];
  forbiddenCommands?: LintConfig['forbiddenCommands'];
  allowedCommands?: string[];
  inlineConfig?: boolean;
  reportUnusedDisableDirectives?: boolean;
  shellcheck?: { enabled?: boolean; info?: 'warn' | 'off' };
}

/** One config file and what it says. */
export interface ConfigSource {
  path: string;
  data: ConfigFile;
}

export interface LoadedConfig {
  config: LintConfig;
  /** The files it came from, nearest last. */
  sources: string[];
  shellcheckEnabled: boolean;
}

/**
 * Finds and merges the configuration of a file: every config file from the
 * file's directory up to the root of the file system (or one that says
 * `root: true`), nearer files overriding farther ones, rule by rule.
 */
export class ConfigResolver {
  /** The config files that govern each directory, farthest first (built from the parent's, so each directory is looked at once). */
  private readonly chains = new Map<string, ConfigSource[]>();
  /** One merged configuration per distinct chain: directories that share their files share the object, so they lint as one group. */
  private readonly merged = new Map<string, LoadedConfig>();
  /** The file `--config` names, read once. */
  private explicit: ConfigSource[] | undefined;

  /**
   * `ruleIds`: the rules there are; a configuration that names another (a
   * typo, `SC2086` for `shellcheck/SC2086`) is refused, as ESLint refuses a
   * rule it has no definition for, rather than silently doing nothing.
   */
  constructor(
    private readonly explicitPath?: string,
    private readonly ruleIds?: ReadonlySet<string>,
  ) {}

  forFile(file: string): LoadedConfig {
    const chain = this.explicitPath ? this.explicitChain() : this.chainFor(dirname(resolve(file)));
    const key = chain.map((c) => c.path).join('\0');
    let value = this.merged.get(key);
    if (!value) {
      value = merge(chain);
      this.merged.set(key, value);
    }
    return value;
  }

  private explicitChain(): ConfigSource[] {
    this.explicit ??= [readConfigFile(this.explicitPath!, this.ruleIds)];
    return this.explicit;
  }

  private chainFor(dir: string): ConfigSource[] {
    let chain = this.chains.get(dir);
    if (chain) return chain;
    const found = CONFIG_NAMES.map((name) => join(dir, name)).find(isFile);
    const own = found ? readConfigFile(found, this.ruleIds) : undefined;
    const parent = dirname(dir);
    const inherited = own?.data.root || parent === dir ? [] : this.chainFor(parent);
    chain = own ? [...inherited, own] : inherited;
    this.chains.set(dir, chain);
    return chain;
  }
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** Reads one config file; any problem is a ConfigError naming the file, line and column. */
export function readConfigFile(path: string, ruleIds?: ReadonlySet<string>): ConfigSource {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(`Cannot read configuration ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const at = (offset: number): string => {
    const { line, col } = lineCounter.linePos(offset);
    return `${path}:${line}:${col}`;
  };
  const firstError = doc.errors[0];
  if (firstError) throw new ConfigError(`${at(firstError.pos[0])}: Invalid configuration: ${firstError.message.split('\n')[0]!}`);
  const data = (doc.toJS({ maxAliasCount: 50 }) ?? {}) as unknown;
  if (!validate(data)) {
    const first = validate.errors![0]!;
    // A value outside a list of choices: the deepest such complaint under the first one names the choices
    // (for `rule: [eror, {…}]` that is the array's first item, not the array).
    const error =
      validate
        .errors!.filter((e) => e.keyword === 'enum' && e.instancePath.startsWith(first.instancePath))
        .sort((a, b) => b.instancePath.length - a.instancePath.length)[0] ?? first;
    const segments = error.instancePath.split('/').slice(1);
    const { node, pair } = nodeAtPath(doc.contents, segments);
    const where =
      error.keyword === 'additionalProperties'
        ? nodeAtPath(doc.contents, [...segments, String(error.params.additionalProperty)]).pair?.key
        : (node ?? pair?.key);
    const offset = (where as { range?: [number, number] } | undefined)?.range?.[0] ?? 0;
    throw new ConfigError(`${at(offset)}: Invalid configuration: ${schemaErrorDetail(error, segments, data)}`);
  }
  const config = data as ConfigFile;
  for (const id of Object.keys(config.rules ?? {})) {
    if (!ruleIds || ruleIds.has(id) || /^shellcheck\/(?:SC\d+|timeout)$/.test(id)) continue;
    const key = nodeAtPath(doc.contents, ['rules', id]).pair?.key as { range?: [number, number] } | undefined;
    throw new ConfigError(`${at(key?.range?.[0] ?? 0)}: Invalid configuration: unknown rule \`${id}\`${ruleHint(id, ruleIds)}`);
  }
  for (const [index, pattern] of (config.forbiddenCommands ?? []).entries()) {
    if (pattern.argument === undefined) continue;
    try {
      new RegExp(pattern.argument);
    } catch (error) {
      const { node } = nodeAtPath(doc.contents, ['forbiddenCommands', String(index), 'argument']);
      throw new ConfigError(`${at(node?.range?.[0] ?? 0)}: Invalid configuration: ${(error as Error).message}`);
    }
  }
  return { path, data: config };
}

/** How an unknown rule id was probably meant. */
function ruleHint(id: string, ruleIds: ReadonlySet<string>): string {
  if (/^SC\d+$/i.test(id)) return ` (ShellCheck's codes are written \`shellcheck/${id.toUpperCase()}\`)`;
  const near = closestMatch(id, [...ruleIds]);
  return near ? `. Did you mean \`${near}\`?` : '';
}

function merge(chain: ConfigSource[]): LoadedConfig {
  const config = defaultConfig();
  let shellcheckEnabled = true;
  for (const { path, data } of chain) {
    Object.assign(config.rules, data.rules ?? {});
    const base = dirname(path);
    // Patterns are relative to their file's directory; one without a slash matches at any depth, as in .gitignore.
    config.ignorePatterns.push(
      ...(data.ignorePatterns ?? []).map((p) => p.replace(/\/+$/, '')).map((p) => (p.includes('/') ? join(base, p) : join(base, '**', p))),
    );
    config.forbiddenCommands.push(...(data.forbiddenCommands ?? []));
    config.allowedCommands.push(...(data.allowedCommands ?? []));
    if (data.inlineConfig !== undefined) config.inlineConfig = data.inlineConfig;
    if (data.reportUnusedDisableDirectives !== undefined) config.reportUnusedDisableDirectives = data.reportUnusedDisableDirectives;
    if (data.shellcheck?.info !== undefined) config.shellcheckInfo = data.shellcheck.info;
    if (data.shellcheck?.enabled !== undefined) shellcheckEnabled = data.shellcheck.enabled;
  }
  return { config, sources: chain.map((c) => c.path), shellcheckEnabled };
}

/** What is wrong, in words: an unknown key by name, a value outside a list of choices with the choices. */
function schemaErrorDetail(
  error: { keyword: string; params: Record<string, unknown>; message?: string },
  segments: readonly string[],
  data: unknown,
): string {
  const path = `\`${segments.join('.') || 'configuration'}\``;
  if (error.keyword === 'additionalProperties') return `unknown key \`${String(error.params.additionalProperty)}\``;
  if (error.keyword === 'enum') {
    const allowed = (error.params.allowedValues as unknown[]).map((v) => `\`${String(v)}\``).join(', ');
    return `${path} is ${JSON.stringify(valueAt(data, segments))}; expected one of ${allowed}`;
  }
  return `${path} ${error.message ?? 'is invalid'}`;
}

/** The value at a JSON pointer's segments (for messages). */
function valueAt(data: unknown, segments: readonly string[]): unknown {
  let value = data;
  for (const segment of segments) value = (value as Record<string, unknown> | undefined)?.[segment.replace(/~1/g, '/').replace(/~0/g, '~')];
  return value;
}
