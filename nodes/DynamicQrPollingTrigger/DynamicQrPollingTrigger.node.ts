import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeExecutionData,
	INodePropertyOptions,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { apiRequestAllItems } from '../DynamicQr/transport';
import type { Cursor } from './cursor';
import { advance, cutoffMs } from './cursor';

type PollEvent = 'newLead' | 'newQrCode';

/** At most this many new QR codes per poll (100 pages); a warning says when older ones are skipped. */
const MAX_NEW_QR_CODES = 10000;

function cardIdOf(ctx: IPollFunctions): string {
	const cardId = String(ctx.getNodeParameter('cardId', '') ?? '').trim();
	if (!cardId) {
		throw new NodeOperationError(ctx.getNode(), 'No card is selected', {
			description: 'Choose the card whose new leads should start the workflow.',
		});
	}
	return cardId;
}

/** Leads of a card created after `afterMs` (all of them when undefined), newest first. */
async function fetchLeads(
	ctx: IPollFunctions,
	cardId: string,
	afterMs?: number,
): Promise<IDataObject[]> {
	const qs: IDataObject = {};
	if (afterMs !== undefined) qs.since = new Date(afterMs).toISOString();
	return await apiRequestAllItems(ctx, `/cards/${encodeURIComponent(cardId)}/leads`, qs);
}

/**
 * QR codes created after `afterMs` (all when undefined), newest first: reads the list (which is
 * newest first) until a page reaches an older code.
 */
async function fetchQrCodes(ctx: IPollFunctions, afterMs?: number): Promise<IDataObject[]> {
	const isOlder = (code: IDataObject) => {
		const at = Date.parse(String(code.created_at ?? ''));
		return afterMs !== undefined && Number.isFinite(at) && at <= afterMs;
	};
	const codes = await apiRequestAllItems(ctx, '/qr-codes', {}, MAX_NEW_QR_CODES, {
		isPast: isOlder,
	});
	if (codes.length >= MAX_NEW_QR_CODES) {
		ctx.logger.warn(
			`Dynamic QR Polling Trigger: more than ${MAX_NEW_QR_CODES} new QR codes since the last poll; the oldest of them are not emitted`,
		);
	}
	return codes;
}

/** The newest lead of the card, or the newest QR code of the workspace (both lists are newest first). */
async function fetchNewest(
	ctx: IPollFunctions,
	event: PollEvent,
	cardId: string,
): Promise<IDataObject | undefined> {
	const path = event === 'newLead' ? `/cards/${encodeURIComponent(cardId)}/leads` : '/qr-codes';
	return (await apiRequestAllItems(ctx, path, {}, 1))[0];
}

export class DynamicQrPollingTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Dynamic QR Polling Trigger',
		name: 'dynamicQrPollingTrigger',
		icon: {
			light: 'file:dynamicQrPollingTrigger.svg',
			dark: 'file:dynamicQrPollingTrigger.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		subtitle: '={{$parameter["event"] === "newLead" ? "New lead" : "New QR code"}}',
		description:
			'Starts the workflow on new leads of a card or new QR codes by asking the API on a schedule; for n8n instances the service cannot reach',
		defaults: {
			name: 'Dynamic QR Polling Trigger',
		},
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: 'dynamicQrApi',
				required: true,
			},
		],
		properties: [
			{
				displayName:
					'Use this node when the service cannot reach this n8n (localhost, private network). Otherwise the Dynamic QR Trigger starts the workflow at once and covers more events. Only records created after activation start the workflow.',
				name: 'pollingNotice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Trigger On',
				name: 'event',
				type: 'options',
				noDataExpression: true,
				options: [
					{
						name: 'New Lead on a Card',
						value: 'newLead',
						description: 'A visitor shared contact data on the chosen card',
					},
					{
						name: 'New QR Code',
						value: 'newQrCode',
						description: 'A QR code was created in the workspace',
					},
				],
				default: 'newLead',
			},
			{
				displayName: 'Card Name or ID',
				name: 'cardId',
				type: 'options',
				typeOptions: { loadOptionsMethod: 'getCards' },
				required: true,
				default: '',
				description:
					'The card whose new leads start the workflow. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
				displayOptions: {
					show: {
						event: ['newLead'],
					},
				},
			},
		],
	};

	methods = {
		loadOptions: {
			async getCards(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
				const cards = await apiRequestAllItems(this, '/cards');
				return cards.map((card) => ({
					name: String(card.name ?? card.short_url ?? card.id),
					value: String(card.id),
				}));
			},
		},
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const event: PollEvent =
			this.getNodeParameter('event', 'newLead') === 'newQrCode' ? 'newQrCode' : 'newLead';
		const cardId = event === 'newLead' ? cardIdOf(this) : '';
		const fetch = async (afterMs?: number) =>
			event === 'newLead'
				? await fetchLeads(this, cardId, afterMs)
				: await fetchQrCodes(this, afterMs);

		// Manual "Fetch Test Event": show the newest existing record (n8n's convention), and
		// leave the cursor of the active workflow alone.
		if (this.getMode() === 'manual') {
			const newest = await fetchNewest(this, event, cardId);
			if (!newest) {
				throw new NodeOperationError(
					this.getNode(),
					event === 'newLead' ? 'This card has no leads yet' : 'The workspace has no QR codes yet',
					{
						description:
							event === 'newLead'
								? 'Share a contact on the card page, then fetch a test event again.'
								: 'Create a QR code, then fetch a test event again.',
					},
				);
			}
			return [this.helpers.returnJsonArray([newest])];
		}

		const key = event === 'newLead' ? `newLead:${cardId}` : 'newQrCode';
		const staticData = this.getWorkflowStaticData('node');
		let cursor = staticData.cursor as Cursor | undefined;

		if (!cursor || cursor.key !== key || !Array.isArray(cursor.recent)) {
			// First poll after activation (or after the configuration changed): record what
			// exists as seen, emit nothing.
			cursor = { key, recent: [] };
			const newest = await fetchNewest(this, event, cardId);
			if (newest) {
				advance(cursor, [newest], Date.now());
				advance(cursor, await fetch(cutoffMs(cursor)), Date.now());
			}
			staticData.cursor = cursor;
			return null;
		}

		const fresh = advance(cursor, await fetch(cutoffMs(cursor)), Date.now());
		staticData.cursor = cursor;
		if (fresh.length === 0) return null;
		return [this.helpers.returnJsonArray(fresh)];
	}
}
