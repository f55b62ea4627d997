import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { testStores } from '../../../test/harness.ts';
import { makeNamespace, makeOrg } from '../../../test/factories.ts';
import type { Db } from '../../platform/db/index.ts';
import { ownerActor, type Actor } from '../../shared/actor.ts';
import { FREQUENCIES, ROLE_FAMILIES } from './bands.ts';
import { BUILTIN_DOMAINS, builtinFor, GENERAL_DOMAIN, resolveDomainId } from './domains.builtin.ts';
import { createDomainsService, type DomainsService } from './domains.service.ts';
import { checkMultipliers, completeSignals } from './domains.validate.ts';

const SPEC_BUILTINS = [
  'general',
  'code',
  'cosqa',
  'codetrans',
  'codetransocean',
  'codetransocean_hybrid',
  'text2sql',
  'scifact',
  'nfcorpus',
  'fiqa',
  'legal',
  'medical',
  'ecommerce',
  'coffee_shops',
];

describe('built-in domains', () => {
  it('are the 14 of the spec, general first', () => {
    assert.deepEqual([...BUILTIN_DOMAINS.map((d) => d.domain_id)].sort(), [...SPEC_BUILTINS].sort());
    assert.equal(BUILTIN_DOMAINS[0].domain_id, 'general');
  });

  for (const d of BUILTIN_DOMAINS)
    it(`${d.domain_id}: 14 bands, one per frequency, well formed`, () => {
      assert.deepEqual(
        d.signals.map((s) => s.frequency_hz),
        [...FREQUENCIES],
      );
      assert.equal(new Set(d.signals.map((s) => s.name)).size, 14, 'names unique');
      assert.ok(d.name && d.description && d.builtin);
      for (const s of d.signals) {
        assert.match(s.name, /^[a-z][a-z0-9_]*$/, `${s.name} is snake_case`);
        assert.ok(s.description.length >= 15 && s.description.length <= 160, `${d.domain_id}.${s.name} description`);
        assert.ok(s.weight >= 0.3 && s.weight <= 2.5, `${d.domain_id}.${s.name} weight ${s.weight}`);
        if (s.type === 'enum') {
          const n = s.allowed_values?.length ?? 0;
          assert.ok(n >= 5 && n <= 15, `${d.domain_id}.${s.name}: ${n} allowed values`);
          assert.equal(new Set(s.allowed_values).size, n, `${d.domain_id}.${s.name}: values unique`);
        } else assert.equal(s.allowed_values, undefined);
      }
      // The bands a rerank leans on weigh at least as much as the rest.
      const weight = (role: string) => d.signals[ROLE_FAMILIES.indexOf(role as never)].weight;
      assert.ok(weight('main_content') >= 1.6, `${d.domain_id}: the main statement weighs most`);
      assert.ok(weight('identifier') >= 1.4 && weight('entity_type') >= 1.1, `${d.domain_id}: key bands weigh more`);
      assert.ok(weight('local_detail') < weight('main_content'));
    });

  it('resolve an id: custom first, then a short name, then a full id of a built-in', () => {
    const customs = new Set(['acme:scifact:2']);
    assert.deepEqual(resolveDomainId('acme:scifact:2', customs), { kind: 'custom', id: 'acme:scifact:2' });
    assert.deepEqual(resolveDomainId('scifact', customs), { kind: 'builtin', id: 'scifact' });
    assert.deepEqual(resolveDomainId('engram:scifact:1', customs), { kind: 'builtin', id: 'scifact' });
    assert.deepEqual(resolveDomainId('other:scifact:9.1', customs), { kind: 'builtin', id: 'scifact' });
    assert.equal(resolveDomainId('acme:support:1', customs), null);
    assert.equal(resolveDomainId('scifact:1', customs), null);
    assert.equal(resolveDomainId(':scifact:', customs), null);
    assert.equal(builtinFor('unknown'), undefined);
  });
});

describe('custom signals', () => {
  it('are completed to 14 with the bands of general, explicit frequencies first', () => {
    const s = completeSignals([
      { name: 'ticket_kind', description: 'Kind', type: 'enum', allowed_values: ['bug', 'bug', 'howto'] },
      { name: 'product', description: 'Product', frequency_hz: 30, weight: 2 },
      { name: 'summary', description: 'Summary', frequency_hz: 10.0 },
    ]);
    assert.deepEqual(
      s.map((f) => f.frequency_hz),
      [...FREQUENCIES],
    );
    assert.equal(s[0].name, 'ticket_kind', 'the first free frequency');
    assert.deepEqual(s[0].allowed_values, ['bug', 'howto']);
    assert.equal(s[5].name, 'summary');
    assert.equal(s[10].name, 'product');
    assert.equal(s[10].weight, 2);
    assert.equal(s[5].weight, 1, 'weight defaults to 1');
    assert.equal(s[5].type, 'text');
    assert.deepEqual(s[1], GENERAL_DOMAIN.signals[1], "general's band fills a free frequency");
  });

  it('rename a general band whose name is taken', () => {
    const s = completeSignals([{ name: 'main_content', description: 'x', frequency_hz: 0.1 }]);
    assert.equal(s[0].name, 'main_content');
    assert.equal(s[5].name, 'general_main_content');
  });

  it('refuse a bad or shared frequency, a duplicate name, an enum without values', () => {
    const bad = (input: Parameters<typeof completeSignals>[0], re: RegExp) =>
      assert.throws(
        () => completeSignals(input),
        (err: { code: number; message: string }) => {
          assert.equal(err.code, 422);
          assert.match(err.message, re);
          return true;
        },
      );
    bad([{ name: 'a', description: 'x', frequency_hz: 11 }], /signal "a": 11 Hz is not a band frequency/);
    bad(
      [
        { name: 'a', description: 'x', frequency_hz: 2 },
        { name: 'b', description: 'x', frequency_hz: 2 },
      ],
      /"a" and "b" share 2 Hz/,
    );
    bad(
      [
        { name: 'a', description: 'x' },
        { name: 'a', description: 'y' },
      ],
      /"a" is used by two signals/,
    );
    bad([{ name: 'kind', description: 'x', type: 'enum' }], /"kind" is an enum and needs allowed_values/);
  });

  it('multipliers name bands (or their frequencies)', () => {
    const s = completeSignals([{ name: 'product', description: 'x', frequency_hz: 30 }]);
    assert.deepEqual(checkMultipliers(s, { product: 2, '10': 0.5 }), { product: 2, main_content: 0.5 });
    assert.throws(() => checkMultipliers(s, { nope: 1 }), /no band "nope"/);
    assert.throws(() => checkMultipliers(s, { product: 1, '30.0': 2 }), /given twice/);
  });
});

for (const store of testStores) {
  describe(`domains service [${store.name}]`, () => {
    let db: Db;
    let service: DomainsService;
    let org: string;
    let owner: Actor;
    const body = (domain_id: string) => ({
      domain_id,
      name: 'Support tickets',
      description: 'Customer support tickets',
      signals: [{ name: 'product', description: 'The product', type: 'text' as const, frequency_hz: 30, weight: 2 }],
    });

    before(async () => {
      db = await store.open();
      org = (await makeOrg(db)).organizationId;
      owner = ownerActor(org, '');
      service = createDomainsService({ db });
    });
    after(() => db.close());

    it('resolve: general by default, built-ins by short or full id, 404 otherwise', async () => {
      assert.equal((await service.resolve(owner, undefined)).domain_id, 'general');
      assert.equal((await service.resolve(owner, '')).domain_id, 'general');
      assert.equal((await service.resolve(owner, 'engram:legal:1')).domain_id, 'legal');
      await assert.rejects(service.resolve(owner, 'acme:nothing:1'), { code: 404 });
    });

    it('a custom domain is stored complete and resolved before a built-in of the same middle name', async () => {
      const created = await service.create(owner, { ...body('acme:legal:2'), signal_multipliers: { product: 1.5 } });
      assert.equal(created.signals.length, 14);
      assert.equal(created.owner_organization_id, org);
      assert.deepEqual(created.signal_multipliers, { product: 1.5 });
      assert.deepEqual(created.catalog_config, { enabled: true, refresh_every_n: 100 });
      const resolved = await service.resolve(owner, 'acme:legal:2');
      assert.equal(resolved.builtin, false);
      assert.equal(resolved.signals[10].name, 'product');
      assert.equal((await service.resolve(owner, 'acme:legal:3')).domain_id, 'legal');
    });

    it('an end user token cannot register; a namespace key changes only its namespace’s domains', async () => {
      const endUser: Actor = { ...owner, methods: ['session'] };
      await assert.rejects(service.create(endUser, body('acme:x:1')), { code: 403 });
      const ns = await makeNamespace(db, org);
      const nsKey: Actor = { ...owner, namespaceId: ns };
      const mine = await service.create(nsKey, body('ns:mine:1'));
      assert.equal(mine.owner_namespace_id, ns);
      assert.equal((await service.update(nsKey, 'ns:mine:1', { name: 'Mine' })).name, 'Mine');
      await assert.rejects(service.update(nsKey, 'acme:legal:2', { name: 'Theirs' }), { code: 403 });
      await assert.rejects(service.delete({ ...owner, permissions: new Set(['read', 'write']) }, 'ns:mine:1'), {
        code: 403,
      });
      assert.deepEqual(await service.delete(owner, 'ns:mine:1'), { deleted: true, domain_id: 'ns:mine:1' });
    });

    it('update merges catalog settings, replaces multipliers and accepts identical signals only', async () => {
      const u = await service.update(owner, 'acme:legal:2', {
        catalog_config: { refresh_every_n: 5 },
        signal_multipliers: {},
        routing_config: { egr_lambda_ce: 0.2, custom_key: 'kept' },
        signals: body('x').signals,
      });
      assert.deepEqual(u.catalog_config, { enabled: true, refresh_every_n: 5 });
      assert.deepEqual(u.signal_multipliers, {});
      assert.deepEqual(u.routing_config, { egr_lambda_ce: 0.2, custom_key: 'kept' });
      await assert.rejects(
        service.update(owner, 'acme:legal:2', { signals: [{ name: 'other', description: 'x', frequency_hz: 30 }] }),
        { code: 422 },
      );
      const changed = await service.update(owner, 'acme:legal:2', { catalog_config: { enabled: false } });
      assert.deepEqual(changed.catalog_config, { enabled: false, refresh_every_n: 5 });
    });

    it('list: built-ins first, then the organization’s, oldest first; another organization sees none', async () => {
      await service.create(owner, body('acme:zeta:1'));
      const ids = (await service.list(owner)).domains.map((d) => d.domain_id);
      assert.deepEqual(
        ids.slice(0, 14),
        BUILTIN_DOMAINS.map((d) => d.domain_id),
      );
      assert.deepEqual(ids.slice(14), ['acme:legal:2', 'acme:zeta:1']);
      const other = ownerActor((await makeOrg(db)).organizationId, '');
      assert.equal((await service.list(other)).domains.length, 14);
      await assert.rejects(service.get(other, 'acme:zeta:1'), { code: 404 });
      await assert.rejects(service.delete(other, 'acme:zeta:1'), { code: 404 });
    });
  });
}
