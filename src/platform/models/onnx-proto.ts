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

function tensorMessage(t: OnnxTensor) {
  return { name: t.name, dims: t.dims, dataType: t.dataType, rawData: t.raw };
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
