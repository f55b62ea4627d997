/**
 * A small builder for ONNX graphs: add initializers and nodes, get back value names to wire
 * into later nodes, then `model()` the whole. Names are generated (`<prefix>/<op>_<n>`) so the
 * graph code reads like the computation it encodes.
 */
import { DataType, type OnnxAttribute, type OnnxModel, type OnnxNode, type OnnxTensor } from './onnx-proto.ts';

type Numeric = Float32Array | Int32Array | BigInt64Array;

function rawBytes(data: Numeric): Uint8Array {
  // Typed arrays are little-endian on every platform Node runs on, which is what raw_data wants.
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}

export class GraphBuilder {
  readonly nodes: OnnxNode[] = [];
  readonly initializers: OnnxTensor[] = [];
  private counter = 0;

  /** A float32 initializer of shape `dims`; returns its name. */
  floats(name: string, dims: number[], data: Float32Array | number[]): string {
    const values = data instanceof Float32Array ? data : Float32Array.from(data);
    this.checkSize(name, dims, values.length);
    this.initializers.push({ name, dims, dataType: DataType.FLOAT, raw: rawBytes(values) });
    return name;
  }

  /** An int64 initializer (shapes, axes, indices); returns its name. */
  int64s(name: string, dims: number[], data: number[]): string {
    this.checkSize(name, dims, data.length);
    const values = BigInt64Array.from(data.map((v) => BigInt(v)));
    this.initializers.push({ name, dims, dataType: DataType.INT64, raw: rawBytes(values) });
    return name;
  }

  /** Add a node with one output; returns the output's name. */
  op(op: string, inputs: string[], attributes?: Record<string, OnnxAttribute>, name?: string): string {
    return this.opN(op, inputs, 1, attributes, name)[0];
  }

  /** Add a node with `outputs` outputs; returns their names. */
  opN(
    op: string,
    inputs: string[],
    outputs: number,
    attributes?: Record<string, OnnxAttribute>,
    name?: string,
  ): string[] {
    const base = name ?? `${op}_${this.counter++}`;
    const outs = Array.from({ length: outputs }, (_, k) => (outputs === 1 ? base : `${base}:${k}`));
    this.nodes.push({ op, inputs, outputs: outs, name: base, attributes });
    return outs;
  }

  model(meta: Omit<OnnxModel, 'nodes' | 'initializers'>): OnnxModel {
    return { ...meta, nodes: this.nodes, initializers: this.initializers };
  }

  private checkSize(name: string, dims: number[], length: number): void {
    const expected = dims.reduce((a, b) => a * b, 1);
    if (expected !== length) throw new Error(`initializer ${name}: ${length} values for shape [${dims.join(', ')}]`);
  }
}
