import { jsonParse, type INode } from 'n8n-workflow';

import type { BinaryAnswer } from '../request';
import { unreadableAnswerError } from './errors';
import { asObject, ownValue } from './records';

const begins = (file: Buffer, text: string, encoding: BufferEncoding = 'latin1') =>
	file.subarray(0, Buffer.byteLength(text, encoding)).equals(Buffer.from(text, encoding));
/** How a file of each format begins (an EPS as PostScript text, or with a DOS EPS header). */
const BEGINNINGS = new Map<string, (file: Buffer) => boolean>([
	['png', (file) => begins(file, '89504e470d0a1a0a', 'hex')],
	['pdf', (file) => begins(file, '%PDF-')],
	['eps', (file) => begins(file, '%!PS') || begins(file, 'c5d0d3c6', 'hex')],
	['svg', (file) => /<svg[\s>]/.test(file.subarray(0, 4096).toString('utf8'))],
]);

const FILE_FIELDS = ['image', 'file', 'content']; // reading "static-image-json": the file in base64

function fileInJson(answer: BinaryAnswer): Buffer | undefined {
	const body = asObject(jsonParse<unknown>(answer.data.toString('utf8'), { fallbackValue: null }));
	const text = [asObject(body?.data), body]
		.flatMap((holder) => FILE_FIELDS.map((field) => holder && ownValue(holder, field)))
		.find((value) => typeof value === 'string') as string | undefined;
	const base64 = text?.replace(/^data:[^,]*;base64,/, '');
	return base64 && /^[A-Za-z0-9+/_=-]+$/.test(base64) ? Buffer.from(base64, 'base64') : undefined;
}

/**
 * The file of `format` in an image answer: the answer itself, or (reading "static-image-json")
 * in base64 in a JSON answer. Anything else (reading "image-format-ignored": a PNG for an SVG)
 * ends the item naming what arrived, never a file with the wrong content.
 */
export function imageFile(node: INode, answer: BinaryAnswer, format: string, itemIndex: number) {
	const isFormat = BEGINNINGS.get(format) ?? (() => true);
	if (isFormat(answer.data)) return answer.data;
	const decoded = fileInJson(answer);
	if (decoded && isFormat(decoded)) return decoded;
	const name = format.toUpperCase();
	const start = answer.data.toString('latin1', 0, 48).replace(/[^\x20-\x7e]/g, '.');
	const arrived = `${answer.contentType}, ${answer.data.length} bytes beginning "${start}"`;
	const expected = `a ${name} file, or JSON holding it in base64 under ${FILE_FIELDS.join(', ')}`;
	throw unreadableAnswerError(node, [`the ${name} image`, arrived, expected], itemIndex);
}
