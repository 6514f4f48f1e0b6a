import { entry, type PEntry, type PNode } from '../../hooks/tree.js';
import type { CcConfig, CcEvent, CcGroup, CcHandler } from './config.js';
import { eventSpec, type EventSpec } from './contract.js';

export interface HandlerVisit {
  config: CcConfig;
  event: CcEvent;
  /** Undefined for an event Claude Code does not know (cc-event-unknown reports it). */
  spec: EventSpec | undefined;
  group: CcGroup;
  handler: CcHandler;
  field: (name: string) => PEntry | undefined;
}

/** Every handler of a configuration with its event's facts, for the schema rules. */
export function* handlers(config: CcConfig | undefined): Generator<HandlerVisit> {
  if (!config) return;
  for (const event of config.events) {
    const spec = eventSpec(event.name);
    for (const group of event.groups) {
      for (const handler of group.handlers) {
        yield { config, event, spec, group, handler, field: (name) => entry(handler.node, name) };
      }
    }
  }
}

export function* groups(config: CcConfig | undefined): Generator<{ event: CcEvent; spec: EventSpec | undefined; group: CcGroup }> {
  if (!config) return;
  for (const event of config.events) for (const group of event.groups) yield { event, spec: eventSpec(event.name), group };
}

/** The value of a field when it is a string. */
export function stringValue(node: PNode | undefined): string | undefined {
  return node?.kind === 'string' ? (node.value as string) : undefined;
}
