/**
 * The GraphQL schema in SDL: the single source of the types (docs/graphql.md prints it; a test
 * checks the page against it). Field names are camelCase, GraphQL's convention; values are the
 * REST API's (the same ids, statuses and JSON objects).
 */
export const SDL = /* GraphQL */ `
  """
  Any JSON value: an object, array, string, number, boolean or null.
  """
  scalar JSON

  """
  Kind of content of a memory.
  """
  enum MemoryType {
    text
    code_snippet
    document
  }

  """
  One turn of the conversation a memory came from.
  """
  type ContextItem {
    role: String!
    content: String!
  }

  """
  A stored memory, as GET /v1/memory/{memory_id} shows it.
  """
  type Memory {
    id: ID!
    content: String!
    type: String!
    "Internal id of its owner."
    userId: ID!
    "Its owner's id in your application, if it has one."
    externalUserId: String
    namespaceId: ID
    organizationId: ID
    metadata: JSON
    customMetadata: JSON
    context: [ContextItem!]
    role: String
    category: String
    topics: [String!]
    conversationId: String
    sourceType: String
    "Processing status: queued, processing, completed, failed (or quick_saved)."
    status: String
    "Who may read and change it: entity id → {read, write}."
    acl: JSON
    "ISO 8601."
    createdAt: String
    updatedAt: String
    "Search results only: the final score the results are ranked by."
    relevanceScore: Float
    "Search results only: cosine similarity of the query and the memory (primary embedding)."
    similarityScore: Float
  }

  """
  A page of memories, newest first.
  """
  type MemoryPage {
    items: [Memory!]!
    "Pass as after to read the next page; null on the last page."
    nextCursor: String
    hasMore: Boolean!
  }

  """
  A knowledge-graph node (an entity found in memories).
  """
  type GraphNode {
    id: ID!
    "Its type: Person, Organization, Location, a user schema type …"
    label: String!
    name: String
    "Its stored properties, with id and name."
    properties: JSON!
    schemaId: String
  }

  """
  A relationship between two nodes, produced by one memory.
  """
  type Relationship {
    id: ID!
    type: String!
    source: GraphNode!
    target: GraphNode!
    memoryId: ID!
    properties: JSON!
  }

  """
  The graph around a user's most recent memories.
  """
  type Graph {
    "Nodes linked to those memories, most linked first."
    nodes: [GraphNode!]!
    "Relationships those memories produced, newest first."
    relationships: [Relationship!]!
    "How many memories the graph was read from."
    memoriesRead: Int!
  }

  """
  What a search found.
  """
  type SearchResult {
    "Id of this search in the query log."
    searchId: ID!
    memories: [Memory!]!
    nodes: [GraphNode!]!
  }

  """
  An end user of the organization.
  """
  type User {
    id: ID!
    externalId: String
    email: String
    type: String
    metadata: JSON
    createdAt: String
    updatedAt: String
    "The user's own memories, newest first."
    memories(namespaceId: ID, first: Int = 20, after: String): MemoryPage!
  }

  type UserPage {
    items: [User!]!
    total: Int!
  }

  """
  A namespace of the organization.
  """
  type Namespace {
    id: ID!
    name: String!
    environmentType: String
    isActive: Boolean
    memoriesCount: Int
    "Bytes stored."
    storageCount: Float
    createdAt: String
    updatedAt: String
  }

  type NamespacePage {
    items: [Namespace!]!
    total: Int!
  }

  type Query {
    "One memory by id; another organization's (or one the caller may not read) is not found."
    memory(id: ID!): Memory
    "Memories newest first: a user's (externalUserId), or all the caller may read; first at most 100."
    memories(externalUserId: String, namespaceId: ID, first: Int = 20, after: String): MemoryPage!
    "Hybrid search, as POST /v1/memory/search: maxMemories 1-200, maxNodes 0-200."
    search(
      query: String!
      externalUserId: String
      namespaceId: ID
      maxMemories: Int = 20
      maxNodes: Int = 15
      enableAgenticGraph: Boolean = false
    ): SearchResult!
    "Graph nodes and relationships of a user's 200 most recent memories (or all the caller may read)."
    graph(externalUserId: String, namespaceId: ID, maxNodes: Int = 50, maxRelationships: Int = 100): Graph!
    "Users of the organization (an end user's token sees only itself); first at most 100."
    users(externalId: String, email: String, first: Int = 20, page: Int = 1): UserPage!
    user(id: ID!): User
    "Namespaces (a namespace key sees only its own); first at most 100."
    namespaces(first: Int = 20, skip: Int = 0): NamespacePage!
    namespace(id: ID!): Namespace
  }

  input ContextItemInput {
    role: String!
    content: String!
  }

  """
  A new memory: the fields of POST /v1/memory, camelCase; the same checks.
  """
  input AddMemoryInput {
    content: String!
    type: MemoryType
    metadata: JSON
    context: [ContextItemInput!]
    externalUserId: String
    namespaceId: ID
    "The unified policy object of POST /v1/memory (graph, acl, consent, risk, transform_embedding)."
    policy: JSON
    "The memory_policy object of POST /v1/memory."
    memoryPolicy: JSON
    "true: stored as completed at once, without the background processing job."
    skipBackgroundProcessing: Boolean
  }

  """
  Fields to change; absent fields stay (PUT /v1/memory/{memory_id}).
  """
  input UpdateMemoryInput {
    content: String
    type: MemoryType
    metadata: JSON
    context: [ContextItemInput!]
    namespaceId: ID
    policy: JSON
    memoryPolicy: JSON
  }

  type AddedMemory {
    id: ID!
    createdAt: String!
    memoryChunkIds: [ID!]!
    "The stored memory (needs the read permission; null without it)."
    memory: Memory
  }

  type UpdatedMemory {
    id: ID!
    updatedAt: String!
    memory: Memory!
  }

  type DeletedMemory {
    id: ID!
    deleted: Boolean!
  }

  type Mutation {
    addMemory(input: AddMemoryInput!): AddedMemory!
    updateMemory(id: ID!, input: UpdateMemoryInput!): UpdatedMemory!
    deleteMemory(id: ID!): DeletedMemory!
  }
`;
