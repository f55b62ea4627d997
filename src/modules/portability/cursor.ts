/**
 * The sync cursor: a position in the change feed, (transaction id, sequence number), opaque to
 * clients (base64url of `v1:<xid>:<seq>`). docs/sync.md explains why a position is a pair.
 */
import { unprocessable } from '../../shared/errors.ts';

export interface Position {
  xid: bigint;
  seq: bigint;
}

/** The largest sequence number: (xid, MAX_SEQ) is "everything of transactions up to xid". */
const MAX_SEQ = 9_223_372_036_854_775_807n;
const FORMAT = /^v1:(\d{1,19}):(\d{1,19})$/;

export function encodeCursor(p: Position): string {
  return Buffer.from(`v1:${p.xid}:${p.seq}`).toString('base64url');
}

/** A cursor given back by a client; anything this server did not issue is a 422. */
export function decodeCursor(cursor: string): Position {
  const text = /^[A-Za-z0-9_-]{1,100}$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  const m = FORMAT.exec(text);
  const xid = m ? BigInt(m[1]) : -1n;
  const seq = m ? BigInt(m[2]) : -1n;
  if (!m || xid > MAX_SEQ || seq > MAX_SEQ) {
    throw unprocessable(
      'cursor is not a sync cursor of this server; start again without one (or from POST /v1/sync/tiers)',
      {
        field: 'cursor',
      },
    );
  }
  return { xid, seq };
}

/** The position after every change of the transactions below `xmin` (all of which have ended). */
export function positionBefore(xmin: bigint): Position {
  return { xid: xmin - 1n, seq: MAX_SEQ };
}

export const comparePositions = (a: Position, b: Position) =>
  a.xid === b.xid ? (a.seq === b.seq ? 0 : a.seq < b.seq ? -1 : 1) : a.xid < b.xid ? -1 : 1;
