/**
 * Administration as the API offers it: namespace API keys (list, create, revoke), namespaces
 * (list, create, delete) and, with the operator's admin key, organizations (list, create, their
 * defaults for keeping memories true) and revoking any key (`org revoke-key`).
 */
import type { Command } from 'commander';
import { engramRequest, type EngramTarget } from '../../client/http.ts';
import { UsageError, emit, targetOf } from '../context.ts';

type Row = Record<string, unknown>;
const table = (rows: Row[], cols: string[]) =>
  rows.length ? rows.map((r) => cols.map((c) => String(r[c] ?? '-')).join('  ')).join('\n') : '(none)';
const enc = encodeURIComponent;

/** The admin API takes the operator key (ADMIN_API_KEY) as a bearer token. */
function adminTarget(cmd: Command): EngramTarget {
  const key = cmd.optsWithGlobals<{ adminKey?: string }>().adminKey ?? process.env.ENGRAM_ADMIN_KEY;
  if (!key) throw new UsageError('the admin API needs --admin-key or ENGRAM_ADMIN_KEY');
  return { baseUrl: targetOf(cmd).baseUrl, bearer: key };
}

export function registerAdminCommands(program: Command): void {
  const keys = program.command('keys').description('API keys of a namespace');
  keys
    .command('list')
    .argument('<namespace>', 'namespace id')
    .action(async (ns: string, _o: unknown, cmd: Command) => {
      const r = await engramRequest<{ data: Row[] }>(targetOf(cmd), 'GET', `/v1/namespace/${enc(ns)}/api-keys`);
      emit(cmd, r.data, () => table(r.data, ['objectId', 'key_prefix', 'name', 'permissions', 'is_active']));
    });
  keys
    .command('create')
    .argument('<namespace>', 'namespace id')
    .requiredOption('--name <name>', 'a name for the key')
    .option('--permissions <list>', 'comma-separated: read,write,delete')
    .option('--environment <env>', 'development, staging or production')
    .action(async (ns: string, o: { name: string; permissions?: string; environment?: string }, cmd: Command) => {
      const r = await engramRequest<{ data: Row }>(targetOf(cmd), 'POST', `/v1/namespace/${enc(ns)}/api-keys`, {
        body: { name: o.name, permissions: o.permissions?.split(','), environment: o.environment },
      });
      emit(cmd, r.data, () => `${String(r.data.objectId)}\n${String(r.data.key)}  (shown once)`);
    });
  keys
    .command('revoke')
    .argument('<namespace>', 'namespace id')
    .argument('<key-id>', 'key id (objectId)')
    .action(async (ns: string, id: string, _o: unknown, cmd: Command) => {
      await engramRequest(targetOf(cmd), 'DELETE', `/v1/namespace/${enc(ns)}/api-keys/${enc(id)}`);
      emit(cmd, { id, revoked: true }, () => `revoked ${id}`);
    });

  const ns = program.command('namespaces').description('Namespaces of the organization');
  ns.command('list').action(async (_o: unknown, cmd: Command) => {
    const r = await engramRequest<{ data: Row[] }>(targetOf(cmd), 'GET', '/v1/namespace', { query: { limit: 100 } });
    emit(cmd, r.data, () => table(r.data, ['objectId', 'name', 'environment_type', 'is_active']));
  });
  ns.command('create')
    .argument('<name>', 'namespace name')
    .option('--environment <env>', 'development, staging or production')
    .action(async (name: string, o: { environment?: string }, cmd: Command) => {
      const r = await engramRequest<{ data: Row }>(targetOf(cmd), 'POST', '/v1/namespace', {
        body: { name, environment_type: o.environment },
      });
      emit(cmd, r.data, () => String(r.data.objectId));
    });
  ns.command('delete')
    .argument('<namespace>', 'namespace id')
    .action(async (id: string, _o: unknown, cmd: Command) => {
      await engramRequest(targetOf(cmd), 'DELETE', `/v1/namespace/${enc(id)}`);
      emit(cmd, { id, deleted: true }, () => `deleted ${id}`);
    });

  const org = program
    .command('org')
    .description('Organizations (operator admin API: --admin-key or ENGRAM_ADMIN_KEY)')
    .option('--admin-key <key>', 'the operator credential (ADMIN_API_KEY of the server)');
  org.command('list').action(async (_o: unknown, cmd: Command) => {
    const r = await engramRequest<{ data: Row[] }>(adminTarget(cmd), 'GET', '/admin/organizations');
    emit(cmd, r.data, () =>
      table(r.data, ['organization_id', 'name', 'namespaces', 'active_keys', 'dedupe', 'supersede']),
    );
  });
  org
    .command('set')
    .description("An organization's defaults for keeping memories true (docs/truth.md)")
    .argument('<organization-id>', 'organization id')
    .option('--dedupe <mode>', 'near, exact, off or default (the deployment’s)')
    .option('--supersede <mode>', 'auto, off or default (the deployment’s)')
    .action(async (id: string, o: { dedupe?: string; supersede?: string }, cmd: Command) => {
      if (!o.dedupe && !o.supersede) throw new UsageError('give --dedupe, --supersede or both');
      const r = await engramRequest<{ data: Row }>(adminTarget(cmd), 'PATCH', `/admin/organizations/${enc(id)}`, {
        body: { dedupe: o.dedupe, supersede: o.supersede },
      });
      emit(cmd, r.data, () => `dedupe ${String(r.data.dedupe)}, supersede ${String(r.data.supersede)}`);
    });
  org
    .command('create')
    .argument('<name>', 'organization name')
    .action(async (name: string, _o: unknown, cmd: Command) => {
      const r = await engramRequest<{ data: Row & { api_key: { key: string } } }>(
        adminTarget(cmd),
        'POST',
        '/admin/organizations',
        { body: { name } },
      );
      emit(cmd, r.data, () => `${String(r.data.organization_id)}\n${r.data.api_key.key}  (shown once)`);
    });
  org
    .command('revoke-key')
    .argument('<key-id>', 'any API key id')
    .action(async (id: string, _o: unknown, cmd: Command) => {
      await engramRequest(adminTarget(cmd), 'DELETE', `/admin/api-keys/${enc(id)}`);
      emit(cmd, { id, revoked: true }, () => `revoked ${id}`);
    });
}
