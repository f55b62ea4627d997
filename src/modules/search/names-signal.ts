/**
 * Memories that name something (docs/retrieval.md, "Many things of one person"): a question
 * asking for a person's several things ("What video games does Nate play?", "Which cities has
 * John been to?", asksForMany) is answered by the turns that name them — Valorant, Seattle, Matt
 * Patterson, "Eternal Sunshine of the Spotless Mind" — more often than by turns that talk around
 * the kind. On LoCoMo dev 28 % of such questions' evidence turns name something against 13 % of
 * the other turns in their top 10 and 10 % of all turns.
 */

/** I, I'm, I've …: capitalised by rule, not because they name anything. */
const SELF = /^I(?:['’]\p{L}+)?$/u;
/** A word that starts with a capital and goes on in small letters ("Seattle", not "USA", not "I"). */
const CAPITALISED = /^\p{Lu}\p{Ll}/u;

/**
 * Whether `content` names something: a capitalised word that does not open a sentence, a
 * quotation or a clause after a colon or semicolon (those are capitalised by rule), and is not
 * the name of a speaker of the conversation (`speakers`, lowercased: "Thanks, Melanie!" names
 * whom it speaks to, not a thing). A transcript line's own `Name said, "…"` opens the line.
 */
export function namesSomething(content: string, speakers: ReadonlySet<string>): boolean {
  for (const segment of content.split(/(?<=[.!?;:])\s+|["“”]/u)) {
    const words = segment.match(/\p{L}[\p{L}\p{N}'’-]*/gu) ?? [];
    for (const word of words.slice(1))
      if (CAPITALISED.test(word) && !SELF.test(word) && !speakers.has(word.toLowerCase())) return true;
  }
  return false;
}

/**
 * The ids among `contents` that name something. The speakers' names are the words of every
 * speaker label among the candidates ("caroline", or "maria" and "lopez" of "Maria Lopez").
 */
export function namingMemories(contents: Map<string, string>, speakerLabels: Iterable<string>): Set<string> {
  const speakers = new Set([...speakerLabels].flatMap((s) => s.toLowerCase().split(/\s+/)));
  return new Set([...contents].filter(([, c]) => namesSomething(c, speakers)).map(([id]) => id));
}
