/**
 * The rules of a custom domain's bands (docs: POST /v1/graph/domains): every signal at one of
 * the 14 frequencies, at most one per frequency, names unique, enums with their values; the
 * frequencies left free are completed with `general`'s bands, so every domain has 14 bands and
 * any artifact can be compared band by band with any other.
 */
import { AppError } from '../../shared/errors.ts';
import { FREQUENCIES, frequencyIndex, type Domain, type SignalField, type SignalType } from './bands.ts';
import { GENERAL_DOMAIN } from './domains.builtin.ts';

/** A custom domain id: `<name>:<domain>:<version>`, each part of letters, digits, `_`, `.` and `-`. */
export const DOMAIN_ID_FORM = /^[A-Za-z0-9_.-]+:[A-Za-z0-9_.-]+:[A-Za-z0-9_.-]+$/;

/** A signal as the caller sends it (schema-checked; frequency and weight not yet resolved). */
export interface SignalInput {
  name: string;
  description: string;
  type?: SignalType;
  allowed_values?: string[];
  frequency_hz?: number;
  required?: boolean;
  weight?: number;
}

/** A 422 naming the body field at fault, in the `details.issues` shape of request validation. */
export function fieldError(field: string, message: string, extra: Record<string, unknown> = {}): AppError {
  return new AppError(422, `${field}: ${message}`, { issues: [{ location: 'body', field, message }], ...extra });
}

/** The frequency a caller's number means (tolerating float noise such as 0.1000000001), or -1. */
function frequencyOf(hz: number): number {
  const exact = frequencyIndex(hz);
  return exact >= 0 ? exact : FREQUENCIES.findIndex((f) => Math.abs(f - hz) < 1e-9);
}

/**
 * The 14 bands of a custom domain, sorted by frequency, from the caller's 1–14 signals: explicit
 * frequencies first, then signals without one take the free frequencies low to high, then the
 * frequencies still free get `filler`'s band (a filler whose name a caller's signal already uses
 * is renamed `general_<name>`). 422 for a bad or doubly used frequency, a duplicate name, or an
 * enum without allowed_values.
 */
export function completeSignals(input: SignalInput[], filler: Domain = GENERAL_DOMAIN): SignalField[] {
  const names = new Set<string>();
  const slots: (SignalField | undefined)[] = FREQUENCIES.map(() => undefined);
  const unplaced: SignalField[] = [];
  input.forEach((s, i) => {
    const where = `signals[${i}]`;
    if (names.has(s.name)) throw fieldError(`${where}.name`, `"${s.name}" is used by two signals`);
    names.add(s.name);
    const type = s.type ?? 'text';
    const values = s.allowed_values ? [...new Set(s.allowed_values)] : undefined;
    if (type === 'enum' && !values?.length)
      throw fieldError(`${where}.allowed_values`, `signal "${s.name}" is an enum and needs allowed_values`);
    const field: SignalField = {
      name: s.name,
      description: s.description,
      type,
      ...(values?.length ? { allowed_values: values } : {}),
      frequency_hz: FREQUENCIES[0],
      required: s.required ?? false,
      weight: s.weight ?? 1,
    };
    if (s.frequency_hz === undefined) return void unplaced.push(field);
    const k = frequencyOf(s.frequency_hz);
    if (k < 0)
      throw fieldError(
        `${where}.frequency_hz`,
        `signal "${s.name}": ${s.frequency_hz} Hz is not a band frequency (${FREQUENCIES.join(', ')})`,
        { frequencies: [...FREQUENCIES] },
      );
    if (slots[k])
      throw fieldError(
        `${where}.frequency_hz`,
        `signals "${slots[k].name}" and "${s.name}" share ${FREQUENCIES[k]} Hz`,
      );
    slots[k] = { ...field, frequency_hz: FREQUENCIES[k] };
  });
  for (const field of unplaced) {
    const k = slots.findIndex((s) => !s);
    slots[k] = { ...field, frequency_hz: FREQUENCIES[k] };
  }
  return slots.map((s, k) => {
    if (s) return s;
    const band = filler.signals[k];
    return names.has(band.name) ? { ...band, name: `general_${band.name}` } : { ...band };
  });
}

/**
 * A map keyed by band: each key is a band's name or its frequency (`"19"`, `"19.0"`), as
 * domain registration, rerank requests and the deprecated frequency filters allow. Returns the
 * same values keyed by band name; 422 (naming `field.key`) for a key that names no band of the
 * domain, or one band twice.
 */
export function byBandName<T>(signals: SignalField[], map: Record<string, T>, field: string): Record<string, T> {
  const out: Record<string, T> = {};
  for (const [key, value] of Object.entries(map)) {
    const byHz = /^\d+(\.\d+)?$/.test(key) ? signals.find((s) => Math.abs(s.frequency_hz - Number(key)) < 1e-9) : null;
    const band = byHz ?? signals.find((s) => s.name === key);
    if (!band)
      throw fieldError(`${field}.${key}`, `the domain has no band "${key}"`, {
        bands: signals.map((s) => s.name),
      });
    if (band.name in out) throw fieldError(`${field}.${key}`, `band "${band.name}" is given twice`);
    out[band.name] = value;
  }
  return out;
}

/** A domain's `signal_multipliers` keyed by band name (see byBandName). */
export function checkMultipliers(signals: SignalField[], map: Record<string, number>): Record<string, number> {
  return byBandName(signals, map, 'signal_multipliers');
}

/** Whether two band lists are the same bands (jsonb does not keep key order, so compare fields). */
export function sameSignals(a: SignalField[], b: SignalField[]): boolean {
  const norm = (s: SignalField) =>
    JSON.stringify([
      s.name,
      s.description,
      s.type,
      s.allowed_values ?? [],
      s.frequency_hz,
      s.required ?? false,
      s.weight,
    ]);
  return a.length === b.length && a.every((s, i) => norm(s) === norm(b[i]));
}
