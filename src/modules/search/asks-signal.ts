/**
 * Memories that only ask (docs/retrieval.md, "Questions state nothing"). A turn such as
 * `Caroline said, "Wow! What got you into running?"` shares a question's words and shape with
 * the query, so text overlap ranks it high, yet it states nothing a question could be answered
 * with: on LoCoMo dev 5.5 % of the turns only ask, and 1.0 % of the evidence turns do. One that
 * states a few words before it asks is evidence about as rarely, so up to
 * `SEARCH_ASKS_STATED_WORDS` stated words still count as asking. Such a memory loses
 * `SEARCH_WEIGHT_ASKS` on the 0–1 fused scale (signal-tools.ts withBonus, negated), unless the
 * query is itself about asking ("What did Jon ask about…").
 */

/** A transcript line `Name said, "…"` or `Name: …`, its words captured. */
const WRAPPED = /^\s*[A-Z][\p{L}.'-]*(?: [A-Z][\p{L}.'-]*){0,2}(?: said,?|:)\s*["“]?([\s\S]*?)["”]?\s*$/u;
/** A sentence this short ("Wow!", "Hey Mel!") is an interjection, not a statement. */
const INTERJECTION_WORDS = 3;
/**
 * SQL: content that could only ask — short enough to be a turn, ending with a question mark
 * (before closing quotes). The rest of the test is `onlyAsks`, on these few. The size first, in a
 * CASE so that the planner cannot put the regular expression before it (it did: matching every
 * abstract of a search over SciFact cost 1.2 ms), and as `octet_length`, which PostgreSQL reads
 * from a stored value's header (`length` decompresses it); the expression reads only the tail.
 */
export const MAY_ONLY_ASK_SQL = `(CASE WHEN octet_length(m.content) <= 1200
  THEN right(m.content, 12) ~ '\\?["”'')\\s]*$' ELSE false END)`;

/**
 * True when the memory's words end with a question and, apart from its questions and
 * interjections, state at most `stated` words (0: every sentence asks or is an interjection).
 * A turn that states a few words before it asks ("Wow, Mel, that's awesome! What's your best
 * camping memory?") is evidence as rarely as one that only asks (docs/retrieval.md).
 */
export function onlyAsks(content: string, stated = 0): boolean {
  const words = (WRAPPED.exec(content)?.[1] ?? content).trim();
  if (!words.endsWith('?')) return false;
  let said = 0;
  for (const s of words.split(/(?<=[.!?])\s+/)) {
    const n = s.split(/\s+/).length;
    if (!s.endsWith('?') && n > INTERJECTION_WORDS) said += n;
  }
  return said <= stated;
}

/** A query about what was asked keeps the questions where their words put them. */
export function asksAboutAsking(query: string): boolean {
  return /\b(?:ask(?:s|ed|ing)?|questions?|wonder(?:s|ed|ing)?|inquir\w*|enquir\w*)\b/i.test(query);
}

/** A thread row's neighbours on each side, one and two turns away (neighbours.store.ts). */
const SIDES = ['prev', 'next', 'prev2', 'next2'] as const;
type ThreadRow = Partial<Record<`${(typeof SIDES)[number]}_${'id' | 'asks'}`, string | null>>;

/**
 * The memories that only ask: `top`'s (candidates.store.ts askingOf) and the thread neighbours' — one or
 * two turns away, any a loan may lift — whose content, read with the thread, only asks.
 */
export function askingWith(top: Set<string>, neighbours: ThreadRow[], stated = 0): Set<string> {
  const out = new Set(top);
  for (const n of neighbours)
    for (const side of SIDES) {
      const id = n[`${side}_id`];
      const asks = n[`${side}_asks`];
      if (id && asks && onlyAsks(asks, stated)) out.add(id);
    }
  return out;
}
