import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { SignJWT } from 'jose';
import { testStores } from '../../../test/harness.ts';
import type { Db } from '../../platform/db/index.ts';
import { AppError } from '../../shared/errors.ts';
import { createTokenSigner, type AccessClaims } from './oauth.tokens.ts';

const claims: AccessClaims = {
  userId: 'u1',
  organizationId: 'o1',
  sessionId: 's1',
  clientType: 'svc_plugin',
  scope: 'openid',
};

async function rejects401(p: Promise<unknown>, message?: RegExp) {
  await assert.rejects(p, (err: unknown) => {
    assert.ok(err instanceof AppError);
    assert.equal(err.code, 401);
    if (message) assert.match(err.message, message);
    return true;
  });
}

/** The access-token signer and its key storage (migrations/0050_oauth.sql). */
for (const store of testStores) {
  describe(`Engram access tokens [${store.name}]`, () => {
    let db: Db;
    before(async () => {
      db = await store.open();
    });
    after(() => db.close());

    it(
      'the generated key is created once, kept in the store, ' +
        'and shared by every instance (restart, other process)',
      async () => {
        const signers = Array.from({ length: 5 }, () => createTokenSigner(db, { ttlSeconds: 60 }));
        const tokens = await Promise.all(signers.map((s) => s.issue(claims)));
        assert.equal((await db.query('SELECT id FROM oauth_signing_keys')).length, 1);
        const restarted = createTokenSigner(db, { ttlSeconds: 60 });
        for (const { token } of tokens) assert.deepEqual(await restarted.verify(token), claims);
      },
    );

    it('expiry: 401 "expired", unless logout asks to ignore it', async () => {
      const s = createTokenSigner(db, { ttlSeconds: 60 });
      const { token, expiresIn } = await s.issue(claims, { now: new Date(Date.now() - 120_000) });
      assert.equal(expiresIn, 60);
      await rejects401(s.verify(token), /expired/);
      assert.deepEqual(await s.verify(token, { ignoreExpiry: true }), claims);
      // ignoreExpiry never excuses a bad signature.
      await rejects401(s.verify(`${token.slice(0, -4)}AAAA`, { ignoreExpiry: true }));
    });

    it('a configured secret signs with its own key id; the two keys do not accept each other', async () => {
      const fromConfig = createTokenSigner(db, { secret: 'a-configured-secret-of-at-least-32-chars', ttlSeconds: 60 });
      const fromStore = createTokenSigner(db, { ttlSeconds: 60 });
      const a = await fromConfig.issue(claims);
      assert.deepEqual(await fromConfig.verify(a.token), claims);
      await rejects401(fromStore.verify(a.token));
      await rejects401(fromConfig.verify((await fromStore.issue(claims)).token));
    });

    it('the right key with the wrong type, audience, issuer or algorithm is refused', async () => {
      const [row] = await db.query<{ id: string; secret: string }>('SELECT id, secret FROM oauth_signing_keys');
      const key = new Uint8Array(Buffer.from(row.secret, 'base64url'));
      const s = createTokenSigner(db, { ttlSeconds: 60 });
      const make = (o: { typ?: string; aud?: string; iss?: string; kid?: string }) =>
        new SignJWT({ org: 'o1', sid: 's1' })
          .setProtectedHeader({ alg: 'HS256', typ: o.typ ?? 'at+jwt', kid: o.kid ?? row.id })
          .setSubject('u1')
          .setIssuer(o.iss ?? 'engram')
          .setAudience(o.aud ?? 'engram')
          .setIssuedAt()
          .setExpirationTime('1m')
          .sign(key);
      assert.equal((await s.verify(await make({}))).userId, 'u1');
      await rejects401(s.verify(await make({ typ: 'JWT' })));
      await rejects401(s.verify(await make({ aud: 'someone-else' })));
      await rejects401(s.verify(await make({ iss: 'https://idp.example' })));
      await rejects401(s.verify(await make({ kid: 'unknown' })));
      const noOrg = await new SignJWT({ sid: 's1' })
        .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt', kid: row.id })
        .setSubject('u1')
        .setIssuer('engram')
        .setAudience('engram')
        .setExpirationTime('1m')
        .sign(key);
      await rejects401(s.verify(noOrg));
    });

    it('a newer key in the store signs new tokens; tokens of the older key still verify', async () => {
      const before = await createTokenSigner(db, { ttlSeconds: 60 }).issue(claims);
      await db.query(
        "INSERT INTO oauth_signing_keys (id, secret, created_at) VALUES ('k2', $1, now() + interval '1 second')",
        [Buffer.alloc(32, 7).toString('base64url')],
      );
      const s = createTokenSigner(db, { ttlSeconds: 60 });
      const after = await s.issue(claims);
      assert.equal(JSON.parse(Buffer.from(after.token.split('.')[0], 'base64url').toString()).kid, 'k2');
      assert.deepEqual(await s.verify(before.token), claims);
      assert.deepEqual(await s.verify(after.token), claims);
    });
  });
}
