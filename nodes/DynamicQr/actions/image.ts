import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { imageFile, type BinaryAnswer } from '../api';
import { binaryFieldName, binaryFieldProperty } from './operationParameters';
import type { ParameterReader } from '../shared/parameters';

/** A Map, so that a format given as "constructor" is never found as one. */
const FORMATS = new Map([
	['png', { label: 'PNG', mimeType: 'image/png' }],
	['svg', { label: 'SVG', mimeType: 'image/svg+xml' }],
	['pdf', { label: 'PDF', mimeType: 'application/pdf' }],
	['eps', { label: 'EPS', mimeType: 'application/postscript' }],
]);

export const imageProperties: INodeProperties[] = [
	{
		displayName: 'Format',
		name: 'format',
		type: 'options',
		options: [...FORMATS].map(([value, { label }]) => ({ name: label, value })),
		default: 'png',
		description: 'File type of the image; SVG, PDF and EPS are vector formats for print',
		builderHint: { propertyHint: 'png for screens, email and chat; svg, pdf or eps for print.' },
	},
	{
		displayName: 'Size In',
		name: 'sizeUnit',
		type: 'options',
		options: [
			{ name: 'Pixels', value: 'pixels' },
			{ name: 'Millimetres at a DPI', value: 'mm', description: 'A physical size for print' },
		],
		default: 'pixels',
		builderHint: { propertyHint: 'pixels for screens; mm (with dpi) for a printed size.' },
	},
	{
		displayName: 'Size (Pixels)',
		name: 'size',
		type: 'number',
		typeOptions: { minValue: 64, maxValue: 4096 },
		default: 1024,
		description: 'Width and height of the image in pixels',
		displayOptions: { show: { sizeUnit: ['pixels'] } },
	},
	{
		displayName: 'Size (Mm)',
		name: 'mm',
		type: 'number',
		typeOptions: { minValue: 1, numberPrecision: 1 },
		default: 50,
		description: 'Printed width and height in millimetres',
		displayOptions: { show: { sizeUnit: ['mm'] } },
	},
	{
		displayName: 'DPI',
		name: 'dpi',
		type: 'number',
		typeOptions: { minValue: 72, maxValue: 2400 },
		default: 300,
		description: 'Print resolution in dots per inch',
		displayOptions: { show: { sizeUnit: ['mm'] } },
	},
	binaryFieldProperty(
		'Put Output File in Field',
		'The name of the output binary field to put the image in',
	),
];

/**
 * Format, size (as `query`) and the output's binary field, checked before the request; `items`
 * makes the output of the answer: `json` and the format, the image in its binary field.
 */
export function readImageRequest(parameters: ParameterReader) {
	const format = parameters.option('format');
	const size: IDataObject =
		parameters.option('sizeUnit') === 'mm'
			? { mm: parameters.number('mm'), dpi: parameters.number('dpi') }
			: { size: parameters.number('size') };
	const binaryField = binaryFieldName(parameters);
	return {
		query: { format, ...size },
		async items(ctx: IExecuteFunctions, image: BinaryAnswer, name: string, json: IDataObject) {
			const mimeType = FORMATS.get(format)?.mimeType ?? image.contentType;
			const file = imageFile(ctx.getNode(), image, format, parameters.itemIndex as number);
			const data = await ctx.helpers.prepareBinaryData(file, `${name}.${format}`, mimeType);
			return [{ json: { ...json, format }, binary: { [binaryField]: data } }];
		},
	};
}
