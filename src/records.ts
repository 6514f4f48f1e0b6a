/**
 * Lookups in the tables keyed by text from the input: command names and
 * options, event names, handler types, JSON keys, subcommands. A plain
 * object answers to more than its own keys (`TABLE['constructor']` is
 * `Object` itself), so a hook running a command named `constructor`, a
 * settings event named `toString` or `validate-agent-hooks constructor`
 * stopped the run with an internal error. Only the table's own entries count.
 */
export function own<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}
