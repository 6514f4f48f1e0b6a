import type { ShellCommand, ShellWord } from './commands.js';
import { sedScriptWords } from './programs.js';
import { wordText, type Piece } from './script-text.js';

/**
 * Programs that run a command given as one of their options' values, with a
 * shell or split into words as a shell would: `tar --checkpoint-action=exec='…'`,
 * `git -c core.pager='…'`, `ssh -o ProxyCommand='…'`, `rsync -e '…'`,
 * `sed '1e …'`, `vim -c '!…'`… (the shell escapes of GTFOBins). Each reader
 * gives the value's text with its characters' places, so that what it runs is
 * read as the script it is, at its own place in the hook.
 */
export type OptionScriptReader = (command: ShellCommand, text: string, base: string) => Array<Piece & { via: string }>;

/** `piece` from its `from`th character to its `to`th. */
function tail(piece: Piece, from: number, to = piece.text.length): Piece {
  return { text: piece.text.slice(from, to), at: piece.at.slice(from, to), after: piece.after.slice(from, to) };
}

interface Found {
  /** The option as written (`--to-command`, `-I`). */
  option: string;
  value: Piece;
}

/** Which options to read, and how the program parses its words. */
interface OptionSpec {
  /** `--name VALUE` or `--name=VALUE`. */
  long?: readonly string[];
  /** `-X VALUE` or `-XVALUE`. */
  short?: readonly string[];
  /** Single letters combine, the last taking the value (`-avze ssh`). */
  clusters?: boolean;
  /**
   * The program's options end at its first operand (`npx pkg -c x`: `-c` is pkg's); these of its
   * other options take the next word as their value.
   */
  untilOperand?: readonly string[];
}

/** The values of the options `spec` names, read up to `--`. */
function optionValues(command: ShellCommand, text: string, spec: OptionSpec): Found[] {
  const { long = [], short = [], clusters = false, untilOperand } = spec;
  const found: Found[] = [];
  const args = command.args;
  const pieces = new Map<ShellWord, Piece | undefined>();
  const pieceOf = (word: ShellWord | undefined): Piece | undefined => {
    if (!word) return undefined;
    if (!pieces.has(word)) pieces.set(word, wordText(word, text));
    return pieces.get(word);
  };
  for (let i = 0; i < args.length; i++) {
    const piece = pieceOf(args[i]);
    const written = piece?.text;
    if (written === undefined || !written.startsWith('-')) {
      if (untilOperand) break;
      continue;
    }
    if (written === '--') break;
    if (untilOperand?.includes(written)) {
      i++;
      continue;
    }
    const equals = written.indexOf('=');
    const name = written.startsWith('--') && equals > 0 ? written.slice(0, equals) : written;
    if (long.includes(name)) {
      const value = name === written ? pieceOf(args[++i]) : tail(piece!, equals + 1);
      if (value) found.push({ option: name, value });
      continue;
    }
    if (written.startsWith('--')) continue;
    for (const option of short) {
      const letter = option[1]!;
      if (written === option || (clusters && new RegExp(`^-[A-Za-z]*${letter}$`).test(written))) {
        const value = pieceOf(args[++i]);
        if (value) found.push({ option, value });
        break;
      }
      if (written.startsWith(option) && written.length > option.length) {
        found.push({ option, value: tail(piece!, option.length) });
        break;
      }
    }
  }
  return found;
}

const withVia = (pieces: readonly Piece[], via: string): Array<Piece & { via: string }> =>
  pieces.filter((p) => p.text.trim() !== '').map((p) => ({ ...p, via }));

/**
 * GNU tar runs `--checkpoint-action=exec=CMD`, `--to-command`, the
 * compressor `--use-compress-program`/`-I` and the volume scripts
 * `--info-script`/`--new-volume-script`/`-F` with a shell.
 */
const tar: OptionScriptReader = (command, text, base) =>
  optionValues(command, text, {
    long: ['--checkpoint-action', '--to-command', '--use-compress-program', '--info-script', '--new-volume-script'],
    short: ['-I', '-F'],
  }).flatMap(({ option, value }) => {
    if (option !== '--checkpoint-action') return withVia([value], `${base} ${option}`);
    const exec = /^exec=/.exec(value.text);
    return exec ? withVia([tail(value, exec[0].length)], `${base} --checkpoint-action=exec`) : [];
  });

/** Settings whose value git runs with a shell (`-c core.pager='…'`); `alias.*` and `credential.helper` only when it starts with `!`. */
const GIT_COMMAND_SETTINGS =
  /^(?:core\.(?:pager|sshcommand|editor|askpass|fsmonitor)|sequence\.editor|diff\.external|gpg\.program|uploadpack\.packobjectshook|pager\.[^=]+|filter\.[^=]+\.(?:clean|smudge|process)|diff\.[^=]+\.textconv|merge\.[^=]+\.driver)$/;
const GIT_BANG_SETTINGS = /^(?:alias\.[^=]+|credential\.helper)$/;
/** Values of a command setting that are a switch, not a command (`pager.log=false`, `core.fsmonitor=true`). */
const GIT_SWITCH = /^(?:true|false|yes|no|on|off|0|1|)$/i;

/** git's options before its subcommand that take the next word (`git -C dir -c k=v log`). */
const GIT_OPTIONS_WITH_VALUE = ['-C', '--git-dir', '--work-tree', '--namespace', '--exec-path', '--config-env', '--super-prefix'];

/** `git -c KEY=VALUE` for a setting that runs a command, and `--upload-pack`/`--receive-pack`, which name the program run for the other side. */
const git: OptionScriptReader = (command, text) => {
  const sources: Array<Piece & { via: string }> = [];
  const settings = optionValues(command, text, { short: ['-c'], untilOperand: GIT_OPTIONS_WITH_VALUE });
  const programs = optionValues(command, text, { long: ['--upload-pack', '--receive-pack', '--exec'] });
  for (const { option, value } of [...settings, ...programs]) {
    if (option !== '-c') {
      sources.push(...withVia([value], `git ${option}`));
      continue;
    }
    const equals = value.text.indexOf('=');
    if (equals <= 0) continue;
    const key = value.text.slice(0, equals).toLowerCase();
    let command = tail(value, equals + 1);
    if (GIT_BANG_SETTINGS.test(key)) {
      if (!command.text.startsWith('!')) continue;
      command = tail(command, 1);
    } else if (!GIT_COMMAND_SETTINGS.test(key) || GIT_SWITCH.test(command.text.trim())) continue;
    sources.push(...withVia([command], `git -c ${key}`));
  }
  return sources;
};

/** ssh's options that run a local command with the user's shell: `-o ProxyCommand=…` (or a blank for `=`), `LocalCommand`, `KnownHostsCommand`. */
const SSH_COMMAND_OPTIONS = /^(proxycommand|localcommand|knownhostscommand)(?:\s*=\s*|\s+)/i;

const ssh: OptionScriptReader = (command, text, base) =>
  optionValues(command, text, { short: ['-o'] }).flatMap(({ value }) => {
    const match = SSH_COMMAND_OPTIONS.exec(value.text);
    if (!match) return [];
    const rest = tail(value, match[0].length);
    return rest.text.trim().toLowerCase() === 'none' ? [] : withVia([rest], `${base} -o ${match[1]!}`);
  });

/** How a command rsync runs as its remote shell is handed over: the transport of the rsync's own connection. */
export const RSYNC_TRANSPORT = 'rsync -e';

/** rsync's remote shell (`-e '…'`, `--rsh=…`) runs on this machine, its words split as a shell splits them. */
const rsync: OptionScriptReader = (command, text) =>
  withVia(
    optionValues(command, text, { long: ['--rsh'], short: ['-e'], clusters: true }).map((f) => f.value),
    RSYNC_TRANSPORT,
  );

/** npx's (and `npm exec`'s) options that take the next word. */
const NPX_OPTIONS_WITH_VALUE = ['-p', '--package', '--prefix', '--workspace', '-w', '--userconfig', '--cache'];

/** `npx -c '…'` and `npm exec -c '…'` (`--call`) run the string with a shell. */
const npx: OptionScriptReader = (command, text, base) => {
  // npm's own: `npm exec …` (or `npm x …`); its options follow the subcommand.
  const subcommand = base === 'npm' ? command.args.findIndex((a) => !a.text.startsWith('-')) : -1;
  if (base === 'npm' && !['exec', 'x'].includes(command.args[subcommand]?.value ?? '')) return [];
  const options = { ...command, args: command.args.slice(subcommand + 1) };
  return withVia(
    optionValues(options, text, { long: ['--call'], short: ['-c'], untilOperand: NPX_OPTIONS_WITH_VALUE }).map((f) => f.value),
    `${base} -c`,
  );
};

/** zip's test command (`-TT '…'`, `--unzip-command`) runs with a shell. */
const zip: OptionScriptReader = (command, text) =>
  withVia(
    optionValues(command, text, { long: ['--unzip-command'], short: ['-TT'] }).map((f) => f.value),
    'zip -TT',
  );

/** Netcat's `-c '…'` (`--sh-exec`) runs with `sh -c`; `-e PROGRAM` (`--exec`) runs a program with its words. */
const netcat: OptionScriptReader = (command, text, base) =>
  withVia(
    // OpenBSD's nc takes `-c` for TLS, with no value: a host name is not read as a command.
    optionValues(command, text, { long: ['--sh-exec', '--exec'], short: ['-c', '-e'] })
      .filter((f) => f.option !== '-c' || base === 'ncat' || /\s/.test(f.value.text))
      .map((f) => f.value),
    `${base} -c`,
  );

/** socat's `EXEC:'…'` and `SYSTEM:'…'` addresses run a program (SYSTEM with `sh -c`); the address's options follow a `,`. */
const socat: OptionScriptReader = (command, text) =>
  command.args.flatMap((arg) => {
    const piece = wordText(arg, text);
    const match = piece && /^(exec|system):/i.exec(piece.text);
    if (!piece || !match) return [];
    const comma = piece.text.indexOf(',', match[0].length);
    return withVia([tail(piece, match[0].length, comma === -1 ? piece.text.length : comma)], `socat ${match[1]!.toUpperCase()}`);
  });

/** Vim's Ex commands (`-c`, `--cmd`, `+…`) run a shell command after `!` (`-c ':!rm -rf x'`, `silent !…`). */
const VIM_BANG = /^\s*:*\s*(?:sil(?:ent)?!?\s*)?!/;

const vim: OptionScriptReader = (command, text, base) => {
  const values = optionValues(command, text, { long: ['--cmd'], short: ['-c'] }).map((f) => f.value);
  for (const arg of command.args) {
    const piece = wordText(arg, text);
    if (piece?.text.startsWith('+')) values.push(tail(piece, 1));
  }
  return values.flatMap((value) => {
    const bang = VIM_BANG.exec(value.text);
    return bang ? withVia([tail(value, bang[0].length)], `${base} -c '!…'`) : [];
  });
};

/** A sed address: a line, `$`, or a `/regex/`, and an optional second one after `,`. */
const SED_ADDRESS = String.raw`(?:\d+|\$|/(?:[^/\\\n]|\\.)*/)`;
/** GNU sed's `e COMMAND` runs COMMAND with a shell; the command is the rest of its line. */
const SED_EXECUTE = new RegExp(String.raw`(?:^|[;{\n])\s*(?:${SED_ADDRESS}(?:\s*,\s*${SED_ADDRESS})?)?\s*e[ \t]+([^\n]+)`, 'g');

const sed: OptionScriptReader = (command, text, base) =>
  sedScriptWords(command.args).flatMap(({ word, attached }) => {
    const piece = wordText(word, text);
    if (!piece) return [];
    const script = tail(piece, attached);
    return withVia(
      [...script.text.matchAll(SED_EXECUTE)].map((m) => {
        const start = m.index + m[0].length - m[1]!.length;
        return tail(script, start, start + m[1]!.length);
      }),
      `${base} e`,
    );
  });

/** Each program whose options' values it runs as commands, by name. */
export const OPTION_SCRIPT_READERS: Record<string, OptionScriptReader> = {
  tar,
  gtar: tar,
  git,
  ssh,
  scp: ssh,
  sftp: ssh,
  autossh: ssh,
  rsync,
  npx,
  npm: npx,
  zip,
  nc: netcat,
  ncat: netcat,
  netcat,
  socat,
  vim,
  vi: vim,
  nvim: vim,
  ex: vim,
  view: vim,
  vimdiff: vim,
  sed,
  gsed: sed,
};
