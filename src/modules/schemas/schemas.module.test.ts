import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Db, Queryable } from '../../platform/db/index.ts';
import { testStores } from '../../../test/harness.ts';
import { makeOrg } from '../../../test/factories.ts';
import { namespaceAccess } from '../namespaces/index.ts';
import { createSchemasModule } from './index.ts';

for (const store of testStores) {
  describe(`schemas module, background lookups [${store.name}]`, () => {
    let db: Db;
    let organizationId: string;
    before(async () => {
      db = await store.open();
      organizationId = (await makeOrg(db)).organizationId;
    });
    after(() => db.close());

    it('answers null for a schema that is unknown (a memory may name one deleted since)', async () => {
      const schemas = createSchemasModule({ db, namespaces: namespaceAccess });
      assert.equal(await schemas.activeInOrganization(db, organizationId, 'no-such-schema'), null);
    });

    it(
      'lets a store error through, ' + 'so the job step fails and is retried instead of building without its schema',
      async () => {
        const schemas = createSchemasModule({ db, namespaces: namespaceAccess });
        const broken: Queryable = {
          ...db,
          query: () => Promise.reject(Object.assign(new Error('connection terminated'), { code: '57P01' })),
        };
        await assert.rejects(schemas.activeInOrganization(broken, organizationId, 'any'), /connection terminated/);
      },
    );
  });
}
