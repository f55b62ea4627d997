/**
 * Built-in domains over code: code search and understanding (`code`, `cosqa`), code translation
 * (`codetrans`, `codetransocean`, `codetransocean_hybrid`) and questions to SQL (`text2sql`).
 * Identifiers weigh most: in code, a shared symbol is the strongest single sign of a match.
 */
import { defineBuiltin, reweighted, type BandRow } from './domains.builtin.define.ts';

const LANGUAGES = ['python', 'javascript', 'typescript', 'java', 'go', 'rust', 'c', 'cpp', 'csharp', 'ruby', 'php'];

// Bands every code domain words the same way (one definition, so they stay comparable).
// prettier-ignore
const SYMBOLS: BandRow = ['symbols', 'multi_value_text', 2.0,
  'Function, class, method, variable, module and API names, exactly as written, separated by ";".'];
// prettier-ignore
const LITERALS: BandRow = ['literals', 'multi_value_text', 0.6,
  'Literal values, constants, sizes, formats, regexes and version numbers, separated by ";".'];
// prettier-ignore
const INPUTS: BandRow = ['inputs', 'text', 1.1,
  'The inputs: parameters, arguments, files or data the code consumes (or the query gives), with their types.'];
// prettier-ignore
const OUTPUTS: BandRow = ['outputs', 'text', 1.1,
  'The outputs: return value and its type, side effect, or data produced.'];
// prettier-ignore
const OPERATION: BandRow = ['core_operation', 'text', 0.9,
  'The core operation as a verb in base form, with its object (e.g. sort list, parse date, open socket).'];
// prettier-ignore
const RETURN_KIND: BandRow = ['return_kind', 'enum', 0.8, 'What the code yields, or what the query expects back.',
  ['returns_value', 'returns_boolean', 'returns_collection', 'mutates_in_place', 'writes_output', 'raises_error',
    'no_result']];

// prettier-ignore
const CODE: readonly BandRow[] = [
  ['text_kind', 'enum', 0.6, 'What kind of text this is.',
    ['source_code', 'docstring', 'natural_language_query', 'stack_trace', 'config', 'test_code', 'documentation',
      'commit_message', 'code_review', 'api_reference']],
  ['task_kind', 'enum', 1.4, 'The programming task the code performs or the query asks for.',
    ['data_processing', 'string_manipulation', 'file_io', 'networking', 'database', 'math_numeric', 'algorithm',
      'data_structure', 'ui', 'concurrency', 'testing', 'parsing', 'system_os', 'machine_learning']],
  ['control_flow', 'text', 0.8,
    "The shape of the logic as one short clause (e.g. 'iterates rows, filters by predicate, returns list')."],
  ['code_qualities', 'multi_value_text', 0.6,
    'Qualities dwelt on, separated by ";" (e.g. performance; error handling; thread safety; readability).'],
  ['language', 'enum', 0.7, 'The programming language of the code or the one the query is about.', [...LANGUAGES,
    'sql', 'shell', 'kotlin', 'other']],
  ['functionality', 'text', 2.0, 'What the code does (or the query asks for), in one plain sentence.'],
  ['behaviour_evidence', 'text', 0.7,
    'Evidence of behaviour: return values, printed output, tests, assertions or examples shown; empty if none.'],
  INPUTS, OUTPUTS, OPERATION, SYMBOLS, LITERALS,
  ['design_rationale', 'text', 0.5, 'Why it is done this way: the algorithmic idea, reason or constraint, briefly.'],
  ['code_outcome', 'enum', 0.6, 'What the text amounts to.',
    ['working_code', 'buggy_code', 'partial_code', 'question', 'explanation', 'fix', 'refactor', 'example']],
];

// prettier-ignore
const COSQA: readonly BandRow[] = [
  ['text_kind', 'enum', 0.5, 'What kind of text this is.',
    ['web_query', 'python_function', 'docstring', 'code_with_docstring', 'snippet']],
  ['query_intent', 'enum', 1.5, 'The kind of task the query asks for or the function performs.',
    ['how_to', 'conversion', 'lookup', 'check_condition', 'transform_data', 'file_operation', 'string_operation',
      'math_operation', 'date_time', 'collection_operation', 'error_handling', 'api_usage']],
  ['code_logic', 'text', 0.8, "The shape of the logic as one short clause (e.g. 'loops over keys, collects matches')."],
  ['constraints', 'multi_value_text', 0.7,
    'Constraints asked for or shown, separated by ";" (e.g. in place; case insensitive; recursive; no library).'],
  ['libraries', 'multi_value_text', 0.8,
    'The Python modules, libraries or runtime involved, separated by ";" (e.g. os; pandas; numpy; python 3).'],
  ['functional_intent', 'text', 2.0,
    "What the query asks for or the function does, as one imperative sentence ('convert a list of strings to ints')."],
  ['example_evidence', 'text', 0.6, 'Examples, doctests, return statements or printed results shown; empty if none.'],
  ['input_data', 'text', 1.1, 'The input data and its type (e.g. list of strings, file path, dataframe).'],
  ['output_data', 'text', 1.1, 'The output data and its type, or the effect (e.g. list of ints, written file, bool).'],
  OPERATION, SYMBOLS, LITERALS,
  ['approach', 'text', 0.6, 'How it is achieved: the idiom or algorithm in a few words (e.g. list comprehension).'],
  RETURN_KIND,
];

/** Ocean's languages: the common ones and niche or legacy ones (15 values at most). */
const OCEAN_LANGUAGES = [
  'python',
  'java',
  'c',
  'cpp',
  'csharp',
  'javascript',
  'go',
  'rust',
  'php',
  'kotlin',
  'swift',
  'scala',
  'haskell',
  'fortran',
  'other',
];

/** Code translation: a program and its translation must agree on everything but syntax. */
// prettier-ignore
function translationRows(languages: readonly string[]): BandRow[] {
  return [
    ['language', 'enum', 0.4, 'The programming language the code is written in.', languages],
    ['program_kind', 'enum', 1.4, 'What kind of program unit this is.',
      ['algorithm', 'math_function', 'string_processing', 'data_structure', 'class_definition', 'io_routine',
        'nn_layer', 'tensor_operation', 'utility', 'test']],
    ['control_structure', 'text', 1.0,
      "The control structure, language-neutral (e.g. 'nested loops over i<j, early return on match')."],
    ['preserved_semantics', 'multi_value_text', 0.8,
      'Semantics a translation must keep, separated by ";" (e.g. integer division; overflow; 0-based index; nulls).'],
    ['runtime', 'text', 0.6,
      'The library, framework or runtime used (e.g. PyTorch, TensorFlow, STL, .NET collections); empty if none.'],
    ['functionality', 'text', 2.0, 'What the code computes, in one plain language-neutral sentence.'],
    ['io_examples', 'text', 0.6,
      'Test inputs with expected outputs, or assertions, visible in the code; empty if none.'],
    INPUTS, OUTPUTS, OPERATION, SYMBOLS, LITERALS,
    ['algorithm_idea', 'text', 0.8, 'The algorithmic idea in a few words (e.g. two pointers, dynamic programming).'],
    ['return_type', 'enum', 0.8, 'The kind of value returned.',
      ['integer', 'float', 'boolean', 'string', 'array', 'map', 'object', 'tensor', 'void']],
  ];
}
const TRANSLATION = translationRows([...LANGUAGES, 'other']);
const OCEAN = translationRows(OCEAN_LANGUAGES);

// prettier-ignore
const TEXT2SQL: readonly BandRow[] = [
  ['text_kind', 'enum', 0.5, 'What kind of text this is.',
    ['nl_question', 'sql_query', 'schema_ddl', 'table_description', 'explanation']],
  ['query_type', 'enum', 1.4, 'The kind of query asked for or written.',
    ['select', 'aggregate', 'join', 'nested_subquery', 'group_by', 'order_limit', 'set_operation', 'window_function',
      'insert', 'update', 'delete']],
  ['query_structure', 'text', 1.0,
    "The query's structure in one clause (e.g. 'join orders to customers, group by country, having count > 5')."],
  ['columns', 'multi_value_text', 1.3, 'The columns or attributes asked for or selected, separated by ";".'],
  ['schema_context', 'text', 0.6, "The database and tables in scope (e.g. 'flights database: airports, flights')."],
  ['question_intent', 'text', 2.0, 'What the question asks for, or what the query returns, in one plain sentence.'],
  ['filters', 'text', 1.0, 'The conditions that restrict the rows (WHERE / HAVING, or the question\'s constraints).'],
  ['source_tables', 'multi_value_text', 1.3, 'The tables read from, separated by ";".'],
  ['result_target', 'text', 1.1, 'What is returned: the projected columns or aggregate (e.g. count of students).'],
  ['join_relation', 'text', 0.8, "The relation joining entities (e.g. 'student enrolled_in course'); empty if none."],
  ['identifiers', 'multi_value_text', 2.0, 'Table, column and alias names exactly as written, separated by ";".'],
  ['values', 'multi_value_text', 0.9,
    'Literal values compared against: numbers, strings, dates, limits, separated by ";".'],
  ['query_reasoning', 'text', 0.5,
    'Why the join, grouping or subquery is needed, in one short sentence; empty if none.'],
  ['answer_type', 'enum', 0.9, 'The shape of the answer.',
    ['number', 'count', 'list', 'single_row', 'boolean', 'table', 'date', 'text']],
];

export const CODE_DOMAINS = [
  defineBuiltin({
    short: 'code',
    name: 'Code',
    description: 'Source code, code questions and documentation: task, language, symbols, inputs and outputs.',
    rows: CODE,
  }),
  defineBuiltin({
    short: 'cosqa',
    name: 'CoSQA code search',
    description: 'Web queries matched with Python functions: intent, data in and out, symbols and return kind.',
    rows: COSQA,
  }),
  defineBuiltin({
    short: 'codetrans',
    name: 'Code translation',
    description: 'Programs and their translations into another language: language-neutral behaviour and structure.',
    rows: TRANSLATION,
  }),
  defineBuiltin({
    short: 'codetransocean',
    name: 'CodeTransOcean',
    description: 'Translation across many languages, niche and legacy ones included, and between ML frameworks.',
    rows: OCEAN,
  }),
  defineBuiltin({
    short: 'codetransocean_hybrid',
    name: 'CodeTransOcean (hybrid)',
    description: 'CodeTransOcean with more weight on exact symbols and literals: for lexical plus semantic matching.',
    rows: reweighted(OCEAN, { symbols: 2.5, literals: 1.2, functionality: 1.6, language: 0.3 }),
  }),
  defineBuiltin({
    short: 'text2sql',
    name: 'Text to SQL',
    description: 'Questions over databases and SQL queries: tables, columns, filters, joins and the answer asked for.',
    rows: TEXT2SQL,
  }),
];
