import type { GraphSchema } from '../../platform/models/extractor.ts';
import type { UserGraphSchema } from '../schemas/index.ts';

/**
 * A user graph schema as the extractor port reads it: node types with their properties
 * (required when the property says so or `required_properties` lists it; enums), and
 * relationship types with their allowed source and target types.
 */
export function extractionSchema(schema: UserGraphSchema): GraphSchema {
  return {
    node_types: Object.entries(schema.node_types ?? {}).map(([name, t]) => ({
      name,
      properties: Object.entries(t.properties ?? {}).map(([p, def]) => ({
        name: p,
        type: def.type,
        required: def.required === true || (t.required_properties ?? []).includes(p),
        enum: def.enum_values,
      })),
    })),
    relationship_types: Object.entries(schema.relationship_types ?? {}).map(([name, r]) => ({
      name,
      source_types: r.allowed_source_types,
      target_types: r.allowed_target_types,
    })),
  };
}
