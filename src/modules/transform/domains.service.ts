/**
 * Graph-transform domains (spec §2.9; client `graph.domains.*`): the 14 built-ins and each
 * organization's custom ones, with their catalogs (catalog.service.ts). Domains are shared by
 * the whole organization: any of its credentials reads them; registering and changing them
 * takes the application's API key (an end user's own token cannot), and a namespace key may
 * change only the domains its namespace registered.
 */
import type { Db, Queryable } from '../../platform/db/index.ts';
import { requireApiKey, requirePermission, type Actor } from '../../shared/actor.ts';
import { AppError, forbidden, notFound } from '../../shared/errors.ts';
import { iso } from '../../shared/time.ts';
import type { Domain } from './bands.ts';
import { createCatalogService } from './catalog.service.ts';
import {
  BUILTIN_DOMAINS,
  BUILTIN_SHORT_NAMES,
  builtinFor,
  DEFAULT_DOMAIN_ID,
  isReservedId,
  resolveDomainId,
} from './domains.builtin.ts';
import type { CreateDomainBody, DomainView, UpdateDomainBody } from './domains.schemas.ts';
import {
  deleteDomainRow,
  getDomainRow,
  insertDomainRow,
  listDomainRows,
  updateDomainRow,
  type DomainRow,
} from './domains.store.ts';
import {
  checkMultipliers,
  completeSignals,
  DOMAIN_ID_FORM,
  fieldError,
  sameSignals,
  type SignalInput,
} from './domains.validate.ts';

/** A custom domain's row as a Domain. */
export function toDomain(r: DomainRow): Domain {
  return {
    domain_id: r.domain_id,
    name: r.name,
    description: r.description,
    signals: r.signals,
    builtin: false,
    signal_multipliers: r.signal_multipliers ?? {},
    catalog_config: {
      enabled: r.catalog_config?.enabled ?? true,
      refresh_every_n: r.catalog_config?.refresh_every_n ?? 100,
    },
    routing_config: r.routing_config ?? {},
    owner_user_id: r.owner_user_id,
    owner_organization_id: r.organization_id,
    owner_namespace_id: r.owner_namespace_id,
    owner_workspace_id: null,
    created_at: iso(r.created_at),
  };
}

/** Domain fields as the API emits them (owner fields always present). */
function viewOf(d: Domain): DomainView {
  return {
    ...d,
    signals: d.signals.map((s) => ({ ...s, required: s.required ?? false })),
    owner_user_id: d.owner_user_id ?? null,
    owner_organization_id: d.owner_organization_id ?? null,
    owner_namespace_id: d.owner_namespace_id ?? null,
    owner_workspace_id: d.owner_workspace_id ?? null,
  };
}

/** 409 without retries: the client repeats a 409 unless told not to (client-contract W.6). */
const conflict = (message: string, details: Record<string, unknown>) => new AppError(409, message, details, false);

const builtinConflict = (id: string, short: string, what: string) =>
  conflict(
    `Domain ${id} is the built-in domain ${short}, which cannot be ${what}; register a custom domain ` +
      '(POST /v1/graph/domains) to use other bands or settings',
    { domain_id: id, builtin: short },
  );

/** The signals of a body: `signals` or its former name `fields` (both given must agree). */
function signalsOf(body: { signals?: SignalInput[]; fields?: SignalInput[] }): SignalInput[] | undefined {
  if (body.signals && body.fields && JSON.stringify(body.signals) !== JSON.stringify(body.fields))
    throw fieldError('fields', 'fields is the former name of signals; send one of them, or both the same');
  return body.signals ?? body.fields;
}

export function createDomainsService({ db }: { db: Db }) {
  /** The domain an id names for an organization (its custom id first, then a built-in), if any. */
  async function domainFor(q: Queryable, organizationId: string, id: string): Promise<Domain | undefined> {
    const row = await getDomainRow(q, organizationId, id);
    const resolved = resolveDomainId(id, new Set(row ? [id] : []));
    if (!resolved) return undefined;
    return resolved.kind === 'custom' ? toDomain(row!) : builtinFor(resolved.id);
  }

  async function found(actor: Actor, id: string): Promise<Domain> {
    const domain = await domainFor(db, actor.organizationId, id);
    if (!domain) throw new AppError(404, `Domain ${id} not found`, { domain_id: id, builtin: BUILTIN_SHORT_NAMES });
    return domain;
  }

  /** The custom domain `id` the actor may change: 409 for a built-in, 404 unknown, 403 another namespace's. */
  async function changeable(actor: Actor, id: string, what: string): Promise<DomainRow> {
    requireApiKey(actor, `${what} graph domains`);
    const row = await getDomainRow(db, actor.organizationId, id);
    if (!row) {
      const builtin = builtinFor(id);
      if (builtin) throw builtinConflict(id, builtin.domain_id, what === 'change' ? 'changed' : 'deleted');
      throw notFound(`Domain ${id}`);
    }
    if (actor.namespaceId && row.owner_namespace_id !== actor.namespaceId)
      throw forbidden(`A namespace API key can ${what} only the domains its namespace registered`, {
        domain_id: id,
        namespace_id: actor.namespaceId,
      });
    return row;
  }

  const catalog = createCatalogService({ db, domainFor });

  /** A domain with its catalog and newest buffered transforms (single-domain responses). */
  async function detailed(organizationId: string, d: Domain): Promise<DomainView> {
    return { ...viewOf(d), ...(await catalog.forDomain(db, organizationId, d.domain_id)) };
  }

  return {
    domainFor,
    observe: catalog.observe,
    observeAll: catalog.observeAll,
    catalog,

    /**
     * The domain a transform or rerank uses: `general` when none is named, else what the id names
     * for the actor's organization (404 when nothing). Permissions are the calling route's.
     */
    async resolve(actor: Actor, domainId: string | undefined): Promise<Domain> {
      return found(actor, domainId || DEFAULT_DOMAIN_ID);
    },

    /** GET /v1/graph/domains: built-ins first, then the organization's own (oldest first). */
    async list(actor: Actor): Promise<{ domains: DomainView[] }> {
      requirePermission(actor, 'read');
      const rows = await listDomainRows(db, actor.organizationId);
      return { domains: [...BUILTIN_DOMAINS, ...rows.map(toDomain)].map(viewOf) };
    },

    /** GET /v1/graph/domains/{id} */
    async get(actor: Actor, id: string): Promise<DomainView> {
      requirePermission(actor, 'read');
      return detailed(actor.organizationId, await found(actor, id));
    },

    /** POST /v1/graph/domains */
    async create(actor: Actor, body: CreateDomainBody): Promise<DomainView> {
      requirePermission(actor, 'write');
      requireApiKey(actor, 'register graph domains');
      const id = body.domain_id;
      if (isReservedId(id)) throw builtinConflict(id, builtinFor(id)!.domain_id, 'registered again');
      if (!DOMAIN_ID_FORM.test(id))
        throw fieldError('domain_id', 'must have the form <name>:<domain>:<version> ([A-Za-z0-9_.-] in each part)');
      const input = signalsOf(body);
      if (!input) throw fieldError('signals', 'is required: 1 to 14 signal fields');
      const signals = completeSignals(input);
      const row = await insertDomainRow(db, {
        organization_id: actor.organizationId,
        domain_id: id,
        name: body.name,
        description: body.description,
        signals,
        signal_multipliers: checkMultipliers(signals, body.signal_multipliers ?? {}),
        catalog_config: {
          enabled: body.catalog_config?.enabled ?? true,
          refresh_every_n: body.catalog_config?.refresh_every_n ?? 100,
        },
        routing_config: body.routing_config ?? {},
        owner_user_id: actor.userId || null,
        owner_namespace_id: actor.namespaceId,
      });
      if (!row) throw conflict(`Domain ${id} already exists in this organization`, { domain_id: id });
      return detailed(actor.organizationId, toDomain(row));
    },

    /** PUT /v1/graph/domains/{id}: settings only; the bands of a domain never change. */
    async update(actor: Actor, id: string, body: UpdateDomainBody): Promise<DomainView> {
      requirePermission(actor, 'write');
      const row = await changeable(actor, id, 'change');
      const sent = signalsOf(body);
      if (sent && !sameSignals(completeSignals(sent), row.signals))
        throw fieldError('signals', 'the bands of a domain cannot change; register a new version of its id instead');
      const { enabled, refresh_every_n } = body.catalog_config ?? {};
      const updated = await updateDomainRow(db, actor.organizationId, id, {
        name: body.name,
        description: body.description,
        signal_multipliers: body.signal_multipliers && checkMultipliers(row.signals, body.signal_multipliers),
        catalog_config: body.catalog_config && {
          enabled: enabled ?? row.catalog_config.enabled ?? true,
          refresh_every_n: refresh_every_n ?? row.catalog_config.refresh_every_n ?? 100,
        },
        routing_config: body.routing_config,
      });
      if (!updated) throw notFound(`Domain ${id}`);
      return detailed(actor.organizationId, toDomain(updated));
    },

    /** DELETE /v1/graph/domains/{id}: the domain, its catalog and its buffered transforms. */
    async delete(actor: Actor, id: string): Promise<{ deleted: true; domain_id: string }> {
      requirePermission(actor, 'delete');
      await changeable(actor, id, 'delete');
      if (!(await deleteDomainRow(db, actor.organizationId, id))) throw notFound(`Domain ${id}`);
      return { deleted: true, domain_id: id };
    },
  };
}

export type DomainsService = ReturnType<typeof createDomainsService>;
