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

/** POST /v1/document with `file` and `fields` through `app.inject`; asserts the 202 and returns the upload id. */
export async function uploadDocument(
  t: { app: { inject: (o: object) => Promise<{ statusCode: number; body: string; json: () => any }> }; key: string },
  file: { name: string; bytes: Uint8Array<ArrayBuffer> | string; type?: string },
  fields: Record<string, string> = {},
): Promise<string> {
  const { payload, contentType } = await multipart(file, fields);
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/document',
    headers: { 'x-api-key': t.key, 'content-type': contentType },
    payload,
  });
  if (res.statusCode !== 202) throw new Error(`upload answered ${res.statusCode}: ${res.body}`);
  return res.json().document_status.upload_id as string;
}
