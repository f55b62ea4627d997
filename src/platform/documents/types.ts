/**
 * The shapes of the document layer: what a parser returns, how it fails, and the OCR port.
 * The documents module sees these through `index.ts` only.
 */

export type DocumentFormat = 'pdf' | 'docx' | 'html' | 'markdown' | 'text' | 'image';

/** One unit of text in reading order. */
export interface Block {
  kind: 'heading' | 'paragraph';
  /** 1..6, headings only (1 is the outermost). */
  level?: number;
  text: string;
  /** 1-based; 1 for non-paged formats. */
  page: number;
}

export interface ParsedDocument {
  format: DocumentFormat;
  /** 1 for non-paged formats. */
  totalPages: number;
  /** Reading order. */
  blocks: Block[];
  /** Pages whose text could not be read, e.g. a scanned page while OCR is disabled ('ocr_disabled'). */
  skippedPages: { page: number; reason: string }[];
  /** Pages whose text came from OCR. */
  ocrPages: number[];
  title?: string;
}

export type ParseFailure = 'encrypted' | 'corrupt' | 'too_many_pages' | 'empty';

/** A document that cannot be parsed, with a reason the caller can map to an error code. */
export class DocumentParseError extends Error {
  readonly reason: ParseFailure;
  constructor(reason: ParseFailure, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'DocumentParseError';
    this.reason = reason;
  }
}

/** Optical character recognition of one image. */
export interface Ocr {
  /** Names the engine and its data, e.g. 'tesseract-eng-4.0.0_best_int'. */
  readonly id: string;
  /**
   * Recognize one image: PNG or JPEG bytes (scanned PDF pages are rendered to PNG). Image
   * uploads in WebP or TIFF are passed as they are; the tesseract adapter reads both.
   */
  recognize(image: Uint8Array, signal?: AbortSignal): Promise<{ text: string; confidence: number }>;
  close(): Promise<void>;
}

export interface ParseOptions {
  /** null = OCR disabled: scanned pages and images are listed in skippedPages, never silently dropped. */
  ocr: Ocr | null;
  /** More pages → DocumentParseError('too_many_pages'), before any page is read. */
  maxPages: number;
  /** Checked between pages; an abort throws `signal.reason`. */
  signal?: AbortSignal;
  /** Progress, called after each page. */
  onPage?: (done: number, total: number) => void;
}

export interface DocumentChunk {
  /** 0.. in order. */
  index: number;
  text: string;
  pageStart: number;
  pageEnd: number;
  /** Heading path, outermost first. */
  section: string[];
}
