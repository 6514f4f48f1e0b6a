import type { Rule } from '../src/engine/rule.js';
export function renderRuleTable(rules: readonly Rule<unknown>[]): string;
