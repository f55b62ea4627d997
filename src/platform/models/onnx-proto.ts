/**
 * Writing ONNX models: the part of the ONNX protobuf schema (onnx/onnx.proto, IR version 8)
 * that a graph of plain operators with float/int tensors needs, encoded with protobufjs.
 * Field numbers are the schema's; nothing here reads models, ONNX Runtime does that.
 */
import protobuf from 'protobufjs';

/** ONNX tensor element types we write (TensorProto.DataType). */
export const DataType = { FLOAT: 1, INT32: 6, INT64: 7, BOOL: 9 } as const;
export type DataTypeCode = (typeof DataType)[keyof typeof DataType];

/** AttributeProto.AttributeType values we write. */
const AttributeType = { FLOAT: 1, INT: 2, STRING: 3, TENSOR: 4, FLOATS: 6, INTS: 7 } as const;

/** A tensor (initializer or attribute value); data is stored little-endian in raw_data. */
export interface OnnxTensor {
  name: string;
  dims: number[];
  dataType: DataTypeCode;
  raw: Uint8Array;
  /**
   * Where the bytes are instead of raw_data: ONNX external data, a byte range of a file beside
   * the model (`location` is relative to the model's folder). Set by {@link externalizeWeights}.
   */
  external?: { location: string; offset: number; length: number };
}

/** An attribute value: a number is an INT unless `float` is set, arrays are INTS/FLOATS. */
export type OnnxAttribute =
  number | string | number[] | { float: number } | { floats: number[] } | { tensor: OnnxTensor };

export interface OnnxNode {
  op: string;
  inputs: string[];
  outputs: string[];
  name: string;
  attributes?: Record<string, OnnxAttribute>;
}

/** A graph input or output; a string dimension is symbolic (e.g. 'batch'). */
export interface OnnxValue {
  name: string;
  dataType: DataTypeCode;
  dims: (number | string)[];
}

export interface OnnxModel {
  name: string;
  opset: number;
  producer: string;
  docString?: string;
  nodes: OnnxNode[];
  initializers: OnnxTensor[];
  inputs: OnnxValue[];
  outputs: OnnxValue[];
  /** Free-form key/value metadata (ModelProto.metadata_props). */
  metadata?: Record<string, string>;
}

const schema = protobuf.Root.fromJSON({
  nested: {
    onnx: {
      nested: {
        StringStringEntryProto: { fields: { key: { type: 'string', id: 1 }, value: { type: 'string', id: 2 } } },
        OperatorSetIdProto: { fields: { domain: { type: 'string', id: 1 }, version: { type: 'int64', id: 2 } } },
        TensorProto: {
          fields: {
            dims: { rule: 'repeated', type: 'int64', id: 1 },
            dataType: { type: 'int32', id: 2 },
            name: { type: 'string', id: 8 },
            rawData: { type: 'bytes', id: 9 },
            externalData: { rule: 'repeated', type: 'StringStringEntryProto', id: 13 },
            dataLocation: { type: 'int32', id: 14 },
          },
        },
        AttributeProto: {
          fields: {
            name: { type: 'string', id: 1 },
            f: { type: 'float', id: 2 },
            i: { type: 'int64', id: 3 },
            s: { type: 'bytes', id: 4 },
            t: { type: 'TensorProto', id: 5 },
            floats: { rule: 'repeated', type: 'float', id: 7 },
            ints: { rule: 'repeated', type: 'int64', id: 8 },
            type: { type: 'int32', id: 20 },
          },
        },
        NodeProto: {
          fields: {
            input: { rule: 'repeated', type: 'string', id: 1 },
            output: { rule: 'repeated', type: 'string', id: 2 },
            name: { type: 'string', id: 3 },
            opType: { type: 'string', id: 4 },
            attribute: { rule: 'repeated', type: 'AttributeProto', id: 5 },
            domain: { type: 'string', id: 7 },
          },
        },
        Dimension: { fields: { dimValue: { type: 'int64', id: 1 }, dimParam: { type: 'string', id: 2 } } },
        TensorShapeProto: { fields: { dim: { rule: 'repeated', type: 'Dimension', id: 1 } } },
        TensorTypeProto: {
          fields: { elemType: { type: 'int32', id: 1 }, shape: { type: 'TensorShapeProto', id: 2 } },
        },
        TypeProto: { fields: { tensorType: { type: 'TensorTypeProto', id: 1 } } },
        ValueInfoProto: { fields: { name: { type: 'string', id: 1 }, type: { type: 'TypeProto', id: 2 } } },
        GraphProto: {
          fields: {
            node: { rule: 'repeated', type: 'NodeProto', id: 1 },
            name: { type: 'string', id: 2 },
            initializer: { rule: 'repeated', type: 'TensorProto', id: 5 },
            docString: { type: 'string', id: 10 },
            input: { rule: 'repeated', type: 'ValueInfoProto', id: 11 },
            output: { rule: 'repeated', type: 'ValueInfoProto', id: 12 },
          },
        },
        ModelProto: {
          fields: {
            irVersion: { type: 'int64', id: 1 },
            producerName: { type: 'string', id: 2 },
            producerVersion: { type: 'string', id: 3 },
            docString: { type: 'string', id: 6 },
            graph: { type: 'GraphProto', id: 7 },
            opsetImport: { rule: 'repeated', type: 'OperatorSetIdProto', id: 8 },
            metadataProps: { rule: 'repeated', type: 'StringStringEntryProto', id: 14 },
          },
        },
      },
    },
  },
});
const ModelProto = schema.lookupType('onnx.ModelProto');

/** IR version 8 (ONNX 1.10+) covers opsets up to 17, which every maintained runtime loads. */
const IR_VERSION = 8;

/** TensorProto.DataLocation.EXTERNAL. */
const EXTERNAL = 1;

function tensorMessage(t: OnnxTensor) {
  if (!t.external) return { name: t.name, dims: t.dims, dataType: t.dataType, rawData: t.raw };
  const { location, offset, length } = t.external;
  return {
    name: t.name,
    dims: t.dims,
    dataType: t.dataType,
    dataLocation: EXTERNAL,
    externalData: [
      { key: 'location', value: location },
      { key: 'offset', value: String(offset) },
      { key: 'length', value: String(length) },
    ],
  };
}

/**
 * Move the model's initializers of at least `minBytes` into one external data file named
 * `location` (returned as bytes, each tensor at an offset aligned to 64 KB, the largest
 * allocation granularity ONNX Runtime maps files by). ONNX Runtime then reads those weights
 * from the file into their final buffers, instead of parsing them out of a protobuf it holds
 * whole: measured with USE lite, a session costs ~16 MB less resident memory, because the
 * freed copy of the 28 MB model no longer raises glibc's mmap threshold and strands later
 * allocations in the heap (docs/retrieval.md, "Footprint"). Outputs are identical.
 */
export function externalizeWeights(
  model: OnnxModel,
  location: string,
  minBytes = 4096,
): { model: OnnxModel; data: Uint8Array } {
  const ALIGN = 65536;
  const parts: Uint8Array[] = [];
  let offset = 0;
  const initializers = model.initializers.map((t) => {
    if (t.raw.byteLength < minBytes) return t;
    const pad = (ALIGN - (offset % ALIGN)) % ALIGN;
    if (pad) parts.push(new Uint8Array(pad));
    offset += pad;
    const external = { location, offset, length: t.raw.byteLength };
    parts.push(t.raw);
    offset += t.raw.byteLength;
    return { ...t, external };
  });
  return { model: { ...model, initializers }, data: Buffer.concat(parts) };
}

function attributeMessage(name: string, value: OnnxAttribute) {
  if (typeof value === 'number') return { name, type: AttributeType.INT, i: value };
  if (typeof value === 'string') return { name, type: AttributeType.STRING, s: Buffer.from(value, 'utf8') };
  if (Array.isArray(value)) return { name, type: AttributeType.INTS, ints: value };
  if ('float' in value) return { name, type: AttributeType.FLOAT, f: value.float };
  if ('floats' in value) return { name, type: AttributeType.FLOATS, floats: value.floats };
  return { name, type: AttributeType.TENSOR, t: tensorMessage(value.tensor) };
}

function valueMessage(v: OnnxValue) {
  const dim = v.dims.map((d) => (typeof d === 'number' ? { dimValue: d } : { dimParam: d }));
  return { name: v.name, type: { tensorType: { elemType: v.dataType, shape: { dim } } } };
}

/** Serialise a model to the bytes of an .onnx file. */
export function encodeModel(model: OnnxModel): Uint8Array {
  const message = ModelProto.fromObject({
    irVersion: IR_VERSION,
    producerName: model.producer,
    producerVersion: '1',
    docString: model.docString ?? '',
    opsetImport: [{ domain: '', version: model.opset }],
    metadataProps: Object.entries(model.metadata ?? {}).map(([key, value]) => ({ key, value })),
    graph: {
      name: model.name,
      node: model.nodes.map((n) => ({
        name: n.name,
        opType: n.op,
        input: n.inputs,
        output: n.outputs,
        attribute: Object.entries(n.attributes ?? {}).map(([k, v]) => attributeMessage(k, v)),
      })),
      initializer: model.initializers.map(tensorMessage),
      input: model.inputs.map(valueMessage),
      output: model.outputs.map(valueMessage),
    },
  });
  return ModelProto.encode(message).finish();
}
