/**
 * Search's feedback port (`FeedbackBoosts`) over feedback_signals, with a per-process memory of
 * the users known to have no feedback at all, so that the common search (a user who never gave
 * any) costs no statement: a probe is a round trip (~0.3–1 ms), as much as a whole `SELECT 1`.
 *
 * The memory is kept exact by NOTIFY: storing a signal notifies its user on commit to every
 * process (feedback.store.ts), which forgets them (the storing process at once, `forget`); a
 * lost connection (an empty notification) forgets everyone. A user is only remembered while the
 * process listens, and only when no notification arrived while their probe ran (it may have
 * been about them, after the probe's snapshot). What remains is delivery's own delay: a search
 * in another process within milliseconds of a first feedback's commit may not see it yet.
 */
import type { Db } from '../../platform/db/index.ts';
import type { FeedbackBoosts, FeedbackScope } from '../search/index.ts';
import { netSignals, signalsKey, SIGNALS_CHANNEL } from './feedback.store.ts';
import { boostOf } from './ranking.ts';

/** Users remembered as having no feedback, per process (the oldest are forgotten first). */
const REMEMBERED = 20_000;

export interface FeedbackSignal extends FeedbackBoosts {
  /**
   * A user just received a signal (their feedback committed in this process): forget them now,
   * so this process's next search sees it without waiting for the NOTIFY.
   */
  forget(scope: FeedbackScope): void;
  /** Stop listening (before the store closes). */
  close(): Promise<void>;
}

/**
 * The port: a user's net signal on each candidate (signals halved every `halfLifeDays`, 0:
 * never), saturated into (-1, 1) by tanh (ranking.ts).
 */
export function createFeedbackBoosts(db: Db, halfLifeDays: number, remembered = REMEMBERED): FeedbackSignal {
  const without = new Set<string>();
  /** Notifications heard so far: a probe during which one arrived is not remembered. */
  let heard = 0;
  let listening = false;
  let subscription: Promise<(() => Promise<void>) | null> | null = null;

  const forget = (payload: string) => {
    heard++;
    if (payload) without.delete(payload);
    else without.clear();
  };
  const subscribe = () =>
    (subscription ??= db.listen(SIGNALS_CHANNEL, forget).then(
      (unlisten) => {
        listening = true;
        return unlisten;
      },
      // Without the channel nothing is remembered: every search probes, which stays correct.
      () => null,
    ));
  const remember = (key: string) => {
    if (without.size >= remembered) without.delete(without.values().next().value!);
    without.add(key);
  };

  return {
    async boosts(q, scope, memoryIds) {
      void subscribe();
      const key = signalsKey(scope);
      if (without.has(key) || !memoryIds.length) return new Map();
      const before = heard;
      const { nets, none } = await netSignals(q, scope, memoryIds, halfLifeDays);
      if (none && listening && heard === before) remember(key);
      const boosts = new Map<string, number>();
      for (const [id, net] of nets) {
        const b = boostOf(net);
        if (b !== 0 && Number.isFinite(b)) boosts.set(id, b);
      }
      return boosts;
    },

    forget: (scope) => forget(signalsKey(scope)),

    async close() {
      const unlisten = await subscription;
      listening = false;
      without.clear();
      await unlisten?.();
    },
  };
}
