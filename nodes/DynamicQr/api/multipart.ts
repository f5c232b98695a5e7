import { randomBytes } from 'crypto';

/**
 * A multipart/form-data body with one file field, built as a Buffer so that a retried
 * request (after a 429 or a dropped connection) can send it again unchanged.
 */
export function multipartBody(
	field: string,
	fileName: string,
	contentType: string,
	data: Buffer,
): { body: Buffer; contentType: string } {
	const boundary = `----n8nDynamicQr${randomBytes(12).toString('hex')}`;
	const safeName = fileName.replace(/["\r\n]/g, '_');
	const head =
		`--${boundary}\r\n` +
		`Content-Disposition: form-data; name="${field}"; filename="${safeName}"\r\n` +
		`Content-Type: ${contentType}\r\n\r\n`;
	return {
		body: Buffer.concat([Buffer.from(head), data, Buffer.from(`\r\n--${boundary}--\r\n`)]),
		contentType: `multipart/form-data; boundary=${boundary}`,
	};
}
