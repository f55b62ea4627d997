/**
 * Extraction by any OpenAI-compatible `/v1/chat/completions` endpoint (OpenAI, vLLM, Ollama,
 * llama.cpp server…). The reply is asked for as JSON constrained by a JSON schema that
 * enumerates the active node and relationship types (`response_format: json_schema`, or
 * `json_object` for servers without structured output), validated with zod, and filtered:
 * nodes and relationships of types outside the active schema are dropped.
 *
 * Errors: transport failures, timeouts, 429 and 5xx throw a retryable `ExtractorError`
 * (the job runner retries with backoff; this adapter does not retry on its own). Output that
 * is still unusable after one repair request throws a non-retryable 'bad_response'.
 */
import { chatJsonClient, parseJsonReply, type ChatJsonOptions, type ChatMessage } from './openai-chat.ts';
import { endpointUrl } from './openai-http.ts';
import { z } from 'zod';
import {
  canonicalName,
  DEFAULT_NODE_TYPES,
  DEFAULT_RELATIONSHIP_TYPES,
  ExtractorError,
  restrictToSchema,
  upperSnake,
  type ExtractedNode,
  type ExtractedRelationship,
  type Extraction,
  type ExtractionInput,
  type Extractor,
  type PropertyValue,
} from './extractor.ts';

/** How to reach the chat server; timeoutMs defaults to 60 s. */
export type LlmExtractorOptions = Omit<ChatJsonOptions, 'timeoutMs'> & { timeoutMs?: number };

const scalar = z.union([z.string(), z.number(), z.boolean()]);
/** Properties as the schema asks ([{key, value}]) or as a plain object, which json_object replies often use. */
const properties = z
  .union([z.array(z.object({ key: z.string(), value: scalar.nullable() })), z.record(z.string(), scalar.nullable())])
  .optional()
  .transform((p) => {
    const entries = Array.isArray(p) ? p.map((e) => [e.key, e.value] as const) : Object.entries(p ?? {});
    return Object.fromEntries(entries.filter((e): e is [string, PropertyValue] => e[1] !== null && e[0] !== ''));
  });
const id = z.union([z.string().min(1), z.number()]).transform(String);
const replySchema = z.object({
  nodes: z.array(
    z.object({
      id,
      type: z.string().min(1),
      name: z.string().trim().min(1),
      properties,
      mentions: z.array(z.string()).optional(),
    }),
  ),
  relationships: z.array(z.object({ source: id, target: id, type: z.string().min(1), properties })).default([]),
});

/** Build an extractor for an OpenAI-compatible chat endpoint (id 'llm:<model>'). */
export function createLlmExtractor(options: LlmExtractorOptions): Extractor {
  const chat = chatJsonClient(
    { ...options, timeoutMs: options.timeoutMs ?? 60_000 },
    'graph_extraction',
    (code, message, retryable, extra) => new ExtractorError(code, message, retryable, extra),
  );

  return {
    id: chat.name,
    async extract(input: ExtractionInput): Promise<Extraction> {
      const nodeTypes = input.schema ? input.schema.node_types.map((t) => t.name) : [...DEFAULT_NODE_TYPES];
      const relTypes = input.schema
        ? input.schema.relationship_types.map((t) => upperSnake(t.name))
        : [...DEFAULT_RELATIONSHIP_TYPES];
      if (!input.content.trim()) return { nodes: [], relationships: [] };
      const jsonSchema = extractionJsonSchema(nodeTypes, relTypes);
      const reply = await chat.ask(buildMessages(input, nodeTypes, relTypes), jsonSchema, parseJsonReply(replySchema));
      return restrictToSchema(toExtraction(reply, nodeTypes, relTypes), input.schema);
    },
  };
}

/** The JSON schema of the reply, types enumerated; written for OpenAI's strict mode (all keys required, no extras). */
function extractionJsonSchema(nodeTypes: string[], relationshipTypes: string[]): object {
  const props = {
    type: 'array',
    items: {
      type: 'object',
      additionalProperties: false,
      required: ['key', 'value'],
      properties: { key: { type: 'string' }, value: { type: ['string', 'number', 'boolean'] } },
    },
  };
  const object = (props: Record<string, object>) => ({
    type: 'object',
    additionalProperties: false,
    required: Object.keys(props),
    properties: props,
  });
  return object({
    nodes: {
      type: 'array',
      items: object({
        id: { type: 'string' },
        type: { type: 'string', enum: nodeTypes },
        name: { type: 'string' },
        properties: props,
        mentions: { type: 'array', items: { type: 'string' } },
      }),
    },
    relationships: {
      type: 'array',
      items: object({
        source: { type: 'string' },
        target: { type: 'string' },
        type: { type: 'string', enum: relationshipTypes },
        properties: props,
      }),
    },
  });
}

type Reply = z.infer<typeof replySchema>;

/** One chat-completions message. */

const TYPE_HINTS: Record<string, string> = {
  Person: 'a named human',
  Organization: 'a company, school, team, agency or other named group',
  Place: 'a city, country, region, address, venue or landmark',
  Date: 'a date, week, month or year, named in ISO-8601: 2023-05-07, 2023-W19, 2023-05, 2023',
  Product: 'a named product, device, app or service',
  Topic: 'a salient subject, activity or thing, singular (support group, pottery)',
  Event: 'something that happens at a time (race, wedding, conference, trip)',
};

/** System rules (types, properties, conventions) and the memory with its context and reference date. */
function buildMessages(input: ExtractionInput, nodeTypes: string[], relTypes: string[]): ChatMessage[] {
  const schema = input.schema;
  const nodeLines = nodeTypes.map((t) => {
    const props = schema?.node_types
      .find((n) => n.name === t)
      ?.properties.map(
        (p) =>
          `${p.name}: ${p.type}${p.required ? ', required' : ''}` +
          `${p.enum ? `, one of ${p.enum.map((v) => JSON.stringify(v)).join(' | ')}` : ''}`,
      )
      .join('; ');
    return `- ${t}${!schema && TYPE_HINTS[t] ? `: ${TYPE_HINTS[t]}` : ''}${props ? ` (properties: ${props})` : ''}`;
  });
  const relLines = relTypes.map((t) => {
    const decl = schema?.relationship_types.find((r) => upperSnake(r.name) === t);
    const ends =
      decl?.source_types?.length || decl?.target_types?.length
        ? ` (${decl.source_types?.join('|') || 'any'} -> ${decl.target_types?.join('|') || 'any'})`
        : '';
    return `- ${t}${ends}`;
  });
  const system = [
    'You extract a knowledge graph from one memory (a message or note) for a memory service.',
    'Reply with only a JSON object: {"nodes": [...], "relationships": [...]}.',
    `Node types, use no others:\n${nodeLines.join('\n')}`,
    `Relationship types (source -> target), use no others:\n${relLines.join('\n')}`,
    'Rules:',
    '- One node per distinct entity. `id` is a short id you choose (n1, n2, ...); relationships refer to node ids.',
    "- `name` is the canonical name: the fullest name used, without a possessive 's.",
    '- `properties` is a list of {key, value}; `mentions` lists the exact text spans that name the node.',
    `- "I", "me" and "my" are the speaker${input.speaker ? ` (${input.speaker})` : ''}; ` +
      'give the speaker the id "speaker" when their name is known, otherwise leave them out.',
    '- Resolve relative dates ("yesterday", "last week") against the reference date.',
    schema
      ? ''
      : '- FAMILY, FRIEND, PARTNER and COLLEAGUE carry a "relation" property (sister, best friend, ...). ' +
        'MENTIONED_WITH links entities that only occur together.',
    '- Extract only what the memory states; earlier turns are context for resolving references only.',
    input.guidance?.length
      ? `Property guidance (fill these properties as described):\n${input.guidance.map((g) => `- ${g}`).join('\n')}`
      : '',
  ].filter(Boolean);
  const ref = input.createdAt
    ? `${input.createdAt.toISOString().slice(0, 10)} ` +
      `(${input.createdAt.toLocaleDateString('en-US', { weekday: 'long', timeZone: 'UTC' })})`
    : 'unknown';
  const context = (input.context ?? []).map((t) => `${t.role}: ${t.content}`).join('\n');
  const user = [
    `Reference date: ${ref}`,
    input.speaker ? `Speaker: ${input.speaker}` : '',
    context ? `Earlier turns (context only):\n${context}` : '',
    `Memory:\n${input.content}`,
  ];
  return [
    { role: 'system', content: system.join('\n') },
    { role: 'user', content: user.filter(Boolean).join('\n\n') },
  ];
}

/** Keep allowed types only, give nodes stable keys ('speaker' stays), merge same-named nodes, drop dangling edges. */
function toExtraction(reply: Reply, nodeTypes: string[], relTypes: string[]): Extraction {
  const keyOf = new Map<string, string>();
  const nodes = new Map<string, ExtractedNode>();
  for (const n of reply.nodes) {
    const type = nodeTypes.find((t) => t.toLowerCase() === n.type.trim().toLowerCase());
    if (!type) continue;
    const name = canonicalName(n.name) || n.name;
    const key =
      n.id === 'speaker'
        ? 'speaker'
        : `${type.toLowerCase()}:${name
            .toLowerCase()
            .replace(/[^\p{L}\p{N}]+/gu, '-')
            .replace(/^-|-$/g, '')}`;
    keyOf.set(n.id, key);
    const existing = nodes.get(key);
    const mentions = n.mentions?.length ? n.mentions : [n.name];
    if (existing) {
      existing.mentions.push(...mentions.filter((m) => !existing.mentions.includes(m)));
      existing.properties = { ...n.properties, ...existing.properties };
    } else nodes.set(key, { key, type, name, properties: n.properties, mentions: [...new Set(mentions)] });
  }
  const seen = new Set<string>();
  const relationships: ExtractedRelationship[] = [];
  for (const r of reply.relationships) {
    const type = upperSnake(r.type);
    const source = keyOf.get(r.source);
    const target = keyOf.get(r.target);
    const dedupe = `${source}|${type}|${target}`;
    if (!relTypes.includes(type) || !source || !target || source === target || seen.has(dedupe)) continue;
    seen.add(dedupe);
    relationships.push(
      Object.keys(r.properties).length ? { source, target, type, properties: r.properties } : { source, target, type },
    );
  }
  return { nodes: [...nodes.values()], relationships };
}

/** Accept a server root, an API base ending in /v<n>, or the full endpoint URL. */
export function chatCompletionsUrl(baseUrl: string): string {
  return endpointUrl(baseUrl, 'chat/completions');
}
