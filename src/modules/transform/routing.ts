/**
 * `routing_config` of rerank requests and domains (contract RoutingConfig). Its keys tune the
 * original service's unpublished pipeline (caesar4_source, ce_gate_min_phi, egr_lambda_ce, rule
 * packs …), which Engram does not have. The one with a meaning here is `threshold_overrides`
 * (band → minimum band score): it filters like `signal_filters`, below them (the domain's, then
 * the request's, then signal_filters win per band). Every other key is reported back as ignored
 * (`meta.routing.ignored`), never silently dropped (docs/transform.md, "Routing").
 */
import type { Domain } from './bands.ts';
import { byBandName } from './domains.validate.ts';

export interface Routing {
  /** Band name → minimum, from threshold_overrides (domain, then request). */
  filters: Record<string, number>;
  /** Keys given that Engram does not act on. */
  ignored: string[];
}

const numbers = (m: unknown): Record<string, number> =>
  m && typeof m === 'object' && !Array.isArray(m)
    ? Object.fromEntries(Object.entries(m).filter((e): e is [string, number] => typeof e[1] === 'number'))
    : {};

export function routingOf(domain: Domain, request: Record<string, unknown> | undefined): Routing {
  const filters: Record<string, number> = {};
  const ignored = new Set<string>();
  for (const [config, field] of [
    [domain.routing_config, 'routing_config.threshold_overrides (domain)'],
    [request ?? {}, 'routing_config.threshold_overrides'],
  ] as const) {
    for (const key of Object.keys(config)) if (key !== 'threshold_overrides') ignored.add(key);
    Object.assign(filters, byBandName(domain.signals, numbers(config.threshold_overrides), field));
  }
  return { filters, ignored: [...ignored].sort() };
}
