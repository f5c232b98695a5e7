import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

/**
 * Every way the trigger answers a delivery. A delivery is refused (401: not verified), unreadable
 * (400: signed, but no JSON event), not handled yet (503: what it needs cannot be read now; the
 * service sends it again), skipped (200, nothing started: a filter, a repeat, a resync), or started.
 */
export type Outcome =
	| { kind: 'refused'; why: string }
	| { kind: 'unreadable' }
	| { kind: 'later'; why: string }
	| { kind: 'skipped'; reason: string }
	| { kind: 'started'; item: IDataObject; onStarted: () => void };

const SENT_BY_NODE = {
	refused: [401, 'Webhook signature verification failed'],
	unreadable: [400, 'The body is not a JSON event'],
	later: [503, 'The delivery could not be handled now; send it again later'],
} as const;

export function answer(ctx: IWebhookFunctions, outcome: Outcome): IWebhookResponseData {
	switch (outcome.kind) {
		case 'skipped':
			return { webhookResponse: { received: true, started: false, reason: outcome.reason } };
		case 'started':
			return {
				// A getter: n8n 2.x reads the answer once it has started the execution, before it
				// saves the static data (docs/n8n-behaviours.md, 5).
				get webhookResponse() {
					outcome.onStarted();
					return { message: 'Workflow was started' };
				},
				workflowData: [[{ json: outcome.item }]],
			};
		case 'refused':
			// The reason goes to the debug log only: the sender learns nothing from the answer.
			ctx.logger.debug(`Dynamic QR Trigger: delivery refused: ${outcome.why}`);
			break;
		case 'unreadable':
			ctx.logger.warn(
				'Dynamic QR Trigger: a correctly signed delivery had a body that is not a JSON object',
			);
			break;
		case 'later':
			ctx.logger.warn(
				`Dynamic QR Trigger: a delivery is left for the service to send again: ${outcome.why}`,
			);
	}
	const [status, message] = SENT_BY_NODE[outcome.kind];
	ctx.getResponseObject().status(status).json({ message });
	return { noWebhookResponse: true };
}
