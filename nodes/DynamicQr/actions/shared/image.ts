import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { BinaryAnswer } from '../../api';

/** Image format and size options shared by Download Image and Generate. */
const FORMATS: Record<string, { label: string; mimeType: string }> = {
	png: { label: 'PNG', mimeType: 'image/png' },
	svg: { label: 'SVG', mimeType: 'image/svg+xml' },
	pdf: { label: 'PDF', mimeType: 'application/pdf' },
	eps: { label: 'EPS', mimeType: 'application/postscript' },
};

export const imageProperties: INodeProperties[] = [
	{
		displayName: 'Format',
		name: 'format',
		type: 'options',
		options: Object.entries(FORMATS).map(([value, { label }]) => ({ name: label, value })),
		default: 'png',
		description: 'File type of the image; SVG, PDF and EPS are vector formats for print',
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
	{
		displayName: 'Put Output File in Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		required: true,
		hint: 'The name of the output binary field to put the image in',
	},
];

export interface ImageRequest {
	format: string;
	size: IDataObject;
}

export function readImageRequest(ctx: IExecuteFunctions, itemIndex: number): ImageRequest {
	const format = ctx.getNodeParameter('format', itemIndex) as string;
	if (!FORMATS[format]) {
		throw new NodeOperationError(
			ctx.getNode(),
			`Unknown image format "${format}" in item ${itemIndex}`,
			{
				itemIndex,
				description: `Use one of: ${Object.keys(FORMATS).join(', ')}.`,
			},
		);
	}
	const size =
		ctx.getNodeParameter('sizeUnit', itemIndex) === 'mm'
			? {
					mm: ctx.getNodeParameter('mm', itemIndex) as number,
					dpi: ctx.getNodeParameter('dpi', itemIndex) as number,
				}
			: { size: ctx.getNodeParameter('size', itemIndex) as number };
	return { format, size };
}

/** The binary field of the output item: the image with its MIME type and file name. */
export async function toBinary(
	ctx: IExecuteFunctions,
	itemIndex: number,
	image: BinaryAnswer,
	format: string,
	baseName: string,
) {
	const propertyName = ctx.getNodeParameter('binaryPropertyName', itemIndex, 'data') as string;
	const mimeType = FORMATS[format]?.mimeType ?? image.contentType;
	const data = await ctx.helpers.prepareBinaryData(image.data, `${baseName}.${format}`, mimeType);
	return { [propertyName]: data };
}
