import { createHash } from 'crypto';
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyModeTypeOptions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/** Ids are 12 letters and digits; the same ids appear in dashboard URLs. */
export const ID_PATTERN = '^[A-Za-z0-9]{12}$';

interface LocatorSpec {
	name: string;
	displayName: string;
	/** The record in words, for descriptions and errors: "QR code". */
	noun: string;
	searchListMethod: string;
	/** Dashboard path segment (`qr-codes`, `cards`) when the record has a dashboard URL. */
	dashboardSegment?: string;
}

/** A resource locator: from a searchable list, by ID, and (codes, cards) by dashboard URL. */
export function recordLocator(spec: LocatorSpec): INodeProperties {
	const idValidation = [
		{
			type: 'regex' as const,
			properties: {
				regex: ID_PATTERN,
				errorMessage: `A ${spec.noun} ID has 12 letters and digits`,
			},
		},
	];
	const urlRegex = `^https?://\\S+/${spec.dashboardSegment}/([A-Za-z0-9]{12})/?(?:[?#]\\S*)?$`;
	const every: Pick<INodeProperties, 'modes'> = {
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: {
					searchListMethod: spec.searchListMethod,
					searchable: true,
				} as INodePropertyModeTypeOptions,
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. a1B2c3D4e5F6',
				validation: idValidation,
			},
			{
				displayName: 'By URL',
				name: 'url',
				type: 'string',
				placeholder: `e.g. https://qr.example.com/${spec.dashboardSegment}/a1B2c3D4e5F6`,
				validation: [
					{
						type: 'regex',
						properties: {
							regex: urlRegex,
							errorMessage: `Paste the dashboard URL of the ${spec.noun}, ending in /${spec.dashboardSegment}/<ID>`,
						},
					},
				],
				extractValue: { type: 'regex', regex: urlRegex },
			},
		],
	};
	// Only codes and cards have a dashboard URL.
	const modes = spec.dashboardSegment ? every.modes : every.modes?.slice(0, 2);
	return {
		displayName: spec.displayName,
		name: spec.name,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description: `The ${spec.noun} to use`,
		modes,
	};
}

export const qrCodeLocator = recordLocator({
	name: 'qrCodeId',
	displayName: 'QR Code',
	noun: 'QR code',
	searchListMethod: 'searchQrCodes',
	dashboardSegment: 'qr-codes',
});

export const cardLocator = recordLocator({
	name: 'cardId',
	displayName: 'Card',
	noun: 'card',
	searchListMethod: 'searchCards',
	dashboardSegment: 'cards',
});

export const webhookEndpointLocator = recordLocator({
	name: 'webhookEndpointId',
	displayName: 'Webhook Endpoint',
	noun: 'webhook endpoint',
	searchListMethod: 'searchWebhookEndpoints',
});

/** The id from a resource locator, checked before any request (expressions bypass the UI check). */
export function getRecordId(ctx: IExecuteFunctions, parameter: string, itemIndex: number): string {
	const value = String(
		ctx.getNodeParameter(parameter, itemIndex, '', { extractValue: true }) ?? '',
	).trim();
	if (!new RegExp(ID_PATTERN).test(value)) {
		throw new NodeOperationError(
			ctx.getNode(),
			`Invalid ID "${value}" in item ${itemIndex}: an ID has 12 letters and digits`,
			{
				itemIndex,
				description:
					'Pick the record from the list, paste its 12-character ID, or paste its dashboard URL.',
			},
		);
	}
	return value;
}

/** Return All / Limit (default 50), the n8n way of listing. */
export const returnAllOrLimit: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 50,
		description: 'Max number of results to return',
		displayOptions: { show: { returnAll: [false] } },
	},
];

export function readLimit(ctx: IExecuteFunctions, itemIndex: number): number | undefined {
	return ctx.getNodeParameter('returnAll', itemIndex, false)
		? undefined
		: (ctx.getNodeParameter('limit', itemIndex, 50) as number);
}

export const toItems = (records: IDataObject | IDataObject[]): INodeExecutionData[] =>
	(Array.isArray(records) ? records : [records]).map((json) => ({ json }));

/** Single-record answers wrap the record in `data`. */
export const unwrap = (answer: IDataObject): IDataObject =>
	(answer.data as IDataObject | undefined) ?? answer;

export const simplifyProperty: INodeProperties = {
	displayName: 'Simplify',
	name: 'simplify',
	type: 'boolean',
	default: true,
	description: 'Whether to return a simplified version of the response instead of the raw data',
};

const SIMPLE_QR_CODE_FIELDS = [
	'id',
	'name',
	'type',
	'short_url',
	'destination',
	'status',
	'paused',
	'scans',
	'archived',
	'updated_at',
];

export function simplifyQrCode(
	ctx: IExecuteFunctions,
	itemIndex: number,
	record: IDataObject,
): IDataObject {
	if (!ctx.getNodeParameter('simplify', itemIndex, true)) return record;
	return Object.fromEntries(
		SIMPLE_QR_CODE_FIELDS.filter((field) => field in record).map((field) => [field, record[field]]),
	);
}

/** "2030-05-01" from a date picker value, an ISO string or a Luxon DateTime. */
export function toCalendarDate(value: unknown): string | undefined {
	const text = String(value ?? '').trim();
	if (!text) return undefined;
	const date = /^\d{4}-\d{2}-\d{2}/.exec(text);
	return date ? date[0] : new Date(text).toISOString().slice(0, 10);
}

/** A full ISO 8601 timestamp from a date picker value; rejects what is no date. */
export function toTimestamp(
	ctx: IExecuteFunctions,
	value: unknown,
	field: string,
	itemIndex: number,
): string | undefined {
	const text = String(value ?? '').trim();
	if (!text) return undefined;
	const time = Date.parse(text);
	if (Number.isNaN(time)) {
		throw new NodeOperationError(
			ctx.getNode(),
			`Invalid "${field}" in item ${itemIndex}: "${text}" is not a date`,
			{ itemIndex, description: 'Use an ISO 8601 date-time, e.g. 2030-05-01T18:00:00Z.' },
		);
	}
	return new Date(time).toISOString();
}

/**
 * The default Idempotency-Key: the same for every attempt at one item of one node run (so
 * n8n's Retry On Fail and the transport's retries replay instead of duplicating), and
 * different for every other item, run and execution.
 */
export function defaultIdempotencyKey(ctx: IExecuteFunctions, itemIndex: number): string {
	const runIndex = ctx.evaluateExpression('{{ $runIndex }}', itemIndex);
	const source = [
		ctx.getWorkflow().id,
		ctx.getExecutionId(),
		ctx.getNode().id,
		runIndex,
		itemIndex,
	].join(':');
	return `n8n-${createHash('sha256').update(source).digest('hex').slice(0, 40)}`;
}

export function parseJsonParameter(
	ctx: IExecuteFunctions,
	value: unknown,
	field: string,
	itemIndex: number,
): IDataObject {
	let parsed = value;
	if (typeof value === 'string') {
		try {
			parsed = JSON.parse(value || '{}');
		} catch (error) {
			throw new NodeOperationError(
				ctx.getNode(),
				`"${field}" in item ${itemIndex} is not valid JSON: ${(error as Error).message}`,
				{ itemIndex },
			);
		}
	}
	if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
		throw new NodeOperationError(
			ctx.getNode(),
			`"${field}" in item ${itemIndex} must be a JSON object`,
			{
				itemIndex,
			},
		);
	}
	return parsed as IDataObject;
}
