import { commandRule, type CommandRuleData } from '../../src/engine/command-rule.js';
import data from './rule.json' with { type: 'json' };

export default commandRule(data as CommandRuleData);
