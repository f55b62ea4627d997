import { it } from 'node:test';
import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import type { Permission } from '../src/shared/actor.ts';
import type { TestApp } from './harness.ts';
import { makeKey, makeOrg, makeRevokedKey } from './factories.ts';

export interface KitRoute {
  /** Shown in test names, e.g. "GET /me". */
  label: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path of a resource that exists in the bootstrap organization (built lazily, after setup). */
  url: () => string;
  payload?: () => unknown;
  /** The permission the route needs; a key without it must get 403. */
  permission?: Permission;
  /**
   * What a valid key of another organization must see. Default: 404 (a resource of
   * another tenant is invisible). Routes about the caller itself check their own way.
   */
  otherTenant?: (res: LightMyRequestResponse, ctx: TestApp) => void | Promise<void>;
}

export function assertEnvelope(res: LightMyRequestResponse, code: number): Record<string, any> {
  assert.equal(res.statusCode, code, `expected ${code}, got ${res.statusCode}: ${res.body}`);
  assert.match(String(res.headers['content-type']), /application\/json/);
  const body = res.json();
  assert.equal(body.code, code);
  assert.equal(body.status, 'error');
  assert.equal(typeof body.error, 'string');
  assert.ok(body.error.length > 0);
  assert.ok('details' in body);
  return body;
}

/**
 * The shared auth kit (house rule 10): every route is tried with no credentials, a
 * malformed credential, an unknown key, a revoked key, a key of another organization,
 * and (where the route needs one) a key without the permission.
 */
export function authKit(ctx: () => TestApp, route: KitRoute): void {
  const call = (headers: Record<string, string>) =>
    ctx().app.inject({ method: route.method, url: route.url(), headers, payload: route.payload?.() as any });
  const name = `${route.label}: `;

  it(`${name}auth kit: no credentials → 401`, async () => {
    assertEnvelope(await call({}), 401);
  });
  it(`${name}auth kit: empty X-API-Key alone → 401`, async () => {
    assertEnvelope(await call({ 'x-api-key': '' }), 401);
  });
  it(`${name}auth kit: malformed Authorization → 401`, async () => {
    assertEnvelope(await call({ authorization: 'Basic dXNlcjpwYXNz' }), 401);
    assertEnvelope(await call({ authorization: 'Bearer' }), 401);
  });
  it(`${name}auth kit: unknown key → 401`, async () => {
    assertEnvelope(await call({ 'x-api-key': 'ek_org_doesnotexist0000000000000000000000000' }), 401);
  });
  it(`${name}auth kit: revoked key → 401`, async () => {
    const { key } = await makeRevokedKey(ctx().db, ctx().orgId);
    assertEnvelope(await call({ 'x-api-key': key }), 401);
  });
  it(`${name}auth kit: key of another organization`, async () => {
    const other = await makeOrg(ctx().db);
    const res = await call({ 'x-api-key': other.key });
    if (route.otherTenant) await route.otherTenant(res, ctx());
    else assertEnvelope(res, 404);
  });
  if (route.permission) {
    it(`${name}auth kit: key without "${route.permission}" → 403`, async () => {
      const perms = (['read', 'write', 'delete'] as Permission[]).filter((p) => p !== route.permission);
      const { key } = await makeKey(ctx().db, ctx().orgId, { permissions: perms });
      assertEnvelope(await call({ 'x-api-key': key }), 403);
    });
  }
}

/**
 * The auth kit in the positional form the route tests list their routes in:
 * `kit(label, method, url, permission, payload?, otherTenant?)`, bound to one test app.
 */
export function authKitFor(ctx: () => TestApp) {
  return (
    label: string,
    method: KitRoute['method'],
    url: () => string,
    permission?: Permission,
    payload?: () => unknown,
    otherTenant?: KitRoute['otherTenant'],
  ) => authKit(ctx, { label, method, url, permission, payload, otherTenant });
}
