import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

/**
 * Every way the trigger answers a delivery, in one place. A delivery is refused (401: not
 * verified), unreadable (400: signed, but no JSON event), not handled yet (503: what it needs
 * cannot be read now; the service sends it again), skipped (200, nothing started: a filter, a
 * repeat, a resync), or started.
 */
export type Outcome =
	| { kind: 'refused'; why: string }
	| { kind: 'unreadable' }
	| { kind: 'later'; why: string }
	| { kind: 'skipped'; reason: string }
	| {
			kind: 'started';
			item: IDataObject;
			/** Called when n8n has started the execution (it then reads the answer). */
			onStarted: () => void;
	  };

/** What the trigger's webhook() returns to n8n for an outcome. */
export function answer(ctx: IWebhookFunctions, outcome: Outcome): IWebhookResponseData {
	switch (outcome.kind) {
		case 'refused':
			// The reason goes to the debug log only: the sender learns nothing from the answer.
			ctx.logger.debug(`Dynamic QR Trigger: delivery refused: ${outcome.why}`);
			ctx
				.getResponseObject()
				.status(401)
				.json({ message: 'Webhook signature verification failed' });
			return { noWebhookResponse: true };
		case 'unreadable':
			ctx.logger.warn(
				'Dynamic QR Trigger: a correctly signed delivery had a body that is not a JSON object',
			);
			ctx.getResponseObject().status(400).json({ message: 'The body is not a JSON event' });
			return { noWebhookResponse: true };
		case 'later':
			ctx.logger.warn(
				`Dynamic QR Trigger: a delivery is left for the service to send again: ${outcome.why}`,
			);
			ctx
				.getResponseObject()
				.status(503)
				.json({ message: 'The delivery could not be handled now; send it again later' });
			return { noWebhookResponse: true };
		case 'skipped':
			return { webhookResponse: { received: true, started: false, reason: outcome.reason } };
		case 'started': {
			const { item, onStarted } = outcome;
			return {
				// A getter, because n8n 2.x reads the answer right after it has started the
				// execution and before it saves the static data: the moment the delivery counts as
				// started in the record that save writes.
				get webhookResponse() {
					onStarted();
					return { message: 'Workflow was started' };
				},
				workflowData: [[{ json: item }]],
			};
		}
	}
}
