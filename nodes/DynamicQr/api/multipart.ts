import { randomBytes } from 'crypto';

import { isControl } from './headerText';

/** A MIME type as a header holds it: type/subtype tokens only. */
const MIME_TYPE = /^[A-Za-z0-9!#$&^_.+-]+\/[A-Za-z0-9!#$&^_.+-]+$/;

/** One file as multipart/form-data, a Buffer a retry can resend; no name can add a header line. */
export function multipartBody(field: string, fileName: string, contentType: string, data: Buffer) {
	if (!MIME_TYPE.test(contentType))
		throw new Error(`Not a MIME type for a multipart part: ${JSON.stringify(contentType)}`);
	const boundary = `----n8nDynamicQr${randomBytes(12).toString('hex')}`;
	const unsafe = (char: string) => isControl(char) || char === '"' || char === '\\';
	const safeName = [...fileName].map((char) => (unsafe(char) ? '_' : char)).join('');
	const head =
		`--${boundary}\r\n` +
		`Content-Disposition: form-data; name="${field}"; filename="${safeName}"\r\n` +
		`Content-Type: ${contentType}\r\n\r\n`;
	return {
		body: Buffer.concat([Buffer.from(head), data, Buffer.from(`\r\n--${boundary}--\r\n`)]),
		contentType: `multipart/form-data; boundary=${boundary}`,
	};
}
