/**
 * Consent and risk as orderable levels, and the safety filter (`omo_filter`, and the
 * query parameters of GET /v1/memory/{id}) as SQL predicates over memories `m`.
 */
export const CONSENT_LEVELS = ['none', 'implicit', 'terms', 'explicit'] as const;
export const RISK_LEVELS = ['none', 'sensitive', 'flagged'] as const;

export interface SafetyFilter {
  min_consent?: string;
  max_risk?: string;
  exclude_consent?: string[];
  exclude_risk?: string[];
  require_consent?: boolean;
  exclude_flagged?: boolean;
}

function levels(all: readonly string[], pick: (i: number) => boolean): string[] {
  return all.filter((_, i) => pick(i));
}

/** Allowed consent and risk values for a filter; undefined means "no restriction". */
export function allowedValues(f: SafetyFilter): { consent?: string[]; risk?: string[] } {
  let consent: string[] | undefined;
  let risk: string[] | undefined;
  const narrow = (cur: string[] | undefined, next: string[]) => (cur ? cur.filter((v) => next.includes(v)) : next);
  if (f.min_consent) {
    const min = (CONSENT_LEVELS as readonly string[]).indexOf(f.min_consent);
    consent = narrow(
      consent,
      levels(CONSENT_LEVELS, (i) => i >= (min < 0 ? 0 : min)),
    );
  }
  if (f.require_consent)
    consent = narrow(
      consent,
      CONSENT_LEVELS.filter((c) => c !== 'none'),
    );
  if (f.exclude_consent?.length)
    consent = narrow(
      consent ?? [...CONSENT_LEVELS],
      CONSENT_LEVELS.filter((c) => !f.exclude_consent!.includes(c)),
    );
  if (f.max_risk) {
    const max = (RISK_LEVELS as readonly string[]).indexOf(f.max_risk);
    risk = narrow(
      risk,
      levels(RISK_LEVELS, (i) => i <= (max < 0 ? RISK_LEVELS.length - 1 : max)),
    );
  }
  if (f.exclude_flagged)
    risk = narrow(
      risk,
      RISK_LEVELS.filter((r) => r !== 'flagged'),
    );
  if (f.exclude_risk?.length)
    risk = narrow(
      risk ?? [...RISK_LEVELS],
      RISK_LEVELS.filter((r) => !f.exclude_risk!.includes(r)),
    );
  return { consent, risk };
}

/** SQL predicates for a safety filter over columns prefixed `prefix` (e.g. `m.`); pushes its parameters. */
export function safetySql(f: SafetyFilter | undefined, params: unknown[], prefix = 'm.'): string[] {
  if (!f) return [];
  const { consent, risk } = allowedValues(f);
  const out: string[] = [];
  if (consent) {
    params.push(consent);
    out.push(`${prefix}consent = ANY($${params.length}::text[])`);
  }
  if (risk) {
    params.push(risk);
    out.push(`${prefix}risk = ANY($${params.length}::text[])`);
  }
  return out;
}
