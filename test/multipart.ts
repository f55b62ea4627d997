/** A multipart/form-data body as a browser or the official client sends it (the platform's FormData). */
export async function multipart(
  file: { name: string; bytes: Uint8Array<ArrayBuffer> | string; type?: string } | null,
  fields: Record<string, string> = {},
) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  if (file) form.append('file', new Blob([file.bytes], { type: file.type ?? 'application/octet-stream' }), file.name);
  const res = new Response(form);
  return { payload: Buffer.from(await res.arrayBuffer()), contentType: res.headers.get('content-type')! };
}
