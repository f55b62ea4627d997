import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyze } from '../text-analyzer.ts';
import { EmbedderError, type Embedder } from './embedder.ts';
import { emptySummary, SummarizerError, type ConversationSummary, type SummaryTurn } from './summarizer.ts';
import { BUDGETS, createLocalSummarizer } from './summarizer.local.ts';
import { filesMentioned } from './summarizer.local.facets.ts';
import { splitSentences, stripFiller } from './summarizer.local.text.ts';
import { thirdPerson } from './summarizer.local.voice.ts';
import { createUseLiteEmbedder } from './use-lite.ts';

const NOW = new Date('2024-06-01T12:00:00Z');
const turn = (speaker: string, content: string, role = speaker === 'Caroline' ? 'user' : 'assistant'): SummaryTurn => ({
  role,
  speaker,
  content,
});
const words = (s: string) => s.split(/\s+/).filter(Boolean).length;
const sentencesOf = (s: string) => splitSentences(s).length;

/** One refresh over a whole list of turns, as the first refresh of a session. */
const once = (turns: SummaryTurn[], embedder?: Embedder) =>
  createLocalSummarizer({ embedder }).summarize({
    recent: turns.slice(-15),
    medium: turns.slice(-100),
    newTurns: turns,
    now: NOW,
  });

const CHAT: SummaryTurn[] = [
  turn('Caroline', 'Hey Mel! Good to see you! How have you been?'),
  turn('Melanie', "Hey Caroline! I'm swamped with the kids and work. What's new with you?"),
  turn('Caroline', 'I went to an LGBTQ support group on 7 May 2023 and it was so powerful.'),
  turn('Melanie', 'Wow, that sounds amazing! What was it like?'),
  turn('Caroline', 'The transgender stories were inspiring. I felt accepted for the first time.'),
  turn('Melanie', 'That is great. So cool that you found such a helpful group.'),
  turn('Caroline', 'I want to study counseling and work in mental health, maybe at Stanford in 2024.'),
  turn('Melanie', 'Your empathy will help people. By the way, I painted a lake sunrise last year.'),
  turn('Caroline', 'I love that painting! Painting is a great outlet.'),
  turn('Melanie', 'Yeah, painting helps me relax after long days with my 3 kids.'),
  turn('Caroline', 'Thanks, Melanie! Talk soon.'),
  turn('Melanie', 'Bye! I am taking the kids swimming this weekend.'),
];

describe('local summarizer', () => {
  it('summarises from the turns themselves, attributed, keeping names, dates and numbers', async () => {
    const s = await once(CHAT);
    const source = new Set(analyze([...CHAT.map((t) => t.content), 'Caroline Melanie'].join(' ')));
    for (const term of analyze(s.long_term)) assert.ok(source.has(term), `"${term}" is not from the conversation`);
    assert.match(s.long_term, /Caroline went to an LGBTQ support group on 7 May 2023/);
    assert.match(s.long_term, /Stanford in 2024/);
    assert.doesNotMatch(s.long_term, /Good to see you|How have you been|Talk soon/, 'pleasantries are left out');
    assert.doesNotMatch(s.long_term, /\bI\b|\bmy\b/, 'first person is rewritten');
    assert.ok(sentencesOf(s.long_term) <= BUDGETS.long.sentences && words(s.long_term) <= BUDGETS.long.words + 10);
    assert.ok(sentencesOf(s.short_term) <= BUDGETS.short.sentences && s.short_term.length > 0);
    assert.ok(sentencesOf(s.medium_term) <= BUDGETS.medium.sentences && s.medium_term.length > 0);
    assert.deepEqual(s.project_context, { participants: ['Caroline', 'Melanie'], message_count: 12 });
    assert.equal(s.last_updated, NOW.toISOString());
    // The first user turn is a greeting only: the intent is the next user turn's main sentence.
    assert.match(s.session_intent, /^Caroline went to an LGBTQ support group/);
    assert.ok(s.topics.includes('group') && s.topics.includes('lake sunrise'), `topics: ${s.topics.join(', ')}`);
    assert.ok(!s.topics.some((t) => /caroline|melanie|kids|\bi\b/i.test(t)), 'no names, generic nouns or pronouns');
    assert.match(s.current_state, /swimming|painting|relax/);
  });

  it('keeps one of two near-identical sentences', async () => {
    const turns = [
      turn('Dev', 'The release is blocked by the flaky payment test in CI.', 'user'),
      turn('Bot', 'Understood, the payment test has failed three times today.', 'assistant'),
      turn('Dev', 'Yes, the release is blocked by that flaky payment test in CI!', 'user'),
      turn('Bot', 'We could quarantine the payment test and ship version 2.4 on Friday.', 'assistant'),
      turn('Dev', 'The database migration for invoices also needs a review.', 'user'),
    ];
    const s = await once(turns);
    assert.equal(s.long_term.match(/blocked by (?:the|that) flaky payment test/g)?.length, 1, s.long_term);
    assert.match(s.long_term, /version 2\.4 on Friday/);
  });

  it('finds decisions, next steps, technical details, files and topics in a technical session', async () => {
    const turns = [
      turn('user', 'I want to add rate limiting to our API gateway before the launch.', 'user'),
      turn('assistant', 'A token bucket per API key works well; put it in src/gateway/limiter.ts.', 'assistant'),
      turn('user', 'We decided to store the token bucket counters in Redis 7.2 instead of memory.', 'user'),
      turn('assistant', 'Good: Redis keeps counters consistent across the gateway replicas.', 'assistant'),
      turn('user', 'The limiter should return 429 with a Retry-After header.', 'user'),
      turn('assistant', 'Next, I will update config/default.yaml and add tests in test/limiter.test.ts.', 'assistant'),
      turn('user', 'Also check src/gateway/limiter.ts for the `burst` option, see https://example.com/docs.', 'user'),
      turn('assistant', 'The rate limiting is done once the tests pass.', 'assistant'),
    ];
    const s = await once(turns);
    assert.ok(
      s.key_decisions.some((d) => /decided to store the token bucket counters in Redis 7\.2/.test(d)),
      s.key_decisions.join(' | '),
    );
    assert.ok(
      s.next_steps.some((n) => /update config\/default\.yaml/.test(n)),
      s.next_steps.join(' | '),
    );
    assert.ok(s.technical_details.some((t) => /`burst`|src\/gateway\/limiter\.ts/.test(t)));
    assert.deepEqual(s.files_accessed, {
      'src/gateway/limiter.ts': 2,
      'config/default.yaml': 1,
      'test/limiter.test.ts': 1,
    });
    assert.ok(
      s.topics.some((t) => /rate limiting|token bucket|gateway/.test(t)),
      `topics: ${s.topics.join(', ')}`,
    );
    assert.match(s.session_intent, /^The user wants to add rate limiting to our API gateway/);
    assert.match(s.long_term, /The assistant|The user/);
  });

  it('builds long_term from the previous summary: early facts survive refreshes, within budget', async () => {
    const summarizer = createLocalSummarizer();
    const early = [
      turn('Ana', 'We decided to migrate the billing service to PostgreSQL 16 on 3 June.', 'user'),
      turn('Ben', 'Good, the billing service migration needs a maintenance window.', 'assistant'),
      ...Array.from({ length: 13 }, (_, i) => turn(i % 2 ? 'Ben' : 'Ana', `We chatted about lunch option ${i}.`)),
    ];
    const topics = ['the mobile app onboarding', 'the marketing site redesign', 'the hiring plan for Q3'];
    let previous: ConversationSummary | undefined;
    let all: SummaryTurn[] = [];
    for (const [k, batch] of [early, ...topics.map((t) => filler(t))].entries()) {
      all = [...all, ...batch];
      // Only the last 15 turns are visible: the early facts can only come through `previous`.
      previous = await summarizer.summarize({ recent: batch, medium: batch, newTurns: batch, previous, now: NOW });
      assert.equal(previous.project_context.message_count, all.length, `refresh ${k}`);
      assert.ok(sentencesOf(previous.long_term) <= BUDGETS.long.sentences, previous.long_term);
      assert.ok(words(previous.long_term) <= BUDGETS.long.words + 10, previous.long_term);
    }
    assert.match(previous!.long_term, /PostgreSQL 16 on 3 June/);
    assert.match(previous!.long_term, /hiring plan/);
    assert.ok(previous!.key_decisions.some((d) => /PostgreSQL 16/.test(d)));
    assert.equal(previous!.session_intent, 'We decided to migrate the billing service to PostgreSQL 16 on 3 June.');
    assert.doesNotMatch(previous!.short_term, /PostgreSQL/, 'short_term covers the recent turns only');
  });

  it('is deterministic', async () => {
    const a = await once(CHAT);
    const b = await once(CHAT);
    assert.deepEqual(a, b);
  });

  it('handles empty input and input without new turns', async () => {
    const summarizer = createLocalSummarizer();
    assert.deepEqual(await summarizer.summarize({ recent: [], medium: [], newTurns: [], now: NOW }), emptySummary(NOW));
    const previous = await once(CHAT);
    const later = new Date('2024-06-02T00:00:00Z');
    const again = await summarizer.summarize({ recent: [], medium: [], newTurns: [], previous, now: later });
    assert.deepEqual(again, { ...previous, last_updated: later.toISOString() });
    const noNew = await summarizer.summarize({ recent: CHAT, medium: CHAT, newTurns: [], previous, now: later });
    assert.equal(noNew.long_term, previous.long_term, 'nothing new to fold into long_term');
    const blank = await once([turn('Caroline', '   '), turn('Melanie', 'Hi!')]);
    assert.equal(blank.long_term, '');
    assert.equal(blank.project_context.message_count, 2);
    await assert.rejects(
      summarizer.summarize({ recent: [{ role: 'user' }] as unknown as SummaryTurn[], medium: [], newTurns: [] }),
      (err: unknown) => err instanceof SummarizerError && err.code === 'invalid_input' && !err.retryable,
    );
  });

  it('uses the real USE-lite embedder, still removing repeats and keeping specifics', async () => {
    const embedder = createUseLiteEmbedder();
    const turns = [
      ...CHAT,
      turn('Caroline', 'I went to an LGBTQ support group on 7 May 2023 and it was so powerful!'),
      turn('Melanie', 'I painted a lake sunrise last year.'),
    ];
    const s = await once(turns, embedder);
    assert.equal(createLocalSummarizer({ embedder }).id, 'local-extractive-1+use-lite-512');
    assert.equal(s.long_term.match(/LGBTQ support group on 7 May 2023/g)?.length, 1, s.long_term);
    assert.ok((s.long_term.match(/lake sunrise/g)?.length ?? 0) <= 1, s.long_term);
    assert.match(s.long_term, /Stanford in 2024|7 May 2023/);
    assert.deepEqual(await once(turns, embedder), s, 'deterministic with the embedder too');
  });

  it("reports an embedder's failure as a SummarizerError that keeps its retryability", async () => {
    const failing: Embedder = {
      id: 'down',
      dimensions: 3,
      maxTokens: 100,
      embed: () => Promise.reject(new EmbedderError('unavailable', 'connection refused', true)),
    };
    await assert.rejects(once(CHAT, failing), (err: unknown) => {
      assert.ok(err instanceof SummarizerError);
      assert.equal(err.code, 'unavailable');
      assert.equal(err.retryable, true);
      assert.match(err.message, /embedder down failed: connection refused/);
      return true;
    });
  });
});

describe('local summarizer text rules', () => {
  it('rewrites first and second person as the speakers, verbs agreeing', () => {
    assert.equal(thirdPerson("I'm swamped with work.", 'Melanie', 'Caroline'), 'Melanie is swamped with work.');
    assert.equal(thirdPerson('I paint and I love my kids.', 'Melanie'), 'Melanie paints and they love their kids.');
    assert.equal(thirdPerson('I went there yesterday.', 'Ana'), 'Ana went there yesterday.');
    assert.equal(thirdPerson('You are right, your plan works.', 'Ana', 'Ben'), "Ben is right, Ben's plan works.");
    assert.equal(
      thirdPerson('I can help you deploy it.', 'assistant', 'user'),
      'The assistant can help the user deploy it.',
    );
  });

  it('strips chat filler and splits sentences without breaking abbreviations or file names', () => {
    const names = new Set(['Caroline', 'Mel']);
    assert.equal(stripFiller("Wow, that's cool, Caroline!", names), "That's cool!");
    assert.equal(stripFiller('Hey Mel!', names), '');
    assert.equal(stripFiller('No one came to the party.', names), 'No one came to the party.');
    assert.deepEqual(splitSentences('I saw Dr. Smith about index.ts today. It costs 3.5 dollars! Really?'), [
      'I saw Dr. Smith about index.ts today.',
      'It costs 3.5 dollars!',
      'Really?',
    ]);
  });

  it('counts file paths, not URLs, domains, versions or abbreviations', () => {
    const files = filesMentioned([
      turn('u', 'Edit ./src/app.ts and README.md, not example.com or https://x.org/a/b.html, e.g. v1.2.3 or 3.14.'),
      turn('u', 'Then README.md again and /etc/nginx/nginx.conf.'),
    ]);
    assert.deepEqual(Object.fromEntries(files), { './src/app.ts': 1, 'README.md': 2, '/etc/nginx/nginx.conf': 1 });
  });
});

/** 15 turns about one subject, with a name and a number so they are worth keeping. */
function filler(subject: string): SummaryTurn[] {
  return Array.from({ length: 15 }, (_, i) =>
    turn(
      i % 2 ? 'Ben' : 'Ana',
      i === 0
        ? `Today Ana and Ben reviewed ${subject} with 4 open questions.`
        : `More notes on ${subject}, point ${i}.`,
      i % 2 ? 'assistant' : 'user',
    ),
  );
}
